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
# machine reaches the internet through a TLS-inspecting proxy, its CA bundle
# is handed to npm (NODE_EXTRA_CA_CERTS).
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
ca=/etc/ssl/certs/ca-certificates.crt
[ -f "$ca" ] && set -- "$@" -v "$ca:/etc/host-ca.crt:ro" -e NODE_EXTRA_CA_CERTS=/etc/host-ca.crt
docker run --rm "$@" "$IMAGE" sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make >/dev/null \
        && cd /src && $steps"
