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
# minute: at five of them and its highest), and that the table holds every
# row exactly once.
set -eu
MIN=${1:-30}
DIR=${2:-$(mktemp -d /tmp/zsink-long-job-XXXXXX)}
BIN=$(cd "$(dirname "$0")/.." && pwd)/build/bin
mkdir -p "$DIR"
cat >"$DIR/job.yaml" <<EOF
parallelism: 2
execution.checkpointing.interval: 100ms
datagen.rows-per-second: 10000
table.path: $DIR/table
state.checkpoints.dir: $DIR/chk
snapshot.time-retained: 1min
EOF

rss() { # ROLE-LABEL-FILE: VmRSS of each child of the cluster
    for p in $(pgrep -P "$CLUSTER"); do
        printf '%s %s\n' "$(cat /proc/"$p"/comm)" "$(awk '/VmRSS/ {print $2}' /proc/"$p"/status)"
    done >"$1"
}

echo "long job: $MIN min in $DIR"
"$BIN/zsink" cluster -c "$DIR/job.yaml" --run-for "${MIN}m" >"$DIR/log" 2>&1 &
CLUSTER=$!
m=0
while [ $m -lt $((MIN - 1)) ]; do # every role's RSS each minute
    sleep 60
    m=$((m + 1))
    rss "$DIR/rss-$m"
done
wait "$CLUSTER" || { echo "the job failed: $DIR/log" >&2; exit 1; }

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
