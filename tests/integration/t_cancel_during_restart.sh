# A cancel that reached a coordinator which died before acting on it must
# not be lost: the cluster asks the restarted coordinator again. The
# coordinator is paused (SIGSTOP: its connection stays up, so the cancel is
# delivered into its socket), the cluster gets SIGTERM and sends the cancel,
# then the coordinator is killed. Before the fix the restarted coordinator
# resumed the (unbounded) job for ever.
. "$(dirname "$0")/lib.sh"

v=p1
write_job $v 1 "execution.checkpointing.interval: 1s" "datagen.rows-per-second: 500" \
    "restart-strategy.fixed-delay.delay: 500ms"
start_cluster $v
wait_for_log $v 'Completed checkpoint 2 for job' 30
pid=$(role_pid $v coordinator)
kill -STOP "$pid"
kill -TERM "$(cluster_pid $v)"
wait_for_log $v 'Canceling job' 10
kill -9 "$pid"
kill -CONT "$pid" 2>/dev/null
echo "[$v] coordinator $pid paused, cancel sent, coordinator killed"
expect_exit $v 40 0
wait_for_log $v "switched from state [A-Z]+ to CANCELED" 1
rows=$("$ZSINK" table count "$(table_of $v)")
oracle $v "$rows"
pass
