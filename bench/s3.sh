#!/bin/sh
# bench/s3.sh [ROWS] [RUNS] - a zsink job with its table and checkpoints on
# S3 (SeaweedFS on loopback, scripts/s3-server.sh) against the same job on
# the local disk, side by side (issue 23).
#
#   make build && sh scripts/setup-s3.sh build && bench/s3.sh 50000000 3
#
# The job: datagen at full speed, ROWS rows (default 50,000,000), 1 s
# checkpoints, parallelism 1 and 2, everything else the defaults; table and
# checkpoints both on s3://bench/... or both in a local directory; RUNS runs
# of each case (default 3), the cases taking turns. Prints min / median /
# max over the runs of:
#   rows/s end to end    ROWS / (first log line of any role -> the
#                        coordinator's "switched ... to FINISHED")
#   rows/s checkpoints   rows the writers put into checkpoints 2..K (their
#                        "Barrier N: ... R rows") over trigger(1) ->
#                        trigger(K), K the last one triggered while RUNNING
#                        (steady state: no start-up, no end of input)
# and, pooled over the runs of a case (every checkpoint of every run):
#   commit p50/p99       the coordinator's "Completed checkpoint N" -> the
#                        committer's "Successfully commit snapshot ... with
#                        identifier N" (docs/performance.md's definition)
#   ckpt p50/p99         the coordinator's "(B bytes, X ms)": trigger ->
#                        chk-N durable (the writers' files closed, uploaded)
# Then one more S3 run per parallelism through tests/tools/s3proxy.py (no
# fault rules: it forwards and logs every request and its body sizes):
# requests and bytes per checkpoint in steady state (completed(1) ->
# completed(K), divided by K - 1), by what they are; and the requests made
# between "Completed checkpoint N" and "identifier N" (the commit's window)
# that are not data-file transfers. The proxy costs time (Python, one new
# server connection a request): its runs give counts, not speeds.
# Last, recovery, RUNS times: a paced job (2 writers, 20,000 rows/s) on S3;
# after its 3rd snapshot the server is killed -9 and restarted at once
# (s3-server.sh kill9, restart); printed: the restart command's time until
# the server is ready (SeaweedFS holds PUTs ~15 s after a restart, by
# design), and restart command -> the first snapshot committed after it.
# The job is then canceled and its table checked: rows = distinct ids.
#
# Whole bench: ~7 min with the defaults on 2 cores (10 on a busy machine). Needs build/bin (or
# ZSINK_BIN) and the SeaweedFS binary (ZSINK_WEED, else build/s3/weed).
set -eu
ROWS=${1:-50000000}
RUNS=${2:-3}
case $ROWS$RUNS in *[!0-9]*) echo "usage: $0 [ROWS] [RUNS]" >&2; exit 2 ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${ZSINK_BIN:-$ROOT/build/bin}
export ZSINK_WEED=${ZSINK_WEED:-$ROOT/build/s3/weed}
PROXY=$ROOT/tests/tools/s3proxy.py
[ -x "$BIN/zsink" ] || { echo "s3.sh: no $BIN/zsink (make build)" >&2; exit 2; }
[ -x "$ZSINK_WEED" ] || { echo "s3.sh: no SeaweedFS at $ZSINK_WEED (sh scripts/setup-s3.sh build)" >&2; exit 2; }
W=$(mktemp -d /tmp/zsink-bench-s3.XXXXXX)
S3=$W/s3
PX=$W/proxy
export TZ=UTC # zsink's log lines and the proxy's are compared
CLUSTER=

cleanup () {
    [ -z "$CLUSTER" ] || kill -9 "$CLUSTER" 2>/dev/null || true
    [ ! -f "$PX/pid" ] || kill "$(cat "$PX/pid")" 2>/dev/null || true
    sh "$ROOT/scripts/s3-server.sh" stop "$S3" >/dev/null 2>&1 || true
    # the stored objects are GBs; the logs stay for a look
    rm -rf "$S3/data" "$W/local"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sh "$ROOT/scripts/s3-server.sh" start "$S3" >/dev/null
. "$S3/env"
s3curl () {
    printf 'user = "%s:%s"\n' "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" |
        curl -sS --max-time 30 --aws-sigv4 "aws:amz:$AWS_REGION:s3" -K - "$@"
}
[ "$(s3curl -o /dev/null -w '%{http_code}' -X PUT "$AWS_ENDPOINT_URL/bench")" = 200 ] ||
    { echo "s3.sh: cannot create bucket 'bench' ($S3/log)" >&2; exit 1; }
mkdir -p "$W/logs"

# job WHERE P TAG [-D...]: one bounded job, its log at $W/logs/TAG.log
job () {
    where=$1 p=$2 tag=$3
    shift 3
    if [ "$where" = s3 ]; then
        root=s3://bench/$tag
    else
        root=$W/local/$tag
        mkdir -p "$root"
    fi
    "$BIN/zsink" cluster -Dparallelism="$p" -Dexecution.checkpointing.interval=1s \
        -Ddatagen.rows-per-second=0 -Ddatagen.number-of-rows="$ROWS" \
        -Dtable.path="$root/table" -Dstate.checkpoints.dir="$root/chk" "$@" \
        >"$W/logs/$tag.log" 2>&1 || { echo "s3.sh: job $tag failed: $W/logs/$tag.log" >&2; exit 1; }
    [ "$where" = s3 ] || rm -rf "$root"
}

echo "zsink on S3 (SeaweedFS on loopback) vs local disk: $ROWS rows, $RUNS runs a case, $(nproc) cores, $(date -u +%FT%H:%MZ), ${ZSINK_BIN:+binaries $ZSINK_BIN, }$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
for p in 1 2; do
    for r in $(seq "$RUNS"); do
        job local "$p" "local-p$p-$r"
        job s3 "$p" "s3-p$p-$r"
    done
done

# the proxy's runs: zsink's endpoint is the proxy (AWS_ENDPOINT_URL is its
# endpoint's fallback); the proxy's upstream the server
mkdir -p "$PX"
: >"$PX/control"
python3 "$PROXY" --listen 127.0.0.1:0 --upstream "$AWS_ENDPOINT_URL" --port-file "$PX/port" \
    --control-file "$PX/control" --log "$PX/log" </dev/null >"$PX/stderr" 2>&1 &
echo $! >"$PX/pid"
end=$(($(date +%s) + 15))
until [ -s "$PX/port" ]; do
    [ "$(date +%s)" -lt "$end" ] || { echo "s3.sh: the proxy did not start ($PX/stderr)" >&2; exit 1; }
    sleep 0.05
done
for p in 1 2; do
    n0=$(wc -l <"$PX/log")
    AWS_ENDPOINT_URL=http://127.0.0.1:$(cat "$PX/port") job s3 "$p" "proxy-p$p"
    tail -n +$((n0 + 1)) "$PX/log" >"$W/logs/proxy-p$p.requests"
done
kill "$(cat "$PX/pid")" && rm -f "$PX/pid"

# recovery: kill -9 and restart the server under a running job
for r in $(seq "$RUNS"); do
    log=$W/logs/recover-$r.log
    : >"$log"
    "$BIN/zsink" cluster -Dparallelism=2 -Dexecution.checkpointing.interval=1s \
        -Ddatagen.rows-per-second=20000 -Dtable.path="s3://bench/recover-$r/table" \
        -Dstate.checkpoints.dir="s3://bench/recover-$r/chk" >"$log" 2>&1 &
    CLUSTER=$!
    end=$(($(date +%s) + 60))
    until grep -q 'Successfully commit snapshot 3 ' "$log"; do
        [ "$(date +%s)" -lt "$end" ] || { echo "s3.sh: no 3rd snapshot in 60 s: $log" >&2; exit 1; }
        sleep 0.05
    done
    sh "$ROOT/scripts/s3-server.sh" kill9 "$S3"
    # commits before the restart (none can be made while the server is down)
    n=$(grep -c 'Successfully commit snapshot' "$log" || true)
    t0=$(date +%s%3N)
    sh "$ROOT/scripts/s3-server.sh" restart "$S3" >/dev/null
    t1=$(date +%s%3N)
    end=$(($(date +%s) + 180))
    until [ "$(grep -c 'Successfully commit snapshot' "$log" || true)" -gt "$n" ]; do
        [ "$(date +%s)" -lt "$end" ] || { echo "s3.sh: no snapshot 180 s after the restart: $log" >&2; exit 1; }
        sleep 0.05
    done
    echo "$t0 $t1 $n" >"$W/logs/recover-$r.times"
    kill -TERM "$CLUSTER"
    wait "$CLUSTER" || { echo "s3.sh: the canceled job exited $?: $log" >&2; exit 1; }
    CLUSTER=
    "$BIN/zsink" table stats "s3://bench/recover-$r/table" >"$W/logs/recover-$r.stats"
    awk '/^count/ {c = $2} /^distinct_ids/ {d = $2} END {exit !(c > 0 && c == d)}' "$W/logs/recover-$r.stats" ||
        { echo "s3.sh: rows are not exactly once after the restart: $W/logs/recover-$r.stats" >&2; exit 1; }
done

python3 "$ROOT/bench/s3_report.py" "$W/logs" "$ROWS" "$RUNS"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min)"
echo "logs: $W/logs"
