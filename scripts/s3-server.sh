#!/bin/sh
# s3-server.sh - a SeaweedFS S3 server for the tests (ctest label s3),
# on 127.0.0.1 only, its state in one directory.
#
#   s3-server.sh start DIR [PORT]   start it (S3 on PORT, else a free port);
#                                   prints the endpoint, http://127.0.0.1:PORT
#   s3-server.sh stop DIR           TERM, KILL after 5 s; waits for the exit
#   s3-server.sh kill9 DIR          kill -9 (a crash); waits for the exit
#   s3-server.sh restart DIR        start again: same ports, same data
#
# The binary: env ZSINK_WEED, else BUILD/s3/weed of the source tree's
# default build directory (build/). scripts/setup-s3.sh BUILD_DIR builds it.
#
# DIR gets: data/ (everything the server stores), s3.json (its one
# identity), log, pid, ports (the ten ports it listens on, for restart),
# endpoint (http://127.0.0.1:PORT) and env (sh lines: export AWS_ENDPOINT_URL,
# AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION). Nothing else is
# created: no bucket. The credentials are fixed test values (zsinktestkey /
# zsinktestsecret), with Admin, Read, Write, List and Tagging.
#
# `weed mini` runs master, volume server, filer, S3 gateway and an idle
# admin server in one process (`weed server` would do too, but its filer
# holds back for 10 s at every start to look for peers, and until then
# every conditional PUT waits; mini knows it is alone). Options and why:
#   -ip / -ip.bind 127.0.0.1, every port explicit (gRPC ports too: by
#     default they are the HTTP port + 10000; the admin's legacy port, the
#     Iceberg and Lance ports, WebDAV and the admin UI off), telemetry off,
#     -logtostderr (else glog also writes files into /tmp): nothing leaves
#     the machine or DIR, two servers run side by side;
#   -master.volumeSizeLimitMB=64: small volumes, made on demand (an idle
#     server is about 150-200 MB resident);
#   -master.electionTimeout=1s: a restarted master resumes its raft state
#     and waits one election timeout (10 s by default) to lead again;
#   WEED_MASTER_VOLUME_GROWTH_ALLOCATION_DEFERRAL=0s: a fresh master holds
#     the first volume allocation ~5 s (a guard for clusters that lost
#     their master's state; this one has no other volume servers);
#   -volume.preStopSeconds=0: TERM stops the volume server at once;
#   -s3.autoCreateBucket=false: a PUT into a missing bucket is NoSuchBucket,
#     as on AWS, rather than creating it;
#   -s3.domainName=localhost: virtual-host style works too, the bucket
#     as a subdomain of localhost (curl takes *.localhost for the loopback).
# Ready means: a signed ListBuckets answers 200; the master knows as many
# volumes as there are on disk (after a restart a GET of an object on an
# unreported volume is a 500); the master's warm-up after a restart is over
# (15 s, hard-coded, in which every PUT waits); the S3 gateway has the
# filer's lock ring (conditional PUTs wait for it; only the log says). All
# polled, 60 s deadline.
# kill -9 and restart keep everything that was answered 200: the volume
# files and the filer's leveldb are written to the OS before the answer
# (checked: tests/s3/kill9_restart.sh kills it -9 amid PUTs).
#
# What this server (SeaweedFS 4.53, the version setup-s3.sh pins) enforces,
# measured with curl against it:
#   PutObject If-None-Match: *     yes: 412 PreconditionFailed when the key
#                                  exists; 30 racing PUTs -> one 200, 29 412
#   PutObject If-Match: ETAG       yes: 412 for a stale ETag, 200 for the
#                                  current one, 404 NoSuchKey when absent
#   CompleteMultipartUpload
#     If-None-Match: *             yes: 412 when the key exists (the upload
#                                  stays open and can be aborted)
#   ListMultipartUploads           yes (open uploads, by prefix)
#   multipart part size            every part but the last >= 5 MiB, as AWS
#                                  (else CompleteMultipartUpload: 400
#                                  EntityTooSmall; the upload stays open)
#   ranged GET                     yes: 206 with Content-Range; a start past
#                                  the end is 416 InvalidRange
#   keys with "/./" or "/../"      refused (400 InvalidRequest), unlike AWS
#   start                          ready in about 4.5 s (fresh DIR)
#   restart after kill -9          ready in about 15.5 s (the warm-up)
#   stop                           TERM is enough (< 1 s)
set -e
CMD=$1
DIR=$2
[ -n "$CMD" ] && [ -n "$DIR" ] || {
    echo "usage: $0 start|stop|kill9|restart DIR [PORT]" >&2
    exit 2
}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WEED=${ZSINK_WEED:-$ROOT/build/s3/weed}
KEY=zsinktestkey
SECRET=zsinktestsecret
REGION=us-east-1

SERVER=s3-server NPORTS=10
server_mark () { printf '%s\n' "-dir=$DIR/data"; }
. "$(dirname "$0")/server-lib.sh"

launch () {
    set -- $(cat "$DIR/ports")
    wait_ports_free
    mkdir -p "$DIR/data"
    sock="-filer.localSocket=$DIR/filer.sock -s3.localSocket=$DIR/s3.sock"
    [ ${#DIR} -lt 90 ] || sock="" # a unix socket's path has room for ~100 bytes
    echo "--- start $(date -u +%FT%TZ)" >>"$DIR/log"
    # shellcheck disable=SC2086
    WEED_MASTER_VOLUME_GROWTH_ALLOCATION_DEFERRAL=0s "$WEED" -logtostderr mini -ip=127.0.0.1 -ip.bind=127.0.0.1 \
        -dir="$DIR/data" -master.port="$2" -master.port.grpc="$3" -master.telemetry=false \
        -master.electionTimeout=1s -master.volumeSizeLimitMB=64 \
        -volume.port="$4" -volume.port.grpc="$5" -volume.preStopSeconds=0 \
        -filer.port="$6" -filer.port.grpc="$7" \
        -s3.port="$1" -s3.port.grpc="$8" -s3.port.iceberg=0 -s3.port.lance=0 \
        -s3.config="$DIR/s3.json" -s3.autoCreateBucket=false -s3.domainName=localhost $sock \
        -admin.ui=false -admin.port="$9" -admin.port.grpc="${10}" -admin.port.legacy=0 \
        -webdav=false \
        </dev/null >>"$DIR/log" 2>&1 &
    echo $! >"$DIR/pid"
    endpoint=http://127.0.0.1:$1
    t0=$(date +%s)
    end=$((t0 + 60))
    while :; do
        code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
            --aws-sigv4 "aws:amz:$REGION:s3" --user "$KEY:$SECRET" "$endpoint/" || true)
        [ "$code" = 200 ] && break
        alive || { tail -20 "$DIR/log" >&2; return 3; } # a port taken since pick_ports?
        [ "$(date +%s)" -lt "$end" ] || {
            tail -20 "$DIR/log" >&2
            kill -9 "$(cat "$DIR/pid")" 2>/dev/null || true
            die "not ready after 60 s (last answer: $code; log: $DIR/log)"
        }
        sleep 0.05
    done
    # After a restart the volumes come back when the volume server has
    # told the master of them: until then a GET of an object stored there
    # is a 500. Wait for the master to know as many as there are on disk.
    want=$(ls "$DIR/data" | grep -c '\.dat$' || true)
    while :; do
        have=$(curl -s --max-time 2 "http://127.0.0.1:$2/dir/status" |
            grep -o '"Volumes":[0-9]*' | cut -d: -f2 | awk '{n += $1} END {print n + 0}')
        [ "$have" -ge "$want" ] && break
        alive || { tail -20 "$DIR/log" >&2; die "weed exited while starting (log: $DIR/log)"; }
        [ "$(date +%s)" -lt "$end" ] || {
            kill -9 "$(cat "$DIR/pid")" 2>/dev/null || true
            die "the master knows $have of the $want volumes on disk after 60 s (log: $DIR/log)"
        }
        sleep 0.05
    done
    # After a restart the master holds every volume assignment for 15 s
    # (three heartbeat pulses of 5 s, hard-coded) while volume servers
    # report: a PUT waits that out. A lookup of a volume that does not
    # exist is 503 during that time.
    while [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \
        "http://127.0.0.1:$2/dir/lookup?volumeId=4294967295")" = 503 ]; do
        [ "$(date +%s)" -lt "$end" ] || die "the master is still warming up after 60 s"
        sleep 0.1
    done
    # A conditional PUT takes the object's lock on the filer's lock ring;
    # until the S3 gateway has heard of the ring it waits (a second or so
    # after the first answer). No API tells, the log does.
    while ! awk '/^--- start/ { seen = 0 } /LockRing: s3@.* received ring update/ { seen = 1 }
            END { exit !seen }' "$DIR/log"; do
        alive || { tail -20 "$DIR/log" >&2; die "weed exited while starting (log: $DIR/log)"; }
        [ "$(date +%s)" -lt "$end" ] || {
            kill -9 "$(cat "$DIR/pid")" 2>/dev/null || true
            die "the S3 gateway has no lock ring after 60 s (log: $DIR/log)"
        }
        sleep 0.05
    done
    echo "$endpoint" >"$DIR/endpoint"
    cat >"$DIR/env" <<EOF
export AWS_ENDPOINT_URL=$endpoint
export AWS_ACCESS_KEY_ID=$KEY
export AWS_SECRET_ACCESS_KEY=$SECRET
export AWS_REGION=$REGION
EOF
    echo "$endpoint"
}

case $CMD in
start)
    [ -x "$WEED" ] || die "no SeaweedFS binary at $WEED (build it: sh scripts/setup-s3.sh BUILD_DIR, and set ZSINK_WEED=BUILD_DIR/s3/weed)"
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    ! alive || die "already running (pid $(cat "$DIR/pid"), $DIR)"
    if [ -n "$3" ]; then
        port_free "$3" || die "port $3 is taken"
    fi
    cat >"$DIR/s3.json" <<EOF
{"identities": [{"name": "zsink-test",
  "credentials": [{"accessKey": "$KEY", "secretKey": "$SECRET"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
EOF
    # another server may take one of the ports between pick and bind:
    # then the next try picks others (a given PORT is kept)
    for try in 1 2 3; do
        pick_ports "$3" >"$DIR/ports"
        launch && exit 0
        echo "s3-server: weed exited while starting (try $try of 3; log: $DIR/log)" >&2
    done
    die "weed does not start (log: $DIR/log)"
    ;;
restart)
    [ -x "$WEED" ] || die "no SeaweedFS binary at $WEED"
    DIR=$(cd "$DIR" && pwd)
    [ -f "$DIR/ports" ] || die "$DIR was never started (no ports file)"
    ! alive || die "still running (pid $(cat "$DIR/pid")): stop or kill9 it first"
    launch || die "weed exited while starting (log: $DIR/log)"
    ;;
stop)
    [ -f "$DIR/pid" ] || exit 0
    if alive; then
        kill -TERM "$(cat "$DIR/pid")" 2>/dev/null || true
        wait_gone 5 || { kill -KILL "$(cat "$DIR/pid")" 2>/dev/null || true; wait_gone 10; } ||
            die "pid $(cat "$DIR/pid") does not exit"
    fi
    ;;
kill9)
    alive || die "not running ($DIR)"
    kill -KILL "$(cat "$DIR/pid")"
    wait_gone 10 || die "pid $(cat "$DIR/pid") does not exit after kill -9"
    ;;
*)
    die "unknown command '$CMD' (start, stop, kill9, restart)"
    ;;
esac
