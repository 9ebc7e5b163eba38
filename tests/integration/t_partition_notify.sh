# Network faults, scenario 2: the committer is cut off from the coordinator
# right after checkpoint 2 completes, so Notify(2) is lost. The fail point
# coordinator.after-checkpoint-write=delay:1500:2 holds the coordinator for
# 1.5 s between chk-2 being durable and Notify(2) being sent; the cut goes
# in as soon as that delay is logged. The cut lasts until the coordinator
# has failed the committer (heartbeat.timeout); healed, the committer
# rejoins, restores chk-2 and commits its files then (identifier 2 once),
# and the job finishes exactly once.
. "$(dirname "$0")/netns.sh"

v=ncut
N=24000
net_setup 2
write_fault_job $v 2 "datagen.number-of-rows: $N"
FAILPOINTS="coordinator.after-checkpoint-write=delay:1500:2"
net_start $v
wait_for_log $v 'failpoint coordinator.after-checkpoint-write: delay' 40
t0=$(elapsed)
net_cut committer coordinator
grep -q 'Completed checkpoint 2 for job' "$(clog $v)" || fail $v "cut before chk-2 completed"
grep -q 'with identifier 2 and kind APPEND' "$(clog $v)" && fail $v "identifier 2 committed before the cut"
wait_for_log $v 'committer \(pid [0-9]+\) timed out: no heartbeat' 20
t1=$(elapsed)
net_heal committer coordinator
wait_for_count $v 'Registered committer \(pid' 2 30
expect_exit $v 120 0
log=$(clog $v)
# Notify(2) was lost: identifier 2 was committed only by the restore
awk '/Restoring job .* from Checkpoint 2 @/ && !r { r = NR }
     /with identifier 2 and kind APPEND/ { c++; at = NR }
     END { exit !(r && c == 1 && at > r) }' "$log" ||
    fail $v "identifier 2 was not committed exactly once, by the restore of chk-2"
fails=$(count_log $v 'switched from state [A-Z]+ to RESTARTING')
oracle $v $N --last-max --include 2
echo "[$v] figures: cut at t=${t0}s, committer failed at t=${t1}s, failovers $fails," \
    "job done at t=$(elapsed)s"
pass
