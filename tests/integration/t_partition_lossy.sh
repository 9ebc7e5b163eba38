# Network faults, scenario 3: a whole bounded job over a bad network. Every
# packet into a role's namespace is dropped with probability 0.15 (iptables
# -m statistic --mode random), every role's veth is rate-limited by tbf
# (queueing delay), and fail points delay every step of every checkpoint
# (this kernel has no netem: no `tc netem delay`). Failovers may or may not
# happen; the job must finish exactly once.
. "$(dirname "$0")/netns.sh"

v=lossy
N=20000
net_setup 2
write_fault_job $v 2 "datagen.number-of-rows: $N" "execution.checkpointing.timeout: 5s" \
    "restart-strategy.fixed-delay.attempts: 30"
FAILPOINTS="writer.after-marker=delay:40,committer.after-state-ack=delay:40,coordinator.notify=delay:60"
net_loss 0.15
net_rate 512kbit
net_start $v
expect_exit $v 150 0
fails=$(count_log $v 'switched from state [A-Z]+ to RESTARTING')
done_chk=$(count_log $v 'Completed checkpoint [0-9]+ for job')
lost=0
for r in $(net_roles); do lost=$((lost + $(net_dropped "$r"))); done
oracle $v $N --last-max
echo "[$v] figures: $done_chk checkpoints completed, failovers $fails, $lost packets dropped," \
    "job done at t=$(elapsed)s"
pass
