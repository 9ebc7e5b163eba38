# table.computed-columns: columns computed from each row, after the
# source's, as Paimon's CDC actions compute them. A file-source job (two
# writers) writes date_format/hour/month/year/substring/truncate/upper/trim/
# cast columns; every value of every computed column, as zsink, pypaimon
# and Paimon Java read it back, equals what Python computes from the input
# (java.time's calendar, before 1970 included; epoch numbers; NULLs). A
# datagen job with computed columns passes the oracle (all engines agree).
# A value a function cannot take (a substring beyond the string) fails the
# job naming the column and the value; a computed column naming an unknown
# column is refused before anything runs.
. "$(dirname "$0")/lib.sh"

N=3000
SCHEMA="id BIGINT NOT NULL, name STRING, ts TIMESTAMP(3), ev BIGINT"
COMPUTED="dt=date_format(ts, yyyy-MM-dd); hr=hour(ts); mo=month(ts); yr=year(ev, 3);
day=date_format(ev, yyyyMMdd HH:mm:ss.SSS, 3); pre=substring(name, 0, 2);
bucket=truncate(id, 100); up=upper(name); tr=trim(name); k=cast(7, INT)"

# input.jsonl: ids 1..N; names with accents, blanks and a character outside
# the BMP; timestamps from 1900 to 2100; some NULLs. (A seed of its own: the
# values are the test's, the same on every run.)
gen_input () {
    "$PY" - "$1" $N <<'EOF'
import json, random, sys
path, n = sys.argv[1], int(sys.argv[2])
r = random.Random(25)
names = ["ab", "héllo wörld", "  padded\t", "😀xy", "MiXeD Çase", "zz-top", "日本語テキスト"]
with open(path, "w", encoding="utf-8") as f:
    for i in range(1, n + 1):
        ms = r.randrange(-2208988800000, 4102444800000)
        s, m = divmod(ms, 1000)
        import datetime as dt
        t = dt.datetime(1970, 1, 1) + dt.timedelta(seconds=s, milliseconds=m)
        row = {"id": i,
               "name": None if i % 17 == 0 else r.choice(names),
               "ts": None if i % 19 == 0 else t.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % m,
               "ev": None if i % 23 == 0 else r.randrange(-2208988800000, 4102444800000)}
        f.write(json.dumps(row, ensure_ascii=False) + "\n")
EOF
}

# check_values INPUT READER: the reader's rows (tab-separated canonical
# lines on stdin: id, name, ts, ev, then the computed columns) hold the
# computed values Python computes from the input, for every id.
check_values () {
    "$PY" -c '
import datetime as dt, json, sys
want = {}
def ldt_ms(ms):
    return dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=ms)
def s(v):
    return "\\N" if v is None else json.dumps(v, ensure_ascii=False)
def i(v):
    return "\\N" if v is None else str(v)
def sub(x, a, b):  # Java substring: UTF-16 units
    u = x.encode("utf-16-le")
    return u[2 * a:2 * b].decode("utf-16-le")
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    ts = None if r["ts"] is None else dt.datetime.strptime(r["ts"], "%Y-%m-%d %H:%M:%S.%f")
    ev = None if r["ev"] is None else ldt_ms(r["ev"])
    name = r["name"]
    want[r["id"]] = [
        s(None if ts is None else "%04d-%02d-%02d" % (ts.year, ts.month, ts.day)),
        i(None if ts is None else ts.hour),
        i(None if ts is None else ts.month),
        i(None if ev is None else ev.year),
        s(None if ev is None else "%04d%02d%02d %02d:%02d:%02d.%03d" % (ev.year, ev.month, ev.day,
          ev.hour, ev.minute, ev.second, ev.microsecond // 1000)),
        s(None if name is None else sub(name, 0, 2)),
        i(r["id"] - r["id"] % 100),
        s(None if name is None else name.upper()),
        s(None if name is None else name.strip(" \t\n\r\x0b\x0c")),
        "7",
    ]
got = 0
for line in sys.stdin.buffer:
    cols = line.decode("utf-8", "surrogatepass").rstrip("\n").split("\t")
    k = int(cols[0])
    if cols[4:] != want.get(k):
        sys.exit(f"{sys.argv[2]}: id {k}: computed columns {cols[4:]}, want {want.get(k)}")
    got += 1
if got != len(want):
    sys.exit(f"{sys.argv[2]}: {got} rows, want {len(want)}")
print(f"{sys.argv[2]}: {got} rows, every computed value as Python computes it")
' "$1" "$2"
}

# zsink's own reader, as canonical lines: its scan's JSON lines, the
# timestamp in microseconds as Paimon's readers print it
zsink_lines () {
    "$ZSINK" table scan "$1" | "$PY" -c '
import datetime as dt, json, sys
def c(k, v):
    if v is None: return "\\N"
    if k == "ts":
        t = dt.datetime.strptime(v, "%Y-%m-%d %H:%M:%S.%f")
        return str((t - dt.datetime(1970, 1, 1)) // dt.timedelta(microseconds=1))
    if isinstance(v, str): return json.dumps(v, ensure_ascii=False)
    return str(v)
for line in sys.stdin:
    r = json.loads(line)
    print("\t".join(c(k, v) for k, v in r.items()))
'
}

v=file
in=$(vdir $v)/input
mkdir -p "$in"
gen_input "$in/input.jsonl"
write_job $v 2 "source.kind: file" "source.file.path: $in" "table.schema: $SCHEMA" \
    "execution.checkpointing.interval: 300ms" "source.file.rows-per-second: 6000" \
    "table.computed-columns: \"$(echo "$COMPUTED" | tr '\n' ' ')\""
start_cluster $v
expect_exit $v 90 0
t=$(table_of $v)
grep -q '"name": "day"' "$t/schema/schema-0" || fail $v "schema-0 has no computed column 'day'"
oracle $v $N
zsink_lines "$t" | check_values "$in/input.jsonl" zsink || fail $v "zsink's values"
if interop_ready; then
    paimon_py rows "$t" | check_values "$in/input.jsonl" pypaimon || fail $v "pypaimon's values"
    paimon_java rows "$t" 2>/dev/null | check_values "$in/input.jsonl" "Paimon Java" ||
        fail $v "Paimon Java's values"
else
    echo "[$v] paimon: skipped Paimon's readers: $INTEROP_WHY"
fi

# datagen, two writers, the list form in YAML: all engines agree
v=datagen
write_job $v 2 "execution.checkpointing.interval: 300ms" "datagen.rows-per-second: 5000" \
    "datagen.number-of-rows: 4000" "table.computed-columns:" "  - dt=date_format(ts, yyyy-MM-dd)" \
    "  - hr=hour(ts)" "  - b=truncate(id, 1000)" "  - up=upper(name)"
start_cluster $v
expect_exit $v 90 0
oracle $v 4000

# a value the function cannot take: the job fails naming column and value
v=bad
in=$(vdir $v)/input
mkdir -p "$in"
printf '{"id": 1, "name": "abc"}\n{"id": 2, "name": "a"}\n' >"$in/input.jsonl"
write_job $v 1 "source.kind: file" "source.file.path: $in" \
    "table.schema: id BIGINT NOT NULL, name STRING" "table.computed-columns: p=substring(name, 0, 2)" \
    "restart-strategy.fixed-delay.attempts: 1" "restart-strategy.fixed-delay.delay: 100ms"
start_cluster $v
expect_exit $v 60 1
grep -q "computed column 'p' = substring(name, 0, 2): 'a': indexes out of range" "$(clog $v)" ||
    fail $v "the failure does not name the column and the value"

# refused before anything runs
v=refused
write_job $v 1 "datagen.number-of-rows: 10" "table.computed-columns: dt=date_format(tz, yyyy)"
out=$("$ZSINK" cluster -c "$(vdir $v)/job.yaml" 2>&1)
rc=$?
[ $rc -eq 2 ] || fail $v "exit $rc, expected 2: $out"
echo "$out" | grep -q "column 'dt' = date_format(tz, yyyy): unknown column 'tz'" ||
    fail $v "not named: $out"
[ ! -d "$(table_of $v)" ] || fail $v "a table was made"
echo "[$v] refused: $out"
pass
