# Snapshot expiration after each commit and merged manifests rolled at a
# target size, under kill -9 (docs/decisions.md, "Expiring snapshots"):
#  - k: a writer and the committer killed at random moments while the job
#    keeps at most 5 snapshots (snapshot.num-retained.max) and merges
#    manifests after 3 into files of ~4 KB;
#  - m: the committer crashes in the middle of an expiry (fail point
#    committer.mid-expire: EARLIEST moved and deleted data files gone,
#    manifests and snapshot files not yet); its successor finishes it.
# Each ends with ids 1..N exactly once for every reader (zsink, DuckDB,
# Paimon Java, pypaimon: lib.sh's oracle), at most 5 snapshots from the
# EARLIEST hint on, none below it, no orphan of any age, verify clean.
# Then `zsink table expire-snapshots --retain-max 1 --retain-min 1` by hand: one snapshot
# left, the expired ones gone for every reader, still exact.
. "$(dirname "$0")/lib.sh"

N=20000
drive () {
    v=$1
    write_fault_job "$v" 2 "datagen.rows-per-second: 5000" "execution.checkpointing.interval: 150ms" \
        "snapshot.num-retained.min: 2" "snapshot.num-retained.max: 5" \
        "manifest.merge-min-count: 3" "manifest.target-file-size: 4kb"
    [ "$v" = m ] && FAILPOINTS="committer.mid-expire=crash:4"
    start_cluster "$v"
    FAILPOINTS=
    if [ "$v" = k ]; then
        wait_for_count "$v" 'Expired snapshots' 2 60
        pause_random 600
        kill_role "$v" writer-1
        wait_for_count "$v" 'switched from state RESTORING to RUNNING' 2 30
        wait_for_count "$v" 'Expired snapshots' 4 60
        pause_random 600
        kill_role "$v" committer
    fi
    expect_exit "$v" 120 0
    t=$(table_of "$v")
    [ "$v" = m ] && { grep -q 'failpoint committer.mid-expire: crash' "$(clog "$v")" ||
        fail "$v" "the mid-expire crash never happened"; }
    oracle "$v" $N --last-max
    "$PY" - "$t" "$("$ZSINK" table snapshots "$t" --json)" <<'PY' || fail "$v" "retention"
import json, os, sys
t, snaps = sys.argv[1], json.loads(sys.argv[2])
ids = [s["id"] for s in snaps]
earliest = int(open(os.path.join(t, "snapshot", "EARLIEST")).read())
files = sorted(int(f[9:]) for f in os.listdir(os.path.join(t, "snapshot")) if f.startswith("snapshot-"))
print(f"  snapshots {ids}, EARLIEST {earliest}")
assert ids and len(ids) <= 5, ids
assert earliest == ids[0] == files[0], (earliest, ids, files)
assert files == ids, files
PY
    orph=$("$ZSINK" table orphans "$t" --older-than 0s --json) || fail "$v" "orphans failed"
    [ "$(echo "$orph" | json_get - count)" = 0 ] || fail "$v" "orphans after expiry: $orph"
    first=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
    out=$("$ZSINK" table expire-snapshots "$t" --retain-max 1 --retain-min 1 --json) || fail "$v" "expire-snapshots: $out"
    echo "[$v] expire-snapshots: $out"
    [ "$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1 ] ||
        fail "$v" "expire-snapshots --retain-max 1 left more than one snapshot"
    "$ZSINK" table verify "$t" >/dev/null || fail "$v" "verify after expire-snapshots: $("$ZSINK" table verify "$t" 2>&1)"
    stats=$("$ZSINK" table stats "$t" --json)
    [ "$(echo "$stats" | json_get - count)" = $N ] && [ "$(echo "$stats" | json_get - distinct_ids)" = $N ] ||
        fail "$v" "after expire-snapshots: $stats"
    paimon_table "$v" --expired "$first"
}
run_variants drive k m
pass
