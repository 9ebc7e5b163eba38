# Every scalar type a Paimon append table holds (issue 25, "Types"), end to
# end: a zsink job reads a JSON-lines file of 300 rows (all_types.py input:
# the edge values first, then random ones) with a table.schema of every
# type, nullable and NOT NULL (BOOLEAN, TINYINT, SMALLINT, INT, BIGINT,
# FLOAT, DOUBLE, DECIMAL(1, 1), (9, 2), (18, 4), (38, 10), (38, 0), CHAR,
# VARCHAR, STRING, BINARY, VARBINARY, BYTES, DATE, TIME(0), TIME(3),
# TIMESTAMP(0/3/6/9), TIMESTAMP(3/6/9) WITH LOCAL TIME ZONE).
#
#  - Paimon Java reads back exactly the input's values (all_types.py
#    expect: computed from the text alone);
#  - zsink, DuckDB (every data file; TIMESTAMP(9) at DuckDB's
#    microseconds, the INT96 it reads), pypaimon and Paimon Java agree row
#    for row (lib.sh's oracle);
#  - the manifest's value statistics are Paimon Java's: Java appends the
#    same input to a table of its own and both tables' statistics, as
#    Paimon reads them (ZsinkInterop value-stats), are equal column for
#    column: null counts, min and max, strings truncated to 16 characters
#    with the max's last one incremented. Binary columns apart: Paimon 1.4.2
#    keeps no bounds for them, zsink keeps Paimon 2's (truncated to 16 bytes;
#    docs/decisions.md), checked here against all_types.py's own;
#  - variant java_created: a table Paimon Java creates with every type
#    takes a zsink job with no table.schema (it adopts the table's) and
#    reads back exact;
#  - variant java_partitioned: the same, the table partitioned by a CHAR
#    and a BOOLEAN, a writer killed -9 mid-run;
#  - variant datagen: the datagen source makes values of every type (2
#    writers, 4000 rows), and all readers agree on them, before and after
#    `zsink table compact` rewrote both files into one;
#  - variant evolved: after the job, Paimon Java widens ten columns (ALTER
#    TABLE: DECIMAL(9, 2) -> (12, 4), DECIMAL(18, 4) -> (20, 4) (INT64 to
#    FIXED_LEN_BYTE_ARRAY), TINYINT -> INT, SMALLINT -> BIGINT, TIMESTAMP(3)
#    -> (9), TIMESTAMP(0) -> (3), VARCHAR(20) -> (30), CHAR(3) -> STRING,
#    BINARY(4) -> BYTES, LTZ(3) -> LTZ(6)); zsink reads the old file as the
#    new schema as Java and pypaimon do, and a second job (adopting the
#    latest schema) appends the input again, read alike too;
#  - the other direction: zsink reads Paimon Java's own table of the input
#    (its INT96, FIXED_LEN_BYTE_ARRAY decimals, TIME...) as Java and
#    pypaimon do, and Parquet files DuckDB writes with TINYINT, SMALLINT,
#    DECIMAL of each physical type, TIME (INT64 MICROS), TIMESTAMP_NS (INT64
#    NANOS) and TIMESTAMPTZ as DuckDB reads them.
. "$(dirname "$0")/lib.sh"
interop_required

N=300
GEN="$LIB_DIR/all_types.py"
SCHEMA=$("$PY" "$GEN" schema)
IN=$SCRATCH/input
mkdir -p "$IN"
"$PY" "$GEN" input "$IN/rows.jsonl" $N
"$PY" "$GEN" expect "$IN/rows.jsonl" >"$SCRATCH/expect.txt"

# the job: one writer, one file (the checkpoint at the end of the input)
job () {
    v=$1
    shift
    write_job "$v" 1 "source.kind: file" "source.file.path: $IN" "source.file.format: jsonl" \
        "execution.checkpointing.interval: 60s" "$@"
    start_cluster "$v"
    expect_exit "$v" 90 0
    oracle "$v" $N --last-max
    paimon_java rows "$(table_of "$v")" >"$SCRATCH/$v.rows" 2>"$SCRATCH/$v.java.err" ||
        fail "$v" "Paimon Java rows: $(tail -n 5 "$SCRATCH/$v.java.err")"
    out=$("$PY" "$GEN" same "$SCRATCH/expect.txt" "$SCRATCH/$v.rows") ||
        fail "$v" "Paimon Java does not read the input's values back: $out"
    echo "[$v] Paimon Java reads the input back: $out"
}

# zsink's statistics against Paimon Java's own of the same rows
stats_like_java () {
    v=$1
    jt=$SCRATCH/$v.java-table
    paimon_java create "$jt" "$SCHEMA" >/dev/null 2>"$SCRATCH/$v.create.err" ||
        fail "$v" "Java create: $(tail -n 5 "$SCRATCH/$v.create.err")"
    paimon_java append-json "$jt" "$IN/rows.jsonl" >/dev/null 2>"$SCRATCH/$v.append.err" ||
        fail "$v" "Java append-json: $(tail -n 5 "$SCRATCH/$v.append.err")"
    paimon_java value-stats "$jt" >"$SCRATCH/$v.java-stats" 2>/dev/null || fail "$v" "Java value-stats"
    paimon_java value-stats "$(table_of "$v")" >"$SCRATCH/$v.zsink-stats" 2>/dev/null ||
        fail "$v" "Java value-stats of zsink's table"
    out=$("$PY" - "$SCRATCH/$v.java-stats" "$SCRATCH/$v.zsink-stats" "$IN/rows.jsonl" <<'EOF'
import json, sys
java = json.load(open(sys.argv[1]))["files"]
mine = json.load(open(sys.argv[2]))["files"]
assert len(java) == 1 and len(mine) == 1, f"one file each: {len(java)}, {len(mine)}"
j, m = java[0]["columns"], mine[0]["columns"]
assert len(j) == len(m) == 32, (len(j), len(m))
binary = {"bn", "vb", "raw"}
rows = [json.loads(l) for l in open(sys.argv[3], encoding="utf-8")]


def trunc(vals):  # Paimon 2's TruncateSimpleColStatsCollector on byte[], 16 bytes
    lo, hi = min(vals)[:16], max(vals)
    if len(hi) > 16:
        b = bytearray(hi[:16])
        while b and b[-1] == 0xFF:
            b.pop()
        b[-1] += 1
        hi = bytes(b)
    return lo.hex(), hi.hex()


for a, b in zip(j, m):
    name = a.split(":")[0]
    if name in binary:
        vals = [r[name].encode() for r in rows if r[name] is not None]
        nulls = sum(r[name] is None for r in rows)
        lo, hi = trunc(vals)
        assert b == f"{name}: {nulls} {lo} {hi}", (b, lo, hi)
        assert a == f"{name}: {nulls} \\N \\N", a
        continue
    assert a == b, f"java {a!r} vs zsink {b!r}"
print(f"value stats of {len(m)} columns equal Paimon Java's")
EOF
) || fail "$v" "statistics: $out"
    echo "[$v] $out"
    # zsink reads Java's files as Java and pypaimon read them. (Not DuckDB
    # here: Java writes an INT96 before 1970 with the day truncated toward
    # zero and a negative time of day, which DuckDB reads truncating the
    # nanoseconds toward zero, not down as for zsink's files.)
    out=$("$INTEROP/venv/bin/python" "$INTEROP_SRC/readers.py" --zsink "$ZSINK" --table "$jt" \
        --interop "$INTEROP" --duck "$DUCK" 2>&1) || fail "$v" "readers vs zsink on Java's table: $out"
    echo "[$v] Java's table, paimon: $out"
}

drive_json () {
    job "$1" "table.schema: $SCHEMA"
    stats_like_java "$1"
}

drive_java_created () {
    v=$1
    out=$(paimon_java create "$(table_of "$v")" "$SCHEMA" 2>"$SCRATCH/$v.create.err") ||
        fail "$v" "Java create: $out $(tail -n 5 "$SCRATCH/$v.create.err")"
    job "$v"
    [ ! -e "$(table_of "$v")/schema/schema-1" ] || fail "$v" "the job wrote a schema of its own"
}

# java_partitioned: Paimon Java creates the table of every type partitioned
# by c (CHAR(3): "" names the default partition, UTF-8 stays as it is) and
# b (BOOLEAN, nulls too); a zsink job of 2 writers adopts its schema and
# keys, a writer is killed -9 after the first checkpoint, and every reader
# reads the input back exactly, each row in its partition's directory
drive_java_partitioned () {
    v=$1
    out=$(paimon_java create "$(table_of "$v")" "$SCHEMA" --partition-keys c,b \
        2>"$SCRATCH/$v.create.err") || fail "$v" "Java create: $out $(tail -n 5 "$SCRATCH/$v.create.err")"
    write_job "$v" 2 "source.kind: file" "source.file.path: $IN" "source.file.format: jsonl" \
        "source.file.rows-per-second: 100" "execution.checkpointing.interval: 300ms"
    savepoint_part "$v" "$(job_id "$v")" writer-0 last
    oracle "$v" $N --last-max
    paimon_java rows "$(table_of "$v")" >"$SCRATCH/$v.rows" 2>"$SCRATCH/$v.java.err" ||
        fail "$v" "Paimon Java rows: $(tail -n 5 "$SCRATCH/$v.java.err")"
    out=$("$PY" "$GEN" same "$SCRATCH/expect.txt" "$SCRATCH/$v.rows") ||
        fail "$v" "Paimon Java does not read the input's values back: $out"
    dirs=$(cd "$(table_of "$v")" && ls -d c=*/b=* | tr '\n' ' ')
    case $dirs in
    *"c=__DEFAULT_PARTITION__/b=true"*"c=日本/b=__DEFAULT_PARTITION__"*) ;;
    *) fail "$v" "partition directories: $dirs" ;;
    esac
    echo "[$v] Paimon Java reads the input back: $out; directories $dirs"
}

drive_datagen () {
    v=$1
    write_job "$v" 2 "table.schema: $SCHEMA" "datagen.number-of-rows: 4000" \
        "execution.checkpointing.interval: 500ms"
    start_cluster "$v"
    expect_exit "$v" 90 0
    oracle "$v" 4000 --last-max
    # compaction rewrites every type (read as the table's schema, written back)
    out=$("$ZSINK" table compact "$(table_of "$v")" --min-file-num 2 2>&1) || fail "$v" "compact: $out"
    echo "[$v] $(echo "$out" | tail -n 1)"
    "$ZSINK" table verify "$(table_of "$v")" >/dev/null || fail "$v" "verify after compaction"
    duck_table "$v" 4000
}

drive_duckdb_files () {
    v=$1
    mkdir -p "$SCRATCH/$v"
    sql="SELECT i::BIGINT AS id, (i % 256 - 128)::TINYINT AS ti, (i * 331 % 65536 - 32768)::SMALLINT AS si,
      CASE WHEN i % 7 = 0 THEN NULL ELSE ((i % 19999) - 9999) / 100 END::DECIMAL(4, 2) AS d4,
      ((i * 123456789012 % 999999999999999 - 499999999999999)::DECIMAL(18, 0) / 1000)::DECIMAL(18, 3) AS d18,
      CASE WHEN i % 5 = 0 THEN NULL ELSE (i::HUGEINT * 98765432109876543 - 1)::DECIMAL(38, 10) END AS d38,
      TIME '00:00:00' + INTERVAL (i * 7919 % 86400000) MILLISECOND AS t,
      CASE WHEN i % 3 = 0 THEN NULL ELSE (TIMESTAMP '1969-12-31 23:00:00' + INTERVAL (i * 13) SECOND)::TIMESTAMP_NS + INTERVAL (i) MICROSECOND END AS tns,
      TIMESTAMPTZ '1960-01-01 00:00:00+00' + INTERVAL (i * 86413) SECOND AS tz
      FROM range(1, 5001) t(i)"
    f="$SCRATCH/$v/types.parquet"
    out=$(duck copy --out "$f" --sql "$sql" --options "ROW_GROUP_SIZE 2000") || fail "$v" "DuckDB COPY: $out"
    out=$(duck file --zsink "$ZSINK" --file "$f") || fail "$v" "DuckDB's file: $out"
    echo "[$v] DuckDB's file: $out"
}

drive_evolved () {
    v=$1
    job "$v" "table.schema: $SCHEMA"
    t=$(table_of "$v")
    out=$(paimon_java alter "$t" --retype "d9:DECIMAL(12, 4)" --retype "d18:DECIMAL(20, 4)" \
        --retype ti:INT --retype si:BIGINT --retype "ts3:TIMESTAMP(9)" --retype "ts0:TIMESTAMP(3)" \
        --retype "vc:VARCHAR(30)" --retype c:STRING --retype bn:BYTES \
        --retype "l3:TIMESTAMP(6) WITH LOCAL TIME ZONE" 2>"$SCRATCH/$v.alter.err") ||
        fail "$v" "Java alter: $out $(tail -n 5 "$SCRATCH/$v.alter.err")"
    paimon_table "$v"
    # the same input once more, now as the latest schema (the job names none)
    rm -rf "$(chk_of "$v")"
    write_job "$v" 1 "source.kind: file" "source.file.path: $IN" "source.file.format: jsonl" \
        "execution.checkpointing.interval: 60s" "job.allow-rerun: true"
    start_cluster "$v" "$(job_id "$v")-2"
    expect_exit "$v" 90 0
    n=$("$ZSINK" table count "$t") || fail "$v" "count"
    [ "$n" = $((2 * N)) ] || fail "$v" "$n rows after the second job, expected $((2 * N))"
    paimon_table "$v"
}

# variant small_pages: DELTA_BINARY_PACKED at its edges (issue 27). The
# input's first 257 rows (the edge values first) in 1 KiB pages, so the NOT
# NULL INT32/INT64 columns end on a page of one value; d9, d18, ts6 and l3
# null from the second row to the 256th, so their middle pages are all null.
# Paimon Java reads back exactly the input's values; zsink, DuckDB and
# pypaimon agree row for row.
drive_small_pages () {
    v=$1
    in2=$SCRATCH/$v.input
    mkdir -p "$in2"
    "$PY" - "$IN/rows.jsonl" "$in2/rows.jsonl" <<'EOF'
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")][:257]
for r in rows[1:256]:
    for k in ("d9", "d18", "ts6", "l3"):
        r[k] = None
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for r in rows:
        out.write(json.dumps(r, ensure_ascii=False) + "\n")
EOF
    "$PY" "$GEN" expect "$in2/rows.jsonl" >"$SCRATCH/$v.expect"
    write_job "$v" 1 "source.kind: file" "source.file.path: $in2" "source.file.format: jsonl" \
        "execution.checkpointing.interval: 60s" "table.schema: $SCHEMA" "parquet.page.size: 1kb"
    start_cluster "$v"
    expect_exit "$v" 90 0
    oracle "$v" 257 --last-max
    paimon_java rows "$(table_of "$v")" >"$SCRATCH/$v.rows" 2>"$SCRATCH/$v.java.err" ||
        fail "$v" "Paimon Java rows: $(tail -n 5 "$SCRATCH/$v.java.err")"
    out=$("$PY" "$GEN" same "$SCRATCH/$v.expect" "$SCRATCH/$v.rows") ||
        fail "$v" "Paimon Java does not read the input's values back: $out"
    echo "[$v] Paimon Java reads the input back: $out"
}

run_variants drive_duckdb_files duckdb_files
run_variants drive_evolved evolved
run_variants drive_json json
run_variants drive_java_created java_created
run_variants drive_java_partitioned java_partitioned
run_variants drive_datagen datagen
run_variants drive_small_pages small_pages
pass
