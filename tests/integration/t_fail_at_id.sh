# Scenario 3: checkpoints every 2 s, ids 1..200 at 20 rows/s, the row with id
# 120 fails once (datagen.fail-at-id): the job fails over (RUNNING ->
# RESTARTING) and the table still holds ids 1..200 exactly once.
. "$(dirname "$0")/lib.sh"

for p in 1 3; do
    write_job p$p $p "execution.checkpointing.interval: 2s" \
        "datagen.rows-per-second: 20" "datagen.number-of-rows: 200" \
        "datagen.fail-at-id: 120" "restart-strategy.fixed-delay.delay: 500ms"
    start_cluster p$p
done
for p in 1 3; do
    expect_exit p$p 90 0
    grep -q 'switched from state RUNNING to RESTARTING' "$(clog p$p)" ||
        fail p$p "no failover (switched from state RUNNING to RESTARTING) in the log"
    oracle p$p 200 --last-max
done
pass
