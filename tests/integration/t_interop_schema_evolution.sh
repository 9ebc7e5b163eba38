# Schema evolution by another engine (issue 22, item 1): Paimon Java alters
# a table zsink wrote, as ALTER TABLE does (SchemaManager.commitChanges).
#
#  1. A zsink job (2 writers, no compaction) writes 600 rows: several files
#     of schema 0 (id, name, price FLOAT, qty INT, ts TIMESTAMP(3)).
#  2. Java adds note INT, renames name to label, widens qty to BIGINT and
#     price to DOUBLE: schema-1. zsink table schema shows the history;
#     stats, scan and verify work; zsink, Paimon Java and pypaimon read the
#     same rows value for value, note NULL in every old row (readers.py:
#     digests of the latest read and of time travel to old snapshots, read
#     with their own schema).
#  3. Java appends 100 rows of the new column set.
#  4. A zsink job without table.schema (it takes the latest) writes 300
#     rows with compaction on (compaction.min.file-num 2): every old file
#     is rewritten into schema 1. The rows read before it are all still
#     there, value for value, in zsink's and in Java's read (pre-fix: qty
#     and note of every rewritten row came out 0 or 1), and the readers
#     agree again.
#  5. Java adds a column while a zsink job runs: the job goes on with its
#     schema, its compaction after the change writes the new one.
#  6. Java narrows qty to INT, which zsink cannot convert: a zsink job
#     exits 2 naming the column and the schemas, nothing written; scan
#     names them too; Paimon Java still reads the table.
. "$(dirname "$0")/lib.sh"
interop_required

v=evo
SCHEMA="id BIGINT NOT NULL, name STRING, price FLOAT, qty INT, ts TIMESTAMP(3)"
t=$(table_of $v)
snapshot_count () { ls "$t/snapshot" | grep -c '^snapshot-[0-9]'; }

# 1. zsink writes schema 0
write_job $v 2 "table.schema: $SCHEMA" "datagen.number-of-rows: 600" \
    "datagen.rows-per-second: 800" "execution.checkpointing.interval: 150ms" "write-only: true"
start_cluster $v
expect_exit $v 60 0
old_files=$("$ZSINK" table files "$t" --json | "$PY" -c 'import json, sys
print(" ".join(f["path"] for f in json.load(sys.stdin)["files"]))')
echo "[$v] job 1: $(echo $old_files | wc -w) files of schema 0"
[ "$(echo $old_files | wc -w)" -ge 2 ] || fail $v "job 1 wrote fewer than 2 files: $old_files"

# 2. Java alters the table
out=$(paimon_java alter "$t" --add note:INT --rename name:label --retype qty:BIGINT \
    --retype price:DOUBLE 2>"$SCRATCH/java.err") || fail $v "Java alter: $out $(tail -5 "$SCRATCH/java.err")"
echo "[$v] java alter: $out"
[ -f "$t/schema/schema-1" ] || fail $v "no schema-1 after Java's alter"
"$ZSINK" table schema "$t" >"$SCRATCH/schema.txt" || fail $v "zsink table schema: $(cat "$SCRATCH/schema.txt")"
for want in "schema 1 " "renamed name -> label" "retyped qty INT -> BIGINT" \
    "retyped price FLOAT -> DOUBLE" "added note INT" "zsink can write it"; do
    grep -qF "$want" "$SCRATCH/schema.txt" || fail $v "zsink table schema lacks '$want': $(cat "$SCRATCH/schema.txt")"
done
"$ZSINK" table schema "$t" --json | "$PY" -c 'import json, sys
s = json.load(sys.stdin)
h = s["history"]
assert [x["schema_id"] for x in h] == [0, 1], h
ch = {(c["change"], c["column"]) for c in h[1]["changes"]}
assert ("added", "note INT") in ch and ("renamed", "name -> label") in ch, ch
assert [f["id"] for f in s["fields"]] == [0, 1, 2, 3, 4, 5], s["fields"]' ||
    fail $v "zsink table schema --json: the history"
"$ZSINK" table stats "$t" >"$SCRATCH/stats.txt" 2>&1 || fail $v "zsink table stats: $(cat "$SCRATCH/stats.txt")"
grep -q "^count 600$" "$SCRATCH/stats.txt" || fail $v "stats: $(cat "$SCRATCH/stats.txt")"
"$ZSINK" table verify "$t" >"$SCRATCH/verify.txt" 2>&1 || fail $v "zsink table verify: $(cat "$SCRATCH/verify.txt")"
"$ZSINK" table scan "$t" >"$SCRATCH/scan1.jsonl" || fail $v "zsink table scan failed"
"$PY" - "$SCRATCH/scan1.jsonl" <<'EOF' || fail $v "the old rows as schema 1"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 600, len(rows)
assert all(list(r) == ["id", "label", "price", "qty", "ts", "note"] for r in rows), rows[0]
assert all(r["note"] is None for r in rows), [r for r in rows if r["note"] is not None][:3]
assert any(r["qty"] is not None for r in rows) and any(r["label"] is not None for r in rows)
EOF
paimon_table $v

# 3. Java appends rows of the new column set
out=$(paimon_java append "$t" --ids 1000001..1000100 --commit-user java-a --identifier 1 \
    2>>"$SCRATCH/java.err") || fail $v "Java append: $out"
echo "[$v] java append: $out"
paimon_table $v
"$ZSINK" table scan "$t" --format jsonl >"$SCRATCH/before.jsonl" || fail $v "zsink scan before job 2"
paimon_java rows "$t" >"$SCRATCH/java-before.txt" 2>>"$SCRATCH/java.err" || fail $v "Java rows before job 2"

# 4. a zsink job on the altered table, compacting the old files
write_job $v 1 "datagen.number-of-rows: 300" "datagen.rows-per-second: 200" \
    "execution.checkpointing.interval: 150ms" "compaction.min.file-num: 2" "job.allow-rerun: true"
start_cluster $v "$(job_id $v)-2"
expect_exit $v 60 0
grep -q "Compacted [0-9]* files" "$(clog $v)" || fail $v "job 2 compacted nothing"
[ "$(ls "$t/schema")" = "$(printf 'schema-0\nschema-1')" ] || fail $v "job 2 wrote a schema: $(ls "$t/schema")"
live=$("$ZSINK" table files "$t" --json | "$PY" -c 'import json, sys
print(" ".join(f["path"] for f in json.load(sys.stdin)["files"]))')
for f in $old_files; do
    case " $live " in *" $f "*) fail $v "job 1's $f is still live: compaction did not rewrite it" ;; esac
done
"$ZSINK" table verify "$t" >"$SCRATCH/verify.txt" 2>&1 || fail $v "zsink table verify: $(cat "$SCRATCH/verify.txt")"
"$ZSINK" table scan "$t" --format jsonl >"$SCRATCH/after.jsonl" || fail $v "zsink scan after job 2"
paimon_java rows "$t" >"$SCRATCH/java-after.txt" 2>>"$SCRATCH/java.err" || fail $v "Java rows after job 2"
# every row read before is there after, value for value (a multiset: job
# 2's datagen ids are 1..300 again), in zsink's read and in Java's
"$PY" - "$SCRATCH" <<'EOF' || fail $v "rows changed by the compaction"
import collections, sys
d = sys.argv[1]
for name, before, after, extra in (("zsink", "before.jsonl", "after.jsonl", 300),
                                   ("java", "java-before.txt", "java-after.txt", 300)):
    b = collections.Counter(open(f"{d}/{before}").read().splitlines())
    a = collections.Counter(open(f"{d}/{after}").read().splitlines())
    lost = b - a
    if lost or sum(a.values()) != sum(b.values()) + extra:
        print(f"{name}: {sum(lost.values())} rows read before are not read after "
              f"({sum(b.values())} before, {sum(a.values())} after), e.g. {list(lost)[:3]}")
        sys.exit(1)
    print(f"  {name}: all {sum(b.values())} rows read before read the same after, {extra} added")
EOF
paimon_table $v

# 5. Java alters the table while a zsink job runs (adds extra BIGINT:
#    schema-2): the job goes on writing schema 1 (its files keep that id),
#    its compaction after the change writes schema 2, and the readers agree
write_job $v 1 "datagen.number-of-rows: 450" "datagen.rows-per-second: 150" \
    "execution.checkpointing.interval: 150ms" "compaction.min.file-num: 2" "job.allow-rerun: true"
commits=$(count_log $v "Successfully commit snapshot")
start_cluster $v "$(job_id $v)-3"
wait_for_count $v "Successfully commit snapshot" $((commits + 2)) 30
out=$(paimon_java alter "$t" --add extra:BIGINT 2>>"$SCRATCH/java.err") || fail $v "Java alter mid-job: $out"
echo "[$v] java alter while job 3 runs: $out" | cut -c1-120
# (one compaction may be under way since before the change: the second
# after it was planned after it)
wait_for_count $v "Compacted [0-9]+ files" $(($(count_log $v "Compacted [0-9]+ files") + 2)) 30
expect_exit $v 60 0
"$ZSINK" table verify "$t" >"$SCRATCH/verify.txt" 2>&1 || fail $v "zsink table verify: $(cat "$SCRATCH/verify.txt")"
"$ZSINK" table files "$t" --json | "$PY" -c 'import json, sys
ids = sorted({f["schema_id"] for f in json.load(sys.stdin)["files"]})
print("  live files of schemas", ids)
assert 2 in ids, ids' || fail $v "no compaction output in schema 2 after the change"
"$ZSINK" table scan "$t" | "$PY" -c 'import json, sys
rows = [json.loads(l) for l in sys.stdin]
assert len(rows) == 1450 and all(r["extra"] is None for r in rows), len(rows)' ||
    fail $v "after the mid-job change: 1450 rows, extra NULL"
paimon_table $v

# 6. a change zsink cannot convert: refused before anything is written
out=$(paimon_java alter "$t" --retype qty:INT 2>>"$SCRATCH/java.err") || fail $v "Java alter 2: $out"
snaps=$(snapshot_count)
files=$(ls "$t/bucket-0" | wc -l)
write_job $v 1 "datagen.number-of-rows: 50" "job.allow-rerun: true"
if "$ZSINK" cluster -c "$(vdir $v)/job.yaml" --job-id "$(job_id $v)-4" >"$SCRATCH/refused.log" 2>&1; then rc=0; else rc=$?; fi
[ $rc = 2 ] || fail $v "job 3 on a table zsink cannot read: exit $rc, not 2: $(tail -5 "$SCRATCH/refused.log")"
grep -q "column 'qty' (field 3): schema [12] has BIGINT, schema 3 has INT" "$SCRATCH/refused.log" ||
    fail $v "job 3's refusal does not name the column and schemas: $(cat "$SCRATCH/refused.log")"
[ "$(snapshot_count)" = "$snaps" ] && [ "$(ls "$t/bucket-0" | wc -l)" = "$files" ] ||
    fail $v "job 3 wrote something"
if "$ZSINK" table scan "$t" >/dev/null 2>"$SCRATCH/scan.err"; then fail $v "scan read a change it cannot convert"; fi
grep -q "column 'qty' (field 3): schema [12] has BIGINT, schema 3 has INT" "$SCRATCH/scan.err" ||
    fail $v "scan's refusal: $(cat "$SCRATCH/scan.err")"
"$ZSINK" table schema "$t" | grep -q "zsink cannot write it: .*'qty'" || fail $v "schema: $("$ZSINK" table schema "$t")"
out=$(paimon_java summary "$t" 2>>"$SCRATCH/java.err") || fail $v "Java reads the table: $out"
echo "[$v] refused: $(grep -o "column 'qty'[^:]*: [^:]*" "$SCRATCH/refused.log" | head -1); java: $out" | cut -c1-300
pass
