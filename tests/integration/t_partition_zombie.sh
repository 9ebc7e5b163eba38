# Network faults, scenario 4: a zombie. Writer 1 is cut off from every
# other namespace for longer than heartbeat.timeout; the coordinator fails
# the job over, and a replacement writer 1 (started by hand in a spare
# namespace, as an orchestrator would on another node) takes its slot in
# the new epoch. Then the network heals while the old process is still
# alive. It must not change the table: it is refused ("superseded"), exits
# on its own, causes no further failover, and the table is exact.
#
# Before the fix (invariant 7 of coordinator.c) the healed zombie registered
# again, which failed the job over and sent the replacement back to Hello;
# the replacement did the same in turn, and the ping-pong ended with the
# restart attempts exhausted and the job FAILED.
. "$(dirname "$0")/netns.sh"

v=zombie
N=40000
net_setup 2 1
write_fault_job $v 2 "datagen.number-of-rows: $N"
net_start $v
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 2 30
zpid=$(role_pid $v writer-1)
[ -n "$zpid" ] || fail $v "no writer-1"
t0=$(elapsed)
net_isolate writer-1
wait_for_log $v "writer-1 \\(pid $zpid\\) timed out: no heartbeat" 20
wait_for_log $v "\\[writer-1\\] lost the coordinator" 20

net_replacement $v 1 spare-0
rpid=$RPID
wait_for_log $v "Registered writer-1 \\(pid $rpid," 20
n=$(count_log $v 'Completed checkpoint [0-9]+ for job')
wait_for_count $v 'Completed checkpoint [0-9]+ for job' $((n + 1)) 30
fails=$(count_log $v 'switched from state [A-Z]+ to RESTARTING')

kill -0 "$zpid" 2>/dev/null || fail $v "the zombie (pid $zpid) is not alive before the heal"
net_heal writer-1
wait_for_log $v "\\[writer-1\\] the coordinator refused us: superseded: writer-1 is pid $rpid" 20
wait_gone "$zpid" 20 || fail $v "the zombie (pid $zpid) did not exit after it was refused"
echo "[$v] t=$(elapsed)s the zombie (pid $zpid) exited"
expect_exit $v 90 0
wait_gone "$rpid" 10 || fail $v "the replacement is still running after the job"
log=$(clog $v)
# the zombie never got its slot back, and the heal caused no failover
[ "$(grep -c "Registered writer-1 (pid $zpid," "$log")" = 1 ] ||
    fail $v "the zombie registered again after it was replaced"
after=$(count_log $v 'switched from state [A-Z]+ to RESTARTING')
[ "$after" = "$fails" ] || fail $v "the heal caused $((after - fails)) more failover(s)"
grep -q "Shutdown: finished" "$(vdir $v)/replacement.log" ||
    fail $v "the replacement did not finish the job"
oracle $v $N --last-max
echo "[$v] figures: partition at t=${t0}s, failovers $fails, job done at t=$(elapsed)s"
pass
