#!/usr/bin/env python3
"""bench/flink-paimon/run.py - zsink beside Flink + Paimon, the same jobs, one run.

    bench/flink-paimon/run.sh [SECONDS] [--only tput,latency,kill,scenarios]

(run.sh builds the Java side first if needed; README.md says what each figure is.)
Prints one table, a row per figure: zsink, Flink + Paimon, zsink/Flink; the raw figures go to
OUT/results.json, every job's log and table stay in OUT (printed at the start).

The cases live in their own modules (cases_*.py: run(out, secs, R) fills R, table_rows(R, row,
g) adds the case's rows to the table); harness.py holds what they share.
"""
import argparse
import datetime
import json
import os
import sys

import cases_kill
import cases_latency
import cases_scenarios
import cases_tput
from harness import BIN, FLINK_HEAP, HERE, say

# in the order they run and print
CASES = [("tput", cases_tput), ("latency", cases_latency), ("kill", cases_kill), ("scenarios", cases_scenarios)]


def table(R, secs):
    rows_ = []

    def row(name, z, f, fmt="%.0f", ratio=True):
        zs = "-" if z is None else (fmt % z if not isinstance(z, str) else z)
        fs = "-" if f is None else (fmt % f if not isinstance(f, str) else f)
        rt = ("%.2f" if z >= f / 10 else "%.3f") % (z / f) if ratio and isinstance(z, (int, float)) and isinstance(f, (int, float)) and f else ""
        rows_.append((name, zs, fs, rt))

    def g(k, f):
        return R.get(k, {}).get(f)

    for _, mod in CASES:
        mod.table_rows(R, row, g)
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
    ap.add_argument("--only", default=",".join(n for n, _ in CASES))
    ap.add_argument("--out")
    a = ap.parse_args()
    out = a.out or os.path.join(HERE, "target", "runs", datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ"))
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)
    say(f"bench/flink-paimon: output in {out}; zsink from {BIN}")
    R = {"seconds": a.seconds, "zsink_bin": BIN, "flink": "2.0.0", "paimon": "2.0.0", "flink_heap": FLINK_HEAP}
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
