# The checkpoint taken after end of input expires (tolerated): the next one
# must take its place and commit the end-of-input files. Before the fix the
# coordinator triggered periodic checkpoints only in RUNNING, so a job whose
# final checkpoint expired stayed FINISHING for ever.
#
# The writer reaches end of input at once (100 rows, unthrottled), so the
# final checkpoint is checkpoint 1; the fail point holds the writer 1.5 s
# after it flushed for that barrier, past the 1 s checkpoint timeout.
. "$(dirname "$0")/lib.sh"

v=p1
write_job $v 1 "datagen.number-of-rows: 100" "datagen.rows-per-second: 0" \
    "execution.checkpointing.interval: 500ms" "execution.checkpointing.timeout: 1s" \
    "execution.checkpointing.tolerable-failed-checkpoints: 5"
FAILPOINTS="writer.after-flush=delay:1500:1"
start_cluster $v
wait_for_log $v 'Checkpoint 1 of job .* expired before completing' 20
expect_exit $v 30 0
oracle $v 100 --last-max
pass
