"""bench/flink-paimon/cases_latency.py - commit latency, checkpoint duration, start-up."""
import glob
import json
import os
import shutil
import signal
import subprocess
import time

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases


def run(out, secs, R):
    say(f"latency at {RATE} rows/s, p=1: zsink ({secs}s)")
    d = f"{out}/lat-zsink"
    r = zsink_timed(d, secs, **{"execution.checkpointing.interval": "1s", "datagen.rows-per-second": RATE})
    r.update(latency(f"{d}/log", CKPT_ZS))
    R["lat_zsink"] = r
    say(f"latency at {RATE} rows/s, p=1: Flink + Paimon ({secs}s)")
    d = f"{out}/lat-flink"
    r = flink_timed(d, secs, parallelism=1, interval_ms=1000, rate=RATE, run_for_s=100000)
    r.update(latency(f"{d}/log", CKPT_FL))
    R["lat_flink"] = r


def table_rows(R, row, g):
    if "lat_zsink" in R:
        for k, label in (("commit_p50", "commit latency p50 ms"), ("commit_p99", "commit latency p99 ms"),
                         ("ckpt_p50", "checkpoint duration p50 ms"), ("ckpt_p99", "checkpoint duration p99 ms")):
            row(f"{label} ({RATE} rows/s)", g("lat_zsink", k), g("lat_flink", k))
        row("start-up: launch -> first snapshot, ms", g("lat_zsink", "startup_ms"), g("lat_flink", "startup_ms"))
        row(f"RSS peak MB, p=1 {RATE} rows/s", g("lat_zsink", "rss_peak_mb"), g("lat_flink", "rss_peak_mb"), "%.1f")
