#!/bin/sh
# bench/long_job.sh - a streaming job that runs for a while, with the
# table's upkeep on (compaction, snapshot expiration): are its costs flat?
#
#   bench/long_job.sh [MINUTES] [DIR]      (default 30, a fresh temp dir)
#
# Runs `zsink cluster` with 2 writers, 10,000 rows/s of datagen, 100 ms
# checkpoints and snapshot.time-retained 1min for MINUTES, then prints:
# checkpoints completed, commit latency (checkpoint complete -> its APPEND
# snapshot, from the two roles' log lines) of the first and the last 1,000
# commits, compactions and their rewrite time, files in the latest snapshot,
# bytes under manifest/ and snapshot/, RSS of every role (sampled each
# minute: at five of them and its highest), live files and commit latency
# minute by minute, the time pypaimon takes to read the whole table after
# the first minute and at the end (when build/interop has it), and that the
# table holds every row exactly once.
#
# The job's shape, from the environment (defaults as above):
#   LJ_PARALLELISM=2 LJ_ROWS=10000 LJ_INTERVAL=100ms LJ_TARGET=128mb
# e.g. the README's first example's rate, 1 s checkpoints, a 64 KB
# target-file-size (issue 27):
#   LJ_PARALLELISM=1 LJ_ROWS=20 LJ_INTERVAL=1s LJ_TARGET=64kb bench/long_job.sh 30
set -eu
MIN=${1:-30}
DIR=${2:-$(mktemp -d /tmp/zsink-long-job-XXXXXX)}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/build/bin
PY=$ROOT/build/interop/venv/bin/python
mkdir -p "$DIR"
cat >"$DIR/job.yaml" <<EOF
parallelism: ${LJ_PARALLELISM:-2}
execution.checkpointing.interval: ${LJ_INTERVAL:-100ms}
datagen.rows-per-second: ${LJ_ROWS:-10000}
target-file-size: ${LJ_TARGET:-128mb}
table.path: $DIR/table
state.checkpoints.dir: $DIR/chk
snapshot.time-retained: 1min
EOF

live() { # the live files of the latest snapshot
    "$BIN/zsink" table files "$DIR/table" 2>/dev/null | grep -c parquet || true
}
read_time() { # FILE: pypaimon plans and reads the whole table (a JSON line)
    if [ -x "$PY" ]; then
        "$PY" "$ROOT/tests/interop/paimon_py.py" read-time --repeat 3 "$DIR/table" >"$1" 2>&1 ||
            echo "{\"error\": \"pypaimon failed, see $1\"}" >>"$1"
    fi
}

rss() { # ROLE-LABEL-FILE: VmRSS of each child of the cluster
    for p in $(pgrep -P "$CLUSTER"); do
        printf '%s %s\n' "$(cat /proc/"$p"/comm)" "$(awk '/VmRSS/ {print $2}' /proc/"$p"/status)"
    done >"$1"
}

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "long job: $MIN min in $DIR, $(date -u +%FT%TZ), commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null), load $(load)"
sed 's/^/  /' "$DIR/job.yaml"
"$BIN/zsink" cluster -c "$DIR/job.yaml" --run-for "${MIN}m" >"$DIR/log" 2>&1 &
CLUSTER=$!
m=0
while [ $m -lt $((MIN - 1)) ]; do # every role's RSS each minute
    sleep 60
    m=$((m + 1))
    rss "$DIR/rss-$m"
    echo "$m $(live)" >>"$DIR/live"
    if [ $m -eq 1 ]; then read_time "$DIR/read-start"; fi
done
wait "$CLUSTER" || { echo "the job failed: $DIR/log" >&2; exit 1; }
echo "$MIN $(live)" >>"$DIR/live"
echo "job over $(date -u +%FT%TZ), load $(load)"
read_time "$DIR/read-end"

python3 - "$DIR" "$MIN" <<'EOF'
import re, sys, datetime, os
d, minutes = sys.argv[1], sys.argv[2]
ts = lambda s: datetime.datetime.strptime(s, "%Y-%m-%d %H:%M:%S.%f").timestamp()
done, made, rewrite = {}, {}, []
for line in open(d + "/log"):
    m = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) .*Completed checkpoint (\d+) ", line)
    if m:
        done[int(m.group(2))] = ts(m.group(1))
    m = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) .*with identifier (\d+) and kind APPEND", line)
    if m:
        made[int(m.group(2))] = ts(m.group(1))
    m = re.search(r"Compacted (\d+) files .*\(rewrite (\d+) ms\)", line)
    if m:
        rewrite.append(int(m.group(2)))
ids = sorted(i for i in made if i in done)
lat = [1000 * (made[i] - done[i]) for i in ids]
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else float("nan")
print(f"checkpoints completed  {len(done)} in {minutes} min ({len(done) / (60 * float(minutes)):.1f}/s)")
for name, xs in (("first 1000", lat[:1000]), ("last 1000", lat[-1000:])):
    print(f"commit latency {name:10s} p50 {pct(xs, .5):.1f} ms  p99 {pct(xs, .99):.1f} ms")
print(f"compactions            {len(rewrite)}, rewrite p50 {pct(rewrite, .5)} ms, max {max(rewrite or [0])} ms")
def du(sub):
    p = os.path.join(d, "table", sub)
    return sum(os.path.getsize(os.path.join(p, f)) for f in os.listdir(p)), len(os.listdir(p))
for sub in ("manifest", "snapshot", "bucket-0"):
    b, n = du(sub)
    print(f"{sub + '/':12s}           {b / 1e6:.2f} MB in {n} files")
# minute by minute: live files at its end, commits in it, their latency
t0 = min(done.values()) if done else 0
by_min = {}
for i in ids:
    by_min.setdefault(int((done[i] - t0) // 60) + 1, []).append(1000 * (made[i] - done[i]))
live = dict(map(int, l.split()) for l in open(d + "/live")) if os.path.exists(d + "/live") else {}
print(f"commit latency all     p50 {pct(lat, .5):.1f} ms  p99 {pct(lat, .99):.1f} ms  max {max(lat or [0]):.1f} ms")
print("minute  live files  commits  p50 ms  p99 ms  max ms")
for m in sorted(set(by_min) | set(live)):
    xs = by_min.get(m, [])
    print(f"{m:6d}  {live.get(m, -1):10d}  {len(xs):7d}  {pct(xs, .5):6.1f}  {pct(xs, .99):6.1f}  {max(xs or [float('nan')]):6.1f}")
for when in ("start", "end"):
    f = f"{d}/read-{when}"
    if os.path.exists(f):
        print(f"pypaimon read at {when:5s}  " + open(f).read().strip().splitlines()[-1])
# RSS of each role (in pid order) at a few minutes, and its highest
samples = {}
for m in range(1, int(minutes)):
    for i, (comm, kb) in enumerate(l.split() for l in open(f"{d}/rss-{m}")):
        samples.setdefault((i, comm), {})[m] = int(kb) / 1024
last = int(minutes) - 1
at = sorted({1, max(1, last // 4), max(1, last // 2), max(1, 3 * last // 4), last})
print("RSS (MB) at minute     " + " ".join(f"{m:>5d}" for m in at) + "    max")
for (i, comm), by in samples.items():
    print(f"  {comm:20s} " + " ".join(f"{by.get(m, float('nan')):5.1f}" for m in at)
          + f"  {max(by.values()):5.1f}")
EOF
printf 'files in the latest snapshot  '
"$BIN/zsink" table files "$DIR/table" | grep -c parquet
"$BIN/zsink" table stats "$DIR/table" | tee "$DIR/stats"
awk '/^count/ {c = $2} /^distinct_ids/ {d = $2} END {exit !(c > 0 && c == d)}' "$DIR/stats" ||
    { echo "rows are not exactly once: $DIR/stats" >&2; exit 1; }
"$BIN/zsink" table verify "$DIR/table" >/dev/null && echo "verify: ok"
