# Kafka, exactly once through everything at once (issue 24): a producer
# writes ids 1..N into a 4-partition topic at R rows/s while an unbounded
# job reads it at parallelism 1, 2 and 6 (6 > 4 partitions: two writers
# hold no split), concurrently, one topic each. Meanwhile, at random
# moments: kill -9 of a writer, of the committer and of the coordinator;
# the topic grows to 6 partitions and 1,000 more ids go into each new one
# (found by discovery every 2 s and read by their writers); and (variant
# p2, so every variant lives through it) kill -9 of the broker and its
# restart. Once the table holds every id the job is stopped with a
# savepoint: ids 1..N+2000 once each, verify, no orphan, Paimon's readers
# agree, and the group's offsets committed to Kafka sum to N+2000.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
kafka_up

N=30000
RATE=2000
TOTAL=$((N + 2000))

# wait_rows VARIANT ROWS SECONDS: until the table's latest snapshot holds
# ROWS rows (the committer's count in zsink status)
wait_rows () {
    _end=$(($(now) + $3))
    while :; do
        _got=$(status "$1" 2>/dev/null | json_get - rows_committed 2>/dev/null)
        [ "${_got:-0}" -ge "$2" ] && return 0
        [ "$(now)" -ge "$_end" ] && fail "$1" "the table holds ${_got:-?} rows after $3 s, not $2"
        sleep 0.2
    done
}

drive () {
    v=$1 p=${1#p}
    topic=chaos-$v-$$
    ktool create "$topic" 4 >/dev/null || fail "$v" "create $topic"
    write_fault_job "$v" "$p" "source.kind: kafka" "source.kafka.topic: $topic" \
        "source.kafka.properties.bootstrap.servers: $KAFKA_BOOTSTRAP" \
        "source.kafka.properties.group.id: $topic" "source.kafka.scan.startup.mode: earliest-offset" \
        "source.kafka.scan.topic-partition-discovery.interval: 2s"
    start_cluster "$v"
    wait_for_log "$v" 'switched from state RESTORING to RUNNING' 30
    "$KTOOL" "$KAFKA_BOOTSTRAP" produce "$topic" --from 1 --to $((N + 1)) --keyed --rate $RATE \
        >"$(vdir "$v")/producer.log" 2>&1 &
    producer=$!
    EXTRA_PIDS="$EXTRA_PIDS $producer"
    runs=1
    rand "$p"
    for role in "writer-$RAND" committer coordinator; do
        wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' $((runs + 1)) 30
        pause_random 900
        kill_role "$v" "$role"
        if [ $role = coordinator ]; then
            wait_for_log "$v" 'Resuming job .* in epoch [0-9]+' 30
        else
            wait_for_count "$v" 'switched from state [A-Z]+ to RESTARTING' $runs 30
        fi
        runs=$((runs + 1))
    done
    ktool add-partitions "$topic" 6 >/dev/null || fail "$v" "add-partitions $topic 6"
    ktool produce "$topic" --from $((N + 1)) --to $((N + 1001)) --partition 4 >/dev/null &&
        ktool produce "$topic" --from $((N + 1001)) --to $((TOTAL + 1)) --partition 5 >/dev/null ||
        fail "$v" "produce into the new partitions"
    wait_for_log "$v" 'Discovered split kafka:.*:5, starting at offset' 30
    if [ "$v" = p2 ]; then
        pause_random 900
        kafka_server kill9 || fail "$v" "kill -9 the broker"
        echo "[$v] t=$(elapsed)s kill -9 the Kafka broker"
        kafka_server restart >/dev/null || fail "$v" "restart the broker"
        echo "[$v] t=$(elapsed)s the Kafka broker is back"
    fi
    wait "$producer" || fail "$v" "the producer failed: $(tail -n 3 "$(vdir "$v")/producer.log")"
    wait_rows "$v" $TOTAL 120
    sp=$("$ZSINK" stop --savepoint -c "$(vdir "$v")/job.yaml") ||
        fail "$v" "zsink stop --savepoint failed: $sp"
    expect_exit "$v" 60 0
    oracle "$v" $TOTAL
    got=$(kafka_committed_total "$topic" "$topic")
    [ "$got" = $TOTAL ] || fail "$v" "offsets committed to Kafka sum to $got, not $TOTAL"
    echo "[$v] offsets committed to Kafka: $got = the table's rows"
}
run_variants drive p1 p2 p6
pass
