# Paimon's procedure names and arguments (issue 26, item 5), on a table
# partitioned by dt that two jobs wrote, job A's snapshots all in seconds
# before T and job B's after it:
#  1. expire_snapshots --older_than 'T' (Paimon's 'yyyy-MM-dd HH:mm:ss')
#     --dry_run says it would expire exactly job A's snapshots, as
#     expire-snapshots --older-than 'T' --dry-run does, word for word;
#  2. rollback_to_timestamp --timestamp 'T' goes to job A's last snapshot
#     (the newest at or before T), --timestamp MILLIS to the snapshot of
#     that time, rollback_to --version/--tag/--snapshot_id as Paimon's;
#  3. every --dry-run (expire_snapshots, rollback_to, delete_tag,
#     drop_partition, remove_orphan_files, expire_partitions) leaves every
#     file of the table as it was, and says what the real run then does:
#     the same snapshots, tags, partitions, files and rows, in a copy;
#  4. the rolled-back table holds exactly job A's rows (zsink, and Paimon
#     Java when installed), verify OK;
#  5. remove_orphan_files --older_than 'a day ago' --dry_run true lists a
#     two-day-old orphan and keeps it; --dry_run false deletes it;
#  6. a time in the future or that does not parse: exit 2, one line.
# The table is named by its path, or as Paimon's actions name it
# (--warehouse W --database D --table T: W/D.db/T).
. "$(dirname "$0")/lib.sh"

v=names
d=$(vdir $v)
t=$(table_of $v)
mkdir -p "$d/a" "$d/b"
N1=1200 N2=900
# input DIR FIRST LAST: ids FIRST..LAST over three days (dt partitions)
input () {
    "$PY" -c '
import json, sys
lo, hi = int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[1] + "/input.jsonl", "w") as f:
    for i in range(lo, hi + 1):
        f.write(json.dumps({"id": i, "name": "n%d" % i, "ts": "2020-01-0%d 0%d:00:00.000" % (1 + i % 3, i % 5)}) + "\n")' "$1" "$2" "$3"
}
job () { # DIR: a job reading DIR into the table
    write_job $v 2 "source.kind: file" "source.file.path: $1" \
        "table.schema: id BIGINT NOT NULL, name STRING, ts TIMESTAMP(3)" \
        "execution.checkpointing.interval: 200ms" "source.file.rows-per-second: 6000" \
        "table.computed-columns: \"dt=date_format(ts, yyyy-MM-dd)\"" "table.partition-keys: dt" \
        "job.allow-rerun: true" "snapshot.num-retained.max: 1000"
}
latest () { "$ZSINK" table snapshots "$1" --json | "$PY" -c 'import json, sys; print(json.load(sys.stdin)[-1]["id"])'; }
# the table's files, names and sizes: what a dry run must leave as it was
files () { (cd "$1" && find . -type f ! -path './.zsink/*' ! -path './.locks/*' | sort | xargs ls -l --time-style=+%s | awk '{print $5, $6, $7}'); }
# same WHAT JSON1 JSON2: equal but for dry_run
same () {
    "$PY" -c 'import json, sys
a, b = (json.loads(x) for x in sys.argv[1:3])
for o in (a, b):
    o.pop("dry_run", None)
sys.exit(0 if a == b else 1)' "$2" "$3" || fail $v "$1: the dry run said $2, the run did $3"
}
field () { echo "$1" | json_get - "$2"; }

input "$d/a" 1 $N1
input "$d/b" $((N1 + 1)) $((N1 + N2))
job "$d/a"
start_cluster $v "$(job_id $v)-a"
expect_exit $v 60 0
n1=$(latest "$t")
# T: a second after every snapshot of job A, before any of job B's
s=$(date +%s)
deadline=$((s + 5))
while [ "$(date +%s)" = "$s" ]; do
    [ "$(date +%s)" -lt $deadline ] || fail $v "the clock does not move"
    sleep 0.05
done
T=$(date '+%Y-%m-%d %H:%M:%S')
job "$d/b"
start_cluster $v "$(job_id $v)-b"
expect_exit $v 60 0
n2=$(latest "$t")
[ "$n2" -gt "$n1" ] || fail $v "job B made no snapshot"
"$ZSINK" table count "$t" | grep -qx $((N1 + N2)) || fail $v "not $((N1 + N2)) rows"
echo "[$v] job A: snapshots 1..$n1, job B: $((n1 + 1))..$n2; T = '$T'"
files "$t" >"$d/files.before"
still () { # WHAT: the table's files are as they were
    files "$t" | cmp -s - "$d/files.before" || fail $v "$1 changed the table"
}

# 1. expire by Paimon's timestamp, both spellings, word for word
p=$("$ZSINK" table expire_snapshots "$t" --retain_min 1 --retain_max 1000 --older_than "$T" \
    --max_deletes 100000 --dry_run --json) || fail $v "expire_snapshots: $p"
z=$("$ZSINK" table expire-snapshots "$t" --retain-min 1 --retain-max 1000 --older-than "$T" \
    --max-deletes 100000 --dry-run --json) || fail $v "expire-snapshots: $z"
[ "$p" = "$z" ] || fail $v "Paimon's names and zsink's differ: $p / $z"
# the table named as Paimon's actions name it: W/D.db/T
mkdir -p "$d/wh/db.db" && ln -s "$t" "$d/wh/db.db/names"
w=$("$ZSINK" table expire_snapshots --warehouse "$d/wh" --database db --table names --retain_min 1 \
    --retain_max 1000 --older_than "$T" --max_deletes 100000 --dry_run --json) || fail $v "--warehouse: $w"
[ "$w" = "$p" ] || fail $v "--warehouse --database --table: $w, not $p"
"$PY" -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["snapshot_ids"] == list(range(1, int(sys.argv[2]) + 1)) and d["dry_run"], d' \
    "$p" "$n1" || fail $v "expire_snapshots --older_than '$T' would not expire exactly 1..$n1: $p"
still "expire_snapshots --dry_run"
cp -r "$t" "$d/expired"
r=$("$ZSINK" table expire_snapshots "$d/expired" --retain_min 1 --retain_max 1000 \
    --older_than "$T" --max_deletes 100000 --json) || fail $v "expire_snapshots: $r"
same "expire_snapshots" "$p" "$r"
echo "[$v] expire_snapshots --older_than '$T': $r"

# 2. rollback targets, Paimon's way
r=$("$ZSINK" table rollback_to_timestamp "$t" --timestamp "$T" --dry_run --json) || fail $v "rollback_to_timestamp: $r"
[ "$(field "$r" current_snapshot_id)" = "$n1" ] && [ "$(field "$r" previous_snapshot_id)" = "$n2" ] ||
    fail $v "rollback_to_timestamp '$T': not from $n2 to $n1: $r"
[ "$("$ZSINK" table rollback "$t" --to-timestamp "$T" --dry-run --json)" = "$r" ] ||
    fail $v "rollback --to-timestamp differs from rollback_to_timestamp"
ms3=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json, sys; print(json.load(sys.stdin)[2]["time_millis"])')
r3=$("$ZSINK" table rollback_to_timestamp "$t" --timestamp "$ms3" --dry_run --json)
[ "$(field "$r3" current_snapshot_id)" = 3 ] || fail $v "--timestamp $ms3 (snapshot 3's time): $r3"
out=$("$ZSINK" table create_tag "$t" --tag_name a_end --snapshot_id "$n1" --json) || fail $v "create_tag: $out"
[ "$(field "$out" snapshot_id)" = "$n1" ] || fail $v "create_tag --snapshot_id $n1: $out"
for args in "--tag a_end" "--version a_end" "--version $n1" "--snapshot_id $n1"; do
    # shellcheck disable=SC2086
    r=$("$ZSINK" table rollback_to "$t" $args --dry-run --json) || fail $v "rollback_to $args: $r"
    [ "$(field "$r" current_snapshot_id)" = "$n1" ] || fail $v "rollback_to $args: $r"
done
echo "[$v] rollback_to_timestamp '$T' and MILLIS, rollback_to --tag/--version/--snapshot_id: the right snapshot"

# 3. each dry run leaves the table, and says what the real run does
"$ZSINK" table create_tag "$t" --tag_name b_mid --snapshot_id $((n2 - 1)) >/dev/null 2>&1 || fail $v "create_tag b_mid"
files "$t" >"$d/files.before"
dry=$("$ZSINK" table rollback_to_timestamp "$t" --timestamp "$T" --dry_run --json) || fail $v "$dry"
"$PY" -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["tags"] == ["b_mid"] and d["data_files"] > 0, d' "$dry" ||
    fail $v "rollback_to_timestamp --dry_run: not the later tag, no data files: $dry"
dropdry=$("$ZSINK" table drop_partition "$t" --partition dt=2020-01-02 --dry-run --json) || fail $v "$dropdry"
rows2=$("$ZSINK" table count "$t" --where "dt = '2020-01-02'" 2>/dev/null)
[ "$(field "$dropdry" rows)" = "$rows2" ] && [ "$(field "$dropdry" partitions)" = 1 ] ||
    fail $v "drop_partition --dry-run: $dropdry, the partition has $rows2 rows"
expdry=$("$ZSINK" table expire_partitions "$t" --expiration_time 1d --timestamp_formatter yyyy-MM-dd \
    --max_expires 2 --dry_run --json) || fail $v "expire_partitions: $expdry"
"$PY" -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["expired"] == ["dt=2020-01-01", "dt=2020-01-02"], d' "$expdry" ||
    fail $v "expire_partitions --max_expires 2 --dry_run: $expdry"
still "rollback_to_timestamp, drop_partition and expire_partitions --dry-run"
cp -r "$t" "$d/rolled"
cp -r "$t" "$d/dropped"
rolled=$("$ZSINK" table rollback_to_timestamp "$d/rolled" --timestamp "$T" --json) || fail $v "rollback_to_timestamp: $rolled"
same "rollback_to_timestamp" "$dry" "$rolled"
r=$("$ZSINK" table drop_partition "$d/dropped" --partition dt=2020-01-02 --json) || fail $v "drop_partition: $r"
"$PY" -c 'import json, sys
a, b = (json.loads(x) for x in sys.argv[1:3])
assert [a[k] for k in ("partitions", "files", "rows")] == [b[k] for k in ("partitions", "files", "rows")] and b["snapshot_id"] > 0, (a, b)' \
    "$dropdry" "$r" || fail $v "drop_partition: the dry run said $dropdry, the run did $r"
# delete_tag of a tag whose snapshot expired, in the expired copy: the
# files only it keeps (its lists and manifests)
"$ZSINK" table create_tag "$d/expired" --tag_name gone --snapshot_id $((n1 + 1)) >/dev/null 2>&1 || fail $v "create_tag gone"
"$ZSINK" table expire_snapshots "$d/expired" --retain_min 1 --retain_max 1 --max_deletes 100000 \
    --older_than 0s >/dev/null 2>&1 || fail $v "expire all but the latest"
files "$d/expired" >"$d/expired.before"
deldry=$("$ZSINK" table delete_tag "$d/expired" --tag gone --dry-run --json) || fail $v "delete_tag --dry-run: $deldry"
files "$d/expired" | cmp -s - "$d/expired.before" || fail $v "delete_tag --dry-run changed the table"
r=$("$ZSINK" table delete_tag "$d/expired" --tag gone --json) || fail $v "delete_tag: $r"
same "delete_tag" "$deldry" "$r"
[ "$(field "$r" manifests)" -gt 0 ] || fail $v "delete_tag: no file only the tag kept: $r"
echo "[$v] dry runs left the table, and said what then went: rollback_to_timestamp $rolled; drop_partition $(field "$dropdry" files) files; delete_tag $r"

# 4. the rolled-back table: exactly job A's rows
"$ZSINK" table count "$d/rolled" | grep -qx $N1 || fail $v "rolled back: not $N1 rows"
"$ZSINK" table stats "$d/rolled" --json | grep -q "\"distinct_ids\":$N1,\"min_id\":1,\"max_id\":$N1" ||
    fail $v "rolled back: not ids 1..$N1: $("$ZSINK" table stats "$d/rolled" --json)"
for x in rolled dropped expired; do
    out=$("$ZSINK" table verify "$d/$x") || fail $v "verify $x: $out"
done
[ ! -e "$d/rolled/tag/tag-b_mid" ] || fail $v "the rollback kept the tag of a later snapshot"
if interop_ready; then
    c=$(paimon_java summary "$d/rolled" 2>/dev/null | json_get - count) || fail $v "Paimon Java cannot read the rolled-back table"
    [ "$c" = $N1 ] || fail $v "Paimon Java reads $c rows of the rolled-back table, not $N1"
    echo "[$v] Paimon Java reads the rolled-back table: $c rows"
fi

# 5. an orphan two days old, Paimon's way
f=$(cd "$t" && find . -name 'data-*.parquet' | head -n 1)
orphan="$(dirname "$f")/data-planted-orphan.parquet"
cp "$t/$f" "$t/$orphan"
touch -d '2 days ago' "$t/$orphan"
day=$(date -d '1 day ago' '+%Y-%m-%d %H:%M:%S')
files "$t" >"$d/files.before"
r=$("$ZSINK" table remove_orphan_files "$t" --older_than "$day" --dry_run true --json) || fail $v "remove_orphan_files: $r"
"$PY" -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["files"] == [sys.argv[2][2:]] and not d["deleted"] and d["dry_run"], d' "$r" "$orphan" ||
    fail $v "remove_orphan_files --dry_run true: $r"
still "remove_orphan_files --dry_run true"
r=$("$ZSINK" table remove_orphan_files "$t" --older_than "$day" --dry_run false --json) || fail $v "remove_orphan_files: $r"
"$PY" -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["files"] == [sys.argv[2][2:]] and d["deleted"] and not d["dry_run"], d' "$r" "$orphan" ||
    fail $v "remove_orphan_files --dry_run false: $r"
[ ! -e "$t/$orphan" ] || fail $v "remove_orphan_files --dry_run false kept the orphan"
echo "[$v] remove_orphan_files --older_than '$day': the two-day-old orphan listed, then deleted"

# an age of 0 is "older than now", never "in the future": the age is not
# made a time and back (the clock read twice refused it now and then:
# t_procedures_live, whose loop runs --older-than 0s)
i=0
while [ $i -lt 200 ]; do
    out=$("$ZSINK" table expire_snapshots "$t" --older_than 0s --dry-run --json 2>&1) ||
        fail $v "expire_snapshots --older_than 0s, try $i: $out"
    i=$((i + 1))
done
echo "[$v] expire_snapshots --older_than 0s taken 200 times in a row"

# 6. mistakes: one line, exit 2
for args in "expire_snapshots $t --older_than 2099-01-01" "rollback_to_timestamp $t --timestamp soon" \
    "rollback_to $t --tag a_end --snapshot_id 1" "delete_tag $t --tag"; do
    # shellcheck disable=SC2086
    out=$("$ZSINK" table $args 2>&1)
    rc=$?
    [ $rc = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q 'see zsink table .* --help$' ||
        fail $v "zsink table $args: exit $rc: $out"
done
pass
