# An all-types table (every zsink type, nullable and NOT NULL columns, nulls,
# empty and multi-byte strings, bytes with zeros, dates and timestamps before
# 1970) written by 2 writers through a failover: a writer and then the
# committer are killed -9. DuckDB reads the Parquet files and agrees with
# zsink's reader row for row (lib.sh's oracle runs tests/duckdb/oracle.mjs).
# Small row groups and a small target-file-size give several row groups per
# file and several files per checkpoint.
. "$(dirname "$0")/lib.sh"

SCHEMA="id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), \
day DATE, raw BYTES, f FLOAT, t6 TIMESTAMP(6), s STRING NOT NULL"

drive () {
    v=$1 p=2
    write_fault_job "$v" "$p" "table.schema: $SCHEMA" "parquet.row-group-rows: 700" \
        "target-file-size: 48kb" "file.compression: $2"
    start_cluster "$v"
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' 2 30
    pause_random 900
    kill_role "$v" writer-1
    wait_for_count "$v" 'switched from state [A-Z]+ to RESTARTING' 1 30
    wait_for_count "$v" 'switched from state RESTORING to RUNNING' 2 30
    pause_random 900
    kill_role "$v" committer
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
    # the manifest carries the footer's statistics of every file
    "$ZSINK" table files "$(table_of "$v")" --json | "$PY" -c '
import json, sys
files = json.load(sys.stdin)["files"]
assert len(files) > 2, "expected several files"
for f in files:
    st = f["stats"]
    assert len(st["nullCounts"]) == 11 and st["nullCounts"][0] == 0, st
    assert st["minValues"][0] <= st["maxValues"][0], st
print("stats ok in", len(files), "files")' || fail "$v" "manifest statistics"
}
drive_zstd () { drive "$1" zstd; }
drive_none () { drive "$1" none; }
run_variants drive_zstd zstd
run_variants drive_none none
pass
