# The other direction: Parquet files written by DuckDB (COPY … TO … (FORMAT
# parquet)) in zsink's subset - every type, nulls, unicode and empty strings,
# several row groups, DuckDB's default (snappy), zstd and uncompressed - are
# read by `zsink table scan FILE` exactly as DuckDB reads them.
. "$(dirname "$0")/lib.sh"

SQL="SELECT i::BIGINT AS id,
  CASE WHEN i % 7 = 0 THEN NULL WHEN i % 5 = 0 THEN '' WHEN i % 3 = 0 THEN 'ünï 日本 🚀 ' || i
       ELSE 'v' || (i % 50) END AS name,
  CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 0.25 - 1000)::DOUBLE END AS price,
  (i % 1000 - 500)::INTEGER AS qty,
  CASE WHEN i % 13 = 0 THEN NULL ELSE i % 2 = 0 END AS ok,
  CASE WHEN i % 17 = 0 THEN NULL ELSE (TIMESTAMP '1960-01-01 00:00:00' + INTERVAL (i * 7777) SECOND)::TIMESTAMP_MS END AS ts,
  CASE WHEN i % 19 = 0 THEN NULL ELSE DATE '1950-06-01' + (i % 40000)::INTEGER END AS day,
  CASE WHEN i % 23 = 0 THEN NULL ELSE ('\\x00\\xFF' || (i % 97)::VARCHAR)::BLOB END AS raw,
  (i / 3.0)::FLOAT AS f,
  TIMESTAMP '2020-01-01' + INTERVAL (i * 1001) MICROSECOND AS t6
FROM range(1, 30001) t(i)"

mkdir -p "$SCRATCH/files"
k=0
for opts in "" "COMPRESSION zstd, ROW_GROUP_SIZE 4096" "COMPRESSION uncompressed, ROW_GROUP_SIZE 10000"; do
    k=$((k + 1))
    f="$SCRATCH/files/duck-$k.parquet"
    out=$(duck copy --out "$f" --sql "$SQL" ${opts:+--options "$opts"}) || fail files "DuckDB COPY: $out"
    out=$(duck file --zsink "$ZSINK" --file "$f") || fail files "$(basename "$f"): $out"
    echo "[files] $(basename "$f") (${opts:-snappy}): $out"
done
# a truncated copy is an error naming the file, not a crash
f="$SCRATCH/files/duck-1.parquet"
head -c 5000 "$f" >"$SCRATCH/files/cut.parquet"
if "$ZSINK" table scan "$SCRATCH/files/cut.parquet" >/dev/null 2>"$SCRATCH/files/cut.err"; then
    fail files "scan of a truncated file succeeded"
fi
grep -q "cut.parquet" "$SCRATCH/files/cut.err" || fail files "error does not name the file: $(cat "$SCRATCH/files/cut.err")"
echo "[files] truncated: $(cat "$SCRATCH/files/cut.err")"
pass
