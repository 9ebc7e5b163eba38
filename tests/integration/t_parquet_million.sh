# 1,000,000 rows, unthrottled, 2 writers, 5 s checkpoints, row groups of
# 20,000 rows and 1 MB files: several row groups and files per writer.
# DuckDB and zsink's reader agree on every figure and on the digest of all
# rows; the time DuckDB takes to count the table is printed for
# docs/performance.md.
. "$(dirname "$0")/lib.sh"

v=p2
write_job "$v" 2 "datagen.rows-per-second: 0" "datagen.number-of-rows: 1000000" \
    "execution.checkpointing.interval: 5s" "parquet.row-group-rows: 20000" \
    "target-file-size: 1mb"
start_cluster "$v"
expect_exit "$v" 240 0
oracle "$v" 1000000 --last-max
layout=$(duck layout --zsink "$ZSINK" --table "$(table_of "$v")") || fail "$v" "layout: $layout"
echo "[$v] layout: $layout"
echo "$layout" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["files"] >= 4 and d["row_groups"] > d["files"], d
assert d["count"] == "1000000", d' || fail "$v" "expected several files and row groups"
pass
