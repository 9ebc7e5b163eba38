#!/usr/bin/env python3
"""bench/flink-paimon/run.py - zsink beside Flink + Paimon, the same jobs, one run.

    bench/flink-paimon/run.sh [SECONDS] [--only tput,latency,kill,startup,scenarios]

(run.sh builds the Java side first if needed; README.md says what each figure is.)
Prints one table, a row per figure: zsink, Flink + Paimon, zsink/Flink; the raw figures go to
OUT/results.json, every job's log and table stay in OUT (printed at the start).
"""
import argparse
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


# ---- the cases ------------------------------------------------------------------------------

def case_tput(out, secs, R):
    for par in (1, 2):
        say(f"throughput p={par}: zsink ({secs}s)")
        d = f"{out}/tput-p{par}-zsink"
        r = zsink_timed(d, secs, parallelism=par, **{"execution.checkpointing.interval": "1s",
                                                     "datagen.rows-per-second": 0})
        r["rows_per_s"] = committed_rate(f"{d}/table", secs)
        R[f"tput_p{par}_zsink"] = r
        for wo in (True, False):
            name = "flink_wo" if wo else "flink"
            say(f"throughput p={par}: Flink + Paimon, write-only={str(wo).lower()} ({secs}s)")
            d = f"{out}/tput-p{par}-{name}"
            r = flink_timed(d, secs, parallelism=par, interval_ms=1000, rate=0,
                            write_only=str(wo).lower(), run_for_s=100000)
            r["rows_per_s"] = committed_rate(f"{d}/table", secs)
            R[f"tput_p{par}_{name}"] = r


def case_latency(out, secs, R):
    say(f"latency at {RATE} rows/s, p=1: zsink ({secs}s)")
    d = f"{out}/lat-zsink"
    r = zsink_timed(d, secs, **{"execution.checkpointing.interval": "1s", "datagen.rows-per-second": RATE})
    r.update(latency(f"{d}/log", CKPT_ZS))
    R["lat_zsink"] = r
    say(f"latency at {RATE} rows/s, p=1: Flink + Paimon ({secs}s)")
    d = f"{out}/lat-flink"
    r = flink_timed(d, secs, parallelism=1, interval_ms=1000, rate=RATE, run_for_s=100000)
    r.update(latency(f"{d}/log", CKPT_FL))
    R["lat_flink"] = r


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


def case_kill_zsink(out, R):
    say(f"kill -9 of a writer: zsink (p=1, {RATE} rows/s, 1 s checkpoints, restart delay 0)")
    d = f"{out}/kill-zsink"
    p = zsink_cluster(d, **{"execution.checkpointing.interval": "1s", "datagen.rows-per-second": RATE,
                            "restart-strategy.fixed-delay.delay": 0})
    try:
        job = f"{d}/chk/*/events-"
        wait_for(lambda: [e for e in events(job + "coordinator.jsonl") if e["e"] == "complete" and e["id"] >= 3],
                 120, "zsink checkpoint 3")
        st = json.loads(subprocess.run([f"{BIN}/zsink", "status", "-c", f"{d}/job.yaml", "--json"],
                                       capture_output=True, text=True).stdout)
        pid = next(x["pid"] for x in st["participants"] if x["name"] == "writer-0")
        t_kill = now_ms()
        os.kill(pid, signal.SIGKILL)
        reset = wait_for(lambda: [e for e in events(job + "writer-0.jsonl")
                                  if e["e"] == "reset" and e["pid"] != pid and e["t"] > t_kill], 120,
                         "the restarted writer")
        again = wait_for(lambda: [e for e in events(job + "coordinator.jsonl")
                                  if e["e"] == "complete" and e["t"] > t_kill], 120,
                         "a checkpoint after the kill")
        time.sleep(2)
    finally:
        stop(p)
    s = summary(f"{d}/table")
    R["kill_zsink"] = {"first_row_ms": reset[0]["t"] - t_kill, "checkpoint_ms": again[0]["t"] - t_kill,
                       "count": s["count"], "distinct_ids": s["distinct_ids"],
                       "first_row_is": "the restarted writer's 'reset' event (restored, reading next)"}


def case_kill_flink(out, R):
    say(f"kill -9 of the TaskManager: Flink + Paimon standalone (JobManager + TaskManager JVMs, p=1, {RATE} rows/s)")
    d = f"{out}/kill-flink"
    os.makedirs(f"{d}/conf", exist_ok=True)
    rpc, rest = free_port(), free_port()
    conf = {
        "jobmanager.rpc.address": "localhost", "jobmanager.rpc.port": rpc, "jobmanager.bind-host": "localhost",
        "rest.address": "localhost", "rest.bind-address": "localhost", "rest.port": rest,
        "taskmanager.host": "localhost", "taskmanager.bind-host": "localhost",
        "taskmanager.numberOfTaskSlots": 2, "jobmanager.memory.process.size": "1024m",
        # zsink's heartbeat.interval / heartbeat.timeout (Flink's defaults: 10 s / 50 s)
        "heartbeat.interval": 500, "heartbeat.timeout": 5000,
        # what flink-dist's scripts would hand TaskManagerRunner (BashJavaUtils)
        "taskmanager.cpu.cores": 2, "taskmanager.memory.framework.heap.size": "128m",
        "taskmanager.memory.task.heap.size": "512m", "taskmanager.memory.managed.size": "128m",
        "taskmanager.memory.network.min": "64m", "taskmanager.memory.network.max": "64m",
        "taskmanager.memory.framework.off-heap.size": "128m", "taskmanager.memory.task.off-heap.size": "0m",
        "taskmanager.memory.jvm-metaspace.size": "256m", "taskmanager.memory.jvm-overhead.min": "192m",
        "taskmanager.memory.jvm-overhead.max": "192m",
    }
    with open(f"{d}/conf/config.yaml", "w") as f:
        for k, v in conf.items():
            f.write(f"{k}: {v}\n")
    shutil.copy(os.path.join(HERE, "src", "main", "resources", "log4j2.properties"), f"{d}/conf/log4j.properties")
    logp = "-Dlog4j.configurationFile=" + f"{d}/conf/log4j.properties"
    jm_cmd = java("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                  ["--configDir", f"{d}/conf"], heap="700m", extra=[logp])
    tm_cmd = java("org.apache.flink.runtime.taskexecutor.TaskManagerRunner", ["--configDir", f"{d}/conf"],
                  heap="640m", extra=[logp, "-XX:MaxDirectMemorySize=192m"])
    jm = start(jm_cmd, f"{d}/jm.log")
    tm = start(tm_cmd, f"{d}/tm-1.log")
    client = tm2 = None
    try:
        wait_for(lambda: "Successful registration at resource manager" in open(f"{d}/tm-1.log", errors="replace").read(),
                 120, "the TaskManager's registration")
        client = start(flink_job(["--table", f"{d}/table", "--parallelism", "1", "--interval-ms", "1000",
                                  "--rate", str(RATE), "--run-for-s", "100000", "--remote", f"localhost:{rest}",
                                  "--log-first-row"]), f"{d}/client.log")

        def completed():
            return [(int(m.group(1)), log_ms(line)) for line in open(f"{d}/jm.log", errors="replace")
                    for m in [CKPT_FL.search(line)] if m]
        wait_for(lambda: [c for c in completed() if c[0] >= 3], 180, "Flink checkpoint 3")
        t_kill = now_ms()
        os.killpg(tm.pid, signal.SIGKILL)
        tm.wait()
        # the supervisor's part (zsink cluster restarts its dead process; here the harness does)
        tm2 = start(tm_cmd, f"{d}/tm-2.log")

        def first_row():
            for line in open(f"{d}/tm-2.log", errors="replace"):
                if line.startswith("HARNESS first-row"):
                    return float(line.split()[2])
        t_row = wait_for(first_row, 180, "the first row after the kill")
        t_ckpt = wait_for(lambda: [t for _, t in completed() if t > t_kill], 180, "a checkpoint after the kill")[0]
        # where the time goes: the new TaskManager's registration with the JobManager
        t_reg = next((log_ms(line) for line in open(f"{d}/tm-2.log", errors="replace")
                      if "Successful registration at resource manager" in line), None)
        time.sleep(2)
    finally:
        for p in (client, tm2, tm, jm):
            if p is not None:
                stop(p)
    s = summary(f"{d}/table")
    # failovers up to the measurement (the teardown above makes one more)
    restarts = sum(1 for line in open(f"{d}/jm.log", errors="replace")
                   if "switched from state RUNNING to RESTARTING" in line and log_ms(line) <= t_ckpt)
    R["kill_flink"] = {"first_row_ms": t_row - t_kill, "checkpoint_ms": t_ckpt - t_kill,
                       "taskmanager_registered_ms": None if t_reg is None else t_reg - t_kill,
                       "count": s["count"], "distinct_ids": s["distinct_ids"], "restarts": restarts,
                       "first_row_is": "the first record the source's generator maps in the new TaskManager"}


def case_scenarios(out, R):
    # s1: ids 1..100 at 20 rows/s, 2 s checkpoints
    say("scenario 1 (ids 1..100, 20 rows/s, 2 s checkpoints): zsink, Flink + Paimon")
    res = {}
    zs = {"execution.checkpointing.interval": "2s", "datagen.rows-per-second": 20}
    p = zsink_cluster(f"{out}/s1-zsink", **zs, **{"datagen.number-of-rows": 100})
    p.wait(300)
    p = start(flink_job(["--table", f"{out}/s1-flink/table", "--interval-ms", "2000", "--rate", "20",
                         "--rows", "100"]), f"{out}/s1-flink.log")
    p.wait(300)
    # s2: no checkpointing, unbounded, cancelled after 10 s
    say("scenario 2 (no checkpoints, unbounded, cancelled after 10 s): zsink, Flink + Paimon")
    p = zsink_cluster(f"{out}/s2-zsink", ["--run-for", "10s"], **{"datagen.rows-per-second": 20,
                                                                  "execution.checkpointing.interval": 0})
    p.wait(300)
    os.makedirs(f"{out}/s2-flink", exist_ok=True)
    p = start(flink_job(["--table", f"{out}/s2-flink/table", "--rate", "20", "--run-for-s", "10"]),
              f"{out}/s2-flink/log")
    p.wait(300)
    # s3: ids 1..200, a failure at id 120
    say("scenario 3 (ids 1..200, a failure at id 120): zsink, Flink + Paimon")
    p = zsink_cluster(f"{out}/s3-zsink", **zs, **{"datagen.number-of-rows": 200, "datagen.fail-at-id": 120})
    p.wait(300)
    p = start(flink_job(["--table", f"{out}/s3-flink/table", "--interval-ms", "2000", "--rate", "20",
                         "--rows", "200", "--fail-at-id", "120"]), f"{out}/s3-flink.log")
    p.wait(300)
    for s in ("s1", "s2", "s3"):
        zt, ft = f"{out}/{s}-zsink/table", f"{out}/{s}-flink/table"
        zr, fr = rows(zt), rows(ft)
        zid = sorted(int(x.split("\t")[0]) for x in zr)
        fid = sorted(int(x.split("\t")[0]) for x in fr)
        res[s] = {"zsink": summary(zt), "flink": summary(ft), "same_ids": zid == fid,
                  "same_rows": zr == fr, "zsink_ids_head": zid[:3], "flink_ids_head": fid[:3]}
        if s == "s3":
            res[s]["flink_failed_once"] = any("datagen.fail-at-id: row 120 failed" in l
                                              for l in open(f"{out}/s3-flink.log", errors="replace"))
            res[s]["zsink_failed_once"] = any("row 120 failed" in l
                                              for l in open(f"{out}/s3-zsink/log", errors="replace"))
    R["scenarios"] = res


# ---- the table ------------------------------------------------------------------------------

def table(R, secs):
    rows_ = []

    def row(name, z, f, fmt="%.0f", ratio=True):
        zs = "-" if z is None else (fmt % z if not isinstance(z, str) else z)
        fs = "-" if f is None else (fmt % f if not isinstance(f, str) else f)
        rt = ("%.2f" if z >= f / 10 else "%.3f") % (z / f) if ratio and isinstance(z, (int, float)) and isinstance(f, (int, float)) and f else ""
        rows_.append((name, zs, fs, rt))

    g = lambda k, f: R.get(k, {}).get(f)
    for par in (1, 2):
        if f"tput_p{par}_zsink" in R:
            row(f"rows/s committed, p={par} (Flink write-only)", g(f"tput_p{par}_zsink", "rows_per_s"),
                g(f"tput_p{par}_flink_wo", "rows_per_s"))
            row(f"rows/s committed, p={par} (Flink default, compaction)", g(f"tput_p{par}_zsink", "rows_per_s"),
                g(f"tput_p{par}_flink", "rows_per_s"))
            row(f"RSS peak MB, p={par} full speed (Flink write-only)", g(f"tput_p{par}_zsink", "rss_peak_mb"),
                g(f"tput_p{par}_flink_wo", "rss_peak_mb"), "%.1f")
            row(f"RSS peak MB, p={par} full speed (Flink default)", g(f"tput_p{par}_zsink", "rss_peak_mb"),
                g(f"tput_p{par}_flink", "rss_peak_mb"), "%.1f")
    if "lat_zsink" in R:
        for k, label in (("commit_p50", "commit latency p50 ms"), ("commit_p99", "commit latency p99 ms"),
                         ("ckpt_p50", "checkpoint duration p50 ms"), ("ckpt_p99", "checkpoint duration p99 ms")):
            row(f"{label} ({RATE} rows/s)", g("lat_zsink", k), g("lat_flink", k))
        row("start-up: launch -> first snapshot, ms", g("lat_zsink", "startup_ms"), g("lat_flink", "startup_ms"))
        row(f"RSS peak MB, p=1 {RATE} rows/s", g("lat_zsink", "rss_peak_mb"), g("lat_flink", "rss_peak_mb"), "%.1f")
    if "kill_zsink" in R or "kill_flink" in R:
        row("kill -9 -> first row again, ms", g("kill_zsink", "first_row_ms"), g("kill_flink", "first_row_ms"))
        row("kill -9 -> first checkpoint again, ms", g("kill_zsink", "checkpoint_ms"), g("kill_flink", "checkpoint_ms"))
        eo = lambda k: None if k not in R else "%d = %d %s" % (R[k]["count"], R[k]["distinct_ids"] or 0,
                                                                "ok" if R[k]["count"] == R[k]["distinct_ids"] else "DUPLICATES")
        row("kill -9: rows = distinct ids", eo("kill_zsink"), eo("kill_flink"), ratio=False)
    sc = R.get("scenarios", {})
    for s, want in (("s1", 100), ("s2", 0), ("s3", 200)):
        if s in sc:
            z, f = sc[s]["zsink"], sc[s]["flink"]
            row(f"{s}: rows / distinct ids (want {want})", "%d / %d" % (z["count"], z["distinct_ids"] or 0),
                "%d / %d" % (f["count"], f["distinct_ids"] or 0), ratio=False)
            row(f"{s}: snapshots", z["snapshots"], f["snapshots"], "%d", ratio=False)
            same = lambda k: "yes" if sc[s][k] else "NO"
            row(f"{s}: the two tables hold the same ids", same("same_ids"), same("same_ids"), ratio=False)
            row(f"{s}: ... and the same rows, every column", same("same_rows"), same("same_rows"), ratio=False)
            if s == "s3":
                row("s3: the failure at id 120 happened", "yes" if sc[s]["zsink_failed_once"] else "NO",
                    "yes" if sc[s]["flink_failed_once"] else "NO", ratio=False)
    w = max(len(r[0]) for r in rows_) if rows_ else 10
    lines = [f"zsink vs Flink 2.0.0 + Paimon 2.0.0, {os.cpu_count()} cores, {secs}s per throughput/latency case, "
             f"{datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%MZ')}", "",
             "%-*s %16s %16s %8s" % (w, "figure", "zsink", "Flink+Paimon", "ratio"),
             "%-*s %16s %16s %8s" % (w, "", "", "", "z/F")]
    for r in rows_:
        lines.append("%-*s %16s %16s %8s" % (w, *r))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seconds", nargs="?", type=int, default=60)
    ap.add_argument("--only", default="tput,latency,kill,scenarios")
    ap.add_argument("--out")
    a = ap.parse_args()
    out = a.out or os.path.join(HERE, "target", "runs", datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    say(f"bench/flink-paimon: output in {out}; zsink from {BIN}")
    R = {"seconds": a.seconds, "zsink_bin": BIN, "flink": "2.0.0", "paimon": "2.0.0", "flink_heap": FLINK_HEAP}
    only = a.only.split(",")
    steps = [("tput", lambda: case_tput(out, a.seconds, R)),
             ("latency", lambda: case_latency(out, a.seconds, R)),
             ("kill", lambda: (case_kill_zsink(out, R), case_kill_flink(out, R))),
             ("scenarios", lambda: case_scenarios(out, R))]
    for name, fn in steps:
        if name in only:
            try:
                fn()
            except Exception as e:  # noqa: BLE001 - one failed case must not lose the others
                say(f"bench/flink-paimon: {name} failed: {e}")
                R.setdefault("errors", {})[name] = str(e)
            json.dump(R, open(f"{out}/results.json", "w"), indent=2)
    t = table(R, a.seconds)
    open(f"{out}/table.txt", "w").write(t + "\n")
    print(t)
    if R.get("errors"):
        sys.exit(1)


if __name__ == "__main__":
    main()
