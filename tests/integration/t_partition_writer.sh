# Network faults, scenario 1: writer 1 is cut off from the committer (both
# directions) while checkpoint 3 is in flight. The fail point
# writer.after-flush=delay:1500:3 holds every writer for 1.5 s at its third
# barrier, after closing its files and before sending them; the cut goes in
# as soon as writer 1 logs that delay, so its committable and marker for
# checkpoint 3 go into the cut. The checkpoint expires, the job fails over;
# once it has, the link heals, and the job finishes exactly once.
. "$(dirname "$0")/netns.sh"

v=wcut
N=24000
net_setup 2
write_fault_job $v 2 "datagen.number-of-rows: $N" "execution.checkpointing.timeout: 3s"
FAILPOINTS="writer.after-flush=delay:1500:3"
net_start $v
wait_for_log $v '\[writer-1\] failpoint writer.after-flush: delay' 40
t0=$(elapsed)
net_cut writer-1 committer
wait_for_log $v 'Checkpoint 3 of job .* expired before completing' 20
wait_for_log $v 'switched from state RUNNING to RESTARTING' 20
t1=$(elapsed)
dropped=$(($(net_dropped committer) + $(net_dropped writer-1)))
net_heal writer-1 committer
expect_exit $v 120 0
log=$(clog $v)
grep -q 'Completed checkpoint 3 for job' "$log" && fail $v "checkpoint 3 completed across the cut"
fails=$(count_log $v 'switched from state [A-Z]+ to RESTARTING')
oracle $v $N --last-max
echo "[$v] figures: cut at t=${t0}s, failover at t=${t1}s, failovers $fails," \
    "$dropped packets dropped by the cut, job done at t=$(elapsed)s"
pass
