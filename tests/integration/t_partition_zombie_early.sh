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
zombie_start $v $N "target-file-size: 8kb"
net_isolate writer-1
net_replacement $v 1 spare-0
wait_for_log $v "writer-1 restarted: pid $RPID registered in place of pid $ZPID" 20
wait_for_log $v "Registered writer-1 \\(pid $RPID," 20
# the zombie notices only now, and has rolled files in the meantime
wait_for_log $v "\\[writer-1\\] lost the coordinator" 20
zombie_end $v $N "$RPID" "$(count_log $v 'switched from state [A-Z]+ to RESTARTING')"
pass
