#!/bin/sh
# Install what zsink needs to build and test, only when something is missing.
# Called by `make demo` and `make test`; safe to run again.
#   scripts/setup.sh          Debian packages to build and run
#   scripts/setup.sh --test   … and to test: cmocka, Node.js + npm, and DuckDB
#                             for Node (npm registry) in tests/duckdb
set -e
PKGS="build-essential cmake pkg-config libzmq3-dev libczmq-dev libprotobuf-c-dev \
protobuf-c-compiler uuid-dev libjansson-dev libyaml-dev libzstd-dev zlib1g-dev python3 procps \
libcurl4-openssl-dev libxml2-dev librdkafka-dev"
# tests: cmocka; clang (libFuzzer targets); spin (the protocol model);
# iproute2 and iptables (network namespaces and faults, t_partition_*);
# python3-zmq (an outside peer on the cluster's sockets, t_outside_peer);
# clang-format (the house style, style.clang-format); curl (scrapes the
# Prometheus endpoints, t_metrics); chromium (renders zsink timeline's SVG
# headless, t_timeline)
[ "$1" = --test ] && PKGS="$PKGS libcmocka-dev clang spin iproute2 iptables python3-zmq \
clang-format curl chromium"
# Node.js may come from elsewhere (nodesource bundles npm): the commands
# count, not the package names.
if [ "$1" = --test ] && ! { command -v node && command -v npm; } >/dev/null 2>&1; then
    PKGS="$PKGS nodejs npm"
fi
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing="$missing $p"
done
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
if [ -n "$(echo $missing)" ]; then
    echo "setup: installing$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
if [ "$1" = --test ]; then
    # DuckDB is the tests' independent Parquet reader. The lock file pins the
    # version; once installed it works offline.
    here=$(cd "$(dirname "$0")/.." && pwd)
    if [ ! -d "$here/tests/duckdb/node_modules/@duckdb/node-api" ]; then
        echo "setup: npm ci in tests/duckdb (@duckdb/node-api)"
        (cd "$here/tests/duckdb" && npm ci --no-audit --no-fund --loglevel=error)
    fi
fi
