# Scenario 1: checkpoints every 2 s, datagen ids 1..100 at 20 rows/s, at
# parallelism 1 and 3 (run concurrently). Every completed checkpoint is one
# snapshot with that checkpoint id as identifier; the last snapshot carries
# INT64_MAX; exactly 100 distinct rows; the cluster exits 0.
. "$(dirname "$0")/lib.sh"

for p in 1 3; do
    write_job p$p $p "execution.checkpointing.interval: 2s" \
        "datagen.rows-per-second: 20" "datagen.number-of-rows: 100"
    start_cluster p$p
done
for p in 1 3; do
    expect_exit p$p 60 0
    oracle p$p 100 --last-max --ids-are-completed-checkpoints
    [ "$(grep -cE 'Completed checkpoint [0-9]+ for job' "$(clog p$p)")" -ge 2 ] ||
        fail p$p "expected at least 2 completed checkpoints in 5 s of input"
done
pass
