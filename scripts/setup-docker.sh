#!/bin/sh
# setup-docker.sh - what the deploy test (tests/deploy/t_deploy.sh) needs: a
# docker engine, compose and debootstrap. Installs the missing ones from
# Debian (docker.io, docker-compose, debootstrap) and starts dockerd when no
# engine answers. Run as root; .ci/run calls it. `make test` does not: it
# would install and start a system daemon, so without docker the deploy
# test is skipped with a message instead.
set -e
[ "$(id -u)" = 0 ] || { echo "setup-docker: run as root" >&2; exit 1; }
DOCKER=docker
[ -x /usr/bin/docker ] && DOCKER=/usr/bin/docker

# By command, not by package: an engine or compose installed some other way
# (docker-ce, Compose v2) serves as well.
missing=""
command -v dockerd >/dev/null || missing="$missing docker.io"
if ! command -v docker-compose >/dev/null && ! docker compose version >/dev/null 2>&1; then
    missing="$missing docker-compose"
fi
command -v debootstrap >/dev/null || missing="$missing debootstrap"
if [ -n "$missing" ]; then
    echo "setup-docker: installing$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    [ -x /usr/bin/docker ] && DOCKER=/usr/bin/docker
fi

if "$DOCKER" info >/dev/null 2>&1; then
    exit 0
fi
LOG=${ZSINK_DOCKERD_LOG:-/var/log/zsink-dockerd.log}
echo "setup-docker: starting dockerd (log $LOG)"
# Its own session: it outlives this script and the CI step's process group.
setsid dockerd >"$LOG" 2>&1 </dev/null &
end=$(($(date +%s) + 60))
until "$DOCKER" info >/dev/null 2>&1; do
    if [ "$(date +%s)" -ge "$end" ]; then
        echo "setup-docker: dockerd did not answer within 60 s; its log:" >&2
        tail -n 30 "$LOG" >&2
        exit 1
    fi
    sleep 0.5
done
echo "setup-docker: docker engine $("$DOCKER" version -f '{{.Server.Version}}') up"
