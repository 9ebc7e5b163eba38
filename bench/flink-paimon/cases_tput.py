"""bench/flink-paimon/cases_tput.py - throughput: rows/s committed at full speed, CPU per row,
RSS, bytes per row; zsink, Flink default and Flink tuned, alternating, REPS times, for each
checkpoint interval.

A run: launch, wait for the first snapshot, WARMUP_S, a window of W s (the table's own
snapshots: rows and commit times of the first and last snapshot inside it), stop. CPU time of
the run's process tree is sampled every 0.5 s and taken between the two snapshots' commit
times, so rows per CPU-second is rows committed / CPU seconds spent over the same span.
W = SECONDS/2 for 1 s checkpoints (30 s by default) and max(W, 3 intervals) for longer ones,
so a 10 s interval still spans two snapshot gaps (three snapshots).
"""
import os
import time

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases

# Flink configuration and Paimon table options of the tuned Flink column (README, "Tuned Flink")
TUNED_CONF = {
    "pipeline.object-reuse": "true",
    "taskmanager.memory.managed.size": "1m",
}
# zsink's Parquet layout: data pages of 256 KiB with no row cap (parquet-mr caps a page at 20,000
# rows by default), a dictionary tried only for the STRING column
TUNED_TABLE = {
    "parquet.page.size": "262144",
    "parquet.page.row.count.limit": "131072",
    "parquet.enable.dictionary": "false",
    "parquet.enable.dictionary#name": "true",
}
# -Xmx of the tuned column when no xmx sweep ran before it (FLINK_TUNED_HEAP: SIZE or
# 1:SIZE,2:SIZE); the sweep's choice (R["xmx_choice"]) wins
TUNED_HEAP = os.environ.get("FLINK_TUNED_HEAP", "512m")
# zsink with its defaults (compaction on its committer's thread) against Flink's defaults
# (compaction in the job); zsink write-only against the tuned Flink (write-only): like for like
SIDES = ("zsink", "zsink_wo", "flink", "flink_tuned")


def pairs(text):
    """'K=V;K=V' as a dict"""
    return dict(kv.split("=", 1) for kv in text.split(";") if kv)


# more of either side's settings, for a variant run (README: ZSINK_SET, FLINK_TUNED_SET)
TUNED_TABLE.update(pairs(os.environ.get("FLINK_TUNED_SET", "")))
ZSINK_SET = pairs(os.environ.get("ZSINK_SET", ""))


def window(secs, interval):
    w = max(2, secs // 2)
    return w if interval <= 1 else max(w, 3 * interval)


def tuned_heap(R, par):
    if str(par) in R.get("xmx_choice", {}):
        return R["xmx_choice"][str(par)]
    if ":" in TUNED_HEAP:
        return dict(kv.split(":") for kv in TUNED_HEAP.split(","))[str(par)]
    return TUNED_HEAP


def flink_args(d, par, interval, tuned, sink="paimon"):
    a = ["--table", f"{d}/table", "--parallelism", str(par), "--interval-ms", str(interval * 1000),
         "--rate", "0", "--run-for-s", "100000", "--sink", sink]
    if tuned:
        a += ["--write-only", "true", "--flink-conf", ";".join(f"{k}={v}" for k, v in TUNED_CONF.items()),
              "--table-options", ";".join(f"{k}={v}" for k, v in TUNED_TABLE.items())]
    return a


def flink_cmd(d, R, par, interval, tuned, sink="paimon", heap=None):
    os.makedirs(d, exist_ok=True)
    heap = heap or (tuned_heap(R, par) if tuned else FLINK_HEAP)
    return java("zsink.bench.FlinkPaimonJob", flink_args(d, par, interval, tuned, sink), heap=heap,
                extra=[f"-Xlog:gc*:file={d}/gc.log"]), heap


def zsink_cmd(d, par, interval, **kv):
    y = zsink_yaml(d, parallelism=par, **{"execution.checkpointing.interval": f"{interval}s",
                                          "datagen.rows-per-second": 0, **ZSINK_SET}, **kv)
    return [f"{BIN}/zsink", "cluster", "-c", y]


def first_snapshot(table, log, t0, deadline_s, p):
    """first_snapshot_ms, but giving up as soon as the log has an OutOfMemoryError (the JVM of
    a too small -Xmx stays up after it: the xmx sweep's smallest heaps would wait the deadline)"""
    end = time.time() + deadline_s
    while time.time() < end:
        up = first_snapshot_ms(table, t0, 1.0, p)
        if up is not None or p.poll() is not None or "OutOfMemoryError" in open(log, errors="replace").read():
            return up
    return None


def measure(cmd, d, w, deadline_s):
    """one run of cmd into d/table: rows/s, cores, rows per CPU-s, RSS, bytes per row"""
    if os.path.exists(f"{d}/table"):  # a reused --out: its snapshots would be taken for this run's
        raise RuntimeError(f"{d}/table exists already (an --out of an earlier run?): give a new --out")
    t0 = now_ms()
    with sampled(cmd, f"{d}/log") as (p, ps):
        up = first_snapshot(f"{d}/table", f"{d}/log", t0, deadline_s, p)
        if up is not None:
            live_for(p, WARMUP_S + w + 1.5)
    r = {"startup_ms": up, "rss_peak_mb": ps.peak / 1024.0, "window_s": w}
    win = snapshot_window(f"{d}/table", w) if up is not None else None
    if win:
        a, b = win
        span = (b["timeMillis"] - a["timeMillis"]) / 1000.0
        rows_ = b["totalRecordCount"] - a["totalRecordCount"]
        cpu = ps.cpu_between(a["timeMillis"], b["timeMillis"])
        r.update({"rows_per_s": rows_ / span, "span_s": span, "rows": rows_, "cpu_s": cpu,
                  "cores": cpu / span if cpu is not None else None,
                  "rows_per_cpu_s": rows_ / cpu if cpu else None})
    if up is not None:
        r["bytes_per_row"], r["files"], r["live_rows"] = bytes_per_row(f"{d}/table")
        drop_data_files(f"{d}/table")
    if os.path.exists(f"{d}/gc.log"):
        r["gc_pauses"], r["gc_pause_ms"] = gc_pauses(f"{d}/gc.log")
    log = open(f"{d}/log", errors="replace").read()
    r["oom"] = "OutOfMemoryError" in log
    r["restarts"] = log.count("switched from state RUNNING to RESTARTING")
    return r


def one(out, R, par, interval, side, rep, secs):
    w = window(secs, interval)
    d = f"{out}/tput-p{par}-i{interval}-{side}-{rep}"
    if side in ("zsink", "zsink_wo"):
        cmd, heap = zsink_cmd(d, par, interval, **({"write-only": "true"} if side == "zsink_wo" else {})), None
    else:
        cmd, heap = flink_cmd(d, R, par, interval, side == "flink_tuned")
    say(f"throughput p={par}, {interval} s checkpoints, run {rep + 1}: {side}"
        + (f" -Xmx{heap}" if heap else "") + f" ({w}s window)")
    r = measure(cmd, d, w, 120 + interval)
    r["heap"] = heap
    say(f"  {side}: %s rows/s, %s cores, %s bytes/row" % (
        "-" if r.get("rows_per_s") is None else "%.0f" % r["rows_per_s"],
        "-" if r.get("cores") is None else "%.2f" % r["cores"],
        "-" if r.get("bytes_per_row") is None else "%.2f" % r["bytes_per_row"]))
    return r


def run(out, secs, R):
    for par in (1, 2):
        for iv in R.get("intervals", [1, 10]):
            key = f"tput_p{par}_i{iv}"
            R[key] = {s: [] for s in SIDES}
            for rep in range(R.get("reps", 3)):
                for side in SIDES:  # z, z', F, F', z, z', F, F', ...: zsink alternates with Flink
                    R[key][side].append(one(out, R, par, iv, side, rep, secs))


def fig(R, key, side, f):
    return stats3([r.get(f) for r in R.get(key, {}).get(side, [])])


def table_rows(R, row, g):
    for par in (1, 2):
        for iv in R.get("intervals", [1, 10]):
            key = f"tput_p{par}_i{iv}"
            if key not in R:
                continue
            sfx = f"p={par}, {iv} s ckpt"
            for f, label, fmt, scale in (("rows_per_s", "k rows/s committed", "%.0f", 1e3),
                                         ("cores", "cores used", "%.2f", 1),
                                         ("rows_per_cpu_s", "k rows per CPU-second", "%.0f", 1e3),
                                         ("rss_peak_mb", "RSS peak MB", "%.0f", 1),
                                         ("bytes_per_row", "bytes per row (live files)", "%.2f", 1)):
                z, zw, fd, ft = (scaled(fig(R, key, s, f), scale) for s in SIDES)
                row(f"{label}, {sfx}", z, fd, fmt, ft=ft, zw=zw)


def scaled(st, k):
    return None if st is None else {x: (v / k if x != "n" else v) for x, v in st.items()}
