#!/usr/bin/env python3
"""zsink latency benchmark: the milliseconds of issue 15, on the real cluster.

    bench/latency.py [--secs N] [--base DIR/bin] [--only commit,failover,startup]

Prints, for this build (ZSINK_BIN or build/bin) and, with --base, another
build side by side (e.g. the one before a change), with the machine's floor
where there is one:

  commit    2 writers, 20,000 rows/s, 1 s checkpoints, N s (default 60):
            commit latency p50/p99 (the coordinator's "complete" event of
            checkpoint N, chk-N durable -> the committer's "commit" event
            of identifier N, the snapshot durable; event logs, microsecond
            wall clock), checkpoint duration p50/p99; and the
            committer's fsyncs per commit (strace -c over 5 s of a
            write-only job: the commit's own, without compaction).
            Floor: one durable publish of a small file (write a temp
            file, fsync, rename, fsync the directory) on the same disk.
  failover  kill -9 of a writer (3 times per case, median), restart delay
            0: kill -> job RUNNING again (rows flow) and kill -> first
            completed checkpoint, at 1 s and 10 s intervals, with
            execution.checkpointing.trigger-after-restore off (Flink's
            behaviour, the default) and on.
  startup   `zsink cluster` launched -> every role registered (the
            coordinator's CREATED -> RESTORING) and -> first committed
            snapshot, 5 runs of a 1,000-row bounded job, median; and a
            coordinator restart (kill -9) -> every role registered again.

Figures come from the processes' own log lines (wall clock, ms) and the
time this script launched or killed a process. Run it on a quiet machine.
"""
import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TS = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3})")


def ts(line):
    m = TS.search(line)
    if not m:
        return None
    return time.mktime(time.strptime(m.group(1)[:19], "%Y-%m-%d %H:%M:%S")) * 1000 + int(m.group(1)[20:])


def now_ms():
    return time.time() * 1000


def pct(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def fmt(v, unit="ms"):
    if v is None:
        return "-"
    if isinstance(v, int):
        return str(v) + (" " + unit if unit else "")
    return ("%.1f" % v if v < 10 else "%.0f" % v) + (" " + unit if unit else "")


class Job:
    """One `zsink cluster` run in a directory of its own."""

    def __init__(self, bin_dir, work, name, lines):
        self.bin = bin_dir
        self.dir = os.path.join(work, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.yaml = os.path.join(self.dir, "job.yaml")
        with open(self.yaml, "w") as f:
            f.write("table.path: %s/table\nstate.checkpoints.dir: %s/chk\n" % (self.dir, self.dir))
            for line in lines:
                f.write(line + "\n")
        self.log = os.path.join(self.dir, "log")
        self.proc = None

    def start(self, *args):
        self.t0 = now_ms()
        self.proc = subprocess.Popen([os.path.join(self.bin, "zsink"), "cluster", "-c", self.yaml, *args],
                                     stdout=open(self.log, "ab"), stderr=subprocess.STDOUT)
        return self.t0

    def lines(self):
        with open(self.log, errors="replace") as f:
            return f.read().splitlines()

    def wait(self, pattern, count=1, deadline_s=60, after=0):
        """The count-th line matching pattern (after line index after)."""
        rx = re.compile(pattern)
        end = time.time() + deadline_s
        while True:
            hits = [(i, l) for i, l in enumerate(self.lines()) if i >= after and rx.search(l)]
            if len(hits) >= count:
                return hits[count - 1]
            if time.time() > end or (self.proc and self.proc.poll() is not None):
                sys.exit("latency: %s: no %d x /%s/ (exit %s); log %s" %
                         (os.path.basename(self.dir), count, pattern, self.proc.poll(), self.log))
            time.sleep(0.02)

    def children(self):
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid), "-a"], capture_output=True, text=True).stdout
        return {l.split(None, 1)[1]: int(l.split()[0]) for l in out.splitlines()}

    def pid_of(self, what):
        for cmd, pid in self.children().items():
            if what in cmd:
                return pid
        sys.exit("latency: no %s among %s" % (what, self.children()))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def events(job, name):
    """The job's event log of one process (events-NAME.jsonl), parsed."""
    import glob
    import json
    out = []
    for path in glob.glob(os.path.join(job.dir, "chk", "*", "events-%s.jsonl" % name)):
        with open(path) as f:
            out += [json.loads(l) for l in f if l.strip()]
    return sorted(out, key=lambda e: e["t"])


def floor_publish(dirname, n=200):
    """Median ms of one durable publish of a 600-byte file."""
    os.makedirs(dirname, exist_ok=True)
    data = b"x" * 600
    took = []
    for i in range(n):
        t = time.perf_counter()
        tmp, final = os.path.join(dirname, ".t%d" % i), os.path.join(dirname, "f%d" % i)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, data)
        os.fsync(fd)
        os.close(fd)
        os.rename(tmp, final)
        dfd = os.open(dirname, os.O_RDONLY | os.O_DIRECTORY)
        os.fsync(dfd)
        os.close(dfd)
        took.append((time.perf_counter() - t) * 1000)
    shutil.rmtree(dirname, ignore_errors=True)
    return statistics.median(took)


def committer_fsyncs(bin_dir, work):
    """fsyncs of the committer per APPEND commit, write-only (no compaction
    or expiry: the commit's own), strace -c over 5 s; None without strace."""
    if not shutil.which("strace"):
        return None
    job = Job(bin_dir, work, "fsyncs", ["parallelism: 2", "execution.checkpointing.interval: 200ms",
                                        "datagen.rows-per-second: 20000", "write-only: true"])
    job.start()
    job.wait("Completed checkpoint", 3)
    pid = job.pid_of("zsink-committer")
    commits = lambda: sum(1 for l in job.lines() if "Successfully commit snapshot" in l)
    n0 = commits()
    st = subprocess.Popen(["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-p", str(pid)],
                          stderr=subprocess.PIPE, text=True)
    time.sleep(5)
    st.send_signal(signal.SIGINT)
    out = st.communicate()[1]
    n1 = commits()
    job.stop()
    m = re.search(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?fsync\s*$", out, re.M)
    return int(m.group(1)) / (n1 - n0) if m and n1 > n0 else None


def commit_case(bin_dir, work, secs):
    job = Job(bin_dir, work, "commit", ["parallelism: 2", "execution.checkpointing.interval: 1s",
                                        "datagen.rows-per-second: 20000"])
    job.start()
    job.wait("to RUNNING")
    time.sleep(secs)  # the measured window: the job runs this long
    job.stop()
    fsyncs = committer_fsyncs(bin_dir, work)
    # the event logs' clocks (wall, microseconds): the coordinator's
    # "complete" (chk-N durable, just before Notify) and the committer's
    # "commit" (snapshot N durable)
    done, lat, dur = {}, [], []
    for ev in events(job, "coordinator"):
        if ev["e"] == "complete":
            done[ev["id"]] = ev["t"]
            dur.append(ev["ms"])
    for ev in events(job, "committer"):
        if ev["e"] == "commit" and ev["id"] in done:
            lat.append(ev["t"] - done[ev["id"]])
    # the same from the log lines (millisecond clock; builds before issue
    # 15 emitted the "commit" event after the expiry, the log line not)
    logged, lat_log = {}, []
    for line in job.lines():
        m = re.search(r"Completed checkpoint (\d+) for job", line)
        if m:
            logged[m.group(1)] = ts(line)
        m = re.search(r"Successfully commit snapshot \d+ .* with identifier (\d+) and kind APPEND", line)
        if m and m.group(1) in logged:
            lat_log.append(ts(line) - logged[m.group(1)])
    lat, dur, lat_log = lat[2:], dur[2:], lat_log[2:]  # warm-up
    return {"commit p50": pct(lat, .5), "commit p99": pct(lat, .99),
            "commit p50, log lines": pct(lat_log, .5), "commit p99, log lines": pct(lat_log, .99),
            "checkpoint p50": pct(dur, .5),
            "checkpoint p99": pct(dur, .99), "fsyncs per commit": fsyncs, "commits": len(lat)}


def failover_case(bin_dir, work, interval, after_restore, kills=3):
    name = "failover-%s-%s" % (interval, "on" if after_restore else "off")
    lines = ["parallelism: 2", "execution.checkpointing.interval: " + interval, "datagen.rows-per-second: 20000",
             "restart-strategy.fixed-delay.delay: 0ms", "restart-strategy.fixed-delay.attempts: 100"]
    if after_restore:  # a build before issue 15 has no such key: "-"
        lines.append("execution.checkpointing.trigger-after-restore: true")
    job = Job(bin_dir, work, name, lines)
    job.start()
    end = time.time() + 10
    while after_restore and time.time() < end and not any("to RUNNING" in l for l in job.lines()):
        if job.proc.poll() is not None:  # the key refused (exit 2)
            return {"rows again": None, "checkpoint again": None}
        time.sleep(0.02)
    job.wait("Completed checkpoint")
    rows, ckpt = [], []
    for k in range(kills):
        at, _ = job.wait("switched from state RESTORING to RUNNING", k + 1)
        job.wait("Completed checkpoint", 1, 60, at)
        pid = job.pid_of("--index 0")
        mark = len(job.lines())
        t_kill = now_ms()
        os.kill(pid, signal.SIGKILL)
        i, line = job.wait("switched from state RESTORING to RUNNING", 1, 60, mark)
        rows.append(ts(line) - t_kill)
        _, line = job.wait("Completed checkpoint", 1, 60, i)
        ckpt.append(ts(line) - t_kill)
    job.stop()
    return {"rows again": statistics.median(rows), "checkpoint again": statistics.median(ckpt)}


def startup_case(bin_dir, work, runs=5):
    reg, snap, rereg = [], [], []
    for r in range(runs):
        job = Job(bin_dir, work, "startup-%d" % r, ["parallelism: 2", "execution.checkpointing.interval: 1s",
                                                   "datagen.rows-per-second: 0", "datagen.number-of-rows: 1000"])
        t0 = job.start()
        _, line = job.wait("switched from state CREATED to RESTORING")
        reg.append(ts(line) - t0)
        _, line = job.wait("Successfully commit snapshot")
        snap.append(ts(line) - t0)
        job.proc.wait(60)
    # a coordinator restart: kill -9 it, the cluster starts another
    job = Job(bin_dir, work, "startup-restart", ["parallelism: 2", "execution.checkpointing.interval: 1s",
                                                 "datagen.rows-per-second: 20000",
                                                 "restart-strategy.fixed-delay.delay: 0ms"])
    job.start()
    for k in range(3):
        job.wait("Completed checkpoint", k + 1)
        mark = len(job.lines())
        t_kill = now_ms()
        os.kill(job.pid_of("zsink-coordinator"), signal.SIGKILL)
        _, line = job.wait(r"switched from state (CREATED|RESTARTING) to RESTORING", 1, 60, mark)
        rereg.append(ts(line) - t_kill)
    job.stop()
    return {"launch -> all registered": statistics.median(reg),
            "launch -> first snapshot": statistics.median(snap),
            "coordinator kill -> all registered": statistics.median(rereg)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--secs", type=int, default=60)
    ap.add_argument("--base", help="another build's bin directory, measured side by side")
    ap.add_argument("--only", default="commit,failover,startup")
    a = ap.parse_args()
    bins = [("this build", os.environ.get("ZSINK_BIN", os.path.join(ROOT, "build/bin")))]
    if a.base:
        bins.append(("base", a.base))
    work = tempfile.mkdtemp(prefix="zsink-latency.")
    only = a.only.split(",")
    rows = []  # (figure, [value per build], floor)
    try:
        print("zsink latency benchmark, %d cores, %s" % (os.cpu_count(), time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime())))
        for label, b in bins:
            print("  %-10s %s (%s)" % (label, b, subprocess.run([os.path.join(b, "zsink"), "--version"],
                                                              capture_output=True, text=True).stdout.strip()))
        print()
        if "commit" in only:
            floor = floor_publish(os.path.join(work, "floor"))
            res = [commit_case(b, work, a.secs) for _, b in bins]
            for k in ("commit p50", "commit p99", "commit p50, log lines", "commit p99, log lines",
                      "checkpoint p50", "checkpoint p99"):
                rows.append((k + " (20k rows/s, 1 s)", [r[k] for r in res], floor if k == "commit p50" else None))
            rows.append(("committer fsyncs per commit (write-only)", [r["fsyncs per commit"] for r in res], None))
            rows.append(("commits measured", [r["commits"] for r in res], None))
        if "failover" in only:
            for interval in ("1s", "10s"):
                for on in (False, True):
                    res = [failover_case(b, work, interval, on) for _, b in bins]
                    tag = "%s, after-restore %s" % (interval, "on" if on else "off")
                    rows.append(("kill -> rows again (%s)" % tag, [r["rows again"] for r in res], None))
                    rows.append(("kill -> checkpoint again (%s)" % tag, [r["checkpoint again"] for r in res], None))
        if "startup" in only:
            res = [startup_case(b, work) for _, b in bins]
            for k in res[0]:
                rows.append((k, [r[k] for r in res], None))
        width = max(len(r[0]) for r in rows) + 2
        print("%-*s" % (width, "figure") + "".join("%14s" % l for l, _ in bins) + "%14s" % "floor")
        for name, vals, floor in rows:
            unit = "" if "fsyncs" in name or name.startswith("commits") else "ms"
            print("%-*s" % (width, name) + "".join("%14s" % fmt(v, unit) for v in vals) + "%14s" % fmt(floor))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
