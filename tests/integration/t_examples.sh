# The example jobs under examples/ run as the README says (from the
# repository root, relative paths), each into its own table here: datagen
# ids 1..100,000 exactly once; the JSONL and CSV orders, 30 rows each, the
# same rows in both tables; the partitioned ones (computed day and hour,
# DECIMAL amounts, nested items) each in its partition.
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$LIB_DIR/../.." && pwd)
run_example () { # NAME
    v=$1
    mkdir -p "$(vdir $v)"
    (cd "$ROOT" && timeout 120 "$ZSINK" cluster -c "examples/$v.yaml" \
        -Dtable.path="$(table_of $v)" -Dstate.checkpoints.dir="$(vdir $v)/chk" \
        >"$(clog $v)" 2>&1) || { tail -n 20 "$(clog $v)"; fail $v "examples/$v.yaml: exit $?"; }
    echo "[$v] $(tail -n 1 "$(clog $v)")"
}
run_example datagen
oracle datagen 100000
for v in jsonl csv; do
    run_example $v
    stats=$("$ZSINK" table stats "$(table_of $v)" --json)
    [ "$(echo "$stats" | json_get - count)" = 30 ] &&
        [ "$(echo "$stats" | json_get - distinct_ids)" = 30 ] || fail $v "stats: $stats"
    "$ZSINK" table scan "$(table_of $v)" --format csv | sort >"$(vdir $v)/rows.csv"
done
cmp -s "$(vdir jsonl)/rows.csv" "$(vdir csv)/rows.csv" || fail csv "the CSV and JSONL tables differ"
echo "[csv] the same 30 rows as jsonl: $(head -n 2 "$(vdir csv)/rows.csv" | tail -n 1)"
# the orders partitioned by computed day and hour: the same 30 orders,
# each in the partition of its time
run_example computed
"$ZSINK" table scan "$(table_of computed)" | "$PY" -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin]
assert len(rows) == 30 and len({r["id"] for r in rows}) == 30, len(rows)
for r in rows:
    assert r["dt"] == r["ordered_at"][:10] and r["hr"] == int(r["ordered_at"][11:13]), r
' || fail computed "the partitioned orders"
echo "[computed] 30 orders in $("$ZSINK" table partitions "$(table_of computed)" | tail -n 1)"
# the README's partitioned job: DECIMAL amounts and nested items, read
# back equal to the input files, and alike by every reader
run_example partitioned
oracle partitioned 30
"$ZSINK" table scan "$(table_of partitioned)" | "$PY" -c '
import glob, json, sys
want = {}
for f in glob.glob(sys.argv[1] + "/*.jsonl"):
    for line in open(f):
        o = json.loads(line)
        want[o["id"]] = o
rows = [json.loads(line) for line in sys.stdin]
assert len(rows) == 30, len(rows)
for r in rows:
    w = want[r["id"]]
    assert r["amount"] == "%.2f" % w["amount"], (r, w)
    assert r["items"] == w["items"], (r, w)
    assert r["dt"] == w["ordered_at"][:10] and r["hr"] == int(w["ordered_at"][11:13]), r
' "$ROOT/examples/data/orders-items-jsonl" || fail partitioned "the partitioned orders and their items"
n=$("$ZSINK" table scan "$(table_of partitioned)" --where "dt = '2026-11-02'" 2>"$(vdir partitioned)/where.err" | wc -l)
[ "$n" = 2 ] && grep -q "28 skipped" "$(vdir partitioned)/where.err" ||
    fail partitioned "--where dt = '2026-11-02': $n rows, $(cat "$(vdir partitioned)/where.err")"
echo "[partitioned] 30 orders with their items; --where read 2 rows: $(cat "$(vdir partitioned)/where.err")"
pass
