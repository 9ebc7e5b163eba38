# zsink status: the job, its participants and the checkpoint history
# (issue 14, point 2), kept across a coordinator's kill -9 and a failover,
# and readable from the files once the job is over.
#  - while it runs: the table shows every participant and COMPLETED
#    checkpoints with their snapshot and commit latency;
#  - the coordinator killed -9: its successor's history still holds the
#    checkpoints of the first attempt (history.json), next to its own;
#  - after the end, with no cluster: FINISHED, from the files, the same
#    history; web.checkpoints.history bounds it.
. "$(dirname "$0")/lib.sh"

v=h
N=16000
write_fault_job $v 2 "datagen.number-of-rows: $N" "datagen.rows-per-second: 2000" \
    "execution.checkpointing.interval: 200ms" "web.checkpoints.history: 30"
start_cluster $v
wait_for_log $v 'Completed checkpoint 3 for job' 30
out=$("$ZSINK" status -c "$(vdir $v)/job.yaml") || fail $v "status: $out"
echo "$out" | grep -qE "^job $(job_id $v): RUNNING, attempt 1" || fail $v "no job line: $out"
for p in committer writer-0 writer-1; do
    echo "$out" | grep -qE "^$p +[0-9]+ +yes +yes" || fail $v "participant $p not shown live: $out"
done
echo "$out" | grep -qE "^ +[0-9]+ COMPLETED +1 [0-9-]+ [0-9:.]+ +[0-9]+ ms +3/3 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ ms" ||
    fail $v "no COMPLETED checkpoint with its snapshot and commit latency: $out"
echo "[$v] status while running:"
echo "$out" | sed -n '1,12p'

kill_role $v coordinator
wait_for_log $v "Resuming job $(job_id $v)" 30
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 8 60
hist () { "$ZSINK" status -c "$(vdir $v)/job.yaml" --json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
h = d["history"]
ids = [e["id"] for e in h]
assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids), ids
attempts = sorted({e["attempt"] for e in h})
done = [e for e in h if e["status"] == "COMPLETED"]
assert all(e["snapshot"] > 0 and e["commit_latency_ms"] >= 0 for e in done[1:]), done[:3]
print(d["state"], d.get("running", True), len(h), attempts, len(done))'; }
read -r state running n attempts_and_done <<EOF2
$(hist)
EOF2
echo "[$v] after the coordinator's kill -9: $state, $n entries, attempts/completed $attempts_and_done"
case "$attempts_and_done" in "[1, "*) ;; *) fail $v "the first attempt's checkpoints are gone: $attempts_and_done" ;; esac
expect_exit $v 120 0
oracle $v $N
out=$("$ZSINK" status -c "$(vdir $v)/job.yaml") || fail $v "status after the end: $out"
echo "$out" | grep -q "FINISHED (not running: from its files)" || fail $v "after the end: $out"
n=$(echo "$out" | grep -cE "^ +[0-9]+ (COMPLETED|FAILED) ")
[ "$n" -ge 8 ] && [ "$n" -le 30 ] || fail $v "history after the end: $n entries (want 8..30): $out"
echo "[$v] after the end, from the files: $n entries"
pass
