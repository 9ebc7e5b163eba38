# The three seed scenarios with Kafka as the source: t_kill_writer,
# t_kill_committer and t_kill_coordinator (kill -9 of a writer, of the
# committer, of the coordinator at random moments, each at two
# parallelisms) run unchanged, each job reading ids 1..N from a 4-partition
# topic of its own instead of datagen, bounded at the topic's end and at
# datagen's rate (lib.sh, ZSINK_TEST_KAFKA). After each: ids 1..N once,
# verify, no orphan, Paimon's readers agree, and the group's offsets
# committed to Kafka sum to N.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
kafka_up
for t in t_kill_writer t_kill_committer t_kill_coordinator; do
    echo "[kafka] $t"
    ZSINK_TEST_KAFKA=$KAFKA_BOOTSTRAP sh "$LIB_DIR/$t.sh" "$BUILD" "$SCRATCH/$t" >"$SCRATCH/$t.log" 2>&1
    rc=$?
    grep -E 'oracle:|offsets committed|PASS|FAIL' "$SCRATCH/$t.log" | sed "s/^/[kafka $t] /"
    [ $rc = 0 ] || { tail -n 80 "$SCRATCH/$t.log"; fail "$t" "$t with Kafka exit $rc ($SCRATCH/$t.log)"; }
done
pass
