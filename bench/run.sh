#!/bin/bash
# zsink benchmark: throughput, checkpoint duration and commit latency of the
# real cluster, side by side with a no-coordination baseline, in one run.
#
#   bench/run.sh [SECONDS]      (default 10 s of measurement per case)
#   bench/run.sh SECONDS --curve   only the cost of CURVE: 1 writer, 1 s
#                                  checkpoints, without, with, with and
#                                  without CURVE authentication
#                                  (docs/security.md)
#
# For 1 and 2 writers, an unbounded datagen at full speed
# (datagen.rows-per-second: 0):
#   - rows/s written by the writers with 1 s checkpoints and with
#     checkpointing off (from `zsink status` rows_read, over the window);
#   - rows/s committed with 1 s checkpoints (table total over the window);
#   - checkpoint duration p50/p99 (the coordinator's "Completed checkpoint N
#     … (B bytes, D ms)");
#   - commit latency p50/p99: "Completed checkpoint N" → the committer's
#     "Successfully commit snapshot … with identifier N" (snapshot durable);
#   - baseline: zsink-bench-baseline, the same rows through the same data
#     file writer with no coordination, 1 and 2 processes;
#   - commit cost against table size: zsink-bench-commit, 3,000 commits;
#   - Parquet encoding per writer (none, zstd) against raw text rows:
#     zsink-bench-parquet, 1,000,000 rows;
#   - DuckDB's time to count a 1,000,000-row table the cluster wrote, and
#     the time DuckDB, pypaimon and Paimon Java take to read it whole.
set -eu
cd "$(dirname "$0")/.."
SECS=${1:-10}
CURVE_ONLY=${2:-}
BIN=${ZSINK_BIN:-build/bin} # another build: ZSINK_BIN=DIR/bin
WORK=$(mktemp -d /tmp/zsink-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

now_ms() { date +%s%3N; }

status_field() { # endpoint-yaml field
    $BIN/zsink status -c "$1" --json 2>/dev/null |
        python3 -c "import json,sys; print(json.load(sys.stdin)['$2'])" 2>/dev/null || echo 0
}

table_rows() {
    $BIN/zsink table snapshots "$1" --json 2>/dev/null |
        python3 -c "import json,sys; s=json.load(sys.stdin); print(s[-1]['total_record_count'] if s else 0)" 2>/dev/null || echo 0
}

wait_log() { # file pattern deadline-seconds
    local end=$(( $(date +%s) + $3 ))
    until grep -q "$2" "$1" 2>/dev/null; do
        [ "$(date +%s)" -lt "$end" ] || { echo "bench: timed out waiting for '$2' in $1" >&2; tail -20 "$1" >&2; exit 1; }
        sleep 0.1
    done
}

run_case() { # parallelism interval [curve]
    local p=$1 ival=$2 dir="$WORK/p$1-$2${3:+-curve}"
    mkdir -p "$dir"
    cat > "$dir/job.yaml" <<YAML
parallelism: $p
execution.checkpointing.interval: $ival
datagen.rows-per-second: 0
table.path: $dir/table
state.checkpoints.dir: $dir/chk
YAML
    if [ -n "${3:-}" ]; then
        $BIN/zsink keys generate "$WORK/keys" --writers "$p" > /dev/null
        printf 'security.curve.enabled: true\nsecurity.curve.keys-dir: %s\n' "$WORK/keys" >> "$dir/job.yaml"
    fi
    $BIN/zsink cluster -c "$dir/job.yaml" > "$dir/log" 2>&1 &
    local pid=$!
    wait_log "$dir/log" "to RUNNING" 30
    # one second of warm-up, measured by the clock, not slept through blindly
    local warm=$(( $(now_ms) + 1000 ))
    while [ "$(now_ms)" -lt "$warm" ]; do sleep 0.05; done
    local t0 r0 c0 t1 r1 c1
    t0=$(now_ms); r0=$(status_field "$dir/job.yaml" rows_read); c0=$(table_rows "$dir/table")
    local end=$(( t0 + SECS * 1000 ))
    while [ "$(now_ms)" -lt "$end" ]; do sleep 0.1; done
    t1=$(now_ms); r1=$(status_field "$dir/job.yaml" rows_read); c1=$(table_rows "$dir/table")
    kill -TERM $pid; wait $pid || true
    python3 - "$dir/log" "$p" "$ival" "$t0" "$t1" "$r0" "$r1" "$c0" "$c1" "${3:+ curve}" <<'PY'
import re, sys, datetime
log, p, ival, t0, t1, r0, r1, c0, c1, curve = sys.argv[1:]
secs = (int(t1) - int(t0)) / 1000.0
def ts(line):
    m = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})", line)
    return datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp() if m else None
dur, done, lat = [], {}, []
for line in open(log, errors="replace"):
    m = re.search(r"Completed checkpoint (\d+) for job \S+ \(\d+ bytes, (\d+) ms\)", line)
    if m:
        dur.append(int(m.group(2))); done[m.group(1)] = ts(line)
    m = re.search(r"Successfully commit snapshot \d+ .* with identifier (\d+) ", line)
    if m and m.group(1) in done:
        lat.append((ts(line) - done[m.group(1)]) * 1000)
def pct(xs, q):
    if not xs: return "-"
    xs = sorted(xs); return "%.0f" % xs[min(len(xs) - 1, int(q * len(xs)))]
w = (int(r1) - int(r0)) / secs
c = (int(c1) - int(c0)) / secs
print("%-8s %-10s %14.0f %14s %12s %12s %12s %12s" % (p, ival + curve, w, "%.0f" % c if ival != "0" else "-",
      pct(dur, .5), pct(dur, .99), pct(lat, .5), pct(lat, .99)))
PY
}

echo "zsink benchmark, $(nproc) cores, ${SECS}s per case, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
printf "%-8s %-10s %14s %14s %12s %12s %12s %12s\n" writers checkpoint "written rows/s" "committed/s" \
    "ckpt p50 ms" "ckpt p99 ms" "commit p50" "commit p99"
if [ "$CURVE_ONLY" = --curve ]; then
    # A B B A: the second case of a pair meets the write-back of the
    # first's files, so each side gets a turn at going first
    run_case 1 1s
    run_case 1 1s curve
    run_case 1 1s curve
    run_case 1 1s
    exit 0
fi
for p in 1 2; do
    for ival in 1s 0; do run_case $p $ival; done
done
echo
echo "baseline: same rows, same data file writer, no coordination"
for p in 1 2; do
    for i in $(seq 0 $((p - 1))); do
        $BIN/zsink-bench-baseline "$WORK/base$p" "$SECS" $i $p > "$WORK/base$p-$i.out" &
    done
    wait
    total=$(cat "$WORK"/base$p-*.out | python3 -c "import sys; print(round(sum(float(l.split('rows_per_second=')[1]) for l in sys.stdin)))")
    printf "%-8s %-10s %14s\n" $p "-" "$total"
done

echo
echo "commit cost as the table grows (zsink-bench-commit, 1 file per commit)"
$BIN/zsink-bench-commit "$WORK/commits" 3000 500

echo
echo "encoding one writer's rows (zsink-bench-parquet, 1,000,000 rows; MB/s of the rows as text)"
$BIN/zsink-bench-parquet "$WORK/encode" 1000000

echo
echo "DuckDB counting a 1,000,000-row table written by 2 writers (best of 3)"
dir="$WORK/million"
mkdir -p "$dir"
cat > "$dir/job.yaml" <<YAML
parallelism: 2
execution.checkpointing.interval: 1s
datagen.rows-per-second: 0
datagen.number-of-rows: 1000000
parquet.row-group-rows: 50000
target-file-size: 2mb
table.path: $dir/table
state.checkpoints.dir: $dir/chk
YAML
$BIN/zsink cluster -c "$dir/job.yaml" > "$dir/log" 2>&1
node tests/duckdb/oracle.mjs layout --zsink $BIN/zsink --table "$dir/table"

echo
echo "reading that table whole: DuckDB, pypaimon, Paimon Java (first read and best of 3, ms)"
# Paimon's readers from scripts/setup-interop.sh (make test installs them);
# ZSINK_INTEROP=DIR for another build's
INTEROP=${ZSINK_INTEROP:-build/interop}
if sh scripts/setup-interop.sh --check "$(dirname "$INTEROP")" >/dev/null 2>&1; then
    node tests/duckdb/oracle.mjs read-time --zsink $BIN/zsink --table "$dir/table"
    "$INTEROP/venv/bin/python" tests/interop/paimon_py.py read-time "$dir/table"
    java @"$INTEROP/java/java.args" ZsinkInterop read-time "$dir/table" 2>/dev/null
else
    echo "  skipped: $(sh scripts/setup-interop.sh --check "$(dirname "$INTEROP")" 2>&1) "
fi
