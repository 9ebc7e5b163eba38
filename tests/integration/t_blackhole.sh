# sink.kind blackhole (issue 27, the source-only ceiling): writers read
# datagen's rows at full speed and drop them. rows_read in `zsink status`
# moves while the job runs (bench/flink-paimon takes its rate from it),
# checkpoints complete with empty committables, and the table gets no data
# file and no row.
. "$(dirname "$0")/lib.sh"

for p in 1 2; do
    write_job p$p $p "sink.kind: blackhole" "datagen.rows-per-second: 0" \
        "execution.checkpointing.interval: 500ms"
    start_cluster p$p --run-for 8s
done
for p in 1 2; do
    wait_status p$p "d['rows_read'] > 0 and d['state'] == 'RUNNING'" 20
    first=$(echo "$STATUS" | json_get - rows_read)
    # read again while the job runs: the count moves, not only at the end
    wait_status p$p "d['rows_read'] > $first and d['state'] == 'RUNNING'" 10
    wait_for_log p$p 'Barrier [1-9][0-9]*: 0 files' 20
done
for p in 1 2; do
    expect_exit p$p 40 0
    oracle p$p 0
    # the last line says where the rows went: read and dropped, not committed
    grep -q 'rows of this job read and dropped (sink.kind blackhole)' "$(vdir p$p)/cluster.log" ||
        fail p$p "the last line does not say the rows were dropped: $(grep 'over:' "$(vdir p$p)/cluster.log")"
    files=$(find "$(table_of p$p)" -name '*.parquet' | wc -l)
    [ "$files" -eq 0 ] || fail p$p "$files data files in the table: $(find "$(table_of p$p)" -name '*.parquet' | head -3)"
done
pass
