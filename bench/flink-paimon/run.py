#!/usr/bin/env python3
"""bench/flink-paimon/run.py - zsink beside Flink + Paimon, the same jobs, one run.

    bench/flink-paimon/run.sh [SECONDS] [--only xmx,tput,ceiling,latency,kill,scenarios]
                              [--reps N] [--intervals 1,10] [--heaps 1g,512m,...]

(run.sh builds the Java side first if needed; README.md says what each figure is.)
Prints one table, a row per figure: zsink, Flink default, Flink tuned (where the case has it),
zsink/Flink for each; the raw figures go to OUT/results.json, every job's log and table
metadata stay in OUT (printed at the start).

The cases live in their own modules (cases_*.py: run(out, secs, R) fills R, table_rows(R, row,
g) adds the case's rows to the table, an optional extra_table(R) adds lines under it);
harness.py holds what they share. row(name, z, f, fmt, ratio=True, ft=None) takes numbers,
strings or harness.stats3() dicts (printed "median [min-max]"); ft is the tuned Flink's.
"""
import argparse
import datetime
import json
import os
import sys

import cases_ceiling
import cases_floor
import cases_kill
import cases_latency
import cases_scenarios
import cases_tput
import cases_xmx
from harness import BIN, FLINK_HEAP, HERE, say

# in the order they run and print
CASES = [("xmx", cases_xmx), ("tput", cases_tput), ("ceiling", cases_ceiling), ("floor", cases_floor),
         ("latency", cases_latency),
         ("kill", cases_kill), ("scenarios", cases_scenarios)]
# the -Xmx sweep is long (README): only when asked; it runs first so that the tuned column of
# tput and ceiling takes its choice
DEFAULT = [n for n, _ in CASES if n != "xmx"]


def cell(v, fmt):
    """a figure: None "-", a string as is, a number by fmt, a stats3() dict as
    "median [min-max]" (the median alone when there is one run)"""
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        if v.get("n", 1) > 1:
            return f"{fmt % v['med']} [{fmt % v['min']}-{fmt % v['max']}]"
        return fmt % v["med"]
    return fmt % v


def ratio_of(z, f):
    """z/f of numbers or of stats3() medians ("" when either is missing)"""
    z = z["med"] if isinstance(z, dict) else z
    f = f["med"] if isinstance(f, dict) else f
    if not isinstance(z, (int, float)) or not isinstance(f, (int, float)) or not f:
        return ""
    return ("%.2f" if z >= f / 10 else "%.3f") % (z / f)


def table(R, secs):
    rows_ = []

    def row(name, z, f, fmt="%.0f", ratio=True, ft=None, zw=None):
        """a figure of zsink, zsink write-only (zw, when the case has one), Flink default (f) and
        Flink tuned (ft, when the case has one); the tuned ratio is zw's where there is one, z's
        elsewhere; figures may be numbers, strings or stats3() dicts (median [min-max])"""
        zt = z if zw is None else zw
        rows_.append((name, cell(z, fmt), "" if zw is None else cell(zw, fmt), cell(f, fmt),
                      "" if ft is None else cell(ft, fmt), ratio_of(z, f) if ratio else "",
                      ratio_of(zt, ft) if ratio and ft is not None else ""))

    def g(k, f):
        return R.get(k, {}).get(f)

    for _, mod in CASES:
        mod.table_rows(R, row, g)
    w = max([len(r[0]) for r in rows_] + [10])
    c = max([len(x) for r in rows_ for x in r[1:5]] + [14])
    fmt = "%%-%ds %%%ds %%%ds %%%ds %%%ds %%7s %%8s" % (w, c, c, c, c)
    lines = [f"zsink vs Flink 2.0.0 + Paimon 2.0.0, {os.cpu_count()} cores, {secs}s per latency case, "
             f"throughput windows {max(2, secs // 2)}s (10 s checkpoints: 3 intervals), {R.get('reps', 1)} runs "
             f"each (median [min-max]), {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%MZ')}", "",
             fmt % ("figure", "zsink", "zsink", "Flink default", "Flink tuned", "ratio", "ratio"),
             fmt % ("", "", "write-only", "", "write-only", "z/F", "zwo/Ftun")]
    for r in rows_:
        lines.append(fmt % r)
    for _, mod in CASES:
        if hasattr(mod, "extra_table"):
            lines += mod.extra_table(R)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seconds", nargs="?", type=int, default=60)
    ap.add_argument("--only", default=",".join(DEFAULT))
    ap.add_argument("--reps", type=int, default=3, help="runs per throughput/ceiling/xmx figure")
    ap.add_argument("--intervals", default="1,10", help="checkpoint intervals (s) of the throughput case")
    ap.add_argument("--heaps", default=",".join(cases_xmx.HEAPS), help="-Xmx values of the xmx sweep")
    ap.add_argument("--out")
    a = ap.parse_args()
    unknown = set(a.only.split(",")) - {n for n, _ in CASES}
    if unknown or a.reps < 1:
        ap.error(f"--only: unknown case(s) {sorted(unknown)}" if unknown else "--reps: at least 1")
    out = a.out or os.path.join(HERE, "target", "runs", datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    say(f"bench/flink-paimon: output in {out}; zsink from {BIN}")
    R = {"seconds": a.seconds, "zsink_bin": BIN, "flink": "2.0.0", "paimon": "2.0.0", "flink_heap": FLINK_HEAP,
         "reps": a.reps, "intervals": [int(x) for x in a.intervals.split(",")], "heaps": a.heaps.split(",")}
    only = a.only.split(",")
    for name, mod in CASES:
        if name in only:
            try:
                mod.run(out, a.seconds, R)
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
