# The file source: a directory of 7 JSONL (and, as a second variant, CSV)
# files, 42,000 rows, split across 3 writers, replayed at 12,000 rows/s with
# 1 s checkpoints; a writer is killed -9 twice in the middle. Each failover
# resumes every writer from the (file, byte offset) of the last completed
# checkpoint, so the table equals the input exactly: ids 1..42000 once each,
# and DuckDB's read_json / read_csv of the input agrees with DuckDB's read
# of the table on every figure and the digest of all rows.
. "$(dirname "$0")/lib.sh"

SCHEMA="id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), day DATE"
N=42000

drive () {
    v=$1 fmt=$1
    in=$(vdir "$v")/input
    mkdir -p "$in"
    "$PY" "$LIB_DIR/gen_input.py" "$in" "$fmt" 7 $N || fail "$v" "gen_input"
    write_fault_job "$v" 3 "source.kind: file" "source.file.path: $in" \
        "source.file.format: $fmt" "source.file.rows-per-second: 12000" "table.schema: $SCHEMA"
    start_cluster "$v"
    runs=1
    for round in 1 2; do
        wait_for_count "$v" 'switched from state RESTORING to RUNNING' $runs 30
        wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' $round 30
        pause_random 900
        rand 3
        kill_role "$v" "writer-$RAND"
        runs=$((runs + 1))
        wait_for_count "$v" 'switched from state [A-Z]+ to RESTARTING' $((runs - 1)) 30
    done
    expect_exit "$v" 90 0
    oracle "$v" $N --last-max
    out=$(duck input --zsink "$ZSINK" --table "$(table_of "$v")" --input "$in" --format "$fmt") \
        || fail "$v" "input vs table: $out"
    echo "[$v] duckdb input vs table: $out"
}
run_variants drive jsonl csv
pass
