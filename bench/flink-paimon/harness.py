"""bench/flink-paimon/harness.py - what every case of run.py shares: processes, tables, logs,
zsink and Flink jobs, waiting. run.py says what the bench is."""
import contextlib
import datetime
import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.abspath(os.environ.get("ZSINK_BIN", os.path.join(REPO, "build", "bin")))
INTEROP = os.path.abspath(os.environ.get("ZSINK_INTEROP", os.path.join(REPO, "build", "interop")))
# Paimon's Python reader, as the tests use it; /work/main's when this tree has no build
PAIMON_PY = os.path.join(REPO, "tests", "interop", "paimon_py.py")
FLINK_HEAP = os.environ.get("FLINK_HEAP", "1g")
WARMUP_S = 2.0          # throughput: snapshots of the first 2 s after the first one are left out
LAT_SKIP = 3            # latency: the first 3 checkpoints are warm-up
RATE = 20000            # rows/s of the latency and kill runs

TS_RE = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})")
CKPT_ZS = re.compile(r"Completed checkpoint (\d+) for job \S+ \(\d+ bytes, (\d+) ms\)")
CKPT_FL = re.compile(r"Completed checkpoint (\d+) for job \S+ \(\d+ bytes, checkpointDuration=(\d+) ms")
COMMIT = re.compile(r"Successfully commit snapshot \d+ .* with identifier (\d+) and kind APPEND")


def now_ms():
    return time.time() * 1000.0


def log_ms(line):
    """the line's timestamp (both systems log UTC wall-clock time, ms) as epoch ms"""
    m = TS_RE.search(line)
    if not m:
        return None
    d = datetime.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S.%f")
    return d.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000.0


def pct(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def say(*a):
    print(*a, file=sys.stderr, flush=True)


# ---- processes ------------------------------------------------------------------------------

def classpath():
    cp = open(os.path.join(HERE, "target", "classpath.txt")).read().strip()
    jar = glob.glob(os.path.join(HERE, "target", "jars", "paimon-flink-2.0-*.jar"))[0]
    return ":".join([os.path.join(HERE, "target", "classes"), jar, cp])


def java(main, args, heap=FLINK_HEAP, extra=()):
    return ["java", "@" + os.path.join(HERE, "jvm17.opts"), "-Xmx" + heap, *extra,
            "-cp", classpath(), main, *args]


def flink_job(args):
    return java("zsink.bench.FlinkPaimonJob", args)


def start(cmd, log, env=None):
    f = open(log, "w")
    return subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, start_new_session=True)


def stop(proc, sig=signal.SIGTERM, timeout=60):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def tree(pid):
    """pid and every descendant"""
    kids = {}
    for st in glob.glob("/proc/[0-9]*/stat"):
        try:
            s = open(st).read()
        except OSError:
            continue
        rest = s[s.rfind(")") + 2:].split()
        kids.setdefault(int(rest[1]), []).append(int(s.split()[0]))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def rss_kb(pids):
    total = 0
    for p in pids:
        try:
            for line in open(f"/proc/{p}/status"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


class RssSampler(threading.Thread):
    """peak of the summed VmRSS of the process trees rooted at pids(), every 0.5 s"""

    def __init__(self, pids):
        super().__init__(daemon=True)
        self.pids, self.peak, self.last, self.done = pids, 0, 0, False

    def run(self):
        while not self.done:
            kb = rss_kb([q for p in self.pids() for q in tree(p)])
            self.last = kb or self.last
            self.peak = max(self.peak, kb)
            time.sleep(0.5)


# ---- tables ---------------------------------------------------------------------------------

def snapshots(table):
    out = []
    for f in glob.glob(os.path.join(table, "snapshot", "snapshot-*")):
        try:
            out.append(json.load(open(f)))
        except (OSError, ValueError):
            pass
    return sorted(out, key=lambda s: s["id"])


def first_snapshot_ms(table, t_launch, deadline_s, proc=None):
    """wall-clock ms from t_launch until snapshot-1 exists (polled every 10 ms)"""
    path = os.path.join(table, "snapshot", "snapshot-1")
    end = time.time() + deadline_s
    while time.time() < end:
        if os.path.exists(path):
            return now_ms() - t_launch
        if proc is not None and proc.poll() is not None:
            return None
        time.sleep(0.01)
    return None


def committed_rate(table, secs):
    """rows/s committed: from the first snapshot WARMUP_S after the first one to the last
    within SECS after that, by the snapshots' own totals and commit times"""
    snaps = snapshots(table)
    if not snaps:
        return None
    t_first = snaps[0]["timeMillis"]
    inside = [s for s in snaps if t_first + WARMUP_S * 1000 <= s["timeMillis"] <= t_first + (WARMUP_S + secs) * 1000 + 500]
    if len(inside) < 2:
        return None
    a, b = inside[0], inside[-1]
    return (b["totalRecordCount"] - a["totalRecordCount"]) * 1000.0 / (b["timeMillis"] - a["timeMillis"])


def pypaimon(cmd, table):
    py = os.path.join(INTEROP, "venv", "bin", "python")
    r = subprocess.run([py, PAIMON_PY, cmd, table], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"paimon_py.py {cmd} {table}: {r.stderr.strip()[-300:]}")
    return r.stdout


def summary(table):
    if not os.path.isdir(os.path.join(table, "snapshot")) or not snapshots(table):
        return {"count": 0, "distinct_ids": 0, "min_id": None, "max_id": None, "snapshots": 0}
    s = json.loads(pypaimon("summary", table))
    s["snapshots"] = len(snapshots(table))
    return s


def rows(table):
    if not snapshots(table):
        return []
    return pypaimon("rows", table).splitlines()


def latency(log, ckpt_re):
    """checkpoint durations and completed -> APPEND snapshot latencies (ms), warm-up left out"""
    done, dur, lat = {}, {}, []
    for line in open(log, errors="replace"):
        m = ckpt_re.search(line)
        if m:
            done[int(m.group(1))] = log_ms(line)
            dur[int(m.group(1))] = int(m.group(2))
        m = COMMIT.search(line)
        if m and int(m.group(1)) in done and int(m.group(1)) > LAT_SKIP:
            lat.append(log_ms(line) - done[int(m.group(1))])
    d = [v for k, v in dur.items() if k > LAT_SKIP]
    return {"commit_p50": pct(lat, .5), "commit_p99": pct(lat, .99), "ckpt_p50": pct(d, .5),
            "ckpt_p99": pct(d, .99), "checkpoints": len(d), "commits": len(lat)}


# ---- zsink ----------------------------------------------------------------------------------

def zsink_yaml(d, **kv):
    os.makedirs(d, exist_ok=True)
    conf = {"parallelism": 1, "table.path": f"{d}/table", "state.checkpoints.dir": f"{d}/chk"}
    conf.update(kv)
    with open(f"{d}/job.yaml", "w") as f:
        for k, v in conf.items():
            f.write(f"{k}: {v}\n")
    return f"{d}/job.yaml"


def zsink_cluster(d, args=(), **kv):
    y = zsink_yaml(d, **kv)
    return start([f"{BIN}/zsink", "cluster", "-c", y, *args], f"{d}/log")


def zsink_timed(d, secs, **kv):
    """launch, wait for the first snapshot, run WARMUP_S + secs more, stop; figures"""
    t0 = now_ms()
    return timed_run(zsink_cluster(d, **kv), d, t0, 120, secs)


def timed_run(p, d, t0, deadline_s, secs):
    """sample p's RSS, wait for the first snapshot, run WARMUP_S + secs more, stop; figures"""
    rs = RssSampler(lambda: [p.pid])
    rs.start()
    up = first_snapshot_ms(f"{d}/table", t0, deadline_s, p)
    time.sleep(WARMUP_S + secs + 1.5)
    rs.done = True
    stop(p)
    return {"startup_ms": up, "rss_peak_mb": rs.peak / 1024.0, "rc": p.returncode}


def flink_timed(d, secs, **kv):
    os.makedirs(d, exist_ok=True)
    args = ["--table", f"{d}/table"]
    for k, v in kv.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    t0 = now_ms()
    return timed_run(start(flink_job(args), f"{d}/log"), d, t0, 180, secs)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_for(pred, deadline_s, what):
    end = time.time() + deadline_s
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.02)
    raise RuntimeError(f"timed out waiting for {what}")


def events(path):
    out = []
    for f in glob.glob(path):
        for line in open(f, errors="replace"):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out


# ---- CPU time, bytes per row, GC logs (cases_tput, cases_ceiling, cases_xmx) ----------------

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_ticks(pids):
    """utime + stime + cutime + cstime (clock ticks) of pids: a child reaped inside a window
    moves its time into its parent's cutime/cstime, so the sum over a live tree is monotonic"""
    total = 0
    for p in pids:
        try:
            s = open(f"/proc/{p}/stat").read()
        except OSError:
            continue
        f = s[s.rfind(")") + 2:].split()
        total += int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])
    return total


class ProcSampler(threading.Thread):
    """every 0.5 s: (epoch ms, CPU seconds, summed VmRSS KB) of the process tree rooted at pid.
    cpu_between(a, b) is the CPU time spent from ms a to ms b, interpolated between samples."""

    def __init__(self, pid, every=0.5):
        super().__init__(daemon=True)
        self.pid, self.every, self.samples, self.done, self.peak = pid, every, [], False, 0

    def sample(self):
        pids = tree(self.pid)
        kb = rss_kb(pids)
        self.peak = max(self.peak, kb)
        self.samples.append((now_ms(), cpu_ticks(pids) / CLK_TCK, kb))

    def run(self):
        while not self.done:
            self.sample()
            time.sleep(self.every)

    def cpu_at(self, t):
        s = self.samples
        if not s or t < s[0][0] or t > s[-1][0]:
            return None
        for (t0, c0, _), (t1, c1, _) in zip(s, s[1:]):
            if t0 <= t <= t1:
                return c0 + (c1 - c0) * ((t - t0) / (t1 - t0) if t1 > t0 else 0)
        return s[-1][1]

    def cpu_between(self, a, b):
        ca, cb = self.cpu_at(a), self.cpu_at(b)
        return None if ca is None or cb is None else cb - ca


def slope(points):
    """least-squares rows per second of [(epoch ms, rows)]"""
    if len(points) < 2:
        return None
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mr = sum(r for _, r in points) / n
    var = sum((t - mt) ** 2 for t, _ in points)
    return None if var == 0 else sum((t - mt) * (r - mr) for t, r in points) / var * 1000.0


def snapshot_window(table, secs):
    """the two snapshots committed_rate() takes (first WARMUP_S after the first; last within
    SECS after that): (a, b) or None"""
    snaps = snapshots(table)
    if not snaps:
        return None
    t_first = snaps[0]["timeMillis"]
    inside = [s for s in snaps if t_first + WARMUP_S * 1000 <= s["timeMillis"] <= t_first + (WARMUP_S + secs) * 1000 + 500]
    return (inside[0], inside[-1]) if len(inside) >= 2 else None


def bytes_per_row(table):
    """live data files of the latest snapshot (`zsink table files --json`): bytes / rows, files"""
    r = subprocess.run([f"{BIN}/zsink", "table", "files", table, "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"zsink table files {table}: {r.stderr.strip()[-300:]}")
    files = json.loads(r.stdout)["files"]
    rows_ = sum(f["rows"] for f in files)
    return (sum(f["size"] for f in files) / rows_ if rows_ else None), len(files), rows_


def drop_data_files(table):
    """the data files go once measured (a full-speed minute is gigabytes); metadata stays"""
    for b in glob.glob(os.path.join(table, "bucket-*")):
        shutil.rmtree(b, ignore_errors=True)


GC_PAUSE = re.compile(r"\[gc\s*\] GC\(\d+\) Pause .* (\d+(?:\.\d+)?)ms$")


def gc_pauses(log):
    """(count, summed ms) of the stop-the-world pauses in a -Xlog:gc* file"""
    n, ms = 0, 0.0
    try:
        for line in open(log, errors="replace"):
            m = GC_PAUSE.search(line.rstrip())
            if m:
                n += 1
                ms += float(m.group(1))
    except OSError:
        return None, None
    return n, ms


def stats3(xs):
    """min, median, max of the figures that exist (None: none)"""
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return None
    m = xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2
    return {"min": xs[0], "med": m, "max": xs[-1], "n": len(xs)}


@contextlib.contextmanager
def sampled(cmd, log):
    """cmd started (its output to log) with a ProcSampler over its process tree, as (p, ps);
    the sampler joined and the process stopped when the block ends, however it ends"""
    p = start(cmd, log)
    ps = ProcSampler(p.pid)
    ps.start()
    try:
        yield p, ps
    finally:
        ps.done = True
        ps.join()
        stop(p)


def live_for(p, secs):
    """wait secs, or less if p ends first"""
    end = time.time() + secs
    while time.time() < end and p.poll() is None:
        time.sleep(0.1)
