#!/bin/sh
# checkpoint_cost.sh NEW_BIN_DIR BASE_BIN_DIR [RUNS]: checkpoint durations of
# one job (2 writers, 4,000 rows/s, 200 ms checkpoints, 40,000 rows) under
# two builds, side by side, RUNS times each (default 2): mean, median and
# p90 of the coordinator's "Completed checkpoint N … (B bytes, X ms)" lines.
# Made to weigh the committer's pin before each ack (issue 22): e.g.
#   git worktree add /tmp/old 766a344 && cmake -S /tmp/old -B /tmp/old/build \
#     && cmake --build /tmp/old/build --target zsink-cli zsink-coordinator zsink-writer zsink-committer
#   bench/checkpoint_cost.sh build/bin /tmp/old/build/bin
set -e
NEW=$1 BASE=$2 RUNS=${3:-2}
[ -x "$NEW/zsink" ] && [ -x "$BASE/zsink" ] || { echo "usage: $0 NEW_BIN_DIR BASE_BIN_DIR [RUNS]" >&2; exit 2; }
W=$(mktemp -d /tmp/zsink-checkpoint-cost.XXXXXX)
one () { # BIN TAG
    d=$W/$2
    rm -rf "$d" && mkdir -p "$d"
    "$1/zsink" cluster -Dparallelism=2 -Dexecution.checkpointing.interval=200ms \
        -Ddatagen.rows-per-second=4000 -Ddatagen.number-of-rows=40000 \
        -Dtable.path="$d/table" -Dstate.checkpoints.dir="$d/chk" >"$d/log" 2>&1 ||
        { echo "$2: the job failed, see $d/log" >&2; exit 1; }
    grep -o 'Completed checkpoint [0-9]* for job [^ ]* ([0-9]* bytes, [0-9]* ms)' "$d/log" |
        sed 's/.*, \([0-9]*\) ms)/\1/' | sort -n |
        awk -v t="$2" '{ a[NR] = $1; s += $1 }
            END { printf "%-6s %3d checkpoints  mean %5.2f ms  median %d ms  p90 %d ms\n", t, NR, s / NR, a[int((NR + 1) / 2)], a[int(NR * 0.9 + 0.5)] }'
}
for i in $(seq "$RUNS"); do
    one "$BASE" base
    one "$NEW" new
done
rm -rf "$W"
