"""bench/flink-paimon/cases_scenarios.py - the README's tour (s1, s2, s3) on both, table for table."""
import glob
import json
import os
import shutil
import signal
import subprocess
import time

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases


def run(out, secs, R):
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


def table_rows(R, row, g):
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
