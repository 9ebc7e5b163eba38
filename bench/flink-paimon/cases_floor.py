"""bench/flink-paimon/cases_floor.py - the physical floor under zsink's figures.

zsink's Parquet writer alone (zsink-bench-writer-cpu: datagen's rows already in memory, the
writer appends, encodes, compresses, writes and fsyncs) and the floor under it: zstd level 1
alone (ZSTD_compressCCtx) over the very page bodies that writer hands zstd, page by page, and
nothing else. Both in rows per CPU-second, for the default (delta integers) and for
`parquet.writer.encoding: plain`. The rows it adds: the floor, the writer alone, and zsink's
whole write-only cluster (tput, p=1, 1 s checkpoints, the median) as a fraction of the floor:
the number issue 27 asks to push toward 1.
"""
import os
import re
import shutil
import subprocess

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases

ROWS = 2000000
REPEAT = 5
# "default  pages  page-bytes  zstd-bytes  CPU-s/M-rows  floor-rows/s  ours-rows/s  ours/fl%"
FLOOR_RE = re.compile(r"^(default|plain)\s+\d+\s+\d+\s+\d+\s+[\d.]+\s+(\d+)\s+(\d+)\s+\d+%$")


def run(out, secs, R):
    d = f"{out}/floor"
    os.makedirs(d, exist_ok=True)
    say(f"floor: zsink's writer alone and zstd level 1 alone over its pages ({ROWS} rows, {REPEAT} runs)")
    r = subprocess.run([f"{BIN}/zsink-bench-writer-cpu", f"{d}/work", str(ROWS), str(REPEAT),
                        "default,plain,floor", "default"], capture_output=True, text=True)
    open(f"{d}/log", "w").write(r.stdout + r.stderr)
    shutil.rmtree(f"{d}/work", ignore_errors=True)
    if r.returncode != 0:
        raise RuntimeError(f"zsink-bench-writer-cpu: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    res = {}
    for line in r.stdout.splitlines():
        m = FLOOR_RE.match(line.strip())
        if m:
            res[m.group(1)] = {"floor_rows_per_cpu_s": float(m.group(2)), "writer_rows_per_cpu_s": float(m.group(3))}
    if "default" not in res:
        raise RuntimeError(f"no floor line in zsink-bench-writer-cpu's output (see {d}/log)")
    R["floor"] = res


def table_rows(R, row, g):
    fl = R.get("floor")
    if not fl:
        return
    import cases_tput
    cluster = cases_tput.fig(R, "tput_p1_i1", "zsink_wo", "rows_per_cpu_s")
    for enc, what in (("default", "delta integers"), ("plain", "plain")):
        if enc not in fl:
            continue
        f, w = fl[enc]["floor_rows_per_cpu_s"], fl[enc]["writer_rows_per_cpu_s"]
        row(f"floor ({what}): zstd level 1 alone over the pages, k rows per CPU-second", f / 1e3, None, ratio=False)
        row(f"floor ({what}): zsink's Parquet writer alone, k rows per CPU-second (/ floor)",
            "%.0f (%.0f %%)" % (w / 1e3, 100 * w / f), None, ratio=False)
        if enc == "default" and cluster:
            c = cluster["med"]
            row("floor (delta integers): zsink write-only cluster p=1, k rows per CPU-second (/ floor)",
                "%.0f (%.0f %%)" % (c / 1e3, 100 * c / f), None, ratio=False)
