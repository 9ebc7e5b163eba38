# `make demo` as the README shows it: scripts/demo.sh runs the main job
# (2 writers, ids 1..2000, one injected failure) and prints the table; the
# table holds each id once, and the README's DuckDB query over the files
# `zsink table files --json` lists (its ```sql block, run as written from
# the directory holding demo-out) counts 2000 rows and 2000 ids, where a
# glob over bucket-0 would also count the files compaction replaced.
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$LIB_DIR/../.." && pwd)
v=demo
dir=$(vdir $v)
mkdir -p "$dir"
ZSINK_BIN_DIR=$BIN ZSINK_DEMO_OUT=$dir/demo-out timeout 180 sh "$ROOT/scripts/demo.sh" \
    >"$dir/demo.log" 2>&1 || { tail -n 30 "$dir/demo.log"; fail $v "scripts/demo.sh: exit $?"; }
grep -q '^{"count":2000,"distinct_ids":2000,"min_id":1,"max_id":2000}$' "$dir/demo.log" ||
    fail $v "table stats: $(grep '"count"' "$dir/demo.log")"
grep -q "switched from state RUNNING to RESTARTING" "$dir/demo.log" ||
    fail $v "no failover in the demo's log"
echo "[$v] $(grep -c '' "$dir/demo.log") lines; $(grep '"count"' "$dir/demo.log")"
# the progress a commit line gives is the table's (it held no other rows):
# never ahead of it, also for the checkpoint taken after the end of input,
# whose snapshot is empty (the rows after the last barrier come in the
# end-of-input one)
"$ZSINK" table snapshots "$dir/demo-out/table" --json | "$PY" -c '
import json, re, sys
total = {s["id"]: s["total_record_count"] for s in json.load(sys.stdin)}
pat = re.compile(r"committed (checkpoint \d+|the end of input) in snapshot (\d+): ([\d,]+) rows of this job")
lines = [(l, pat.search(l)) for l in open(sys.argv[1])]
lines = [(l, m) for l, m in lines if m]
assert lines, "no commit line"
for l, m in lines:
    snap, rows = int(m.group(2)), int(m.group(3).replace(",", ""))
    assert rows == total[snap], "%s: the table holds %d rows in snapshot %d" % (l.strip(), total[snap], snap)
assert "2,000 rows of this job committed" in open(sys.argv[1]).read(), "final line"
print("[demo] %d commit lines, each the rows of its snapshot" % len(lines))
' "$dir/demo.log" || fail $v "the commit lines' rows"

# the README's query, as a user runs it
"$ZSINK" table files "$dir/demo-out/table" --json >"$dir/demo-out/files.json"
sql=$(sed -n '/^```sql$/,/^```$/p' "$ROOT/README.md" | sed '1d;$d')
[ -n "$sql" ] || fail $v "no \`\`\`sql block in README.md"
got=$(cd "$dir" && duck sql --sql "$sql") || fail $v "the README's query: $got"
[ "$got" = "[[2000,2000]]" ] || fail $v "the README's query gives $got, not 2000 rows, 2000 ids"
glob=$(cd "$dir" && duck sql --sql "SELECT count(*) FROM 'demo-out/table/bucket-0/*.parquet'")
echo "[$v] README's query over the listed files: $got; a glob over bucket-0 would count $glob"
pass
