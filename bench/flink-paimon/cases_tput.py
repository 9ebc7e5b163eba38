"""bench/flink-paimon/cases_tput.py - throughput: rows/s committed at full speed, RSS."""
import glob
import json
import os
import shutil
import signal
import subprocess
import time

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases


def run(out, secs, R):
    for par in (1, 2):
        say(f"throughput p={par}: zsink ({secs}s)")
        d = f"{out}/tput-p{par}-zsink"
        r = zsink_timed(d, secs, parallelism=par, **{"execution.checkpointing.interval": "1s",
                                                     "datagen.rows-per-second": 0})
        r["rows_per_s"] = committed_rate(f"{d}/table", secs)
        R[f"tput_p{par}_zsink"] = r
        for wo in (True, False):
            name = "flink_wo" if wo else "flink"
            say(f"throughput p={par}: Flink + Paimon, write-only={str(wo).lower()} ({secs}s)")
            d = f"{out}/tput-p{par}-{name}"
            r = flink_timed(d, secs, parallelism=par, interval_ms=1000, rate=0,
                            write_only=str(wo).lower(), run_for_s=100000)
            r["rows_per_s"] = committed_rate(f"{d}/table", secs)
            R[f"tput_p{par}_{name}"] = r


def table_rows(R, row, g):
    for par in (1, 2):
        if f"tput_p{par}_zsink" in R:
            row(f"rows/s committed, p={par} (Flink write-only)", g(f"tput_p{par}_zsink", "rows_per_s"),
                g(f"tput_p{par}_flink_wo", "rows_per_s"))
            row(f"rows/s committed, p={par} (Flink default, compaction)", g(f"tput_p{par}_zsink", "rows_per_s"),
                g(f"tput_p{par}_flink", "rows_per_s"))
            row(f"RSS peak MB, p={par} full speed (Flink write-only)", g(f"tput_p{par}_zsink", "rss_peak_mb"),
                g(f"tput_p{par}_flink_wo", "rss_peak_mb"), "%.1f")
            row(f"RSS peak MB, p={par} full speed (Flink default)", g(f"tput_p{par}_zsink", "rss_peak_mb"),
                g(f"tput_p{par}_flink", "rss_peak_mb"), "%.1f")
