#!/usr/bin/env python3
"""s3_report.py LOGS ROWS RUNS - the figures of bench/s3.sh from its logs.

LOGS holds, per run, TAG.log (`zsink cluster`'s output: every role's log
lines, UTC timestamps to the millisecond), for the proxy's runs
proxy-pP.requests (tests/tools/s3proxy.py's log lines of that run) and for
the recovery runs recover-R.times ("T0 T1 N": epoch ms before and after
`s3-server.sh restart`, snapshots committed before it). What each figure
means: bench/s3.sh's header and docs/performance.md.
"""
import datetime
import os
import re
import sys

TS = r"(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d\.\d+)"


def ms(s):
    s = s.replace("T", " ").rstrip("Z")
    d = datetime.datetime.strptime(s, "%Y-%m-%d %H:%M:%S.%f")
    return d.replace(tzinfo=datetime.timezone.utc).timestamp() * 1000


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else None


def parse_job(path):
    j = dict(start=None, finishing=None, finished=None, trig={}, rows={}, done={},
             dur={}, commit=[], commit_by_id={})
    for line in open(path, errors="replace"):
        m = re.search(r"\| " + TS + " ", line)
        if not m:
            continue
        t = ms(m.group(1))
        if j["start"] is None:
            j["start"] = t
        if "to FINISHING." in line:
            j["finishing"] = t
        elif "to FINISHED." in line:
            j["finished"] = t
        elif m2 := re.search(r"Triggering checkpoint (\d+) @", line):
            j["trig"][int(m2.group(1))] = t
        elif m2 := re.search(r"Barrier (\d+): \d+ files, (\d+) rows in checkpoint", line):
            n = int(m2.group(1))
            j["rows"][n] = j["rows"].get(n, 0) + int(m2.group(2))
        elif m2 := re.search(r"Completed checkpoint (\d+) .*, (\d+) ms\)", line):
            j["done"][int(m2.group(1))] = t
            j["dur"][int(m2.group(1))] = int(m2.group(2))
        elif m2 := re.search(r"Successfully commit snapshot \d+ .* with identifier (\d+) and kind", line):
            j["commit"].append(t)
            j["commit_by_id"].setdefault(int(m2.group(1)), t)
    # the last checkpoint triggered while the job was RUNNING
    running = [n for n, t in j["trig"].items() if j["finishing"] is None or t < j["finishing"]]
    j["last"] = max(running) if running else 0
    return j


def job_figures(j, rows):
    e2e = rows / ((j["finished"] - j["start"]) / 1000)
    k = j["last"]
    steady = None
    if k >= 2 and 1 in j["trig"]:
        steady = sum(j["rows"].get(n, 0) for n in range(2, k + 1)) / ((j["trig"][k] - j["trig"][1]) / 1000)
    lat = [j["commit_by_id"][n] - j["done"][n] for n in j["done"] if n in j["commit_by_id"]]
    return e2e, steady, lat, list(j["dur"].values())


def mmm(xs, fmt="%.0f"):
    xs = sorted(x for x in xs if x is not None)
    if not xs:
        return "-"
    return "/".join(fmt % x for x in (xs[0], xs[(len(xs) - 1) // 2], xs[-1]))


def throughput(logs, rows, runs):
    print("\nmin/median/max over %d runs; latencies pooled over every checkpoint of the runs" % runs)
    print("%-34s %28s %28s %7s" % ("figure", "local disk", "S3 (SeaweedFS)", "S3/local"))
    for p in (1, 2):
        fig = {}
        for where in ("local", "s3"):
            e2e, steady, lat, dur = [], [], [], []
            for r in range(1, runs + 1):
                f = job_figures(parse_job(os.path.join(logs, "%s-p%d-%d.log" % (where, p, r))), rows)
                e2e.append(f[0])
                steady.append(f[1])
                lat += f[2]
                dur += f[3]
            fig[where] = dict(e2e=e2e, steady=steady, lat=lat, dur=dur)

        def row(name, key, fn, fmt="%.0f"):
            """fn None: min/median/max of the runs' figures; else fn of the pool"""
            cells, med = [], []
            for w in ("local", "s3"):
                xs = [x for x in fig[w][key] if x is not None]
                v = pct(xs, 0.5) if fn is None else (fn(xs) if xs else None)
                med.append(v)
                cells.append(mmm(xs, fmt) if fn is None else ("-" if v is None else fmt % v))
            ratio = "%.2f" % (med[1] / med[0]) if med[0] and med[1] is not None else "-"
            print("%-34s %28s %28s %7s" % (name, cells[0], cells[1], ratio))

        row("rows/s end to end, p=%d" % p, "e2e", None)
        row("rows/s checkpoints (steady), p=%d" % p, "steady", None)
        n = len(fig["s3"]["lat"])
        row("commit p50 ms, p=%d (%d/%d commits)" % (p, len(fig["local"]["lat"]), n), "lat", lambda x: pct(x, 0.5))
        row("commit p99 ms, p=%d" % p, "lat", lambda x: pct(x, 0.99))
        row("checkpoint p50 ms, p=%d" % p, "dur", lambda x: pct(x, 0.5))
        row("checkpoint p99 ms, p=%d" % p, "dur", lambda x: pct(x, 0.99))


def what(method, path, q, prefix):
    """A request's kind: the key with its job's names taken out."""
    key = re.sub(r"^/[^/]+/[^/]+/", "", path)  # /bench/TAG/
    norm = lambda s: re.sub(r"\d+", "N", re.sub(r"[0-9a-f]{32}", "JOB",
                            re.sub(r"[0-9a-f]{8}(-[0-9a-f]{4,12})+", "U", s)))
    if "list-type" in q:
        return "LIST", norm(re.sub(r"^[^/]+/", "", prefix or "")) + "*"
    if "uploads" in q and method == "GET":
        return "LIST", "multipart uploads " + norm(re.sub(r"^[^/]+/", "", prefix or "")) + "*"
    if re.search(r"bucket-\d+/data-[^/]*\.parquet$", key):
        k = "data file"
        if "partNumber" in q:
            k += " part"
        elif "uploads" in q:
            k += " (multipart start)"
        elif "uploadId" in q:
            k += " (multipart %s)" % ("complete" if method == "POST" else "abort")
        return method, k
    return method, norm(key)


def requests(path, job):
    """[[t, method, kind, bytes up, bytes down]] from one proxy log."""
    out, last = [], {}
    for line in open(path):
        f = line.split()
        if len(f) < 5:
            continue
        t, conn, ev = ms(f[0]), f[1], f[2]
        if ev == "req":
            q = next((x[2:] for x in f[5:] if x.startswith("q=")), "")
            prefix = next((x[7:] for x in f[5:] if x.startswith("prefix=")), None)
            last[conn] = [t] + list(what(f[3], f[4], q.split(","), prefix)) + [0, 0]
            out.append(last[conn])
        elif ev == "sizes" and conn in last:
            last[conn][3] = int(f[6][3:])
            last[conn][4] = int(f[7][5:])
    return out


def per_commit(logs):
    for p in (1, 2):
        j = parse_job(os.path.join(logs, "proxy-p%d.log" % p))
        reqs = requests(os.path.join(logs, "proxy-p%d.requests" % p), j)
        k = j["last"]
        if k < 2 or 1 not in j["done"] or k not in j["done"]:
            print("\np=%d through the proxy: fewer than 2 checkpoints while running: no steady state" % p)
            continue
        lo, hi, n = j["done"][1], j["done"][k], k - 1
        win = [r for r in reqs if lo < r[0] <= hi]
        # the commit's window: Completed checkpoint N -> identifier N; data
        # transfers in it are the writers' and the compaction's
        cw = [r for r in reqs if not (r[2].startswith("data file") and r[1] != "HEAD")
              and any(j["done"][c] <= r[0] <= j["commit_by_id"].get(c, -1) for c in range(2, k + 1))]
        agg = {}
        for r in win:
            a = agg.setdefault((r[1], r[2]), [0, 0, 0, 0])
            a[0] += 1
            a[1] += r[3]
            a[2] += r[4]
        for r in cw:
            agg.setdefault((r[1], r[2]), [0, 0, 0, 0])[3] += 1
        print("\np=%d through the proxy: requests per checkpoint, checkpoints 2..%d (completed(1) -> completed(%d), %.1f s; %d requests in all)"
              % (p, k, k, (hi - lo) / 1000, len(reqs)))
        print("%-7s %-52s %9s %11s %11s %9s" % ("method", "what", "req/ckpt", "KB up", "KB down", "in commit"))
        tot = [0, 0, 0, 0]
        meta = [0, 0, 0, 0]
        for (m, w), a in sorted(agg.items(), key=lambda kv: (-kv[1][0], kv[0])):
            print("%-7s %-52s %9.1f %11.1f %11.1f %9.1f" % (m, w, a[0] / n, a[1] / n / 1024, a[2] / n / 1024, a[3] / n))
            for i in range(4):
                tot[i] += a[i]
                if not w.startswith("data file"):
                    meta[i] += a[i]
        for name, a in (("all", tot), ("all but data files", meta)):
            print("%-7s %-52s %9.1f %11.1f %11.1f %9.1f" % ("", name, a[0] / n, a[1] / n / 1024, a[2] / n / 1024, a[3] / n))


def recovery(logs, runs):
    ready, first, after = [], [], []
    for r in range(1, runs + 1):
        t0, t1, n = (int(x) for x in open(os.path.join(logs, "recover-%d.times" % r)).read().split())
        j = parse_job(os.path.join(logs, "recover-%d.log" % r))
        tc = j["commit"][n]
        ready.append(t1 - t0)
        first.append(tc - t0)
        after.append(tc - t1)
    print("\nS3 server kill -9 + restart under a running job (2 writers, 20,000 rows/s), %d runs, min/median/max ms" % runs)
    print("%-52s %s" % ("restart command -> server ready", mmm(ready)))
    print("%-52s %s" % ("restart command -> first snapshot committed", mmm(first)))
    print("%-52s %s" % ("server ready -> first snapshot committed", mmm(after)))


def main():
    logs, rows, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    throughput(logs, rows, runs)
    per_commit(logs)
    recovery(logs, runs)


if __name__ == "__main__":
    main()
