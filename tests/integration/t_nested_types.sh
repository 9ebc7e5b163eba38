# Nested types (issue 25 part 5): a JSON file source of ARRAY, MAP and ROW
# columns and nestings of them (gen_nested.py: nulls at every level, empty
# arrays and maps) written by 3 writers, one killed -9 mid-run. The table
# equals the input exactly (zsink's scan, row by row); Paimon Java,
# pypaimon and DuckDB (every data file) read the same rows (oracle: the
# digests of their reads equal zsink's, nested values spelt alike).
. "$(dirname "$0")/lib.sh"

N=6000

drive () {
    v=$1
    in=$(vdir "$v")/input
    "$PY" "$LIB_DIR/gen_nested.py" "$in" 4 $N || fail "$v" "gen_nested"
    schema=$("$PY" "$LIB_DIR/gen_nested.py" schema)
    write_fault_job "$v" 3 "source.kind: file" "source.file.path: $in" \
        "source.file.format: jsonl" "source.file.rows-per-second: 3000" \
        "table.schema: $schema" "parquet.row-group-rows: 500" "target-file-size: 256kb"
    start_cluster "$v"
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' 1 30
    pause_random 700
    rand 3
    kill_role "$v" "writer-$RAND"
    wait_for_count "$v" 'switched from state [A-Z]+ to RESTARTING' 1 30
    expect_exit "$v" 90 0
    oracle "$v" $N --last-max
    "$ZSINK" table scan "$(table_of "$v")" --format jsonl >"$(vdir "$v")/scan.jsonl" ||
        fail "$v" "table scan"
    out=$("$PY" "$LIB_DIR/gen_nested.py" check "$in" "$(vdir "$v")/scan.jsonl") ||
        fail "$v" "table vs input: $out"
    echo "[$v] $out"
    # the schema file spells the nested types as Paimon does
    "$PY" - "$(table_of "$v")/schema/schema-0" <<'PYEOF' || fail "$v" "schema-0"
import json, sys
s = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in s["fields"]}
assert f["tags"]["type"] == {"type": "ARRAY", "element": "STRING"}, f["tags"]
assert f["attrs"]["type"]["type"] == "MAP" and f["attrs"]["type"]["key"] == "STRING NOT NULL", f["attrs"]
assert f["addr"]["type"]["fields"][1] == {"id": 6, "name": "zip", "type": "INT NOT NULL"}, f["addr"]
ids = []
def walk(t):
    if isinstance(t, dict):
        for x in t.get("fields", []):
            ids.append(x["id"]); walk(x["type"])
        for k in ("element", "key", "value"):
            walk(t.get(k))
for x in s["fields"]:
    ids.append(x["id"]); walk(x["type"])
assert sorted(ids) == list(range(len(ids))) and s["highestFieldId"] == len(ids) - 1, (ids, s["highestFieldId"])
print("schema-0 ok:", len(ids), "field ids")
PYEOF
}
# The other direction: files DuckDB wrote with nested columns (lists of
# structs, maps, structs of lists, nulls and empties at each level;
# snappy, zstd, small row groups) read by `zsink table scan FILE` exactly
# as DuckDB reads them.
SQL="SELECT i::BIGINT AS id,
  CASE WHEN i % 7 = 0 THEN NULL WHEN i % 5 = 0 THEN []::INTEGER[]
       ELSE [i, NULL, -i][1:(i % 3) + 1] END AS xs,
  CASE WHEN i % 11 = 0 THEN NULL ELSE {'a': CASE WHEN i % 4 = 0 THEN NULL ELSE 'v' || i END,
       'b': [(i * 0.5)::DOUBLE, NULL]} END AS st,
  CASE WHEN i % 13 = 0 THEN NULL WHEN i % 3 = 0 THEN MAP {}::MAP(VARCHAR, BIGINT)
       ELSE MAP {'k' || (i % 10): i, 'z': NULL} END AS m,
  [{'p': i % 2 = 0, 'q': ['x', NULL]}, NULL][1:(i % 2) + 1] AS ls
FROM range(1, 20001) t(i)"
files () {
    v=$1
    mkdir -p "$(vdir "$v")"
    k=0
    for opts in "" "COMPRESSION zstd, ROW_GROUP_SIZE 3000" "COMPRESSION uncompressed"; do
        k=$((k + 1))
        f="$(vdir "$v")/duck-$k.parquet"
        out=$(duck copy --out "$f" --sql "$SQL" ${opts:+--options "$opts"}) || fail "$v" "DuckDB COPY: $out"
        out=$(duck file --zsink "$ZSINK" --file "$f") || fail "$v" "$(basename "$f"): $out"
        echo "[$v] $(basename "$f") (${opts:-snappy}): $out"
    done
}
# A table Paimon Java makes with the same columns (its schema file, field
# ids, and its parquet-mr data files): zsink reads its rows back equal to
# the input, and a zsink job appends to it (the schema file's nested types
# read back as the job's).
java_made () {
    v=$1
    if ! interop_ready; then
        echo "[$v] skipped: Paimon Java not set up ($INTEROP_WHY)"
        return 0
    fi
    in=$(vdir "$v")/input
    "$PY" "$LIB_DIR/gen_nested.py" "$in" 1 1500 || fail "$v" "gen_nested"
    "$PY" "$LIB_DIR/gen_nested.py" fields >"$(vdir "$v")/fields.json"
    jt=$(table_of "$v")
    paimon_java create-fields "$jt" "$(vdir "$v")/fields.json" >/dev/null 2>"$(vdir "$v")/create.err" ||
        fail "$v" "Java create-fields: $(tail -n 5 "$(vdir "$v")/create.err")"
    paimon_java append-json "$jt" "$in/part-0.jsonl" >/dev/null 2>"$(vdir "$v")/append.err" ||
        fail "$v" "Java append-json: $(tail -n 5 "$(vdir "$v")/append.err")"
    "$ZSINK" table scan "$jt" --format jsonl >"$(vdir "$v")/scan.jsonl" 2>"$(vdir "$v")/scan.err" ||
        fail "$v" "zsink scan of Java's table: $(cat "$(vdir "$v")/scan.err")"
    out=$("$PY" "$LIB_DIR/gen_nested.py" check "$in" "$(vdir "$v")/scan.jsonl") ||
        fail "$v" "Java's table vs input: $out"
    echo "[$v] zsink reads Paimon Java's table: $out"
    more=$(vdir "$v")/more
    "$PY" "$LIB_DIR/gen_nested.py" "$more" 1 3000 || fail "$v" "gen_nested"
    "$PY" - "$more/part-0.jsonl" <<'PYEOF'
import sys
p = sys.argv[1]
lines = open(p, encoding="utf-8").read().splitlines()[1500:]
open(p, "w", encoding="utf-8").write("\n".join(lines) + "\n")
PYEOF
    write_job "$v" 2 "source.kind: file" "source.file.path: $more" "source.file.format: jsonl"         "table.schema: $("$PY" "$LIB_DIR/gen_nested.py" schema)"
    start_cluster "$v"
    expect_exit "$v" 90 0
    cat "$more/part-0.jsonl" >>"$in/part-0.jsonl"
    duck_table "$v" 3000 # (oracle.py would count two commit users: Java's and the job's)
    "$ZSINK" table scan "$jt" --format jsonl >"$(vdir "$v")/scan2.jsonl" || fail "$v" "scan"
    out=$("$PY" "$LIB_DIR/gen_nested.py" check "$in" "$(vdir "$v")/scan2.jsonl") ||
        fail "$v" "Java's table after zsink's job vs input: $out"
    echo "[$v] after a zsink job appends to it: $out"
    # the value statistics as Paimon reads them: Java's file and zsink's
    # alike, the nested columns left out (null statistics, dense store)
    paimon_java value-stats "$jt" >"$(vdir "$v")/stats.json" 2>/dev/null || fail "$v" "value-stats"
    out=$("$PY" - "$(vdir "$v")/stats.json" <<'PYEOF'
import json, sys
files = json.load(open(sys.argv[1]))["files"]
assert len(files) == 2, files
cols = [[c.split(":")[0] for c in f["columns"]] for f in files]
assert cols[0] == cols[1] == ["id"], cols
print("value statistics alike in Java's file and zsink's:", cols[0])
PYEOF
) || fail "$v" "statistics: $out"
    echo "[$v] $out"
}
# A datagen job with the nested schema runs (datagen fills nested columns
# with a constant: formats.md) and every reader agrees on its table.
datagen () {
    v=$1
    write_job "$v" 2 "source.kind: datagen" "datagen.number-of-rows: 4000" \
        "table.schema: $("$PY" "$LIB_DIR/gen_nested.py" schema)"
    start_cluster "$v"
    expect_exit "$v" 90 0
    oracle "$v" 4000 --last-max
}
# Bad nested values: the job fails for good with the file and line, the
# column path and the value (and CSV input refuses nested columns at once).
errors () {
    v=$1
    in=$(vdir "$v")/input
    mkdir -p "$in"
    printf '%s\n' '{"id":1,"items":[{"price":1.5}],"m":{"7":true}}' \
        '{"id":2,"items":[{"price":1},{"price":2},{"price":3},{"price":"x"}]}' >"$in/a.jsonl"
    write_job "$v" 1 "source.kind: file" "source.file.path: $in" "source.file.format: jsonl" \
        "restart-strategy.fixed-delay.attempts: 0" \
        "table.schema: id BIGINT NOT NULL, items ARRAY<ROW<price DECIMAL(10, 2)>>, m MAP<INT, BOOLEAN>"
    start_cluster "$v"
    expect_exit "$v" 60 1
    grep -q "a.jsonl:2: column 'items\[3\].price': \"x\" is not a DECIMAL(10, 2)" "$(clog "$v")" ||
        fail "$v" "no error naming the file, line, path and value"
    echo "[$v] $(grep -m1 -o "a.jsonl:2: column .*" "$(clog "$v")")"
    printf '%s\n' '{"id":3,"m":{"seven":true}}' >"$in/a.jsonl"
    rm -rf "$(table_of "$v")" "$(chk_of "$v")"
    start_cluster "$v"
    expect_exit "$v" 60 1
    grep -q "a.jsonl:1: column 'm{\"seven\"}': \"seven\" is not an INT" "$(clog "$v")" ||
        fail "$v" "no error naming the map key"
    echo "[$v] $(grep -m1 -o "a.jsonl:1: column .*" "$(clog "$v")")"
    sed -i 's/source.file.format: jsonl/source.file.format: csv/' "$(vdir "$v")/job.yaml"
    if out=$("$ZSINK" cluster -c "$(vdir "$v")/job.yaml" 2>&1); then
        fail "$v" "a CSV job with nested columns started"
    fi
    echo "$out" | grep -q "column 'items' is ARRAY: nested columns need JSON input" ||
        fail "$v" "CSV refusal: $out"
    echo "[$v] csv: $out"
}
# A table pypaimon makes (its schema file, pyarrow's Parquet files): zsink
# reads it equal to the input, and every reader agrees.
py_made () {
    v=$1
    if ! interop_ready; then
        echo "[$v] skipped: pypaimon not set up ($INTEROP_WHY)"
        return 0
    fi
    in=$(vdir "$v")/input
    "$PY" "$LIB_DIR/gen_nested.py" "$in" 1 1200 || fail "$v" "gen_nested"
    "$PY" "$LIB_DIR/gen_nested.py" fields >"$(vdir "$v")/fields.json"
    pp="$INTEROP/venv/bin/python $INTEROP_SRC/paimon_py.py"
    $pp create-fields "$(table_of "$v")" "$(vdir "$v")/fields.json" >"$(vdir "$v")/create.out" 2>&1 ||
        fail "$v" "pypaimon create-fields: $(tail -n 3 "$(vdir "$v")/create.out")"
    $pp append-json "$(table_of "$v")" "$in/part-0.jsonl" >"$(vdir "$v")/append.out" 2>&1 ||
        fail "$v" "pypaimon append-json: $(tail -n 3 "$(vdir "$v")/append.out")"
    "$ZSINK" table scan "$(table_of "$v")" --format jsonl >"$(vdir "$v")/scan.jsonl" ||
        fail "$v" "zsink scan of pypaimon's table"
    out=$("$PY" "$LIB_DIR/gen_nested.py" check "$in" "$(vdir "$v")/scan.jsonl") ||
        fail "$v" "pypaimon's table vs input: $out"
    echo "[$v] zsink reads pypaimon's table: $out"
    duck_table "$v" 1200
}
run_variants drive jsonl
run_variants py_made pypaimon
run_variants errors errors
run_variants datagen datagen
run_variants files duckdb
run_variants java_made java
pass
