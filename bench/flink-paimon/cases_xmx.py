"""bench/flink-paimon/cases_xmx.py - the smallest -Xmx that keeps the tuned Flink's throughput.

The tuned Flink (cases_tput's configuration) at full speed, 1 s checkpoints, p=1 and p=2, once
per heap of --heaps per repetition (the heaps interleaved: rep 1 of every heap, then rep 2...),
each with a GC log (-Xlog:gc*) kept in its directory. Per heap: rows/s committed, RSS peak,
GC pauses summed, cores, rows per CPU-second; a run whose log has an OutOfMemoryError or a
restart does not count. The choice for each p, the smallest heap whose median rows/s is within
5 % of the best median, goes to R["xmx_choice"], which the tuned column of tput and ceiling
take when they run after it in the same run.py.
"""
import cases_tput
from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases

HEAPS = ["1g", "768m", "512m", "384m", "256m", "192m", "128m"]
WITHIN = 0.05


def mb(heap):
    n, u = float(heap[:-1]), heap[-1].lower()
    return n * {"g": 1024, "m": 1, "k": 1 / 1024}[u]


def run(out, secs, R):
    w = cases_tput.window(secs, 1)
    heaps = sorted(R.get("heaps", HEAPS), key=mb, reverse=True)
    R.setdefault("xmx_choice", {})
    for par in (1, 2):
        res = R[f"xmx_p{par}"] = {h: [] for h in heaps}
        for rep in range(R.get("reps", 3)):
            for h in heaps:
                d = f"{out}/xmx-p{par}-{h}-{rep}"
                say(f"xmx sweep p={par}, run {rep + 1}: tuned Flink -Xmx{h} ({w}s window)")
                cmd, _ = cases_tput.flink_cmd(d, R, par, 1, True, heap=h)
                r = cases_tput.measure(cmd, d, w, 90)
                r["heap"] = h
                r["ok"] = r.get("rows_per_s") is not None and not r["oom"] and not r["restarts"]
                say("  -Xmx%s: %s rows/s, RSS %.0f MB, GC %s pauses %s ms%s" % (
                    h, "-" if r.get("rows_per_s") is None else "%.0f" % r["rows_per_s"], r["rss_peak_mb"],
                    r.get("gc_pauses"), "-" if r.get("gc_pause_ms") is None else "%.0f" % r["gc_pause_ms"],
                    "" if r["ok"] else " (failed: OOM, restart or no snapshots)"))
                res[h].append(r)
        h = choose(res)
        if h:
            R["xmx_choice"][str(par)] = h
            say(f"xmx sweep p={par}: -Xmx{h}")


def choose(res):
    """{heap: [run, ...]} -> the smallest heap whose runs all count and whose median rows/s is
    within WITHIN of the best such median (None: no heap qualifies)"""
    ok = {}
    for h, rs in res.items():
        m = stats3([r["rows_per_s"] for r in rs if r["ok"]])
        if m and m["n"] == len(rs):
            ok[h] = m["med"]
    if not ok:
        return None
    best = max(ok.values())
    return min((h for h, v in ok.items() if v >= (1 - WITHIN) * best), key=mb)


def table_rows(R, row, g):
    for par in (1, 2):
        if str(par) in R.get("xmx_choice", {}):
            row(f"tuned Flink -Xmx (sweep: smallest within 5 %), p={par}", None, None, "%s", ratio=False,
                ft=R["xmx_choice"][str(par)])


def extra_table(R):
    if not any(f"xmx_p{par}" in R for par in (1, 2)):
        return []
    lines = ["", "-Xmx sweep of the tuned Flink (full speed, 1 s checkpoints; median [min-max] of ok runs; "
             "GC: stop-the-world pauses summed over the whole run)", "",
             "%-3s %-6s %24s %18s %12s %16s %10s %6s" % ("p", "-Xmx", "k rows/s", "RSS peak MB", "cores",
                                                       "k rows/CPU-s", "GC ms", "ok")]
    for par in (1, 2):
        for h, rs in R.get(f"xmx_p{par}", {}).items():
            good = [r for r in rs if r["ok"]]

            def c(f, k=1, fmt="%.0f"):
                st = stats3([r.get(f) / k if r.get(f) is not None else None for r in good])
                if st is None:
                    return "-"
                return fmt % st["med"] + (f" [{fmt % st['min']}-{fmt % st['max']}]" if st["n"] > 1 else "")
            mark = " <-" if R.get("xmx_choice", {}).get(str(par)) == h else ""
            lines.append("%-3s %-6s %24s %18s %12s %16s %10s %6s%s" % (
                par, h, c("rows_per_s", 1e3), c("rss_peak_mb"), c("cores", 1, "%.2f"),
                c("rows_per_cpu_s", 1e3), c("gc_pause_ms"),
                f"{len(good)}/{len(rs)}" + (" OOM" if any(r["oom"] for r in rs) else ""), mark))
    return lines
