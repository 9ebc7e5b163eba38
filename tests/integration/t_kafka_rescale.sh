# Kafka: stop with a savepoint, more records, restore onto another
# parallelism (issue 24). A 4-partition topic gets ids 1..N1. Job A (2
# writers, unbounded) reads it, a writer is killed -9, it is stopped with a
# savepoint. N2 more ids are produced; job B restores the savepoint onto 3
# writers (the partitions are dealt anew, Flink's way), a writer is killed
# -9, it is stopped with a savepoint. N3 more ids; job C restores onto 1
# writer with scan.bounded.mode latest-offset: it ends at the offsets the
# topic has when C starts, not where A's or B's savepoint was, and not past
# that (N4 ids produced once C runs are not read); its writer is killed -9
# too. The table holds ids
# 1..N1+N2+N3 exactly once under one commit user; the offsets committed to
# Kafka sum to that.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
kafka_up

N1=12000 N2=6000 N3=6000 N4=3000
v=kafka
topic=rescale-$$

# job_yaml PARALLELISM [yaml lines ...]
job_yaml () {
    _p=$1
    shift
    write_fault_job $v "$_p" "source.kind: kafka" "source.kafka.topic: $topic" \
        "source.kafka.properties.bootstrap.servers: $KAFKA_BOOTSTRAP" \
        "source.kafka.properties.group.id: $topic" "source.kafka.scan.startup.mode: earliest-offset" \
        "source.kafka.rows-per-second: 3000" "$@"
}

# produce FROM TO: ids FROM..TO-1, keyed over the partitions
produce () {
    ktool produce "$topic" --from "$1" --to "$2" --keyed >/dev/null || fail $v "produce $1..$2"
    echo "[$v] produced ids $1..$(($2 - 1))"
}

ktool create "$topic" 4 >/dev/null || fail $v "create $topic"
produce 1 $((N1 + 1))
base=$(job_id $v)
job_yaml 2
savepoint_part $v "$base-a" writer-1 more
user=$("$ZSINK" table snapshots "$(table_of $v)" --json | "$PY" -c \
    'import json, sys; print(json.load(sys.stdin)[-1]["commit_user"])')

produce $((N1 + 1)) $((N1 + N2 + 1))
job_yaml 3
savepoint_part $v "$base-b" writer-2 more --restore-from "$SAVEPOINT"
grep -q "Rescaling: checkpoint [0-9]* has parallelism 2, the job has 3" "$(clog $v)" ||
    fail $v "job B did not say it rescales 2 -> 3"

TOTAL=$((N1 + N2 + N3))
produce $((N1 + N2 + 1)) $((TOTAL + 1))
job_yaml 1 "source.kafka.scan.bounded.mode: latest-offset"
# C's stops are the ends as C starts: ids produced after its stops are
# known stay out
before=$(count_log $v 'Split kafka:.* stops at offset')
start_cluster $v "$base-c" --restore-from "$SAVEPOINT"
wait_for_count $v 'Split kafka:.* stops at offset' $((before + 4)) 30
produce $((TOTAL + 1)) $((TOTAL + N4 + 1))
wait_for_count $v 'Completed checkpoint [0-9]+ for job' $(($(count_log $v 'Completed checkpoint [0-9]+ for job') + 1)) 30
kill_role $v writer-0
expect_exit $v 90 0
grep -q "Rescaling: checkpoint [0-9]* has parallelism 3, the job has 1" "$(clog $v)" ||
    fail $v "job C did not say it rescales 3 -> 1"
oracle $v $TOTAL --last-max --user "$user"
got=$(kafka_committed_total "$topic" "$topic")
[ "$got" = $TOTAL ] || fail $v "offsets committed to Kafka sum to $got, not $TOTAL"
echo "[$v] offsets committed to Kafka: $got = the table's rows"
pass
