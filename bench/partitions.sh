#!/bin/bash
# Partitioned tables (docs/performance.md): rows/s and writer memory with 1,
# 24 and 1,000 partitions live in every checkpoint, side by side with the
# same rows into an unpartitioned table.
#
#   bench/partitions.sh [ROWS [RUNS]]     (default 2,000,000 rows, 3 runs)
#
# One input for every case: ROWS JSON lines in 2 files (one a writer),
# columns id, name, price, ts and three partition columns: p1 (one value),
# p24 (id % 24), p1000 (id % 1000). Rows are dealt round robin, so every
# checkpoint sees every partition. Each case is a bounded job at
# parallelism 2, 1 s checkpoints, the table's partition key the case's
# column (none for the unpartitioned case); only the key differs.
#
# Printed per case: rows/s from RUNNING to the end of input (the best
# run), CPU seconds per million rows of all the job's processes (the
# median), the writers' peak RSS (the sum of the two, the median), data
# files committed, and memory per open partition writer: (peak RSS at
# 1,000 partitions - at 1) / 999 per writer.
set -eu
cd "$(dirname "$0")/.."
ROWS=${1:-2000000}
RUNS=${2:-3}
BIN=${ZSINK_BIN:-build/bin} # another build: ZSINK_BIN=DIR/bin
WORK=$(mktemp -d /tmp/zsink-bench-partitions.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT

python3 - "$WORK/in" "$ROWS" <<'PY'
import os, sys
out, rows = sys.argv[1], int(sys.argv[2])
os.makedirs(out)
files = [open(os.path.join(out, "part-%d.jsonl" % k), "w") for k in range(2)]
for i in range(1, rows + 1):
    files[i % 2].write('{"id":%d,"name":"name-%d","price":%d.%02d,"ts":"2026-12-04 %02d:%02d:%02d.%03d",'
                       '"p1":"all","p24":%d,"p1000":%d}\n'
                       % (i, i, i % 1000, i % 100, (i // 3600000) % 24, (i // 60000) % 60,
                          (i // 1000) % 60, i % 1000, i % 24, i % 1000))
for f in files:
    f.close()
PY

# Peak RSS (kB) of the processes named zsink-writer under PID, summed,
# written to FILE when PID is gone.
watch_rss() {
    python3 - "$1" "$2" <<'PY'
import os, sys, time
root, out = int(sys.argv[1]), sys.argv[2]
peak = {}
def kids(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []
while os.path.exists("/proc/%d" % root):
    todo, seen = [root], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo += kids(p)
    for p in seen:
        try:
            with open("/proc/%d/status" % p) as f:
                st = f.read()
        except OSError:
            continue
        if "Name:\tzsink-writer" in st and "VmHWM:" in st: # (not a zombie)
            hwm = int(st.split("VmHWM:")[1].split()[0])
            peak[p] = max(peak.get(p, 0), hwm)
    time.sleep(0.05)
with open(out, "w") as f:
    f.write("%d\n" % sum(peak.values()))
PY
}

run_case() { # name key run
    local dir="$WORK/$1-$3"
    mkdir -p "$dir"
    {
        echo "parallelism: 2"
        echo "execution.checkpointing.interval: 1s"
        echo "source.kind: file"
        echo "source.file.path: $WORK/in"
        echo "table.schema: id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3), p1 STRING, p24 INT, p1000 INT"
        [ -z "$2" ] || echo "table.partition-keys: $2"
        echo "table.path: $dir/table"
        echo "state.checkpoints.dir: $dir/chk"
    } >"$dir/job.yaml"
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f "%U %S" -o "$dir/cpu" $BIN/zsink cluster -c "$dir/job.yaml" >"$dir/log" 2>&1 &
    local pid=$!
    watch_rss "$pid" "$dir/rss" &
    local watcher=$!
    wait $pid || { echo "bench: case $1 failed:" >&2; tail -20 "$dir/log" >&2; exit 1; }
    wait $watcher
    python3 - "$dir" "$ROWS" "$1" <<'PY' >>"$WORK/results"
import re, sys, datetime
d, rows, name = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def ts(line):
    m = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})", line)
    return datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f").timestamp()
start = end = None
for line in open(d + "/log", errors="replace"):
    if start is None and "to RUNNING" in line:
        start = ts(line)
    if "switched from state RUNNING to FINISHED" in line or "to FINISHED" in line:
        end = ts(line)
u, s = open(d + "/cpu").read().split()[-2:]
rss = int(open(d + "/rss").read())
print(name, rows / (end - start), (float(u) + float(s)) / (rows / 1e6), rss)
PY
    $BIN/zsink table files "$dir/table" 2>/dev/null | grep -c 'data-' >>"$WORK/files.$1" || echo 0 >>"$WORK/files.$1"
    rm -rf "$dir"
}

echo "zsink partitioned tables, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), $ROWS rows, $RUNS runs," \
    "git $(git describe --always --dirty 2>/dev/null || echo "?"), load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$RUNS"); do
    run_case unpartitioned "" "$r"
    run_case 1-partition p1 "$r"
    run_case 24-partitions p24 "$r"
    run_case 1000-partitions p1000 "$r"
done
python3 - "$WORK" <<'PY'
import statistics, sys
w = sys.argv[1]
res = {}
for line in open(w + "/results"):
    name, rate, cpu, rss = line.split()
    res.setdefault(name, []).append((float(rate), float(cpu), int(rss)))
print("%-16s %12s %14s %18s %8s" % ("case", "rows/s", "CPU s/M rows", "writers' peak RSS", "files"))
for name in ("unpartitioned", "1-partition", "24-partitions", "1000-partitions"):
    v = res[name]
    files = open("%s/files.%s" % (w, name)).read().split()
    print("%-16s %12.0f %14.2f %15.1f MB %8s" % (name, max(x[0] for x in v), statistics.median(x[1] for x in v),
          statistics.median(x[2] for x in v) / 1024, files[0]))
one = statistics.median(x[2] for x in res["1-partition"])
many = statistics.median(x[2] for x in res["1000-partitions"])
print("memory per open partition writer: %.1f kB ((peak at 1,000 - at 1) / 999 / 2 writers)"
      % ((many - one) / 999 / 2))
PY
