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
