# zsink status: the job, its participants and the checkpoint history
# (issue 14, point 2), kept across a coordinator's kill -9 and a failover,
# and readable from the files once the job is over.
#  - h, while it runs: the table shows every participant and COMPLETED
#    checkpoints with their snapshot and commit latency;
#  - h, the coordinator killed -9: its successor's history still holds the
#    checkpoints of the first attempt (history.json), next to its own, each
#    COMPLETED one with its snapshot;
#  - n, the coordinator dead right after a Notify (fail point
#    coordinator.after-notify), before it could save that checkpoint as
#    completed or hear its commit: its successor shows it COMPLETED, with
#    the snapshot the committer reports (CI once caught a kill -9 in that
#    window: the checkpoint showed no snapshot forever);
#  - after the end, with no cluster: FINISHED, from the files, the same
#    history; web.checkpoints.history bounds it.
. "$(dirname "$0")/lib.sh"

N=16000
# hist VARIANT: state, running, entries, attempts and COMPLETED count of
# `zsink status --json`, after checking the history's invariants; with a
# checkpoint id, that it is COMPLETED in attempt 1 with its snapshot.
hist () { "$ZSINK" status -c "$(vdir "$1")/job.yaml" --json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
h = d["history"]
ids = [e["id"] for e in h]
assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids), ids
attempts = sorted({e["attempt"] for e in h})
done = [e for e in h if e["status"] == "COMPLETED"]
# the newest may still be committing; a commit only the predecessor heard
# of has its snapshot but no latency
bad = [e for e in done[1:] if e["snapshot"] <= 0
       or (e["attempt"] == attempts[-1] and e["commit_latency_ms"] < 0)]
assert not bad, bad
if len(sys.argv) > 1:
    e = [e for e in h if e["id"] == int(sys.argv[1])]
    assert e and e[0]["status"] == "COMPLETED" and e[0]["attempt"] == 1 and e[0]["snapshot"] > 0, e
print(d["state"], d.get("running", True), len(h), attempts, len(done))' ${2:+"$2"}; }

drive () {
    v=$1
    write_fault_job $v 2 "datagen.number-of-rows: $N" "datagen.rows-per-second: 2000" \
        "execution.checkpointing.interval: 200ms" "web.checkpoints.history: 30"
    crashed=
    if [ $v = n ]; then
        FAILPOINTS="coordinator.after-notify=crash:4"
        start_cluster $v
        wait_for_log $v 'failpoint coordinator.after-notify: crash' 60
        crashed=$(awk '/failpoint coordinator.after-notify: crash/ { print last; exit }
                       match($0, /Completed checkpoint [0-9]+ for job/) {
                           split(substr($0, RSTART, RLENGTH), w, " "); last = w[3] }' "$(clog $v)")
        [ -n "$crashed" ] || fail $v "no checkpoint completed before the crash"
        echo "[$v] the coordinator died right after the Notify of checkpoint $crashed"
    else
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
    fi
    wait_for_log $v "Resuming job $(job_id $v)" 30
    wait_for_count $v 'Completed checkpoint [0-9]+ for job' 8 60
    out=$(hist $v $crashed) || fail $v "the history after the coordinator's death: $out"
    read -r state running n attempts_and_done <<EOF2
$out
EOF2
    echo "[$v] after the coordinator's death: $state, $n entries, attempts/completed $attempts_and_done"
    case "$attempts_and_done" in "[1, "*) ;; *) fail $v "the first attempt's checkpoints are gone: $attempts_and_done" ;; esac
    expect_exit $v 120 0
    oracle $v $N
    out=$("$ZSINK" status -c "$(vdir $v)/job.yaml") || fail $v "status after the end: $out"
    echo "$out" | grep -q "FINISHED (not running: from its files)" || fail $v "after the end: $out"
    n=$(echo "$out" | grep -cE "^ +[0-9]+ (COMPLETED|FAILED) ")
    [ "$n" -ge 8 ] && [ "$n" -le 30 ] || fail $v "history after the end: $n entries (want 8..30): $out"
    echo "[$v] after the end, from the files: $n entries"
}
run_variants drive h n
pass
