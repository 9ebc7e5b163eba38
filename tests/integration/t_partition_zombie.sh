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
zombie_start $v $N
net_isolate writer-1
wait_for_log $v "writer-1 \\(pid $ZPID\\) timed out: no heartbeat" 20
wait_for_log $v "\\[writer-1\\] lost the coordinator" 20
net_replacement $v 1 spare-0
wait_for_log $v "Registered writer-1 \\(pid $RPID," 20
n=$(count_log $v 'Completed checkpoint [0-9]+ for job')
wait_for_count $v 'Completed checkpoint [0-9]+ for job' $((n + 1)) 30
zombie_end $v $N "$RPID" "$(count_log $v 'switched from state [A-Z]+ to RESTARTING')"
pass
