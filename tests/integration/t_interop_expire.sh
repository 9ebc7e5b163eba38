# Paimon's own maintenance over a zsink table, while and after a job commits
# to it, and zsink's filterCommitted after the expiry.
#
#  1. While: job A (2 writers, 300 ms checkpoints) commits while Paimon Java
#     (`ZsinkInterop maintain`, the Java API in one JVM) expires snapshots
#     beyond the latest 4 and removes orphan files with Paimon's default
#     safety margin (files older than a day), round after round. The
#     writers' in-flight files are young orphans all along: removing one
#     would fail a commit. The committer crashes right after its 16th
#     snapshot (committer.after-snapshot=crash:16, by then snapshots have
#     been expired), restarts and re-commits its state: the identifier it
#     had just committed must be filtered. Then `zsink stop --savepoint`.
#  2. After: two old orphans are planted (a data file and a manifest, two
#     days old); Paimon expires all but the latest snapshot and removes
#     exactly those two orphans. Every reader agrees on what is left (the
#     expired snapshots are gone for zsink, pypaimon and Java alike), and
#     Java's filterCommitted of zsink's user still says "committed" for
#     every identifier zsink committed (lib.sh's paimon_table).
#  3. Job B restores from the savepoint (--restore-from): its committer
#     re-commits the savepoint's identifier, already committed before the
#     expiry: filtered (zsink reads its user's last identifier from the
#     latest snapshot, not from the expired ones), and the input is finished.
#
# The oracle: ids 1..N exactly once, one commit user, and no identifier
# committed twice in either job's log.
. "$(dirname "$0")/lib.sh"
interop_required

N=30000
v=expire
d=$(vdir $v)
t=$(table_of $v)
log=$(clog $v)
write_fault_job $v 2 "datagen.rows-per-second: 2000" "datagen.number-of-rows: $N" \
    "execution.checkpointing.interval: 300ms"

# 1. while
FAILPOINTS=committer.after-snapshot=crash:16
start_cluster $v "$(job_id $v)-a"
FAILPOINTS=
wait_for_log $v 'with identifier 1 and kind APPEND' 30
paimon_java_bg "$d/maintain.json" "$d/maintain.err" maintain "$t" --until "$d/stop-maintain" \
    --retain-max 4 --retain-min 1 --pause-ms 100
maint=$BG_PID
wait_for_log $v 'failpoint committer.after-snapshot: ' 60
wait_for_log $v 'filtered committed identifier' 30
filtered=$(grep -o 'filtered committed identifier [0-9]*' "$log" | head -n 1)
echo "[$v] t=$(elapsed)s after the committer's crash: $filtered"
# the crash came after Paimon had expired snapshots
[ ! -f "$t/snapshot/snapshot-1" ] || fail $v "snapshot-1 still there when the committer crashed"
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 24 60
sp=$("$ZSINK" stop --savepoint --json -c "$d/job.yaml") || fail $v "zsink stop --savepoint failed: $sp"
savepoint=$(echo "$sp" | json_get - savepoint)
expect_exit $v 60 0
touch "$d/stop-maintain"
wait $maint || fail $v "Paimon's maintenance failed: $(cat "$d/maintain.json") $(tail -n 20 "$d/maintain.err")"
EXTRA_PIDS=
echo "[$v] maintenance beside job A: $(cat "$d/maintain.json")"
json_get "$d/maintain.json" expired | grep -qv '^0$' || fail $v "Paimon expired nothing while the job ran"

# 2. after
user=$("$ZSINK" table snapshots "$t" --json | "$PY" -c \
    'import json, sys; print(json.load(sys.stdin)[-1]["commit_user"])')
f=$(ls "$t/bucket-0" | head -n 1)
m=$(ls "$t/manifest" | grep '^manifest-[0-9a-f]\{8\}-' | head -n 1)
cp "$t/bucket-0/$f" "$t/bucket-0/data-planted-orphan.parquet"
cp "$t/manifest/$m" "$t/manifest/manifest-planted-orphan"
touch -d '2 days ago' "$t/bucket-0/data-planted-orphan.parquet" "$t/manifest/manifest-planted-orphan"
before=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')
out=$(paimon_java expire "$t" --retain-max 1 --retain-min 1 2>>"$d/java.err") || fail $v "Java expire: $out"
echo "[$v] expire: $out"
[ "$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')" = 1 ] ||
    fail $v "more than one snapshot left after expire --retain-max 1"
out=$(paimon_java remove-orphans "$t" 2>>"$d/java.err") || fail $v "Java remove-orphans: $out"
echo "[$v] remove-orphans: $out"
echo "$out" | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
sys.exit(0 if d["files"] == ["bucket-0/data-planted-orphan.parquet", "manifest/manifest-planted-orphan"] else 1)' ||
    fail $v "Paimon removed other files than the two planted orphans: $out"
"$ZSINK" table verify "$t" >/dev/null || fail $v "verify after Paimon's expire: $("$ZSINK" table verify "$t" 2>&1)"
# all readers, the expired snapshots 1 and 2 gone for each
paimon_table $v --expired 1,2
echo "[$v] $before snapshots -> 1; zsink's user $user"

# 3. restore from the savepoint, after the expiry
start_cluster $v "$(job_id $v)-b" --restore-from "$savepoint"
expect_exit $v 60 0
k=$(json_get "$savepoint" checkpoint_id 2>/dev/null || basename "$savepoint" | tr -dc 0-9)
grep -q "filtered committed identifier $k\$" "$log" ||
    fail $v "job B's committer did not filter the savepoint's identifier $k"
echo "[$v] job B: savepoint identifier $k filtered"
grep -o 'with identifier [0-9]* and kind APPEND' "$log" | sort | uniq -d | grep . &&
    fail $v "an identifier was committed twice (above)"
oracle $v $N --last-max --user "$user"
pass
