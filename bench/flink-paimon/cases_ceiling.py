"""bench/flink-paimon/cases_ceiling.py - the source-only ceiling: the same generator into a sink
that drops every row, on both sides, so the sink's share of the throughput ratio is visible.

zsink: datagen at full speed into `sink.kind: blackhole` (rows read, dropped; checkpoints as
usual); rows/s is the least-squares slope of `rows_read` of `zsink status --json`, polled
every 0.5 s over the window. Flink: FlinkPaimonJob --sink discard (the generator into Flink's
DiscardingSink, no table), default and tuned configuration; rows/s is the slope of the
`HARNESS rows <ms> <n>` lines it prints every 500 ms. Both 1 s checkpoints, p=1 and 2, the
window W = SECONDS/4 (15 s by default: the rate is steady, no snapshots to wait for) after
WARMUP_S, CPU of the process tree between the first and last point.
"""
import json
import os
import re
import subprocess
import time

import cases_tput
from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases

ROWS_LINE = re.compile(r"^HARNESS rows (\d+) (\d+)$", re.M)
SIDES = ("zsink", "flink", "flink_tuned")  # no sink: no write-only zsink


def zsink_rows(d):
    r = subprocess.run([f"{BIN}/zsink", "status", "-c", f"{d}/job.yaml", "--json"], capture_output=True, text=True)
    try:
        return json.loads(r.stdout).get("rows_read")
    except ValueError:
        return None


def no_blackhole(d):
    log = open(f"{d}/log", errors="replace").read()
    return "sink.kind" in log and ("unknown" in log.lower() or "not a" in log.lower())


def zsink_run(d, par, w):
    cmd = cases_tput.zsink_cmd(d, par, 1, **{"sink.kind": "blackhole"})
    pts = []
    with sampled(cmd, f"{d}/log") as (p, ps):
        end = time.time() + 60  # status forks a process: asked every 0.25 s, not wait_for's 20 ms
        while p.poll() is None and not (zsink_rows(d) or 0) > 0:
            if time.time() > end:
                raise RuntimeError(f"zsink read no rows in 60 s (see {d}/log)")
            time.sleep(0.25)
        if p.poll() is None:
            time.sleep(WARMUP_S)
            end = time.time() + w
            while time.time() < end:
                t0 = now_ms()
                n = zsink_rows(d)
                if n is not None:
                    pts.append(((t0 + now_ms()) / 2, n))
                time.sleep(0.5)
    if not pts:
        why = ("this zsink has no `sink.kind: blackhole` (ZSINK_BIN: a build with it)"
               if no_blackhole(d) else f"zsink reported no rows (see {d}/log)")
        return {"error": why}
    return figures(pts, ps)


def flink_run(d, R, par, w, tuned):
    cmd, heap = cases_tput.flink_cmd(d, R, par, 1, tuned, sink="discard")
    with sampled(cmd, f"{d}/log") as (p, ps):
        wait_for(lambda: p.poll() is not None or any(int(n) > 0 for _, n in ROWS_LINE.findall(
            open(f"{d}/log", errors="replace").read())), 120, "Flink's first rows")
        t_first = now_ms()
        live_for(p, WARMUP_S + w + 1.0)
    pts = [(int(t), int(n)) for t, n in ROWS_LINE.findall(open(f"{d}/log", errors="replace").read())]
    pts = [x for x in pts if t_first + WARMUP_S * 1000 <= x[0] <= t_first + (WARMUP_S + w) * 1000]
    r = figures(pts, ps) if len(pts) >= 2 else {"error": f"Flink printed no rows (see {d}/log)"}
    r["heap"] = heap
    r["gc_pauses"], r["gc_pause_ms"] = gc_pauses(f"{d}/gc.log")
    return r


def figures(pts, ps):
    rate = slope(pts)
    span = (pts[-1][0] - pts[0][0]) / 1000.0
    cpu = ps.cpu_between(pts[0][0], pts[-1][0])
    cores = cpu / span if cpu is not None and span > 0 else None
    return {"rows_per_s": rate, "span_s": span, "points": len(pts), "cpu_s": cpu, "cores": cores,
            "rows_per_cpu_s": rate / cores if rate and cores else None, "rss_peak_mb": ps.peak / 1024.0}


def run(out, secs, R):
    w = max(2, secs // 4)
    for par in (1, 2):
        key = f"ceiling_p{par}"
        R[key] = {s: [] for s in SIDES}
        for rep in range(R.get("reps", 3)):
            for side in SIDES:
                d = f"{out}/ceiling-p{par}-{side}-{rep}"
                os.makedirs(d, exist_ok=True)
                say(f"ceiling p={par}, run {rep + 1}: {side}, source -> discard ({w}s window)")
                r = zsink_run(d, par, w) if side == "zsink" else flink_run(d, R, par, w, side == "flink_tuned")
                say("  " + (r["error"] if "error" in r else "%s: %.0f rows/s, %.2f cores" % (
                    side, r["rows_per_s"] or 0, r["cores"] or 0)))
                R[key][side].append(r)


def table_rows(R, row, g):
    for par in (1, 2):
        key = f"ceiling_p{par}"
        if key not in R:
            continue
        for f, label, fmt, scale in (("rows_per_s", "ceiling k rows/s (source -> discard)", "%.0f", 1e3),
                                     ("cores", "ceiling cores used", "%.2f", 1),
                                     ("rows_per_cpu_s", "ceiling k rows per CPU-second", "%.0f", 1e3)):
            z, fd, ft = (cases_tput.scaled(cases_tput.fig(R, key, s, f), scale) for s in SIDES)
            if z is None:
                errs = [r["error"] for r in R[key]["zsink"] if "error" in r]
                z = "-" if not errs else "- (see below)"
            row(f"{label}, p={par}", z, fd, fmt, ft=ft)
        # what the sink leaves of the source's speed: committed rows/s (1 s checkpoints) / ceiling
        tk = f"tput_p{par}_i1"
        if tk in R:
            share = []
            for s in SIDES:
                t, c = cases_tput.fig(R, tk, s, "rows_per_s"), cases_tput.fig(R, key, s, "rows_per_s")
                share.append("%.3f" % (t["med"] / c["med"]) if t and c and c["med"] else "-")
            row(f"committed (1 s ckpt) / ceiling rows/s, p={par}", share[0], share[1], ratio=False, ft=share[2])


def extra_table(R):
    errs = sorted({r["error"] for par in (1, 2) for s in SIDES
                   for r in R.get(f"ceiling_p{par}", {}).get(s, []) if "error" in r})
    return [""] + ["ceiling: " + e for e in errs] if errs else []
