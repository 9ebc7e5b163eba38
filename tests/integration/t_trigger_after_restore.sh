# execution.checkpointing.trigger-after-restore: with it, the first
# checkpoint after a failover is triggered as soon as the job runs again;
# without it (Flink's behaviour, the default) only after an interval. The
# interval is an hour, so in a 2,000-row job at 400 rows/s that fails at id
# 300: "on" completes a checkpoint after the restore and before the end of
# input; "off" completes none until the end of input (its final checkpoint).
# Both end exact.
. "$(dirname "$0")/lib.sh"

for v in on off; do
    opt=
    [ $v = on ] && opt="execution.checkpointing.trigger-after-restore: true"
    write_job $v 2 "execution.checkpointing.interval: 1h" \
        "datagen.rows-per-second: 400" "datagen.number-of-rows: 2000" \
        "datagen.fail-at-id: 300" "restart-strategy.fixed-delay.delay: 0ms" ${opt:+"$opt"}
    start_cluster $v
done

# the line number of the first line matching PATTERN in the variant's log
first_line () { grep -nE -- "$2" "$(clog "$1")" | head -n 1 | cut -d: -f1; }

for v in on off; do
    expect_exit $v 90 0
    [ "$(count_log $v 'switched from state RUNNING to RESTARTING')" -ge 1 ] ||
        fail $v "no failover in the log"
    # the second RUNNING is the restore's
    restored=$(grep -nE 'switched from state RESTORING to RUNNING' "$(clog $v)" | sed -n 2p | cut -d: -f1)
    [ -n "$restored" ] || fail $v "no restore to RUNNING in the log"
    completed=$(first_line $v 'Completed checkpoint [0-9]+ for job')
    finishing=$(first_line $v 'switched from state RUNNING to FINISHING')
    [ -n "$completed" ] && [ -n "$finishing" ] || fail $v "no completed checkpoint or no end of input"
    echo "[$v] restored at line $restored, first completed checkpoint at $completed, end of input at $finishing"
    if [ $v = on ]; then
        [ "$completed" -gt "$restored" ] && [ "$completed" -lt "$finishing" ] ||
            fail $v "the first checkpoint was not triggered right after the restore"
    else
        [ "$completed" -gt "$finishing" ] ||
            fail $v "a checkpoint completed before the end of input with an interval of 1h"
    fi
    oracle $v 2000 --last-max
done
pass
