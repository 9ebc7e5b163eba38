#!/bin/bash
# soak.sh - repeated trials of a bounded job with kill -9 of random roles at
# random moments, each checked by the exact oracle. Not part of `make test`
# (the reliability issue brings the full chaos runner); run it by hand:
#
#   tests/chaos/soak.sh [BUILD_DIR] [SECONDS] [SEED]
#
# Per trial: parallelism 1-3, checkpoint interval 250 ms-1 s, 20,000 rows at
# 5,000 rows/s, 1-3 kills among coordinator, committer and a writer. A
# failed trial keeps its directory under $SOAK_DIR and prints its seed line.
set -u
BUILD=$(cd "${1:-build}" && pwd)
SECONDS_TO_RUN=${2:-600}
SEED=${3:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
RANDOM=$SEED
B=$BUILD/bin
ORACLE=$(cd "$(dirname "$0")/../integration" && pwd)/oracle.py
SOAK_DIR=${SOAK_DIR:-/tmp/zsink-soak}
echo "soak: seed $SEED, $SECONDS_TO_RUN s, trials under $SOAK_DIR"
trial=0 fails=0 kills_total=0
end=$(($(date +%s) + SECONDS_TO_RUN))

endpoint () { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2" 2>/dev/null; }

while [ "$(date +%s)" -lt $end ]; do
    trial=$((trial + 1))
    d=$SOAK_DIR/t$trial
    rm -rf "$d" && mkdir -p "$d"
    p=$((RANDOM % 3 + 1)) n=20000 ival=$(((RANDOM % 4 + 1) * 250))
    cat >"$d/job.yaml" <<YAML
parallelism: $p
execution.checkpointing.interval: ${ival}ms
restart-strategy.fixed-delay.attempts: 50
restart-strategy.fixed-delay.delay: 200ms
heartbeat.timeout: 3s
datagen.rows-per-second: 5000
datagen.number-of-rows: $n
table.path: $d/table
state.checkpoints.dir: $d/chk
YAML
    jid=soak-$SEED-$trial
    "$B/zsink" cluster -c "$d/job.yaml" --job-id "$jid" >"$d/log" 2>&1 &
    cp=$!
    kills=$((RANDOM % 3 + 1))
    for _ in $(seq $kills); do
        sleep "0.$((RANDOM % 9 + 1))$((RANDOM % 10))"
        ep=$(endpoint "$d/chk/cluster.json" committer)
        case $((RANDOM % 3)) in
        0) role=coordinator pid=$(pgrep -f "zsink-coordinator .*--job-id $jid\$" | head -1) ;;
        1) role=committer pid=$(pgrep -f "zsink-committer .*--bind $ep\$" | head -1) ;;
        *) w=$((RANDOM % p)) role=writer-$w
           pid=$(pgrep -f "zsink-writer .*--committer $ep --index $w\$" | head -1) ;;
        esac
        if [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; then
            echo "kill -9 $role (pid $pid)" >>"$d/kills"
            kills_total=$((kills_total + 1))
        fi
    done
    # a trial that hangs is a failure too
    ( sleep 120; kill -9 $cp 2>/dev/null ) & wd=$!
    wait $cp; rc=$?
    kill $wd 2>/dev/null
    if [ $rc -eq 0 ] && out=$(python3 "$ORACLE" --zsink "$B/zsink" --table "$d/table" \
        --expect $n --log "$d/log" 2>&1); then
        echo "trial $trial ok: p=$p interval=${ival}ms $(tr '\n' ';' <"$d/kills" 2>/dev/null)"
        rm -rf "$d"
    else
        fails=$((fails + 1))
        echo "trial $trial FAILED (exit $rc, seed $SEED): p=$p interval=${ival}ms: $out"
        cat "$d/kills" 2>/dev/null
    fi
done
echo "soak: $trial trials, $kills_total kills, $fails failed (seed $SEED)"
[ $fails -eq 0 ]
