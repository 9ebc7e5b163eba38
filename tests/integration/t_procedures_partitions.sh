# The partition procedures and views on a table partitioned by computed
# columns (dt=date_format(ts, yyyy-MM-dd), hr=hour(ts)):
# - `zsink table partitions` equals Paimon Java's $partitions, and its
#   record counts are the input's rows per partition;
# - `scan --where` reads only the partitions asked for: the rows are the
#   input's of those partitions, Paimon Java plans the same files, and the
#   files of other partitions are never opened (corrupted in a copy, the
#   pruned scan still reads; an unpruned one fails);
# - `drop-partition` is one OVERWRITE snapshot that Paimon Java and pypaimon
#   read (all readers agree; the rows are the input's minus the partition),
#   with the figures of Paimon Java's own drop of the same partitions, and
#   of its own --dry-run before (which commits nothing);
# - `expire-partitions` drops by time, by Paimon's pattern and formatter,
#   the old partitions only, not the NULL one;
# - a table with partition.expiration-time is expired by the job's committer;
# - a drop while a zsink job runs (and its committer is killed right after)
#   loses nothing else: every row of the other partitions lands once.
. "$(dirname "$0")/lib.sh"

N=3000
COMPUTED="dt=date_format(ts, yyyy-MM-dd); hr=hour(ts)"

# input.jsonl: ids 1..N over 2020-01-01 … 2020-01-04 and 2099-12-30 … 31,
# hours 0-5, some timestamps NULL (the default partition)
gen_input () {
    "$PY" - "$1" $N <<'EOF'
import json, random, sys
path, n = sys.argv[1], int(sys.argv[2])
r = random.Random(7)
days = ["2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04", "2099-12-30", "2099-12-31"]
with open(path, "w") as f:
    for i in range(1, n + 1):
        ts = None if i % 29 == 0 else "%s %02d:%02d:00.000" % (r.choice(days), r.randrange(6), r.randrange(60))
        f.write(json.dumps({"id": i, "name": "n%d" % i, "ts": ts}) + "\n")
EOF
}

# input_where INPUT 'python condition on dt, hr': the ids of the input rows
# that pass, sorted, one a line
input_where () {
    "$PY" -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    dt = hr = None
    if r["ts"]:
        dt, hr = r["ts"][:10], int(r["ts"][11:13])
    if eval(sys.argv[2]):
        print(r["id"])' "$1" "$2" | sort -n
}

# table_ids: the ids zsink reads (with scan options), sorted
table_ids () {
    "$ZSINK" table scan "$@" | "$PY" -c '
import json, sys
for line in sys.stdin: print(json.loads(line)["id"])' | sort -n
}

v=views
in=$(vdir $v)/input
mkdir -p "$in"
gen_input "$in/input.jsonl"
write_job $v 2 "source.kind: file" "source.file.path: $in" \
    "table.schema: id BIGINT NOT NULL, name STRING, ts TIMESTAMP(3)" \
    "execution.checkpointing.interval: 300ms" "source.file.rows-per-second: 6000" \
    "table.computed-columns: \"$COMPUTED\"" "table.partition-keys: dt,hr"
start_cluster $v
expect_exit $v 90 0
t=$(table_of $v)
oracle $v $N

# partitions: the input's counts per partition, and Paimon Java's view
"$ZSINK" table partitions "$t" --json >"$SCRATCH/parts.json" || fail $v "partitions"
"$PY" - "$in/input.jsonl" "$SCRATCH/parts.json" <<'EOF' || fail $v "partitions vs the input"
import collections, json, sys
want = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    ts = r["ts"]
    want["dt=%s/hr=%d" % (ts[:10], int(ts[11:13])) if ts else
         "dt=__DEFAULT_PARTITION__/hr=__DEFAULT_PARTITION__"] += 1
got = {p["partition"]: p["record_count"] for p in json.load(open(sys.argv[2]))}
assert got == dict(want), (sorted(got.items())[:5], sorted(want.items())[:5])
print(f"partitions: {len(got)}, each with the input's rows")
EOF
if interop_ready; then
    paimon_java partitions "$t" 2>/dev/null >"$SCRATCH/parts.java.json" || fail $v "Paimon Java partitions"
    "$PY" -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); assert a == b, (a[:2], b[:2]); print("partitions = Paimon Java $partitions:", len(a), "rows")' \
        "$SCRATCH/parts.json" "$SCRATCH/parts.java.json" || fail $v "partitions differ from Paimon Java's"
fi

# scan --where: the input's rows of those partitions, the other files skipped
files_total=$("$PY" -c 'import json, sys; print(sum(p["file_count"] for p in json.load(open(sys.argv[1]))))' "$SCRATCH/parts.json")
files_in=$("$PY" -c 'import json, sys; print(sum(p["file_count"] for p in json.load(open(sys.argv[1])) if p["partition"].startswith("dt=2020-01-02/") and int(p["partition"].split("hr=")[1]) >= 3))' "$SCRATCH/parts.json")
where="dt = '2020-01-02' AND hr >= 3"
table_ids "$t" --where "$where" 2>"$SCRATCH/where.err" >"$SCRATCH/where.ids" || fail $v "scan --where"
input_where "$in/input.jsonl" 'dt == "2020-01-02" and hr >= 3' >"$SCRATCH/where.want"
cmp -s "$SCRATCH/where.ids" "$SCRATCH/where.want" || fail $v "scan --where: not the input's rows of those partitions"
grep -q "^zsink table scan: --where: $files_in of $files_total files read, $((files_total - files_in)) skipped" "$SCRATCH/where.err" ||
    fail $v "scan --where did not say what it skipped: $(cat "$SCRATCH/where.err")"
echo "[$v] scan --where \"$where\": $(wc -l <"$SCRATCH/where.ids") rows; $(cat "$SCRATCH/where.err")"
if interop_ready; then
    java_where=$(paimon_java count-where "$t" "$where" 2>/dev/null) || fail $v "Paimon Java count-where"
    "$PY" -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["count"] == int(sys.argv[2]) and d["files_planned"] == int(sys.argv[3]), d; print("Paimon Java plans", d["files_planned"], "of", d["files_total"], "files for it")' \
        "$java_where" "$(wc -l <"$SCRATCH/where.ids")" "$files_in" || fail $v "Paimon Java prunes otherwise"
fi
# never opened: in a copy, every file of the other partitions is garbage
cp -r "$t" "$SCRATCH/garbled"
"$ZSINK" table files "$SCRATCH/garbled" --json | "$PY" -c '
import json, os, sys
root = sys.argv[1]
for f in json.load(sys.stdin)["files"]:
    p = f["path"]
    if not (p.startswith("dt=2020-01-02/") and int(p.split("hr=")[1].split("/")[0]) >= 3):
        with open(os.path.join(root, p), "r+b") as fh: fh.write(b"garbage!" * 4)' "$SCRATCH/garbled"
table_ids "$SCRATCH/garbled" --where "$where" 2>/dev/null >"$SCRATCH/garbled.ids" || fail $v "pruned scan of the garbled copy"
cmp -s "$SCRATCH/garbled.ids" "$SCRATCH/where.want" || fail $v "pruned scan of the garbled copy: other rows"
"$ZSINK" table count "$SCRATCH/garbled" >/dev/null 2>&1 && fail $v "the garbled copy reads whole"
"$ZSINK" table scan "$t" --where "name = 'x'" >/dev/null 2>"$SCRATCH/bad.err" && fail $v "--where on a column that is no key"
grep -q "'name' is not a partition key (the table's: dt, hr)" "$SCRATCH/bad.err" || fail $v "$(cat "$SCRATCH/bad.err")"

# drop-partition: one OVERWRITE snapshot; every reader agrees. Paimon Java
# drops the same partitions of a copy (truncatePartitions, as its
# drop_partition procedure): the same snapshot figures and partitions.
interop_ready && cp -r "$t" "$SCRATCH/java-drop"
# first its dry run (issue 26): the figures of the drop, nothing committed
"$ZSINK" table drop-partition "$t" --partition 'dt=2020-01-03' --partition 'dt=2020-01-01,hr=5' \
    --dry-run --json >"$SCRATCH/drop-dry.json" || fail $v "drop-partition --dry-run"
before=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')
"$ZSINK" table drop-partition "$t" --partition 'dt=2020-01-03' --partition 'dt=2020-01-01,hr=5' --json \
    >"$SCRATCH/drop.json" || fail $v "drop-partition"
"$PY" - "$SCRATCH/drop-dry.json" "$SCRATCH/drop.json" "$before" <<'EOF' || fail $v "drop-partition --dry-run: $(cat "$SCRATCH/drop-dry.json"), the drop: $(cat "$SCRATCH/drop.json")"
import json, sys
dry, real = (json.load(open(f)) for f in sys.argv[1:3])
assert dry["dry_run"] and dry["snapshot_id"] == 0 and not real["dry_run"], (dry, real)
assert [dry[k] for k in ("partitions", "files", "rows")] == [real[k] for k in ("partitions", "files", "rows")], (dry, real)
assert real["snapshot_id"] == int(sys.argv[3]) + 1, real  # the dry run committed nothing
EOF
if interop_ready; then
    paimon_java drop-partition "$SCRATCH/java-drop" 'dt=2020-01-03' 'dt=2020-01-01,hr=5' \
        >/dev/null 2>&1 || fail $v "Paimon Java's drop"
    for x in "$t" "$SCRATCH/java-drop"; do
        "$ZSINK" table snapshots "$x" --json | "$PY" -c '
import json, sys
s = json.load(sys.stdin)[-1]
print(s["commit_kind"], s["commit_identifier"], s["delta_record_count"], s["total_record_count"])'
        "$ZSINK" table partitions "$x" --json | "$PY" -c '
import json, sys
print([(p["partition"], p["record_count"], p["file_count"]) for p in json.load(sys.stdin)])'
    done >"$SCRATCH/drops.txt" || fail $v "reading the drops"
    [ "$(sed -n 1,2p "$SCRATCH/drops.txt")" = "$(sed -n 3,4p "$SCRATCH/drops.txt")" ] ||
        fail $v "zsink's drop differs from Paimon Java's: $(cat "$SCRATCH/drops.txt")"
    echo "[$v] drop = Paimon Java's drop: $(head -n 1 "$SCRATCH/drops.txt")"
fi
"$ZSINK" table drop-partition "$t" --partition 'dt=2020-01-03' 2>"$SCRATCH/drop2.err" && fail $v "a second drop of the same partition passed"
grep -q "has no partition dt=2020-01-03" "$SCRATCH/drop2.err" || fail $v "$(cat "$SCRATCH/drop2.err")"
kind=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json, sys; print(json.load(sys.stdin)[-1]["commit_kind"])')
[ "$kind" = OVERWRITE ] || fail $v "the drop's snapshot is $kind"
table_ids "$t" >"$SCRATCH/after-drop.ids"
input_where "$in/input.jsonl" 'not (dt == "2020-01-03" or (dt == "2020-01-01" and hr == 5))' >"$SCRATCH/after-drop.want"
cmp -s "$SCRATCH/after-drop.ids" "$SCRATCH/after-drop.want" || fail $v "after the drop: not the input minus the partitions"
echo "[$v] dropped: $(cat "$SCRATCH/drop.json"); $(wc -l <"$SCRATCH/after-drop.ids") rows left, the input's"
duck_table $v
"$ZSINK" table verify "$t" >/dev/null || fail $v "verify after the drop"

# expire-partitions: older than a day by '$dt $hr:00:00', the 2020 ones go;
# 2099 and the NULL partition stay. hr is an INT ("7"): as for Paimon,
# "HH" reads no such time and expires nothing, "H" does.
"$ZSINK" table expire-partitions "$t" --expiration-time 1d --timestamp-pattern '$dt $hr:00:00' \
    --timestamp-formatter 'yyyy-MM-dd HH:mm:ss' --dry-run --json 2>/dev/null | grep -q '"expired":\[\]' ||
    fail $v "HH read a one-digit hour"
"$ZSINK" table expire-partitions "$t" --expiration-time 1d --timestamp-pattern '$dt $hr:00:00' \
    --timestamp-formatter 'yyyy-MM-dd H:mm:ss' --dry-run --json >"$SCRATCH/dry.json" || fail $v "expire --dry-run"
"$ZSINK" table expire-partitions "$t" --expiration-time 1d --timestamp-pattern '$dt $hr:00:00' \
    --timestamp-formatter 'yyyy-MM-dd H:mm:ss' --json >"$SCRATCH/expire.json" || fail $v "expire"
"$PY" - "$SCRATCH/dry.json" "$SCRATCH/expire.json" <<'EOF' || fail $v "expired partitions"
import json, sys
dry, real = (json.load(open(f)) for f in sys.argv[1:])
assert dry["snapshot_id"] == 0 and dry["expired"] == real["expired"], (dry, real)
assert real["expired"] and all(p.startswith("dt=2020-") for p in real["expired"]), real
assert real["partitions"] == len(real["expired"]), real
print("expired", len(real["expired"]), "partitions of 2020 in snapshot", real["snapshot_id"])
EOF
table_ids "$t" >"$SCRATCH/after-expire.ids"
input_where "$in/input.jsonl" 'dt is None or dt.startswith("2099")' >"$SCRATCH/after-expire.want"
cmp -s "$SCRATCH/after-expire.ids" "$SCRATCH/after-expire.want" || fail $v "after expiry: not the 2099 and NULL rows"
"$ZSINK" table expire-partitions "$t" --expiration-time 1d --json | grep -q '"expired":\[\]' ||
    fail $v "a second expiry found more"
"$ZSINK" table expire-partitions "$t" 2>"$SCRATCH/noexp.err" && fail $v "expiry without an expiration time"
grep -q "partition.expiration-time is not set" "$SCRATCH/noexp.err" || fail $v "$(cat "$SCRATCH/noexp.err")"
duck_table $v

# Paimon's expiry after commits: a table Paimon Java made with
# partition.expiration-time (checked at every commit) takes a job whose
# computed columns are its last columns; its committer drops the 2020
# partitions after its commits, as Paimon's sink does.
v=oncommit
if interop_ready; then
    in=$(vdir $v)/input
    mkdir -p "$in"
    gen_input "$in/input.jsonl"
    t=$(table_of $v)
    paimon_java create "$t" "id BIGINT NOT NULL, name STRING, ts TIMESTAMP(3), dt STRING, hr INT" \
        --partition-keys dt,hr --option partition.expiration-time=1d \
        --option partition.expiration-check-interval=0s \
        --option 'partition.timestamp-pattern=$dt $hr:00:00' \
        --option 'partition.timestamp-formatter=yyyy-MM-dd H:mm:ss' >/dev/null 2>&1 ||
        fail $v "Paimon Java create"
    write_job $v 2 "source.kind: file" "source.file.path: $in" \
        "execution.checkpointing.interval: 300ms" "source.file.rows-per-second: 6000" \
        "table.computed-columns: \"$COMPUTED\""
    start_cluster $v
    expect_exit $v 90 0
    grep -q "Expired partition dt=2020-" "$(clog $v)" || fail $v "the committer expired nothing"
    table_ids "$t" >"$SCRATCH/oncommit.ids"
    input_where "$in/input.jsonl" 'dt is None or dt.startswith("2099")' >"$SCRATCH/oncommit.want"
    cmp -s "$SCRATCH/oncommit.ids" "$SCRATCH/oncommit.want" || fail $v "not the 2099 and NULL rows"
    echo "[$v] $(grep -c 'Expired partition' "$(clog $v)") partitions expired by the committer"
    duck_table $v
else
    echo "[$v] skipped: Paimon's readers are not installed ($INTEROP_WHY)"
fi

# A drop while a job runs: its next commits go on, a committer killed right
# after the drop restores without re-adding what was dropped, and every
# row of the other partitions lands once. datagen's ts is 2023-11-14
# 22:13:20 + id seconds (NULL for some ids): ids below 2800 are hour 22.
v=live
write_job $v 2 "execution.checkpointing.interval: 300ms" "datagen.rows-per-second: 3000" \
    "datagen.number-of-rows: 15000" "table.computed-columns: \"$COMPUTED\"" \
    "table.partition-keys: dt,hr"
start_cluster $v
t=$(table_of $v)
end=$(($(now) + 60))
until [ "$("$ZSINK" table count "$t" --where 'hr >= 23' 2>/dev/null || echo 0)" -gt 1500 ]; do
    [ "$(now)" -lt $end ] || fail $v "the job did not reach hour 23"
    [ ! -f "$(vdir $v)/cluster.rc" ] || fail $v "the job ended before the drop"
    sleep 0.2
done
"$ZSINK" table drop-partition "$t" --partition 'dt=2023-11-14,hr=22' --json || fail $v "drop while running"
kill_role $v committer
expect_exit $v 120 0
"$ZSINK" table scan "$t" | "$PY" -c '
import json, sys
ids, hours = [], {}
for line in sys.stdin:
    r = json.loads(line)
    ids.append(r["id"])
    assert r["hr"] != 22, ("hour 22 is back", r)
    assert r["id"] >= 2800 or r["ts"] is None, ("a row of the dropped partition", r)
assert len(ids) == len(set(ids)), "a row twice"
rest = sorted(i for i in ids if i >= 2800)
assert rest == list(range(2800, 15001)), ("rows of other partitions lost", 12201 - len(rest))
print("after the drop:", len(ids), "rows, every id from 2800 to 15000 once, none of hour 22")
' || fail $v "rows lost or back"
grep -q "Successfully commit snapshot .* kind APPEND" "$(clog $v)" || fail $v "no commit"
last_append=$("$ZSINK" table snapshots "$t" --json | "$PY" -c '
import json, sys
s = json.load(sys.stdin)
drop = max(x["id"] for x in s if x["commit_kind"] == "OVERWRITE")
print(sum(1 for x in s if x["commit_kind"] == "APPEND" and x["id"] > drop))')
[ "$last_append" -ge 1 ] || fail $v "no commit of the job after the drop"
echo "[$v] $last_append commits of the job after the drop"
duck_table $v
"$ZSINK" table verify "$t" >/dev/null || fail $v "verify"
pass
