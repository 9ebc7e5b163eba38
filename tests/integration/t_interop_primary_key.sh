# A primary-key table, made and written by Paimon Java (the option
# primary-key: the schema's primaryKeys; its files hold _KEY_<k>,
# _SEQUENCE_NUMBER and _VALUE_KIND beside the columns, and its rows are
# those files merged by key). zsink reads and writes append tables only, and
# says so in one sentence, the same for a reader and a job:
#   1. `zsink table scan`, `count` and `stats` exit 1 with it (before: "not a
#      file of schema 0: 5 columns, its schema 0 has 2"), `files` and
#      `snapshots` still read the metadata;
#   2. `zsink table schema` shows the primary key and the partition keys,
#      in text and JSON, and an append table's "none";
#   3. a job writing into it is refused at start (exit 2) with the sentence,
#      and writes nothing.
# Unpartitioned (primary key id, 1 bucket) and partitioned (by dt, primary
# key dt,id, 2 buckets).
. "$(dirname "$0")/lib.sh"
interop_required

SENTENCE="zsink reads and writes append tables (tables without primary keys)"

check_table () { # VARIANT KEYS PARTITION_KEYS: the refusals and the schema
    _v=$1 _keys=$2 _part=$3
    _t=$(table_of "$_v")
    for _c in scan count stats; do
        if "$ZSINK" table "$_c" "$_t" >/dev/null 2>"$SCRATCH/$_v.$_c.err"; then
            fail "$_v" "table $_c read a primary-key table"
        fi
        grep -qF "$_t is a primary-key table (primary key $_keys): $SENTENCE" \
            "$SCRATCH/$_v.$_c.err" || fail "$_v" "table $_c: $(cat "$SCRATCH/$_v.$_c.err")"
    done
    "$ZSINK" table files "$_t" >/dev/null || fail "$_v" "table files: its metadata unread"
    "$ZSINK" table schema "$_t" >"$SCRATCH/$_v.schema.txt" || fail "$_v" "table schema failed"
    grep -qx "primary key: *$_keys" "$SCRATCH/$_v.schema.txt" &&
        grep -qx "partition keys: *${_part:-none}" "$SCRATCH/$_v.schema.txt" &&
        grep -qF "zsink cannot write it: it is a primary-key table (primary key $_keys): $SENTENCE" \
            "$SCRATCH/$_v.schema.txt" || fail "$_v" "table schema: $(cat "$SCRATCH/$_v.schema.txt")"
    "$ZSINK" table schema "$_t" --json | "$PY" -c 'import json, sys
s = json.load(sys.stdin)
want = (sys.argv[1].split(","), [k for k in sys.argv[2].split(",") if k])
got = (s["primary_keys"], s["partition_keys"])
assert got == want and not s["zsink_writable"], (got, want)' "$_keys" "$_part" ||
        fail "$_v" "table schema --json: $("$ZSINK" table schema "$_t" --json)"
    # a job (the table's schema adopted): refused at start, nothing written
    write_job "$_v" 1 "datagen.number-of-rows: 50"
    _snaps=$(ls "$_t/snapshot" | grep -c '^snapshot-')
    _files=$(find "$_t" -name '*.parquet' | wc -l)
    if "$ZSINK" cluster -c "$(vdir "$_v")/job.yaml" --job-id "$(job_id "$_v")" \
        >"$SCRATCH/$_v.job.log" 2>&1; then _rc=0; else _rc=$?; fi
    [ "$_rc" = 2 ] || fail "$_v" "the job: exit $_rc, not 2: $(tail -5 "$SCRATCH/$_v.job.log")"
    grep -qF "zsink cannot write table $_t: it is a primary-key table (primary key $_keys): $SENTENCE" \
        "$SCRATCH/$_v.job.log" || fail "$_v" "the job's refusal: $(cat "$SCRATCH/$_v.job.log")"
    [ "$(ls "$_t/snapshot" | grep -c '^snapshot-')" = "$_snaps" ] &&
        [ "$(find "$_t" -name '*.parquet' | wc -l)" = "$_files" ] || fail "$_v" "the job wrote"
    echo "[$_v] refused: $(grep -o 'zsink cannot write table.*' "$SCRATCH/$_v.job.log" | head -1)"
}

v=pk
mkdir -p "$(vdir $v)"
out=$(paimon_java create "$(table_of $v)" "id BIGINT NOT NULL, name STRING" \
    --option primary-key=id --option bucket=1 2>"$SCRATCH/java.err") || fail $v "Java create: $out"
out=$(paimon_java append "$(table_of $v)" --ids 1..100 2>>"$SCRATCH/java.err") ||
    fail $v "Java append: $out"
check_table $v id ""

v=pk_part
mkdir -p "$(vdir $v)"
out=$(paimon_java create "$(table_of $v)" "id BIGINT NOT NULL, name STRING, dt STRING NOT NULL" \
    --option primary-key=dt,id --option bucket=2 --partition-keys dt 2>>"$SCRATCH/java.err") ||
    fail $v "Java create: $out"
out=$(paimon_java append "$(table_of $v)" --ids 1..100 2>>"$SCRATCH/java.err") ||
    fail $v "Java append: $out"
check_table $v dt,id dt

# an append table's keys: none, and its partition keys
v=append
mkdir -p "$(vdir $v)"
out=$(paimon_java create "$(table_of $v)" "id BIGINT NOT NULL, name STRING, dt STRING" \
    --partition-keys dt 2>>"$SCRATCH/java.err") || fail $v "Java create: $out"
"$ZSINK" table schema "$(table_of $v)" >"$SCRATCH/$v.schema.txt"
grep -qx "primary key: *none (an append table)" "$SCRATCH/$v.schema.txt" &&
    grep -qx "partition keys: *dt" "$SCRATCH/$v.schema.txt" &&
    ! grep -q "cannot write" "$SCRATCH/$v.schema.txt" ||
    fail $v "table schema of an append table: $(cat "$SCRATCH/$v.schema.txt")"
pass
