# table.schema: a table without an id column works end to end (stats then
# reports the count only, DuckDB agrees with zsink's reader), and a job whose
# schema differs from the table's is refused up front (exit 2) naming the
# first differing column, with the committed table untouched.
. "$(dirname "$0")/lib.sh"

v=noid
write_job $v 2 "execution.checkpointing.interval: 500ms" "datagen.rows-per-second: 4000" \
    "datagen.number-of-rows: 3000" "table.schema: k INT NOT NULL, label STRING, amount DOUBLE"
start_cluster $v
expect_exit $v 60 0
t=$(table_of $v)
grep -q '"type": "INT NOT NULL"' "$t/schema/schema-0" || fail $v "schema-0 does not hold the job's schema"
stats=$("$ZSINK" table stats "$t" --json) || fail $v "stats failed"
[ "$stats" = '{"count":3000}' ] || fail $v "stats without an id column: $stats"
"$ZSINK" table verify "$t" >/dev/null || fail $v "verify"
duck_table $v
# reading an older snapshot: count --snapshot 1 is snapshot 1's total, and
# scan --limit stops where asked (a header and 5 rows)
want=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)[0]["total_record_count"])')
got=$("$ZSINK" table count "$t" --snapshot 1) || fail $v "count --snapshot 1 failed"
[ "$got" = "$want" ] && [ "$got" -lt 3000 ] || fail $v "count --snapshot 1: $got, snapshot 1 holds $want"
# (records, not lines: strings may hold quoted newlines)
lines=$("$ZSINK" table scan "$t" --snapshot 1 --limit 5 --format csv |
    "$PY" -c 'import csv, sys; print(len(list(csv.reader(sys.stdin))))')
[ "$lines" = 6 ] || fail $v "scan --limit 5 printed $lines records"
"$ZSINK" table scan "$t" --snapshot 0 >/dev/null 2>&1 && fail $v "--snapshot 0 accepted"
echo "[$v] snapshot 1 holds $got rows; scan --limit 5 ok"

# the same table, another schema: refused before anything runs
before=$("$ZSINK" table snapshots "$t" --json)
out=$("$ZSINK" cluster -c "$(vdir $v)/job.yaml" -D"table.schema=k BIGINT NOT NULL, label STRING, amount DOUBLE" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail $v "schema mismatch: exit $rc, expected 2: $out"
echo "$out" | grep -q "column 1 'k': job has 'k BIGINT NOT NULL', table has 'k INT NOT NULL'" \
    || fail $v "mismatch not named: $out"
[ "$("$ZSINK" table snapshots "$t" --json)" = "$before" ] || fail $v "the table changed"
echo "[$v] refused: $out"
pass
