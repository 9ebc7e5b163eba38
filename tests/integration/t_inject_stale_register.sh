# Scenario 12, continued: a Register of this job with an OLD epoch (0) from a
# routing id the coordinator does not know is stale and must be dropped and
# counted, never applied (docs/protocol.md "Envelope rules").
# It must not replace the live writer-0 and fail the job over.
. "$(dirname "$0")/lib.sh"
INJECT=$BIN/zsink-inject
[ -x "$INJECT" ] || fail - "$INJECT not built"

v=p2
write_fault_job $v 2 "datagen.rows-per-second: 2000"
start_cluster $v
wait_for_log $v 'Completed checkpoint [0-9]+ for job' 30
cj=$(vdir $v)/chk/cluster.json
jid=$(cat "$(vdir $v)/job_id")
# the stale Register first, then one garbage frame on the same pipe: once the
# garbage is counted, the Register has been handled
"$INJECT" "$(json_get "$cj" coordinator)" "$jid" --register-stale --garbage 1 ||
    fail $v "zsink-inject failed"
wait_status $v 'd["dropped"]["garbage"] >= 1' 15
echo "[$v] status after the stale Register: $STATUS"
echo "$STATUS" | "$PY" -c 'import json, sys; d = json.load(sys.stdin)
sys.exit(0 if d["epoch"] == 1 and d["restarts"] == 0 and d["dropped"]["stale"] >= 1 else 1)' ||
    fail $v "a Register with epoch 0 was applied (job failed over: see 'registered in place of') or not counted as stale"
expect_exit $v 90 0
oracle $v 20000 --last-max
pass
