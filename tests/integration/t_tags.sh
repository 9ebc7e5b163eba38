# Tags are roots (issue 22, item 2), with Paimon Java as the other engine.
#
#  1. Job A writes the table (compaction on, default retention: nothing
#     expires). Paimon Java tags snapshot 1 ("first", its createTag),
#     zsink tags the latest ("zs", `zsink table create-tag`). What each tag
#     reads is taken then: Java's summary of those snapshots.
#  2. Job B (a rerun, allowed) commits on, keeping 2 snapshots: zsink's
#     expiry after each commit removes snapshot 1 and those after it, and
#     compaction deletes the tagged snapshots' files from the live set.
#     Then Paimon's expire (all but the latest), zsink's
#     remove-orphan-files --older-than 0s and Paimon's orphan clean.
#  3. Each tag still reads exactly the rows it read in 1, in Paimon Java,
#     pypaimon and zsink (count, distinct ids, min and max id, and the
#     digest of every row for Java and pypaimon); verify OK. Tags made and
#     deleted across the engines (Java's tag deleted by zsink, zsink's by
#     Java) leave a table every reader reads and verify passes.
#  4. rollback --to-tag first (its snapshot expired: restored from the
#     tag): every reader reads the tag's rows as the latest; "zs", a tag of
#     a later snapshot, is gone (as Paimon's rollback removes it).
# Before tags were roots, job B's expiry refused the tagged table and
# remove-orphan-files deleted the tags' manifest lists (Java: tag unreadable).
. "$(dirname "$0")/lib.sh"
interop_required

v=tags
d=$(vdir $v)
t=$(table_of $v)
# FIGURES TAG_OR_SNAPSHOT_ARGS...: Java's count/ids/digest of a read
jfig () {
    paimon_java summary "$t" "$@" 2>>"$d/java.err" | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
assert d.get("ok"), d
print(d["count"], d["distinct_ids"], d["min_id"], d["max_id"], d["digest"])'
}
pyfig () {
    paimon_py summary "$t" "$@" 2>>"$d/py.err" | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
assert d.get("ok"), d
print(d["count"], d["distinct_ids"], d["min_id"], d["max_id"], d["digest"])'
}
zfig () {
    "$ZSINK" table stats "$t" --json "$@" | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
print(d["count"], d["distinct_ids"], d["min_id"], d["max_id"])'
}
# CHECK WHAT EXPECTED ARGS...: all three readers give the expected figures
readers_agree () {
    _what=$1 _want=$2
    shift 2
    _j=$(jfig "$@") || fail $v "Paimon Java cannot read $_what: $(tail -n 5 "$d/java.err")"
    [ "$_j" = "$_want" ] || fail $v "Paimon Java reads $_what as '$_j', expected '$_want'"
    _p=$(pyfig "$@") || fail $v "pypaimon cannot read $_what: $(tail -n 5 "$d/py.err")"
    [ "$_p" = "$_want" ] || fail $v "pypaimon reads $_what as '$_p', expected '$_want'"
    _z=$(zfig "$@") || fail $v "zsink cannot read $_what"
    [ "$_z" = "${_want% *}" ] || fail $v "zsink reads $_what as '$_z', expected '${_want% *}'"
    echo "[$v] $_what: $_j (Java, pypaimon, zsink agree)"
}
verify_ok () {
    _r=$("$ZSINK" table verify "$t" "$@") || fail $v "verify: $_r"
}

# 1. job A, the tags
write_job $v 2 "datagen.rows-per-second: 4000" "datagen.number-of-rows: 4000" \
    "execution.checkpointing.interval: 200ms" "compaction.min.file-num: 3"
start_cluster $v "$(job_id $v)-a"
expect_exit $v 60 0
out=$(paimon_java create-tag "$t" first --snapshot 1 2>>"$d/java.err") ||
    fail $v "Java createTag: $out"
out=$("$ZSINK" table create-tag "$t" zs --json) || fail $v "zsink create-tag: $out"
zs_id=$(echo "$out" | json_get - snapshot_id)
[ "$zs_id" -gt 2 ] || fail $v "job A made only $zs_id snapshots"
"$ZSINK" table create-tag "$t" zs 2>/dev/null && fail $v "create-tag took a taken name"
"$ZSINK" table create-tag "$t" nope --snapshot 999 2>/dev/null && fail $v "create-tag of no snapshot"
first=$(jfig --snapshot 1)
zs=$(jfig --snapshot "$zs_id")
echo "[$v] job A: tag first = snapshot 1 ($first), tag zs = snapshot $zs_id ($zs)"
"$ZSINK" table tags "$t" --json | "$PY" -c 'import json, sys
got = {t["tag_name"]: t["snapshot_id"] for t in json.load(sys.stdin)}
sys.exit(0 if got == {"first": 1, "zs": int(sys.argv[1])} else 1)' "$zs_id" ||
    fail $v "zsink table tags: $("$ZSINK" table tags "$t" --json)"
readers_agree "tag first before any expiry" "$first" --tag first

# 2. job B with zsink's expiry after commits, then Paimon's, and both
# orphan cleans at no margin
write_job $v 2 "datagen.rows-per-second: 4000" "datagen.number-of-rows: 4000" \
    "execution.checkpointing.interval: 200ms" "compaction.min.file-num: 3" \
    "job.allow-rerun: true" "snapshot.num-retained.min: 1" "snapshot.num-retained.max: 2"
start_cluster $v "$(job_id $v)-b"
expect_exit $v 60 0
[ ! -f "$t/snapshot/snapshot-$zs_id" ] ||
    fail $v "zsink's expiry after commits kept snapshot $zs_id: $(grep -i expire "$(clog $v)" | tail -n 3)"
compacts=$(count_log $v "kind COMPACT")
out=$(paimon_java expire "$t" --retain-max 1 --retain-min 1 2>>"$d/java.err") || fail $v "Java expire: $out"
echo "[$v] Paimon's expire: $out"
out=$("$ZSINK" table remove-orphan-files "$t" --older-than 0s) || fail $v "remove-orphan-files: $out"
echo "[$v] zsink remove-orphan-files: $out"
out=$(paimon_java remove-orphans "$t" --older-than-ms 0 2>>"$d/java.err") || fail $v "Java orphans: $out"
echo "[$v] Paimon's orphan clean: $out"
verify_ok

# 3. every tag reads as it did, in every reader
readers_agree "tag first after expiry and orphan removal" "$first" --tag first
readers_agree "tag zs after expiry and orphan removal" "$zs" --tag zs
"$ZSINK" table scan "$t" --tag first | wc -l | grep -qx "${first%% *}" ||
    fail $v "zsink table scan --tag first: not ${first%% *} rows"
# across engines: Java's tag deleted by zsink, zsink's by Java
latest=$(jfig)
out=$(paimon_java create-tag "$t" jt 2>>"$d/java.err") || fail $v "Java createTag: $out"
"$ZSINK" table create-tag "$t" zt >/dev/null || fail $v "zsink create-tag zt"
readers_agree "tag jt (Java's, of the latest)" "$latest" --tag jt
"$ZSINK" table delete-tag "$t" jt >/dev/null || fail $v "zsink delete-tag jt"
out=$(paimon_java delete-tag "$t" zt 2>>"$d/java.err") || fail $v "Java deleteTag: $out"
[ ! -e "$t/tag/tag-jt" ] && [ ! -e "$t/tag/tag-zt" ] || fail $v "a deleted tag is still there"
out=$("$ZSINK" table remove-orphan-files "$t" --older-than 0s) || fail $v "remove-orphan-files: $out"
verify_ok
readers_agree "the latest snapshot" "$latest"
readers_agree "tag first" "$first" --tag first

# 4. rollback to the expired tag
out=$("$ZSINK" table rollback "$t" --to-tag first --json) || fail $v "rollback --to-tag: $out"
echo "[$v] rollback: $out"
readers_agree "the table rolled back to tag first" "$first"
[ ! -e "$t/tag/tag-zs" ] || fail $v "rollback kept tag zs of a later snapshot"
"$ZSINK" table remove-orphan-files "$t" --older-than 0s >/dev/null || fail $v "remove-orphan-files"
verify_ok
readers_agree "tag first after the rollback" "$first" --tag first
echo "[$v] $compacts compactions (jobs A and B); every tag read the same throughout"
pass
