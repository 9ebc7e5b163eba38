# The job fails for good when restart attempts are exhausted: with
# restart-strategy.fixed-delay.attempts 0 the injected failure ends it; the
# cluster exits 1 with a message saying so, and what was committed before is
# intact and exact. A bad configuration is refused up front, naming the key.
. "$(dirname "$0")/lib.sh"

v=p1
write_job $v 1 "execution.checkpointing.interval: 500ms" "datagen.rows-per-second: 400" \
    "datagen.number-of-rows: 2000" "datagen.fail-at-id: 900" \
    "restart-strategy.fixed-delay.attempts: 0"
start_cluster $v
expect_exit $v 30 1
wait_for_log $v 'Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy' 1
wait_for_log $v 'The job failed for good' 1
grep -q '"status": "FAILED"' "$(vdir $v)/chk/$(cat "$(vdir $v)/job_id")/job.json" \
    || fail $v "job.json does not say FAILED"
rows=$("$ZSINK" table count "$(table_of $v)")
[ "$rows" -gt 0 ] && [ "$rows" -lt 900 ] || fail $v "expected a committed prefix below 900, got $rows rows"
oracle $v "$rows"

# configuration errors: exit 2, the key named, nothing started
out=$("$ZSINK" cluster -c "$(vdir $v)/job.yaml" -Dparalelism=2 2>&1)
rc=$?
[ $rc -eq 2 ] || fail $v "unknown key: exit $rc, expected 2"
echo "$out" | grep -q "paralelism" || fail $v "unknown key not named: $out"
out=$("$ZSINK" cluster -c "$(vdir $v)/job.yaml" -Dexecution.checkpointing.interval=soon 2>&1)
rc=$?
[ $rc -eq 2 ] || fail $v "bad duration: exit $rc, expected 2"
echo "$out" | grep -q "execution.checkpointing.interval" || fail $v "bad value's key not named: $out"
# more -D than are kept: refused by name, not dropped
many=$(for i in $(seq 1 257); do printf ' -Dparallelism=1'; done)
# shellcheck disable=SC2086 # one word per option
out=$("$ZSINK" cluster -c "$(vdir $v)/job.yaml" $many 2>&1)
rc=$?
[ $rc -eq 2 ] || fail $v "257 -D: exit $rc, expected 2"
echo "$out" | grep -q "more than 256 -D" || fail $v "257 -D not refused by name: $out"
echo "[$v] configuration errors refused: exit 2, key named"
pass
