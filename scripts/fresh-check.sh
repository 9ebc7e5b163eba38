#!/bin/sh
# Run the README's two commands, `make demo` then `make test`, on a machine
# with nothing installed: a container of deploy/build-base-image's Debian 12
# minbase (which has zsink's runtime libraries and nothing to build with),
# plus `make`. A package installed by hand on the development machine hides
# a missing install step; this does not. By hand, ~15 min on 2 cores.
#
#   scripts/fresh-check.sh [--demo-only]
#
# The container is not privileged, so the tests that need root powers
# (network namespaces, tmpfs mounts) and the deploy test skip. If this
# machine reaches the internet through a TLS-inspecting proxy, its CAs are
# trusted in the container as well (below).
set -eu
cd "$(dirname "$0")/.."
IMAGE=${ZSINK_BASE_IMAGE:-zsink-base:bookworm}
docker image inspect "$IMAGE" >/dev/null 2>&1 || deploy/build-base-image
src=$(mktemp -d /tmp/zsink-fresh.XXXXXX)
trap 'rm -rf "$src"' EXIT
# what a clone would hold: the tracked files, nothing built
git ls-files | tar -cf - -T - | tar -xf - -C "$src"
steps='make demo && make test'
[ "${1:-}" = --demo-only ] && steps='make demo'
set -- -v "$src:/src"
# The package clients fetch as this machine configures them: if it reaches
# the internet through a TLS-inspecting proxy, the CAs it added
# (/usr/local/share/ca-certificates) are added in the container too, before
# anything is fetched, so that apt's ca-certificates puts them in the
# system bundle (curl, Go, pip through PIP_CERT, npm through
# NODE_EXTRA_CA_CERTS) and ca-certificates-java in Java's (Maven).
pre="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make >/dev/null"
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    set -- "$@" -v /usr/local/share/ca-certificates:/usr/local/share/ca-certificates:ro \
        -e PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
        -e NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
    pre="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make ca-certificates >/dev/null && update-ca-certificates >/dev/null"
fi
docker run --rm "$@" "$IMAGE" sh -c "$pre && cd /src && $steps"
