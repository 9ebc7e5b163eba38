#!/usr/bin/env python3
"""Kafka -> table figures of zsink, side by side with Flink's Kafka source -> Paimon's Flink sink.

    bench/kafka_bench.py --bootstrap HOST:PORT [--bin DIR] [--out DIR] [--rows N] [--runs K]
                         [--rate R] [--secs S] [--latency-parallelism P] [--warmup S]
                         [--only tput,latency] [--no-flink] [--zsink-set 'KEY: VALUE']...

Run by bench/kafka.sh, which builds what is missing and starts a broker of its own. Python 3
stdlib only; the tables are read with `zsink table` (it reads Paimon's tables as well as its own).

  tput     a topic of 4 partitions pre-filled with ids 1..N (default 2,000,000; zsink's default
           schema as JSON, keyed by id), read by a bounded job (scan.startup.mode earliest-offset,
           scan.bounded.mode latest-offset, 1 s checkpoints) at parallelism 1 and 2, K runs each
           (default 3), zsink and Flink alternating; the median of each figure:
             wall      the command's start (`zsink cluster`; `java ... KafkaPaimonJob`, which
                       starts its MiniCluster and submits the job) -> its exit, the table holding N
             rows/s    N / wall
             in-job    rows/s between the first and the last snapshot's commit (start-up left out:
                       a JVM and a MiniCluster on one side, four small processes on the other)
             CPU       user+sys of the command and everything it waited for (wait4's rusage:
                       zsink cluster and its coordinator, committer and writers; the one JVM),
                       seconds per million rows
  latency  the job first (unbounded, earliest-offset, 1 s checkpoints, write-only on both sides
           so that no compaction rewrites a file), its first checkpoint completed, then
           zsink-ktool produces ids 1..R*S at R rows/s (default 20,000 for 60 s) with --stamp-ts:
           every row's ts column is the wall clock when it was handed to the producer. Once the
           table holds every row the job is cancelled. Each data file belongs to the first APPEND
           snapshot committed at or after its mtime (the file is complete before its commit; with
           1 s checkpoints the next commit is a second later); the rows each snapshot gets that way
           are checked against its deltaRecordCount. A row's latency is its snapshot's timeMillis
           minus its ts: produce -> committed, both on this machine's wall clock. Rows produced
           in the first --warmup seconds (5) are left out; p50, p99, max. CPU: user+sys over the
           run, as a share of one core.

Writes OUT/results.json (every raw figure) and prints the table.
"""
import argparse
import atexit
import calendar
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLINK = os.path.join(ROOT, "bench", "flink-paimon")


def say(*a):
    print(*a, file=sys.stderr, flush=True)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None


# ---- processes ------------------------------------------------------------------------------

LIVE = []  # jobs started and not yet waited for: killed if this script exits early


@atexit.register
def _kill_live():
    for run in LIVE:
        if run.rc is None:
            run.proc.kill()


class Run:
    """One job command, timed from its start to its exit, with the CPU of its process tree."""

    def __init__(self, cmd, log):
        self.cmd = cmd
        self.log = log
        self.t0 = time.time()
        self.proc = subprocess.Popen(cmd, stdout=open(log, "w"), stderr=subprocess.STDOUT)
        self.rc = None
        LIVE.append(self)

    def finish(self, deadline_s, tick=None):
        """Waits for the exit (SIGKILL after deadline_s): wall s, CPU s, exit code. tick() is
        called every 20 ms meanwhile."""
        end = time.time() + deadline_s
        while True:
            if tick:
                tick()
            pid, status, ru = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                break
            if time.time() > end:
                say(f"kafka: {self.cmd[0]} still running after {deadline_s} s: killed; log {self.log}")
                self.proc.kill()
            time.sleep(0.02)
        self.wall = time.time() - self.t0
        self.cpu = ru.ru_utime + ru.ru_stime
        self.rc = os.waitstatus_to_exitcode(status)
        self.proc.returncode = self.rc
        return self.wall, self.cpu, self.rc

    def wait_line(self, pattern, deadline_s=120):
        rx = re.compile(pattern)
        end = time.time() + deadline_s
        while time.time() < end:
            with open(self.log, errors="replace") as f:
                if rx.search(f.read()):
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        sys.exit(f"kafka: no /{pattern}/ in {self.log}")


class Bench:
    def __init__(self, a):
        self.a = a
        self.bin = a.bin
        self.out = a.out
        self.results = {"machine": machine(), "args": vars(a), "tput": {}, "latency": {}}

    def ktool(self, *args):
        cmd = [os.path.join(self.bin, "zsink-ktool"), self.a.bootstrap, *map(str, args)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"kafka: {' '.join(cmd)}: {r.stderr.strip()}")
        return r.stdout

    def zsink(self, *args):
        r = subprocess.run([os.path.join(self.bin, "zsink"), *map(str, args)], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"kafka: zsink {' '.join(map(str, args))}: {r.stderr.strip()}")
        return r.stdout

    def snapshots(self, table):
        if not os.path.isdir(os.path.join(table, "snapshot")):
            return []
        return json.loads(self.zsink("table", "snapshots", table, "--json"))

    # ---- the two jobs -----------------------------------------------------------------------

    def zsink_job(self, d, topic, p, bounded, write_only=False):
        os.makedirs(d)
        y = os.path.join(d, "job.yaml")
        with open(y, "w") as f:
            f.write(f"""parallelism: {p}
source.kind: kafka
source.kafka.topic: {topic}
source.kafka.properties.bootstrap.servers: {self.a.bootstrap}
source.kafka.properties.group.id: {os.path.basename(d)}
source.kafka.scan.startup.mode: earliest-offset
source.kafka.scan.bounded.mode: {"latest-offset" if bounded else "unbounded"}
source.kafka.value.format: json
execution.checkpointing.interval: 1s
table.path: {d}/table
state.checkpoints.dir: {d}/chk
""" + ("write-only: true\n" if write_only else "") + "".join(x + "\n" for x in self.a.zsink_set))
        return Run([os.path.join(self.bin, "zsink"), "cluster", "-c", y], os.path.join(d, "log"))

    def flink_job(self, d, topic, p, bounded, write_only=False):
        os.makedirs(d)
        cp = open(os.path.join(FLINK, "target", "classpath.txt")).read().strip()
        jar = glob.glob(os.path.join(FLINK, "target", "jars", "paimon-flink-2.0-*.jar"))[0]
        cmd = ["java", "@" + os.path.join(FLINK, "jvm17.opts"), "-Xmx" + self.a.flink_heap,
               "-cp", ":".join([os.path.join(FLINK, "target", "classes"), jar, cp]),
               "zsink.bench.KafkaPaimonJob", "--table", f"{d}/table", "--bootstrap", self.a.bootstrap,
               "--topic", topic, "--group", os.path.basename(d), "--parallelism", str(p),
               "--interval-ms", "1000", "--bounded", str(bounded).lower(),
               "--write-only", str(write_only).lower()]
        return Run(cmd, os.path.join(d, "log"))

    def systems(self):
        return ["zsink"] + ([] if self.a.no_flink else ["flink"])

    def job(self, system, *args, **kw):
        return (self.zsink_job if system == "zsink" else self.flink_job)(*args, **kw)

    # ---- throughput -------------------------------------------------------------------------

    def tput(self):
        n = self.a.rows
        topic = f"tput-{n}-{int(time.time())}"
        say(f"tput: topic {topic}, 4 partitions, ids 1..{n} (load {loadavg()})")
        self.ktool("create", topic, 4)
        t = time.time()
        self.ktool("produce", topic, "--from", 1, "--to", n + 1, "--keyed")
        say(f"tput: produced {n} rows in {time.time() - t:.1f} s")
        for p in (1, 2):
            for r in range(self.a.runs):
                for s in self.systems():
                    d = os.path.join(self.out, f"tput-{s}-p{p}-{r}")
                    load = loadavg()
                    run = self.job(s, d, topic, p, True)
                    first_cpu = []  # the process tree's CPU when the first snapshot appears

                    def tick():
                        if not first_cpu and os.path.exists(f"{d}/table/snapshot/snapshot-1"):
                            first_cpu.append(tree_cpu(run.proc.pid))
                    wall, cpu, rc = run.finish(600, tick)
                    snaps = self.snapshots(f"{d}/table")
                    count = snaps[-1]["total_record_count"] if snaps else 0
                    if rc != 0 or count != n:
                        sys.exit(f"kafka: {s} p={p}: exit {rc}, {count} rows of {n}; log {run.log}")
                    first, last = snaps[0], snaps[-1]
                    span = (last["time_millis"] - first["time_millis"]) / 1000
                    # meaningless when the first commit holds most of the rows, or all commits
                    # fall within a second
                    injob = (n - first["total_record_count"]) / span \
                        if first["total_record_count"] < n / 2 and span >= 1 else None
                    after = n - first["total_record_count"]
                    steady = (cpu - first_cpu[0]) / after * 1e6 if first_cpu and after > n / 2 else None
                    fig = {"wall_s": wall, "rows_per_s": n / wall, "injob_rows_per_s": injob,
                           "cpu_s_per_mrows_after_first_commit": steady,
                           "cpu_s": cpu, "cpu_s_per_mrows": cpu / n * 1e6, "load": load}
                    self.results["tput"].setdefault(f"{s}_p{p}", []).append(fig)
                    say(f"tput {s} p={p} run {r + 1}: {wall:.1f} s, {n / wall:,.0f} rows/s, "
                        f"in-job {injob or 0:,.0f} rows/s, CPU {cpu:.1f} s (load {load})")

    # ---- latency ----------------------------------------------------------------------------

    def latency(self):
        rate, secs, p = self.a.rate, self.a.secs, self.a.latency_parallelism
        n = rate * secs
        for s in self.systems():
            topic = f"lat-{s}-{int(time.time())}"
            self.ktool("create", topic, 4)
            d = os.path.join(self.out, f"latency-{s}")
            load = loadavg()
            run = self.job(s, d, topic, p, False, write_only=True)
            run.wait_line(r"Completed checkpoint \d+ for job")
            say(f"latency {s}: job up, producing {rate} rows/s for {secs} s (load {load})")
            t_produce = time.time()
            cpu0 = tree_cpu(run.proc.pid)
            self.ktool("produce", topic, "--from", 1, "--to", n + 1, "--keyed", "--rate", rate, "--stamp-ts")
            end = time.time() + 120
            while True:
                snaps = self.snapshots(f"{d}/table")
                if snaps and snaps[-1]["total_record_count"] >= n:
                    cpu_window = tree_cpu(run.proc.pid) - cpu0
                    t_window = time.time() - t_produce
                    break
                if time.time() > end or run.proc.poll() is not None:
                    sys.exit(f"kafka: latency {s}: the table did not get {n} rows; log {run.log}")
                time.sleep(0.2)
            run.proc.terminate()
            wall, cpu, rc = run.finish(120)
            fig = attribute(self, f"{d}/table", snaps, t_produce * 1000 + self.a.warmup * 1000)
            fig.update({"cpu_s": cpu, "wall_s": wall, "load": load, "rows": n,
                        "cpu_s_window": cpu_window, "window_s": t_window,
                        "core_share_while_producing": cpu_window / t_window})
            self.results["latency"][s] = fig
            say(f"latency {s}: p50 {fig['p50_ms']} ms, p99 {fig['p99_ms']} ms, max {fig['max_ms']} ms "
                f"({fig['rows_measured']} rows; attribution {fig['attribution']})")


def attribute(b, table, snaps, warm_ms):
    """Each row -> the APPEND snapshot that added its data file; its latency = that snapshot's
    commit time - the row's ts. The data files sorted by mtime are the snapshots' deltas in
    order (a writer closes its file at a checkpoint's barrier, and the next checkpoint starts
    only once this one is complete, on both sides): each snapshot takes the next files until
    their rows make its deltaRecordCount, exactly, else the attribution is a mismatch.
    Commit time: the snapshot file's mtime (when it was written; a snapshot's timeMillis is
    taken before that: both are kept)."""
    appends = sorted((s for s in snaps if s["commit_kind"] == "APPEND"), key=lambda s: s["id"])
    files = sorted(glob.glob(os.path.join(table, "bucket-*", "*.parquet")), key=lambda f: os.stat(f).st_mtime_ns)
    lat, lat_tm, bad, i = [], [], None, 0
    for snap in appends:
        commit = os.stat(os.path.join(table, "snapshot", f"snapshot-{snap['id']}")).st_mtime_ns // 1_000_000
        got = 0
        while got < snap["delta_record_count"] and i < len(files):
            rows = b.zsink("table", "scan", files[i], "--format", "csv").splitlines()[1:]
            i += 1
            got += len(rows)
            for line in rows:
                ts = line.rsplit(",", 1)[1]
                ms = calendar.timegm(time.strptime(ts[:19], "%Y-%m-%d %H:%M:%S")) * 1000 + int(ts[20:23])
                if ms >= warm_ms:
                    lat.append(commit - ms)
                    lat_tm.append(snap["time_millis"] - ms)
        if got != snap["delta_record_count"]:
            bad = f"MISMATCH at snapshot {snap['id']}: its files hold {got} rows, it says {snap['delta_record_count']}"
            break
    return {"p50_ms": pct(lat, 0.5), "p99_ms": pct(lat, 0.99), "max_ms": max(lat) if lat else None,
            "mean_ms": round(statistics.mean(lat)) if lat else None, "rows_measured": len(lat),
            "p50_ms_timemillis": pct(lat_tm, 0.5), "p99_ms_timemillis": pct(lat_tm, 0.99),
            "snapshots": len(appends), "attribution": bad or "checked (every snapshot's deltaRecordCount)"}


def tree_cpu(root):
    """user+sys seconds of root and its live descendants (/proc/PID/stat)."""
    tick = os.sysconf("SC_CLK_TCK")
    stat = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    v = f.read().rsplit(")", 1)[1].split()
                stat[int(d)] = (int(v[1]), int(v[11]) + int(v[12]))
            except (OSError, IndexError):
                pass
    todo, total = [root], 0
    while todo:
        pid = todo.pop()
        total += stat.get(pid, (0, 0))[1]
        todo += [c for c, (pp, _) in stat.items() if pp == pid]
    return total / tick


# ---- report -----------------------------------------------------------------------------------

def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return {"cores": os.cpu_count(), "cpu": cpu, "kernel": os.uname().release}


def report(res):
    def med(xs, k):
        vals = [x[k] for x in xs or () if x.get(k) is not None]
        return statistics.median(vals) if vals else None

    rows = []
    for p in (1, 2):
        z, f = res["tput"].get(f"zsink_p{p}"), res["tput"].get(f"flink_p{p}")
        for label, k, unit, nd in (("rows/s, start -> exit", "rows_per_s", "", 0),
                                   ("rows/s in job (1st -> last commit)", "injob_rows_per_s", "", 0),
                                   ("wall s, start -> exit", "wall_s", " s", 1),
                                   ("CPU s per million rows", "cpu_s_per_mrows", " s", 2),
                                   ("CPU s per M rows after the 1st commit", "cpu_s_per_mrows_after_first_commit",
                                    " s", 2)):
            if z or f:
                rows.append((f"p={p} {label}", med(z, k), med(f, k), unit, nd))
    spread = []
    for p in (1, 2):
        for sys_ in ("zsink", "flink"):
            xs = res["tput"].get(f"{sys_}_p{p}")
            if xs:
                w = sorted(x["wall_s"] for x in xs)
                spread.append(f"{sys_} p={p} {w[0]:.1f}-{w[-1]:.1f} s")
    lz, lf = res["latency"].get("zsink"), res["latency"].get("flink")
    for label, k, unit, nd in (("latency p50 produce -> committed", "p50_ms", " ms", 0),
                               ("latency p99 produce -> committed", "p99_ms", " ms", 0),
                               ("latency max", "max_ms", " ms", 0),
                               ("CPU while producing, cores", "core_share_while_producing", "", 2)):
        if lz or lf:
            rows.append((label, lz and lz[k], lf and lf[k], unit, nd))
    a = res["args"]
    out = [f"Kafka -> table, zsink vs Flink 2.0.0 (flink-connector-kafka 4.0.1-2.0) + Paimon 2.0.0; "
           f"{res['machine']['cores']} cores ({res['machine']['cpu']}); tput: {a['rows']:,} rows, "
           f"4 partitions, median of {a['runs']}; latency: {a['rate']:,} rows/s for {a['secs']} s, "
           f"p={a['latency_parallelism']}, 1 s checkpoints",
           f"{'figure':44} {'zsink':>12} {'Flink+Paimon':>14} {'zsink/Flink':>12}"]
    for label, z, f, unit, nd in rows:
        fmt = lambda v: "-" if v is None else (f"{v:,.{nd}f}" + unit)
        ratio = f"{z / f:.2f}" if z is not None and f else "-"
        out.append(f"{label:44} {fmt(z):>12} {fmt(f):>14} {ratio:>12}")
    if lz or lf:
        out.append("floor of 1 s checkpoints (a row produced at a uniform moment waits for the next one, "
                   "commit instant): p50 500 ms, p99 990 ms")
    if spread:
        out.append("wall, fastest-slowest run: " + ", ".join(spread))
    loads = [x["load"] for v in res["tput"].values() for x in v] + [v["load"] for v in res["latency"].values()]
    out.append(f"load average (1/5/15 min) at each job's start: {', '.join(loads)}")
    for s, v in res["latency"].items():
        out.append(f"latency {s}: {v['rows_measured']:,} rows measured in {v['snapshots']} snapshots, "
                   f"attribution {v['attribution']}")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rate", type=int, default=20_000)
    ap.add_argument("--secs", type=int, default=60)
    ap.add_argument("--latency-parallelism", type=int, default=2)
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--only", default="tput,latency")
    ap.add_argument("--no-flink", action="store_true")
    ap.add_argument("--zsink-set", action="append", default=[], metavar="'KEY: VALUE'",
                    help="a line added to each zsink job's yaml (e.g. a source.kafka.properties.* key)")
    ap.add_argument("--flink-heap", default=os.environ.get("FLINK_HEAP", "1g"))
    a = ap.parse_args()
    a.out = a.out or os.path.join(ROOT, "build", "bench-kafka", time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
    os.makedirs(a.out, exist_ok=True)
    say(f"kafka: output in {a.out}")
    b = Bench(a)
    for case in a.only.split(","):
        {"tput": b.tput, "latency": b.latency}[case]()
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(b.results, f, indent=1)
    text = report(b.results)
    with open(os.path.join(a.out, "table.txt"), "w") as f:
        f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
