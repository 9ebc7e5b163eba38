# Ctrl-C at a terminal: SIGINT to the cluster's whole process group. Only the
# cluster may act on it (its children run in their own process groups): it
# cancels the job through the coordinator, so job.json says CANCELED, the
# cluster exits 0, and no uncommitted data file is left behind. Before the
# fix every process got the signal and died on its own: the job was never
# canceled (job.json stayed RUNNING). Also with a checkpoint in flight.
. "$(dirname "$0")/lib.sh"

# cancel VARIANT [job options]: run a job, Ctrl-C it after checkpoint 2.
cancel () {
    v=$1
    shift
    write_job $v 1 "execution.checkpointing.interval: 1s" "$@"
    d=$(vdir $v)
    id=$(job_id $v)
    SESSION=setsid
    start_cluster $v
    SESSION=
    pid=$(cluster_pid $v)
    wait_for_log $v 'Completed checkpoint 2 for job' 30
    # in flight: checkpoint 3's files handed over, its ack held back
    if [ -n "${INFLIGHT:-}" ]; then wait_for_log $v 'failpoint writer.after-marker: delay' 30; fi
    kill -INT "-$pid" || fail $v "cannot signal process group $pid"
    expect_exit $v 30 0
    wait_for_log $v "switched from state RUNNING to CANCELED" 1
    grep -q '"status": "CANCELED"' "$d/chk/$id/job.json" \
        || fail $v "job.json does not say CANCELED: $(cat "$d/chk/$id/job.json")"
    # exactly what was committed is in the table, nothing else: ids 1..N
    # once, and no orphan file
    rows=$("$ZSINK" table count "$(table_of $v)")
    [ "$rows" -gt 0 ] || fail $v "nothing committed before the cancel"
    oracle $v "$rows"
}

cancel p1 "datagen.rows-per-second: 200"
# Files rolled by size between barriers are closed but in no committable
# yet: the writer deletes them as it exits, as it deletes its open file
# (they used to stay behind as orphans).
cancel roll "datagen.rows-per-second: 20000" "target-file-size: 8kb"
# Canceled with a checkpoint in flight: the writer has handed its files to
# the committer for checkpoint 3 (its ack held back 1 s, within the 2 s the
# coordinator waits for every Bye), then the cancel aborts that checkpoint.
# Those files are no restore's (the job ends at checkpoint 2): the writer
# deletes them on the Shutdown that says so (they used to stay behind as
# orphans; bench/long_job.sh's --run-for cancel found them).
FAILPOINTS="writer.after-marker=delay:1000:3" INFLIGHT=1
cancel inflight "datagen.rows-per-second: 200"
FAILPOINTS= INFLIGHT=
# (the committer, which holds them as pending, may be the first to)
grep -qE "files written after checkpoint 2 deleted|data files of checkpoints after 2 deleted" \
    "$(clog inflight)" || fail inflight "the files of the aborted checkpoint were not deleted"
pass
