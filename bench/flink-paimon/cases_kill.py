"""bench/flink-paimon/cases_kill.py - failover: kill -9 of the task process on both sides."""
import glob
import json
import os
import shutil
import signal
import subprocess
import time

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases


def run(out, secs, R):
    zsink(out, R)
    flink(out, R)


def zsink(out, R):
    say(f"kill -9 of a writer: zsink (p=1, {RATE} rows/s, 1 s checkpoints, restart delay 0)")
    d = f"{out}/kill-zsink"
    p = zsink_cluster(d, **{"execution.checkpointing.interval": "1s", "datagen.rows-per-second": RATE,
                            "restart-strategy.fixed-delay.delay": 0})
    try:
        job = f"{d}/chk/*/events-"
        wait_for(lambda: [e for e in events(job + "coordinator.jsonl") if e["e"] == "complete" and e["id"] >= 3],
                 120, "zsink checkpoint 3")
        st = json.loads(subprocess.run([f"{BIN}/zsink", "status", "-c", f"{d}/job.yaml", "--json"],
                                       capture_output=True, text=True).stdout)
        pid = next(x["pid"] for x in st["participants"] if x["name"] == "writer-0")
        t_kill = now_ms()
        os.kill(pid, signal.SIGKILL)
        reset = wait_for(lambda: [e for e in events(job + "writer-0.jsonl")
                                  if e["e"] == "reset" and e["pid"] != pid and e["t"] > t_kill], 120,
                         "the restarted writer")
        again = wait_for(lambda: [e for e in events(job + "coordinator.jsonl")
                                  if e["e"] == "complete" and e["t"] > t_kill], 120,
                         "a checkpoint after the kill")
        time.sleep(2)
    finally:
        stop(p)
    s = summary(f"{d}/table")
    R["kill_zsink"] = {"first_row_ms": reset[0]["t"] - t_kill, "checkpoint_ms": again[0]["t"] - t_kill,
                       "count": s["count"], "distinct_ids": s["distinct_ids"],
                       "first_row_is": "the restarted writer's 'reset' event (restored, reading next)"}


def flink(out, R):
    say(f"kill -9 of the TaskManager: Flink + Paimon standalone (JobManager + TaskManager JVMs, p=1, {RATE} rows/s)")
    d = f"{out}/kill-flink"
    os.makedirs(f"{d}/conf", exist_ok=True)
    rpc, rest = free_port(), free_port()
    conf = {
        "jobmanager.rpc.address": "localhost", "jobmanager.rpc.port": rpc, "jobmanager.bind-host": "localhost",
        "rest.address": "localhost", "rest.bind-address": "localhost", "rest.port": rest,
        "taskmanager.host": "localhost", "taskmanager.bind-host": "localhost",
        "taskmanager.numberOfTaskSlots": 2, "jobmanager.memory.process.size": "1024m",
        # zsink's heartbeat.interval / heartbeat.timeout (Flink's defaults: 10 s / 50 s)
        "heartbeat.interval": 500, "heartbeat.timeout": 5000,
        # what flink-dist's scripts would hand TaskManagerRunner (BashJavaUtils)
        "taskmanager.cpu.cores": 2, "taskmanager.memory.framework.heap.size": "128m",
        "taskmanager.memory.task.heap.size": "512m", "taskmanager.memory.managed.size": "128m",
        "taskmanager.memory.network.min": "64m", "taskmanager.memory.network.max": "64m",
        "taskmanager.memory.framework.off-heap.size": "128m", "taskmanager.memory.task.off-heap.size": "0m",
        "taskmanager.memory.jvm-metaspace.size": "256m", "taskmanager.memory.jvm-overhead.min": "192m",
        "taskmanager.memory.jvm-overhead.max": "192m",
    }
    with open(f"{d}/conf/config.yaml", "w") as f:
        for k, v in conf.items():
            f.write(f"{k}: {v}\n")
    shutil.copy(os.path.join(HERE, "src", "main", "resources", "log4j2.properties"), f"{d}/conf/log4j.properties")
    logp = "-Dlog4j.configurationFile=" + f"{d}/conf/log4j.properties"
    jm_cmd = java("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                  ["--configDir", f"{d}/conf"], heap="700m", extra=[logp])
    tm_cmd = java("org.apache.flink.runtime.taskexecutor.TaskManagerRunner", ["--configDir", f"{d}/conf"],
                  heap="640m", extra=[logp, "-XX:MaxDirectMemorySize=192m"])
    jm = start(jm_cmd, f"{d}/jm.log")
    tm = start(tm_cmd, f"{d}/tm-1.log")
    client = tm2 = None
    try:
        wait_for(lambda: "Successful registration at resource manager" in open(f"{d}/tm-1.log", errors="replace").read(),
                 120, "the TaskManager's registration")
        client = start(flink_job(["--table", f"{d}/table", "--parallelism", "1", "--interval-ms", "1000",
                                  "--rate", str(RATE), "--run-for-s", "100000", "--remote", f"localhost:{rest}",
                                  "--log-first-row"]), f"{d}/client.log")

        def completed():
            return [(int(m.group(1)), log_ms(line)) for line in open(f"{d}/jm.log", errors="replace")
                    for m in [CKPT_FL.search(line)] if m]
        wait_for(lambda: [c for c in completed() if c[0] >= 3], 180, "Flink checkpoint 3")
        t_kill = now_ms()
        os.killpg(tm.pid, signal.SIGKILL)
        tm.wait()
        # the supervisor's part (zsink cluster restarts its dead process; here the harness does)
        tm2 = start(tm_cmd, f"{d}/tm-2.log")

        def first_row():
            for line in open(f"{d}/tm-2.log", errors="replace"):
                if line.startswith("HARNESS first-row"):
                    return float(line.split()[2])
        t_row = wait_for(first_row, 180, "the first row after the kill")
        t_ckpt = wait_for(lambda: [t for _, t in completed() if t > t_kill], 180, "a checkpoint after the kill")[0]
        # where the time goes: the new TaskManager's registration with the JobManager
        t_reg = next((log_ms(line) for line in open(f"{d}/tm-2.log", errors="replace")
                      if "Successful registration at resource manager" in line), None)
        time.sleep(2)
    finally:
        for p in (client, tm2, tm, jm):
            if p is not None:
                stop(p)
    s = summary(f"{d}/table")
    # failovers up to the measurement (the teardown above makes one more)
    restarts = sum(1 for line in open(f"{d}/jm.log", errors="replace")
                   if "switched from state RUNNING to RESTARTING" in line and log_ms(line) <= t_ckpt)
    R["kill_flink"] = {"first_row_ms": t_row - t_kill, "checkpoint_ms": t_ckpt - t_kill,
                       "taskmanager_registered_ms": None if t_reg is None else t_reg - t_kill,
                       "count": s["count"], "distinct_ids": s["distinct_ids"], "restarts": restarts,
                       "first_row_is": "the first record the source's generator maps in the new TaskManager"}


def table_rows(R, row, g):
    if "kill_zsink" in R or "kill_flink" in R:
        row("kill -9 -> first row again, ms", g("kill_zsink", "first_row_ms"), g("kill_flink", "first_row_ms"))
        row("kill -9 -> first checkpoint again, ms", g("kill_zsink", "checkpoint_ms"), g("kill_flink", "checkpoint_ms"))
        eo = lambda k: None if k not in R else "%d = %d %s" % (R[k]["count"], R[k]["distinct_ids"] or 0,
                                                                "ok" if R[k]["count"] == R[k]["distinct_ids"] else "DUPLICATES")
        row("kill -9: rows = distinct ids", eo("kill_zsink"), eo("kill_flink"), ratio=False)
