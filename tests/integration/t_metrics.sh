# The Prometheus endpoints (issue 14, point 2): with
# metrics.reporter.prom.port a range, the coordinator and the committer
# each take a free port of it and answer GET /metrics, scraped here with
# curl, in the text format (every sample line parses, HELP/TYPE first),
# under Flink's and Paimon's names: checkpoints completed grow between two
# scrapes, records in per writer, the last checkpoint's duration and size,
# restarts after a failover, dropped messages by reason, the checkpoint
# ids and counts, uptime, rows read per second; every sample labelled with
# pipeline.name as job_name; the committer's commit metrics under Paimon's
# names in the paimon_table_commit scope (lastCommitDuration, …Attempts,
# lastTableFilesAdded, lastCommittedSnapshotId) and numCommits. One type
# per name across both endpoints. metrics.reporter.prom.bind-address:
# both endpoints bind that address (127.0.0.1 here), and one that is no
# local address is refused, the key named.
. "$(dirname "$0")/lib.sh"

# a port that is no port: refused at once, the key named
mkdir -p "$(vdir bad)"
write_job bad 1 "datagen.number-of-rows: 10" "metrics.reporter.prom.port: 9300-9200"
out=$("$ZSINK" cluster -c "$(vdir bad)/job.yaml" 2>&1)
[ $? = 2 ] && echo "$out" | grep -q "metrics.reporter.prom.port: '9300-9200'" ||
    fail bad "a bad port range: $out"
echo "[bad] refused: $out"

# a bind address that is not this machine's: refused, the key named
mkdir -p "$(vdir badaddr)"
write_job badaddr 1 "datagen.number-of-rows: 10" "metrics.reporter.prom.port: $(free_port)" \
    "metrics.reporter.prom.bind-address: 192.0.2.1"
out=$("$ZSINK" cluster -c "$(vdir badaddr)/job.yaml" 2>&1)
[ $? != 0 ] && echo "$out" | grep -q "metrics.reporter.prom.bind-address: '192.0.2.1'" ||
    fail badaddr "a bind address not of this machine: $out"
echo "[badaddr] refused: $(echo "$out" | grep -m1 bind-address)"

v=m
N=30000
base=$(free_port)
write_fault_job $v 2 "datagen.number-of-rows: $N" "datagen.rows-per-second: 3000" \
    "execution.checkpointing.interval: 200ms" "datagen.fail-at-id: 5000" \
    "metrics.reporter.prom.port: $base-$((base + 30))" "pipeline.name: orders-ingest" \
    "metrics.reporter.prom.bind-address: 127.0.0.1"
start_cluster $v
wait_for_count $v 'Prometheus metrics of (job|the committer)' 2 30
co=$(grep -o 'Prometheus metrics of job [^ ]* on http://127.0.0.1:[0-9]*' "$(clog $v)" | head -n 1 | sed 's/.*://')
cm=$(grep -o 'Prometheus metrics of the committer on http://127.0.0.1:[0-9]*' "$(clog $v)" | head -n 1 | sed 's/.*://')
[ -n "$co" ] && [ -n "$cm" ] && [ "$co" != "$cm" ] || fail $v "ports: coordinator '$co', committer '$cm'"
wait_for_log $v 'switched from state RESTARTING to RESTORING' 60
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 6 60

scrape () { curl -sf --max-time 5 "http://127.0.0.1:$1/metrics" >"$(vdir $v)/$2" || fail $v "scrape of port $1 failed"; }
scrape "$co" coord-1.txt
scrape "$cm" committer-1.txt
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 10 60
scrape "$co" coord-2.txt
# A client that pauses mid-request (longer than the 200 ms the endpoint
# once waited, blocking the coordinator's loop) is answered when it goes
# on, while 20 others that connected and said nothing stay open.
"$PY" - "$co" <<'PYEOF' || fail $v "a request in pieces"
import socket, sys, time
port = int(sys.argv[1])
silent = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(20)]
for s in silent:
    s.sendall(b"GET /metrics HTTP/1.1\r\n")
c = socket.create_connection(("127.0.0.1", port), timeout=10)
c.sendall(b"GET /metr")
time.sleep(0.5)  # the stimulus: a client slower than the old limit
c.sendall(b"ics HTTP/1.1\r\nHost: x\r\n\r\n")
answer = b""
while chunk := c.recv(65536):
    answer += chunk
assert answer.startswith(b"HTTP/1.1 200 OK"), answer[:100]
assert b"flink_jobmanager_job_numberOfCompletedCheckpoints" in answer
print(f"[m] a request sent in two pieces 0.5 s apart: answered, {len(answer)} bytes")
PYEOF
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$co/nothing")
[ "$code" = 404 ] || fail $v "GET /nothing: HTTP $code"

"$PY" - "$(vdir $v)" <<'PYEOF' || fail $v "metrics"
import re, sys
d = sys.argv[1]
line_re = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})? (-?[0-9.eE+]+)$')
types = {}
def parse(name):
    samples, typed = {}, set()
    for l in open(f"{d}/{name}").read().splitlines():
        if l.startswith("# TYPE "):
            _, _, n, t = l.split()
            assert n not in typed, f"{name}: {n} typed twice"
            assert types.setdefault(n, t) == t, f"{n} is a {types[n]} and a {t}"
            typed.add(n)
            continue
        if l.startswith("#"):
            continue
        m = line_re.match(l)
        assert m, f"{name}: not a sample line: {l!r}"
        assert m.group(1) in typed, f"{name}: {m.group(1)} before its TYPE"
        samples[m.group(1) + (m.group(2) or "")] = float(m.group(4))
    return samples
def get(s, name, **labels):
    hits = [v for k, v in s.items() if k.split("{")[0] == name
            and all(f'{a}="{b}"' in k for a, b in labels.items())]
    assert hits, f"no {name} {labels}"
    return hits[0]
c1, c2, m1 = parse("coord-1.txt"), parse("coord-2.txt"), parse("committer-1.txt")
done1 = get(c1, "flink_jobmanager_job_numberOfCompletedCheckpoints")
done2 = get(c2, "flink_jobmanager_job_numberOfCompletedCheckpoints")
assert done2 > done1 >= 1, (done1, done2)
assert get(c2, "flink_jobmanager_job_numRestarts") == 1, "restarts"
assert get(c2, "flink_jobmanager_job_lastCheckpointDuration") >= 0
assert get(c2, "flink_jobmanager_job_lastCheckpointSize") > 0
for w in ("0", "1"):
    assert get(c2, "flink_taskmanager_job_task_numRecordsIn", subtask_index=w) > 0, w
    assert get(c2, "flink_taskmanager_job_task_numRecordsOut", subtask_index=w) >= 0, w
assert get(c2, "zsink_dropped_messages", reason="garbage") >= 0
for s in (c1, c2, m1):
    for k in s:
        assert 'job_name="orders-ingest"' in k, f"no job_name: {k}"
assert get(c2, "flink_jobmanager_job_totalNumberOfCheckpoints") >= done2
assert get(c2, "flink_jobmanager_job_lastCompletedCheckpointId") >= done2
assert get(c2, "flink_jobmanager_job_uptime") > 0
assert sum(get(c2, "flink_taskmanager_job_task_numRecordsInPerSecond", subtask_index=w)
           for w in ("0", "1")) > 0
assert types["flink_jobmanager_job_numRestarts"] == "gauge"  # a Gauge in Flink
assert types["flink_taskmanager_job_task_numRecordsIn"] == "counter"
paimon = "flink_taskmanager_job_task_operator_paimon_table_commit_"
assert get(m1, paimon + "lastCommitDuration", table="table") >= 0
assert get(m1, paimon + "lastCommitAttempts") == 1
assert get(m1, paimon + "lastTableFilesAdded") >= 0
assert get(m1, paimon + "lastDeltaRecordsAppended") > 0
assert get(m1, paimon + "lastCommittedSnapshotId") >= 1
assert get(m1, "flink_taskmanager_job_task_operator_numCommits") >= 1
print(f"[m] coordinator: {int(done1)} -> {int(done2)} checkpoints completed, 1 restart, "
      f"{len(c2)} samples; committer: {int(get(m1, 'flink_taskmanager_job_task_operator_numCommits'))} "
      f"commits, last {int(get(m1, paimon + 'lastCommitDuration'))} ms, {len(m1)} samples")
PYEOF
expect_exit $v 120 0
oracle $v $N
pass
