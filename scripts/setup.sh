#!/bin/sh
# Install the Debian packages zsink needs to build and test, only when one is
# missing. Called by `make demo` and `make test`; safe to run again.
set -e
PKGS="build-essential cmake pkg-config libzmq3-dev libczmq-dev libprotobuf-c-dev \
protobuf-c-compiler uuid-dev libjansson-dev libyaml-dev libcmocka-dev python3 procps"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
if [ -n "$(echo $missing)" ]; then
    echo "setup: installing$missing"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
