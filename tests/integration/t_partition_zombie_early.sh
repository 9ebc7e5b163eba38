# Network faults, scenario 4b: a zombie replaced early. Writer 1 is cut off
# from every other namespace and a replacement writer 1 registers at once
# (before anyone noticed the silence: an orchestrator that restarts a node
# it cannot reach), which fails the job over. The old process keeps writing
# until its own heartbeat.timeout, so with small data files it rolls files
# after the replacement's Reset has already deleted writer 1's uncommitted
# ones. Healed, it is refused ("superseded") and exits; nothing it wrote may
# stay behind: the table is exact with no orphan file.
#
# Before the fix (s_drop_closed in writer.c) those rolled files were left
# for "the next Reset" of a process that never gets one: orphans.
. "$(dirname "$0")/netns.sh"

v=early
N=40000
net_setup 2 1
write_fault_job $v 2 "datagen.number-of-rows: $N" "target-file-size: 8kb"
net_start $v
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 2 30
zpid=$(role_pid $v writer-1)
[ -n "$zpid" ] || fail $v "no writer-1"
t0=$(elapsed)
net_isolate writer-1
net_replacement $v 1 spare-0
rpid=$RPID
wait_for_log $v "writer-1 \\(pid $zpid\\) was replaced by pid $rpid" 20
wait_for_log $v "Registered writer-1 \\(pid $rpid," 20
# the zombie notices only now, and has rolled files in the meantime
wait_for_log $v "\\[writer-1\\] lost the coordinator" 20
kill -0 "$zpid" 2>/dev/null || fail $v "the zombie (pid $zpid) is not alive before the heal"
fails=$(count_log $v 'switched from state [A-Z]+ to RESTARTING')
net_heal writer-1
wait_for_log $v "\\[writer-1\\] the coordinator refused us: superseded: writer-1 is pid $rpid" 20
wait_gone "$zpid" 20 || fail $v "the zombie (pid $zpid) did not exit after it was refused"
echo "[$v] t=$(elapsed)s the zombie (pid $zpid) exited"
expect_exit $v 90 0
wait_gone "$rpid" 10 || fail $v "the replacement is still running after the job"
after=$(count_log $v 'switched from state [A-Z]+ to RESTARTING')
[ "$after" = "$fails" ] || fail $v "the heal caused $((after - fails)) more failover(s)"
oracle $v $N --last-max
echo "[$v] figures: partition at t=${t0}s, failovers $fails, job done at t=$(elapsed)s"
pass
