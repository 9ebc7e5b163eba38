# Paimon Java's predicate push-down over a zsink table proves zsink's
# statistics: Paimon skips data files by the manifests' value statistics
# (min, max, null counts of every column, BinaryRow-encoded by zsink) and
# row groups by the Parquet footers'. A wrong minimum, maximum or null count
# makes Paimon skip a file or row group that holds a matching row, and its
# count comes out short.
#
# A table of every zsink type, with nulls, from 2 writers with a small
# target-file-size and small row groups (many files, several row groups
# each). For each of 26 conditions (id ranges, equality on strings, IS NULL
# and IS NOT NULL, ranges on every other type, IN, OR) Paimon Java's
# count-where (one JVM) equals DuckDB's count over the live files, and every
# file in which DuckDB finds a matching row is among the files Paimon
# planned. An id range and a timestamp range plan fewer files than the table
# has (files_planned < files_total), a NOT NULL column's IS NULL and an id
# past the maximum plan none. Then lib.sh's oracle (DuckDB, pypaimon, Java).
. "$(dirname "$0")/lib.sh"
interop_required

N=12000
SCHEMA="id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), \
day DATE, raw BYTES, f FLOAT, t6 TIMESTAMP(6), s STRING NOT NULL"
v=types
write_job $v 2 "table.schema: $SCHEMA" "datagen.rows-per-second: 4000" \
    "datagen.number-of-rows: $N" "execution.checkpointing.interval: 300ms" \
    "parquet.row-group-rows: 500" "target-file-size: 24kb"
start_cluster $v
expect_exit $v 60 0
t=$(table_of $v)

# One condition a line, the same text for Paimon's parser and DuckDB's SQL.
# (ts of the default datagen is 2023-11-14 22:13:20 + id seconds, so the ts
# ranges are id ranges too; name is "name-<id>".)
CONDS="id BETWEEN 2001 AND 2600
id < 150
id >= 11500
id > 4000 AND id <= 4100
id IN (5, 500, 5000, 11999)
id < 10 OR id > 11990
id > 1000000
name = 'name-4242'
name > 'name-9'
s = 'plain'
s = ''
s = '日本語'
s >= 'c' AND s < 'f'
name IS NULL
raw IS NULL
t6 IS NULL AND day IS NOT NULL
s IS NULL
price > 40.5 AND price < 41
qty > 2000000000 OR qty IS NULL
f < -100000
ok = TRUE AND f >= 0
day < '1950-01-01'
day BETWEEN '1999-12-31' AND '2000-01-31'
ts >= '2023-11-14 22:30:00' AND ts < '2023-11-14 22:40:00'
ts < '2023-11-14 22:15:00'
t6 < '1950-01-01 00:00:00'"

echo "$CONDS" >"$SCRATCH/conds"
# Java: every condition in one JVM
set --
while IFS= read -r c; do set -- "$@" "$c"; done <"$SCRATCH/conds"
java_out=$(paimon_java count-where "$t" "$@" 2>"$SCRATCH/java.err") ||
    fail $v "ZsinkInterop count-where failed: $java_out $(tail -n 20 "$SCRATCH/java.err")"
echo "$java_out" >"$SCRATCH/java.json"
# DuckDB: the same conditions, --where each
set --
while IFS= read -r c; do set -- "$@" --where "$c"; done <"$SCRATCH/conds"
duck_out=$(duck where --zsink "$ZSINK" --table "$t" "$@") || fail $v "oracle.mjs where failed: $duck_out"
echo "$duck_out" >"$SCRATCH/duck.json"

"$PY" - "$SCRATCH/java.json" "$SCRATCH/duck.json" <<'EOF' || fail $v "Paimon Java's push-down disagrees with DuckDB"
import json, sys
java = json.load(open(sys.argv[1]))
duck = json.load(open(sys.argv[2]))
bad = []
total = duck["files_total"]
if total < 8:
    bad.append(f"only {total} live files: the test needs several")
by = {}
for j, d in zip(java, duck["results"]):
    w = d["where"]
    by[w] = j
    if j["where"] != w:
        bad.append(f"order: {j['where']} vs {w}")
        continue
    if j["files_total"] != total:
        bad.append(f"{w}: java plans {j['files_total']} files without a filter, zsink lists {total}")
    if str(j["count"]) != d["count"]:
        bad.append(f"{w}: java counts {j['count']} (read {j['rows_read']} rows of "
                   f"{j['files_planned']} files), DuckDB {d['count']}")
    missed = sorted(set(d["files_matching"]) - set(j["planned"]))
    if missed:
        bad.append(f"{w}: java skipped {len(missed)} file(s) with matching rows: {missed[:3]}")
    print(f"  {w:<58} count {d['count']:>5}  planned {j['files_planned']:>2}/{total}"
          f"  read {j['rows_read']:>5} rows  ({len(d['files_matching'])} files match)")
def skips(w, most=None):
    j = by[w]
    if not j["files_planned"] < j["files_total"]:
        bad.append(f"{w}: no file skipped ({j['files_planned']}/{j['files_total']})")
    if most is not None and j["files_planned"] > most:
        bad.append(f"{w}: {j['files_planned']} files planned, at most {most} expected")
skips("id BETWEEN 2001 AND 2600")
skips("ts >= '2023-11-14 22:30:00' AND ts < '2023-11-14 22:40:00'")
skips("id > 1000000", 0)
skips("s IS NULL", 0)
# most conditions must match something, or the comparison proves little
empty = [d["where"] for d in duck["results"] if d["count"] == "0"]
if sorted(empty) != sorted(["id > 1000000", "s IS NULL"]):
    bad.append(f"conditions matching no row: {empty}")
for b in bad:
    print("FAIL " + b)
sys.exit(1 if bad else 0)
EOF
echo "[$v] Paimon Java's push-down = DuckDB for $(echo "$CONDS" | wc -l) conditions"
oracle $v $N --last-max
pass
