# A line that does not parse against the schema. With source.file.on-error
# fail (the default) the job fails over, fails on the same line again, and
# ends FAILED when restarts run out; the error names file, line and column,
# and what was committed before is intact: ids all from the input, none
# twice. With skip the job finishes; the bad lines are counted and the first
# ones logged; the table is the input minus exactly those lines.
. "$(dirname "$0")/lib.sh"

SCHEMA="id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), day DATE"
N=6000

drive () {
    v=$1
    in=$(vdir "$v")/input
    mkdir -p "$in"
    # file 1 (part-001), its line 400: the 400th row of that file
    "$PY" "$LIB_DIR/gen_input.py" "$in" jsonl 3 $N --bad 1:400 --bad 2:10 || fail "$v" "gen_input"
    write_fault_job "$v" 2 "source.kind: file" "source.file.path: $in" \
        "source.file.rows-per-second: 3000" "table.schema: $SCHEMA" \
        "source.file.on-error: $v" "restart-strategy.fixed-delay.attempts: 2" \
        "restart-strategy.fixed-delay.delay: 200ms"
    start_cluster "$v"
    if [ "$v" = fail ]; then
        expect_exit "$v" 90 1
        grep -q "part-001.jsonl:400: column 'qty'" "$(clog "$v")" \
            || fail "$v" "no error naming part-001.jsonl:400 and column qty"
        # every committed row is an input row, once
        "$ZSINK" table stats "$(table_of "$v")" --json | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["count"] == d["distinct_ids"], d
assert d["count"] == 0 or (d["min_id"] >= 1 and d["max_id"] <= '$N'), d
print("committed before the failure:", d)' || fail "$v" "committed rows"
        "$ZSINK" table verify "$(table_of "$v")" >/dev/null || fail "$v" "verify"
    else
        expect_exit "$v" 90 0
        grep -q "Skipped bad record .*part-001.jsonl:400" "$(clog "$v")" || fail "$v" "skipped line not logged"
        # the count at the end, from the writers that skipped (1 each)
        [ "$(grep -cE 'End of input after [0-9]+ rows; 1 bad records skipped' "$(clog "$v")")" = 2 ] ||
            fail "$v" "the skipped count is not said at the end of input"
        # rows of the bad lines: file k holds ids k+1, k+1+3, …; line L is
        # the id k+1+3(L-1): file 1 line 400 -> 1199, file 2 line 10 -> 30
        "$ZSINK" table scan "$(table_of "$v")" --format csv | "$PY" -c '
import csv, sys
ids = sorted(int(r[0]) for r in list(csv.reader(sys.stdin))[1:])
want = sorted(set(range(1, '$N' + 1)) - {1199, 30})
assert ids == want, (len(ids), len(want), sorted(set(want) - set(ids))[:5], sorted(set(ids) - set(want))[:5])
print("table = input minus the 2 bad lines:", len(ids), "rows")' || fail "$v" "table vs input"
    fi
}
run_variants drive fail skip
pass
