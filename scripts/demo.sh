#!/bin/sh
# `make demo`: run the main job on a local cluster and show the result.
#
# Two writers read a bounded datagen source (ids 1..2000) into a table with a
# checkpoint every second. Row 1200 fails once (datagen.fail-at-id), like a
# user function failing on one bad record: the job fails over to the last
# completed checkpoint, replays, and still commits every row exactly once.
# The table's data files are Parquet: `zsink table scan` reads them, and so
# does any Parquet reader (DuckDB: SELECT * FROM 'demo-out/table/bucket-0/*.parquet').
set -e
cd "$(dirname "$0")/.."
# ZSINK_BIN_DIR and ZSINK_DEMO_OUT (relative to the repository root, or
# absolute) let tests/integration/t_demo.sh run it against its own build
# and scratch directory
BIN=${ZSINK_BIN_DIR:-build/bin}
OUT=${ZSINK_DEMO_OUT:-demo-out}
rm -rf "$OUT"
mkdir -p "$OUT"
cat > "$OUT/job.yaml" <<YAML
parallelism: 2
execution.checkpointing.interval: 1s
restart-strategy.fixed-delay.attempts: 3
restart-strategy.fixed-delay.delay: 1s
source.kind: datagen
datagen.rows-per-second: 400
datagen.number-of-rows: 2000
datagen.fail-at-id: 1200
table.path: $OUT/table
table.schema: id BIGINT NOT NULL, name STRING, price DOUBLE, ts TIMESTAMP(3)
file.format: parquet
file.compression: zstd
state.checkpoints.dir: $OUT/checkpoints
YAML
echo "== job ($OUT/job.yaml)"
cat "$OUT/job.yaml"
echo
echo "== zsink cluster -c $OUT/job.yaml"
$BIN/zsink cluster -c "$OUT/job.yaml"
echo
echo "== zsink table snapshots $OUT/table"
$BIN/zsink table snapshots "$OUT/table"
echo
echo "== zsink table files $OUT/table   (Parquet; any Parquet reader opens them)"
$BIN/zsink table files "$OUT/table"
echo
echo "== zsink table scan $OUT/table --limit 5 --format csv"
$BIN/zsink table scan "$OUT/table" --limit 5 --format csv
echo
echo "== zsink table stats $OUT/table --json"
$BIN/zsink table stats "$OUT/table" --json
echo
echo "== zsink table verify $OUT/table"
$BIN/zsink table verify "$OUT/table"
echo
echo "== zsink table orphans $OUT/table --json"
$BIN/zsink table orphans "$OUT/table" --json
