# Damaged metadata. A job commits a few snapshots and is stopped; then
#  1. a manifest file is truncated: `zsink table verify` exits non-zero
#     naming the manifest and what is wrong with it;
#  2. the latest snapshot file is truncated: verify names it; a new job on
#     the table is refused at start (exit 2, the snapshot named: a start-up
#     certainty, no restart loop) and nothing is written: the damaged file
#     keeps its bytes, no snapshot, manifest or data file is added to the
#     table. The same job's coordinator started by hand (as docker-compose
#     does) refuses it the same way.
. "$(dirname "$0")/lib.sh"

v=p2
t=$(table_of "$v")
write_fault_job "$v" 2 "datagen.number-of-rows: 1000000" "restart-strategy.fixed-delay.attempts: 2" \
    "restart-strategy.fixed-delay.delay: 200ms"
start_cluster "$v"
wait_for_count "$v" 'Successfully commit snapshot' 3 60
kill -TERM "$(cluster_pid "$v")"
expect_exit "$v" 30 0
"$ZSINK" table verify "$t" >/dev/null || fail "$v" "verify failed before any damage"

# 1. a truncated manifest (the newest one)
m=$(ls -t "$t"/manifest/manifest-* | grep -v manifest-list | head -n 1)
cp "$m" "$SCRATCH/manifest.bak"
head -c 20 "$SCRATCH/manifest.bak" >"$m"
out=$("$ZSINK" table verify "$t" 2>&1) && fail "$v" "verify passed a truncated manifest"
echo "[$v] verify: $out" | head -n 3
echo "$out" | grep -q "$(basename "$m")" || fail "$v" "verify did not name $(basename "$m")"
cp "$SCRATCH/manifest.bak" "$m"
"$ZSINK" table verify "$t" >/dev/null || fail "$v" "verify failed after the manifest was put back"

# 2. a truncated latest snapshot
latest=$(cat "$t/snapshot/LATEST")
s="$t/snapshot/snapshot-$latest"
head -c 40 "$s" >"$SCRATCH/snap.cut" && cp "$SCRATCH/snap.cut" "$s"
out=$("$ZSINK" table verify "$t" 2>&1) && fail "$v" "verify passed a truncated snapshot"
echo "[$v] verify: $out" | head -n 3
echo "$out" | grep -q "snapshot-$latest" || fail "$v" "verify did not name snapshot-$latest"
# (.locks/ holds the committers' lock files, not table data)
list_files () { (cd "$t" && find . -path ./.locks -prune -o -type f -print | sort); }
list_files >"$SCRATCH/files.before"
sum_before=$(md5sum <"$s")

: >"$(clog "$v")"
start_cluster "$v" "$(job_id "$v")-again"
expect_exit "$v" 60 2
grep -m 1 -E "snapshot-$latest: corrupt snapshot" "$(clog "$v")" ||
    fail "$v" "no error naming snapshot-$latest"
out=$(timeout 20 "$BIN/zsink-coordinator" -c "$(vdir "$v")/job.yaml" --job-id "$(job_id "$v")-hand" \
    --bind "tcp://127.0.0.1:$(free_port)" 2>&1)
rc=$?
[ $rc = 2 ] && echo "$out" | grep -q "snapshot-$latest: corrupt snapshot" ||
    fail "$v" "the coordinator by hand: exit $rc: $out"
grep -q 'Successfully commit snapshot' "$(clog "$v")" && fail "$v" "committed on top of a corrupt snapshot"
[ "$(md5sum <"$s")" = "$sum_before" ] || fail "$v" "the corrupt snapshot was overwritten"
list_files >"$SCRATCH/files.after"
cmp -s "$SCRATCH/files.before" "$SCRATCH/files.after" ||
    fail "$v" "files were added to or removed from the table: $(diff "$SCRATCH/files.before" "$SCRATCH/files.after")"
echo "[$v] refused at start, exit 2; the table's files are the same"
pass
