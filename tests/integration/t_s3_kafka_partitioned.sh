# The job the users run: a Kafka topic into a partitioned Paimon table on
# S3-compatible storage. A 4-partition topic of N orders (amount
# DECIMAL(10, 2), one order a second of event time), read by 2 writers
# into a table on a SeaweedFS of this test's own, partitioned by day and
# hour computed from the event time (Paimon's CDC computed columns), the
# checkpoints on S3 too. A writer is killed -9, then the committer. The
# table must hold ids 1..N once for every reader (zsink, DuckDB, pypaimon
# and Paimon Java on S3), each row in the partition of its time (a null
# time in the default partition), the
# $partitions counts must add up to N, and the group's committed offsets
# must be the topic's ends.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
. "$LIB_DIR/lib_s3.sh"
interop_required
kafka_up
s3_server_up zsink-kafka-partitioned

N=20000
SCHEMA="id BIGINT NOT NULL, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3)"
v=orders
t=$(kafka_topic_of $v)
ktool create "$t" 4 >/dev/null && ktool produce "$t" --from 1 --to $((N + 1)) --schema "$SCHEMA" >/dev/null ||
    fail $v "fill $t"
write_fault_job $v 2 "source.kind: kafka" "source.kafka.topic: $t" \
    "source.kafka.properties.bootstrap.servers: $KAFKA_BOOTSTRAP" \
    "source.kafka.properties.group.id: $t" "source.kafka.scan.startup.mode: earliest-offset" \
    "source.kafka.scan.bounded.mode: latest-offset" "source.kafka.rows-per-second: 1000" \
    "table.schema: $SCHEMA" "table.computed-columns: dt=date_format(ts, yyyy-MM-dd); hr=hour(ts)" \
    "table.partition-keys: dt,hr" "execution.checkpointing.interval: 500ms"
start_cluster $v
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 2 60
kill_role $v writer-1
wait_for_count $v 'switched from state [A-Z]+ to RESTARTING' 1 30
c=$(count_log $v 'Completed checkpoint [0-9]+ for job')
wait_for_count $v 'Completed checkpoint [0-9]+ for job' $((c + 1)) 60
kill_role $v committer
wait_for_count $v 'switched from state [A-Z]+ to RESTARTING' 2 30
expect_exit $v 180 0
oracle $v $N --last-max
# each row in its partition: dt and hr of its event time (UTC)
"$ZSINK" table scan "$(table_of $v)" | "$PY" -c '
import datetime, json, sys
n = 0
for line in sys.stdin:
    r = json.loads(line)
    n += 1
    if r["ts"] is None:  # (datagen values: some nulls) the default partition
        assert r["dt"] is None and r["hr"] is None, r
        continue
    t = datetime.datetime.strptime(r["ts"], "%Y-%m-%d %H:%M:%S.%f")
    assert r["dt"] == t.strftime("%Y-%m-%d") and r["hr"] == t.hour, r
assert n == int(sys.argv[1]), n
' $N || fail $v "rows outside the partition of their time"
parts=$("$ZSINK" table partitions "$(table_of $v)" --json) || fail $v "zsink table partitions"
sum=$(echo "$parts" | "$PY" -c '
import json, sys
p = json.load(sys.stdin)
p = p["partitions"] if isinstance(p, dict) else p
print(len(p), sum(x["record_count"] for x in p))')
[ "${sum#* }" = $N ] && [ "${sum%% *}" -gt 1 ] || fail $v "partitions (count, rows): $sum"
echo "[$v] $sum: partitions, rows"
_o=$(kget offsets "$t") && _c=$(kget committed "$t" "$t") || fail $v "offsets of $t"
ends=$(echo "$_o" | awk '$1 == "partition" { print $2, $6 }')
committed=$(echo "$_c" | awk '$1 == "partition" { print $2, $4 }')
[ "$ends" = "$committed" ] || fail $v "committed offsets $committed, not the ends $ends"
echo "[$v] committed offsets = the partitions' ends: $(echo $committed)"
[ "$(s3_uploads_open)" = 0 ] || fail $v "multipart uploads left open"
pass
