# The operator's view of a Kafka job: an unbounded job (2 writers, 4
# partitions) reads behind a producer (ids 1..N at 1500/s; the job reads at
# most 1000/s, so it lags).
#   - `zsink status --json` has "splits", one per partition, with offset,
#     checkpointed, end, lag (= end - offset) and committed; the text
#     `zsink status` prints a line for each with those columns;
#   - the Prometheus endpoint carries Flink's KafkaSourceReader metrics:
#     currentOffset and committedOffset per {topic, partition}, and
#     KafkaConsumer records_lag_max per writer, equal to status' figures
#     within the scrape's moment;
#   - after a kill -9 of writer-0, the writers' logs name each split and the
#     offset it restores to ('split kafka:T:P at offset N'), and those are
#     exactly the position of the checkpoint restored: the table's snapshot
#     of that checkpoint has N rows of partition P (the records at offsets
#     0..N-1); `zsink timeline` shows the restore's seeks with the same
#     splits and offsets;
#   - the producer done and the job caught up (lag 0 everywhere), a stop
#     with a savepoint: ids 1..N once, and the group's committed offsets are
#     the partitions' ends, N in all.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
kafka_up

v=s
N=9000
t=$(kafka_topic_of $v)
d=$(vdir $v)
mkdir -p "$d"
ktool create "$t" 4 >/dev/null || fail $v "create $t"
# round robin: id i is at partition (i-1) % 4, offset (i-1) / 4
"$KTOOL" "$KAFKA_BOOTSTRAP" produce "$t" --from 1 --to $((N + 1)) --rate 1500 >"$d/producer.out" 2>&1 &
producer=$!
EXTRA_PIDS="$EXTRA_PIDS $producer"
base=$(free_port)
write_job $v 2 "source.kind: kafka" "source.kafka.topic: $t" \
    "source.kafka.properties.bootstrap.servers: $KAFKA_BOOTSTRAP" \
    "source.kafka.properties.group.id: $t" "source.kafka.scan.startup.mode: earliest-offset" \
    "execution.checkpointing.interval: 300ms" "restart-strategy.fixed-delay.attempts: 5" \
    "restart-strategy.fixed-delay.delay: 200ms" "heartbeat.timeout: 3s" \
    "source.kafka.rows-per-second: 1000" "metrics.reporter.prom.port: $base-$((base + 30))"
start_cluster $v
job=$(cat "$d/job_id")

# --- zsink status -------------------------------------------------------------
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 2 30
wait_status $v 'len(d.get("splits", [])) == 4 and all(s["offset"] > 0 and s["end"] >= 0 and s["committed"] > 0 for s in d["splits"]) and sum(s["lag"] for s in d["splits"]) > 0' 30
echo "$STATUS" | "$PY" -c '
import json, sys
t = sys.argv[1]
sp = json.load(sys.stdin)["splits"]
assert sorted(s["id"] for s in sp) == [f"kafka:{t}:{p}" for p in range(4)], sp
for s in sp:
    for k in ("writer", "offset", "checkpointed", "end", "lag", "committed"):
        assert isinstance(s.get(k), int), (k, s)
    assert s["lag"] == s["end"] - s["offset"] >= 0, s
    assert 0 < s["committed"] <= s["checkpointed"] <= s["offset"], s
    assert s["writer"] in (0, 1) and not s["finished"], s
    print(f"[s] status: {s}")
' "$t" || fail $v "status --json splits"
"$ZSINK" status -c "$d/job.yaml" >"$d/status.txt" || fail $v "zsink status"
grep -E '^split +writer +offset +checkpointed +end +lag +committed$' "$d/status.txt" >/dev/null ||
    fail $v "zsink status: no split table with end, lag, committed: $(cat "$d/status.txt")"
for p in 0 1 2 3; do
    grep -E "^kafka:$t:$p +[01]( +[0-9]+){5}$" "$d/status.txt" | sed "s/^/[s] status: /" | grep . ||
        fail $v "zsink status: no line for kafka:$t:$p: $(cat "$d/status.txt")"
done

# --- Prometheus ---------------------------------------------------------------
port=$(grep -o "Prometheus metrics of job [^ ]* on http://0.0.0.0:[0-9]*" "$(clog $v)" | head -n 1 | sed 's/.*://')
[ -n "$port" ] || fail $v "no Prometheus endpoint in the log"
curl -sf --max-time 5 "http://127.0.0.1:$port/metrics" >"$d/metrics.txt" || fail $v "scrape of port $port"
status $v >"$d/status.json" || fail $v "status after the scrape"
"$PY" - "$d/metrics.txt" "$d/status.json" "$t" <<'PYEOF' || fail $v "Kafka metrics"
import json, re, sys
text = open(sys.argv[1]).read()
st = {s["id"]: s for s in json.load(open(sys.argv[2]))["splits"]}
t = sys.argv[3]
P = "flink_taskmanager_job_task_operator_KafkaSourceReader_"
def get(name, **labels):
    out = []
    for m in re.finditer(r'^' + re.escape(P + name) + r'\{([^}]*)\} (\S+)$', text, re.M):
        have = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        if all(have.get(k) == v for k, v in labels.items()):
            out.append(float(m.group(2)))
    return out
for p in range(4):
    s = st[f"kafka:{t}:{p}"]
    cur = get("topic_partition_currentOffset", topic=t, partition=str(p))
    com = get("topic_partition_committedOffset", topic=t, partition=str(p))
    assert len(cur) == 1 and len(com) == 1, (p, cur, com)
    # the scrape came first: the job only moves on
    assert 0 < cur[0] <= s["offset"] and 0 < com[0] <= s["committed"], (p, cur, com, s)
    print(f"[s] metrics: partition {p} currentOffset {cur[0]:.0f} committedOffset {com[0]:.0f}")
lags = []
for w in (0, 1):
    lag = get("KafkaConsumer_records_lag_max", subtask_index=str(w))
    assert len(lag) == 1 and lag[0] >= 0, (w, lag)
    print(f"[s] metrics: writer {w} records_lag_max {lag[0]:.0f}")
    lags += lag
assert max(lags) > 0, "the job reads slower than the producer, yet no lag"
PYEOF

# --- kill -9 of a writer: the restore's seeks ---------------------------------
kill_role $v writer-0
wait_for_count $v 'switched from state RESTORING to RUNNING' 2 60
# the last restore each writer logged: "Restored to checkpoint R" and then
# "  split kafka:T:P at offset N" for each of its splits
awk '$6 ~ /^\[writer-[0-9]+\]$/ && $7 == "Restored" && $9 == "checkpoint" { r[$1] = $10 + 0; next }
     $6 ~ /^\[writer-[0-9]+\]$/ && $7 == "split" && $9 == "at" { print r[$1] + 0, $8, $11 }' "$(clog $v)" |
    awk '{ last[$2] = $0 } END { for (s in last) print last[s] }' | sort -k2 >"$d/seeks"
sed "s/^/[s] restored: checkpoint /" "$d/seeks"
[ "$(wc -l <"$d/seeks")" = 4 ] && [ "$(cut -d' ' -f1 "$d/seeks" | sort -u | wc -l)" = 1 ] ||
    fail $v "the writers did not log one restore of the same checkpoint for each of the 4 splits"
r=$(head -n 1 "$d/seeks" | cut -d' ' -f1)
[ "$r" -gt 0 ] || fail $v "restored to checkpoint $r"
grep -q "Restoring job $job from Checkpoint $r " "$(clog $v)" || fail $v "the coordinator did not restore checkpoint $r"
# the checkpoint's snapshot (the last one of an identifier up to R: the
# restore has committed R, if it had rows, before the job ran again):
# partition P's rows are its offsets 0..N-1
snap=$("$ZSINK" table snapshots "$(table_of $v)" --json | "$PY" -c '
import json, sys
print([s["id"] for s in json.load(sys.stdin) if s["commit_identifier"] <= int(sys.argv[1])][-1])' "$r") ||
    fail $v "no snapshot of checkpoint $r"
"$ZSINK" table scan "$(table_of $v)" --snapshot "$snap" --format jsonl |
    sed -n 's/^{"id":\([0-9]*\),.*/\1/p' |
    awk -v t="$t" '{ p = ($1 - 1) % 4; o = int(($1 - 1) / 4); n[p]++; if (o + 1 > m[p]) m[p] = o + 1 }
        END { for (p = 0; p < 4; p++) { if (n[p] != m[p]) print "gap", p; print "kafka:" t ":" p, n[p] + 0 } }' |
    sort >"$d/snapshot.rows"
awk '{ print $2, $3 }' "$d/seeks" | cmp -s - "$d/snapshot.rows" ||
    fail $v "the seeks $(tr '\n' ' ' <"$d/seeks")are not checkpoint $r's position (snapshot $snap: $(tr '\n' ' ' <"$d/snapshot.rows"))"
echo "[s] the seeks are checkpoint $r's position: snapshot $snap holds exactly those offsets of each partition"

# the timeline: a seek mark for each writer's reset to R, its title every
# split and offset, the same as the log's
"$ZSINK" timeline "$(chk_of $v)/$job" -o "$d/timeline.svg" >/dev/null || fail $v "zsink timeline"
"$PY" - "$d/timeline.svg" "$r" "$d/seeks" <<'PYEOF' || fail $v "timeline seeks"
import re, sys
svg = open(sys.argv[1]).read()
r = sys.argv[2]
marks = re.findall(r'<g class="seek" data-checkpoint="' + r + r'">.*?<title>(.*?)</title></g>', svg, re.S)
shown = sorted(l.split()[1] + " " + l.split()[4] for m in marks for l in m.splitlines()[1:])
want = sorted(" ".join(l.split()[1:]) for l in open(sys.argv[3]))
assert len(marks) >= 2, f"{len(marks)} seek marks for checkpoint {r}: one a writer expected"
assert set(want) <= set(shown), (want, shown)
print(f"[s] timeline: {len(marks)} seek marks of checkpoint {r}, {len(set(shown))} splits at the logged offsets")
PYEOF

# --- caught up, stopped with a savepoint ------------------------------------
wait $producer || fail $v "the producer failed: $(cat "$d/producer.out")"
grep -qx "produced $N" "$d/producer.out" || fail $v "producer: $(tail -n 1 "$d/producer.out")"
wait_status $v 'sum(s["end"] for s in d["splits"]) == '$N' and all(s["lag"] == 0 for s in d["splits"])' 60
"$ZSINK" stop --savepoint -c "$d/job.yaml" >"$d/stop.out" 2>&1 || fail $v "stop --savepoint: $(cat "$d/stop.out")"
expect_exit $v 60 0
oracle $v $N
# (asked again while the broker answers "Not coordinator", under load)
end=$(($(now) + 10))
until out=$(ktool committed "$t" "$t" 2>&1); do
    [ "$(now)" -lt $end ] || fail $v "committed: $out"
    sleep 0.2
done
c=$(echo "$out" | awk '$1 == "partition" && $4 > 0 { n += $4 } END { print n + 0 }')
[ "$c" = $N ] || fail $v "the offsets committed to Kafka sum to $c, the table has $N rows"
echo "[s] offsets committed to Kafka for group $t: $c = the table's rows"
pass
