# Scenario 2: checkpointing off, unbounded datagen, --run-for 10s: a loud
# NOTHING WILL warning, then nothing is ever committed: 0 snapshots, 0 rows,
# no data file left in the table's bucket-0; the cluster exits 0.
. "$(dirname "$0")/lib.sh"

for p in 1 3; do
    write_job p$p $p "execution.checkpointing.interval: 0" \
        "datagen.rows-per-second: 20"
    start_cluster p$p --run-for 10s
done
for p in 1 3; do
    wait_for_log p$p 'NOTHING WILL' 10
    # the job really ran: rows were read (and then thrown away)
    wait_for_log p$p 'progress: state RUNNING, rows read [1-9]' 15
done
for p in 1 3; do
    expect_exit p$p 40 0
    oracle p$p 0 --snapshots 0
    files=$(ls "$(table_of p$p)/bucket-0" 2>/dev/null | wc -l)
    [ "$files" -eq 0 ] || fail p$p "$files data files in bucket-0: $(ls "$(table_of p$p)/bucket-0" | head -5)"
done
pass
