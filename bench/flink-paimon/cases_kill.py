"""bench/flink-paimon/cases_kill.py - failover on both sides, p=1, RATE rows/s, 1 s checkpoints,
the failure once checkpoint 3 is complete:

  fail    a task failure: zsink's datagen.fail-at-id, the Flink job's --fail-at-id (the
          generator throws once), Flink in its MiniCluster;
  kill    kill -9 of the task process: zsink's writer-0 (`zsink cluster` restarts it);
          Flink's TaskManager JVM in a standalone cluster (a JobManager and TaskManager JVMs),
          three ways:
            replace  a new TaskManager started by the harness right after the kill (the
                     supervisor's part, as `zsink cluster` does for zsink);
            standby  a second TaskManager started and registered before the kill (the job's
                     slots on the first);
            coord    standby, and Paimon 2.0's committer in the JobManager
                     (sink.coordinator-commit.enabled=true, write-only=true: zsink's shape).

Each: failure -> first row again, -> first checkpoint again, then the table's rows = distinct
ids; Flink's job restarts (`switched from state RUNNING to RESTARTING`) up to the end of the
measurement, and whether Paimon's committer failed the job on purpose after the restore."""
import json
import os
import shutil
import signal
import subprocess
import time

from harness import *  # noqa: F401,F403 - the shared vocabulary of the cases

FAIL_AT = RATE * 6      # about 6 s of rows: after checkpoint 3 on both sides (checked below)
RESTARTING = "switched from state RUNNING to RESTARTING"
ON_PURPOSE = "This exception is intentionally thrown"   # Paimon's restore-and-fail
REGISTERED = "Successful registration at resource manager"
COORD_COMMIT = "sink.coordinator-commit.enabled=true;write-only=true"
FLINK_KILLS = (("replace", False, ""), ("standby", True, ""), ("coord", True, COORD_COMMIT))


def run(out, secs, R):
    steps = [lambda: zsink_kill(out, R), lambda: zsink_fail(out, R), lambda: flink_fail(out, R)]
    steps += [lambda a=a: flink_kill(out, R, *a) for a in FLINK_KILLS]
    failed = []
    for step in steps:   # one that fails does not lose the others; run.py reports the first
        try:
            step()
        except Exception as e:  # noqa: BLE001
            say(f"bench/flink-paimon: kill: {e}")
            failed.append(e)
    if failed:
        raise failed[0]


def zsink_events(d):
    job = f"{d}/chk/*/events-"
    return lambda who: events(job + who + ".jsonl")


def zsink_kill(out, R):
    say(f"kill -9 of a writer: zsink (p=1, {RATE} rows/s, 1 s checkpoints, restart delay 0)")
    d = f"{out}/kill-zsink"
    p = zsink_cluster(d, **{"execution.checkpointing.interval": "1s", "datagen.rows-per-second": RATE,
                            "restart-strategy.fixed-delay.delay": 0})
    ev = zsink_events(d)
    try:
        wait_for(lambda: [e for e in ev("coordinator") if e["e"] == "complete" and e["id"] >= 3],
                 120, "zsink checkpoint 3")
        st = json.loads(subprocess.run([f"{BIN}/zsink", "status", "-c", f"{d}/job.yaml", "--json"],
                                       capture_output=True, text=True).stdout)
        pid = next(x["pid"] for x in st["participants"] if x["name"] == "writer-0")
        t_kill = now_ms()
        os.kill(pid, signal.SIGKILL)
        reset = wait_for(lambda: [e for e in ev("writer-0")
                                  if e["e"] == "reset" and e["pid"] != pid and e["t"] > t_kill], 120,
                         "the restarted writer")
        again = wait_for(lambda: [e for e in ev("coordinator") if e["e"] == "complete" and e["t"] > t_kill], 120,
                         "a checkpoint after the kill")
        time.sleep(2)
    finally:
        stop(p)
    s = summary(f"{d}/table")
    R["kill_zsink"] = {"first_row_ms": reset[0]["t"] - t_kill, "checkpoint_ms": again[0]["t"] - t_kill,
                       "count": s["count"], "distinct_ids": s["distinct_ids"],
                       "first_row_is": "the restarted writer's 'reset' event (restored, reading next)"}


def zsink_fail(out, R):
    say(f"task failure: zsink datagen.fail-at-id {FAIL_AT} (p=1, {RATE} rows/s, 1 s checkpoints, restart delay 0)")
    d = f"{out}/fail-zsink"
    p = zsink_cluster(d, **{"execution.checkpointing.interval": "1s", "datagen.rows-per-second": RATE,
                            "restart-strategy.fixed-delay.delay": 0, "datagen.fail-at-id": FAIL_AT})
    ev = zsink_events(d)
    want = f"datagen.fail-at-id: row {FAIL_AT} failed"

    def failed():   # the writer's own line, logged as the row fails (as Flink's generator's)
        return next((log_ms(line) for line in open(f"{d}/log", errors="replace")
                     if want in line and "[writer-" in line), None)
    try:
        t_fail = wait_for(failed, 120, "the failure at id %d" % FAIL_AT)
        reset = wait_for(lambda: [e for e in ev("writer-0") if e["e"] == "reset" and e["t"] > t_fail], 120,
                         "the writer reset after the failure")
        again = wait_for(lambda: [e for e in ev("coordinator") if e["e"] == "complete" and e["t"] > t_fail], 120,
                         "a checkpoint after the failure")
        time.sleep(2)
    finally:
        stop(p)
    before = [e["id"] for e in ev("coordinator") if e["e"] == "complete" and e["t"] < t_fail]
    s = summary(f"{d}/table")
    R["fail_zsink"] = {"first_row_ms": reset[0]["t"] - t_fail, "checkpoint_ms": again[0]["t"] - t_fail,
                       "completed_before": max(before, default=0), "count": s["count"],
                       "distinct_ids": s["distinct_ids"],
                       "restarts": sum(1 for e in ev("coordinator") if e["e"] == "restore" and e["t"] > t_fail),
                       "failure_is": "the writer's log line 'datagen.fail-at-id: row N failed'",
                       "first_row_is": "writer-0's 'reset' event after it (restored, reading next)"}


def harness_lines(path, event):
    """the epoch ms of every `HARNESS <event> <ms>` line of a log"""
    try:
        return [float(line.split()[2]) for line in open(path, errors="replace")
                if line.startswith("HARNESS " + event + " ")]
    except OSError:
        return []


def flink_restarts(log, t_end):
    lines = [line for line in open(log, errors="replace") if log_ms(line) is not None and log_ms(line) <= t_end]
    return sum(1 for line in lines if RESTARTING in line), sum(1 for line in lines if ON_PURPOSE in line)


def completed(log):
    return [(int(m.group(1)), log_ms(line)) for line in open(log, errors="replace")
            for m in [CKPT_FL.search(line)] if m]


def flink_fail(out, R):
    say(f"task failure: Flink + Paimon --fail-at-id {FAIL_AT} (MiniCluster, p=1, {RATE} rows/s, 1 s checkpoints)")
    d = f"{out}/fail-flink"
    os.makedirs(d, exist_ok=True)
    log = f"{d}/log"
    p = start(flink_job(["--table", f"{d}/table", "--parallelism", "1", "--interval-ms", "1000", "--rate", str(RATE),
                         "--run-for-s", "100000", "--fail-at-id", str(FAIL_AT), "--log-first-row"]), log)
    try:
        t_fail = wait_for(lambda: harness_lines(log, "fail"), 180, "the failure at id %d" % FAIL_AT)[0]
        t_row = wait_for(lambda: [t for t in harness_lines(log, "first-row") if t > t_fail], 120,
                         "the first row after the failure")[0]
        t_ckpt = wait_for(lambda: [t for _, t in completed(log) if t > t_fail], 120,
                          "a checkpoint after the failure")[0]
        time.sleep(2)
        t_end = now_ms()
    finally:
        stop(p)
    restarts, on_purpose = flink_restarts(log, t_end)
    s = summary(f"{d}/table")
    R["fail_flink"] = {"first_row_ms": t_row - t_fail, "checkpoint_ms": t_ckpt - t_fail,
                       "completed_before": max((n for n, t in completed(log) if t < t_fail), default=0),
                       "count": s["count"], "distinct_ids": s["distinct_ids"], "restarts": restarts,
                       "failed_on_purpose": on_purpose,
                       "failure_is": "the generator's HARNESS fail line, just before it throws",
                       "first_row_is": "the first record the restarted generator maps"}


def standalone_conf(d):
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
    return rest


def registered(path):
    """the ms of the TaskManager's registration with the JobManager's resource manager, or None"""
    try:
        return next((log_ms(line) for line in open(path, errors="replace") if REGISTERED in line), None)
    except OSError:
        return None


def flink_kill(out, R, name, standby, table_options):
    what = {"replace": "a new TaskManager started after the kill",
            "standby": "a standby TaskManager registered before the kill",
            "coord": "a standby TaskManager, committer in the JobManager (coordinator-commit, write-only)"}[name]
    say(f"kill -9 of the TaskManager: Flink + Paimon standalone, {what} (p=1, {RATE} rows/s)")
    d = f"{out}/kill-flink" + ("" if name == "replace" else "-" + name)
    rest = standalone_conf(d)
    logp = "-Dlog4j.configurationFile=" + f"{d}/conf/log4j.properties"
    jm_cmd = java("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
                  ["--configDir", f"{d}/conf"], heap="700m", extra=[logp])
    tm_cmd = java("org.apache.flink.runtime.taskexecutor.TaskManagerRunner", ["--configDir", f"{d}/conf"],
                  heap="640m", extra=[logp, "-XX:MaxDirectMemorySize=192m"])
    jm = start(jm_cmd, f"{d}/jm.log")
    tm = start(tm_cmd, f"{d}/tm-1.log")
    client = tm2 = None
    t_tm2 = t_reg = None
    try:
        wait_for(lambda: registered(f"{d}/tm-1.log"), 120, "the TaskManager's registration")
        args = ["--table", f"{d}/table", "--parallelism", "1", "--interval-ms", "1000", "--rate", str(RATE),
                "--run-for-s", "100000", "--remote", f"localhost:{rest}", "--log-first-row"]
        if table_options:
            args += ["--table-options", table_options]
        client = start(flink_job(args), f"{d}/client.log")
        if standby:
            # the job's slots are on the first TaskManager (its first row is read there) before the
            # second one exists
            wait_for(lambda: harness_lines(f"{d}/tm-1.log", "first-row"), 180, "the job running on TaskManager 1")
            t_tm2 = now_ms()
            tm2 = start(tm_cmd, f"{d}/tm-2.log")
            t_reg = wait_for(lambda: registered(f"{d}/tm-2.log"), 120, "the standby TaskManager's registration")
        wait_for(lambda: [c for c in completed(f"{d}/jm.log") if c[0] >= 3], 180, "Flink checkpoint 3")
        t_kill = now_ms()
        os.killpg(tm.pid, signal.SIGKILL)
        tm.wait()
        if not standby:
            # the supervisor's part (zsink cluster restarts its dead process; here the harness does)
            tm2 = start(tm_cmd, f"{d}/tm-2.log")
        t_row = wait_for(lambda: [t for t in harness_lines(f"{d}/tm-2.log", "first-row") if t > t_kill], 180,
                         "the first row after the kill")[0]
        t_ckpt = wait_for(lambda: [t for _, t in completed(f"{d}/jm.log") if t > t_kill], 180,
                          "a checkpoint after the kill")[0]
        if not standby:
            # where the time goes: the new TaskManager's registration with the JobManager
            t_reg = registered(f"{d}/tm-2.log")
        time.sleep(2)
        t_end = now_ms()
    finally:
        for p in (client, tm2, tm, jm):
            if p is not None:
                stop(p)
    s = summary(f"{d}/table")
    # failovers up to the end of the measurement (the teardown above makes one more)
    restarts, on_purpose = flink_restarts(f"{d}/jm.log", t_end)
    on_purpose += sum(flink_restarts(f"{d}/tm-{i}.log", t_end)[1] for i in (1, 2))
    r = {"first_row_ms": t_row - t_kill, "checkpoint_ms": t_ckpt - t_kill, "count": s["count"],
         "distinct_ids": s["distinct_ids"], "restarts": restarts, "failed_on_purpose": on_purpose,
         "table_options": table_options, "taskmanagers": what,
         "first_row_is": "the first record the source's generator maps in the other TaskManager"}
    if standby:
        r["taskmanager_start_to_registered_ms"] = None if t_reg is None else t_reg - t_tm2
    else:
        r["taskmanager_registered_ms"] = None if t_reg is None else t_reg - t_kill
    R["kill_flink" + ("" if name == "replace" else "_" + name)] = r


def exact(R, k):
    if k not in R:
        return None
    return "%d = %d %s" % (R[k]["count"], R[k]["distinct_ids"] or 0,
                           "ok" if R[k]["count"] == R[k]["distinct_ids"] else "DUPLICATES")


def table_rows(R, row, g):
    if "fail_zsink" in R or "fail_flink" in R:
        row(f"task failure (fail-at-id {FAIL_AT}) -> first row again, ms", g("fail_zsink", "first_row_ms"),
            g("fail_flink", "first_row_ms"))
        row("task failure -> first checkpoint again, ms", g("fail_zsink", "checkpoint_ms"),
            g("fail_flink", "checkpoint_ms"))
        row("task failure: last checkpoint before it", g("fail_zsink", "completed_before"),
            g("fail_flink", "completed_before"), ratio=False)
        row("task failure: job restarts (want 1)", g("fail_zsink", "restarts"), g("fail_flink", "restarts"),
            ratio=False)
        row("task failure: rows = distinct ids", exact(R, "fail_zsink"), exact(R, "fail_flink"), ratio=False)
    labels = {"": "new TM after the kill", "_standby": "standby TM", "_coord": "standby TM, coordinator-commit"}
    for suffix, label in labels.items():
        k = "kill_flink" + suffix
        if k not in R and "kill_zsink" not in R:
            continue
        row(f"kill -9 -> first row again, ms (Flink: {label})", g("kill_zsink", "first_row_ms"), g(k, "first_row_ms"))
        row(f"kill -9 -> first checkpoint again, ms (Flink: {label})", g("kill_zsink", "checkpoint_ms"),
            g(k, "checkpoint_ms"))
        if suffix:
            row(f"  Flink's standby TM: start -> registered, ms", None, g(k, "taskmanager_start_to_registered_ms"))
        else:
            row(f"  Flink's new TM: kill -> registered, ms", None, g(k, "taskmanager_registered_ms"))
        row(f"  Flink job restarts (failed on purpose) ({label})", None,
            None if k not in R else "%d (%d)" % (R[k]["restarts"], R[k]["failed_on_purpose"]), ratio=False)
        row(f"  rows = distinct ids ({label})", exact(R, "kill_zsink"), exact(R, k), ratio=False)
