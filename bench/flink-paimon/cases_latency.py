"""bench/flink-paimon/cases_latency.py - commit latency (two slices), checkpoint duration,
start-up; each with fsync on and with fsync off (eatmydata) on both sides.

The like-for-like figure is checkpoint triggered -> snapshot durable and visible, from each
side's own log lines: `Triggering checkpoint N ... @ <epoch ms> for job J` (zsink's coordinator,
Flink's CheckpointCoordinator: the time each stamps on the checkpoint) to `Successfully commit
snapshot S ... with identifier N and kind APPEND` (zsink's committer, Paimon's FileStoreCommitImpl:
logged once the snapshot file is in place). It covers the same work on both sides whatever
each does before or after the checkpoint completes (zsink writes its manifests before the
Notify, Paimon after). The older slice, checkpoint completed -> snapshot committed, and the
checkpoint's own duration (trigger -> complete) stay beside it.

With fsync off: libeatmydata.so (Debian's eatmydata) as LD_PRELOAD of the whole process tree
(`zsink cluster` passes its environment to the roles it starts; the Flink JVM), so fsync,
fdatasync, sync_file_range and msync return at once: the figure without the durability cost.
"""
import glob
import os
import re
import threading
import time

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases

TRIGGER = re.compile(r"Triggering checkpoint (\d+) (?:.*? )?@ (\d+) for job ")
MODES = (("", "fsync on"), ("_nofsync", "fsync off, eatmydata"))


def eatmydata_lib():
    """the path of libeatmydata.so (EATMYDATA_LIB, else Debian's), None when there is none"""
    cands = [os.environ.get("EATMYDATA_LIB", "")] + sorted(glob.glob("/usr/lib/*/libeatmydata.so*")) + \
        sorted(glob.glob("/usr/lib/libeatmydata.so*"))
    return next((c for c in cands if c and os.path.exists(c)), None)


def preload_env(lib):
    env = dict(os.environ)
    env["LD_PRELOAD"] = lib + (" " + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    return env


class PreloadCheck(threading.Thread):
    """how many processes of p's tree map libeatmydata.so, polled until the job has committed
    (snapshot-2 exists, every role up) or 60 s: the proof the preload took effect"""

    def __init__(self, p, table):
        super().__init__(daemon=True)
        self.p, self.table, self.result = p, table, None

    def run(self):
        end = time.time() + 60
        while time.time() < end and self.p.poll() is None:
            pids = tree(self.p.pid)
            mapped = sum(1 for q in pids if _maps_eatmydata(q))
            self.result = f"{mapped}/{len(pids)}"
            if os.path.exists(os.path.join(self.table, "snapshot", "snapshot-2")):
                return
            time.sleep(0.1)


def _maps_eatmydata(pid):
    try:
        return "libeatmydata" in open(f"/proc/{pid}/maps").read()
    except OSError:
        return False


def trigger_latency(log):
    """checkpoint triggered -> APPEND snapshot committed (ms) per checkpoint, warm-up left out"""
    trig, lat = {}, []
    for line in open(log, errors="replace"):
        m = TRIGGER.search(line)
        if m:
            trig[int(m.group(1))] = float(m.group(2))
            continue
        m = COMMIT.search(line)
        if m and int(m.group(1)) in trig and int(m.group(1)) > LAT_SKIP:
            lat.append(log_ms(line) - trig[int(m.group(1))])
    return {"trig_p50": pct(lat, .5), "trig_p99": pct(lat, .99), "trig_commits": len(lat)}


def preloaded_run(p, d, t0, deadline_s, secs, env):
    """timed_run, and with env (the preload) how many of p's processes map libeatmydata.so"""
    check = PreloadCheck(p, f"{d}/table") if env else None
    if check:
        check.start()
    r = timed_run(p, d, t0, deadline_s, secs)
    if check:
        check.join()
        r["eatmydata_mapped"] = check.result
    return r


def zsink_lat(d, secs, env):
    y = zsink_yaml(d, **{"execution.checkpointing.interval": "1s", "datagen.rows-per-second": RATE})
    t0 = now_ms()
    r = preloaded_run(start([f"{BIN}/zsink", "cluster", "-c", y], f"{d}/log", env=env), d, t0, 120, secs, env)
    r.update(latency(f"{d}/log", CKPT_ZS))
    r.update(trigger_latency(f"{d}/log"))
    return r


def flink_lat(d, secs, env):
    os.makedirs(d, exist_ok=True)
    args = ["--table", f"{d}/table", "--parallelism", "1", "--interval-ms", "1000", "--rate", str(RATE),
            "--run-for-s", "100000"]
    t0 = now_ms()
    r = preloaded_run(start(flink_job(args), f"{d}/log", env=env), d, t0, 180, secs, env)
    r.update(latency(f"{d}/log", CKPT_FL))
    r.update(trigger_latency(f"{d}/log"))
    return r


def run(out, secs, R):
    lib = eatmydata_lib()
    R["eatmydata"] = lib
    for suffix, what in MODES:
        if suffix and lib is None:
            say("latency, fsync off: no libeatmydata.so (apt-get install eatmydata, or EATMYDATA_LIB); left out")
            continue
        env = preload_env(lib) if suffix else None
        say(f"latency at {RATE} rows/s, p=1, {what}: zsink ({secs}s)")
        R["lat_zsink" + suffix] = zsink_lat(f"{out}/lat-zsink{suffix}", secs, env)
        say(f"latency at {RATE} rows/s, p=1, {what}: Flink + Paimon ({secs}s)")
        R["lat_flink" + suffix] = flink_lat(f"{out}/lat-flink{suffix}", secs, env)


def table_rows(R, row, g):
    for suffix, what in MODES:
        z, f = "lat_zsink" + suffix, "lat_flink" + suffix
        if z not in R:
            continue
        for k, label in (("trig", "checkpoint triggered -> snapshot durable+visible"),
                         ("commit", "checkpoint completed -> snapshot committed"),
                         ("ckpt", "checkpoint duration, triggered -> completed")):
            for q in ("p50", "p99"):
                row(f"{label} {q} ms ({what})", g(z, f"{k}_{q}"), g(f, f"{k}_{q}"))
        row(f"checkpoints measured (p=1, {RATE} rows/s, 1 s checkpoints, {what})", g(z, "trig_commits"),
            g(f, "trig_commits"), ratio=False)
        if suffix:
            row("  processes with libeatmydata.so mapped", g(z, "eatmydata_mapped"), g(f, "eatmydata_mapped"),
                ratio=False)
        if not suffix:
            row("start-up: launch -> first snapshot, ms", g(z, "startup_ms"), g(f, "startup_ms"))
            row(f"RSS peak MB, p=1 {RATE} rows/s", g(z, "rss_peak_mb"), g(f, "rss_peak_mb"), "%.1f")
