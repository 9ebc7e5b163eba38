# Append compaction in the job (docs/decisions.md, "Compaction"):
#  - k: 2 writers, 150 ms checkpoints, compaction from 3 small files; the
#    committer and a writer killed -9 at random moments once compactions
#    run;
#  - x: the committer crashes between a compaction's rewrite and its COMPACT
#    snapshot (fail point committer.mid-compact, 2nd hit); its successor
#    removes the orphaned outputs;
#  - r: the committer crashes in the middle of a rewrite, on its compaction
#    thread (fail point committer.mid-rewrite, 2nd hit), a half-written
#    output on disk; its successor removes it.
# Each ends with ids 1..N exactly once for every reader (lib.sh's oracle:
# zsink, DuckDB, Paimon Java, pypaimon), COMPACT snapshots carrying the
# identifier before them, no orphan, fewer live files than the writers
# wrote. Then `zsink table compact` compacts the rest, Paimon Java's own
# expiration runs over the compacted table (retain 1), and every reader
# still agrees; compacted-away data files are gone, and no file is left
# that no snapshot names.
. "$(dirname "$0")/lib.sh"

N=20000
drive () {
    v=$1
    write_fault_job "$v" 2 "datagen.rows-per-second: 5000" "execution.checkpointing.interval: 150ms" \
        "compaction.min.file-num: 3"
    [ "$v" = x ] && FAILPOINTS="committer.mid-compact=crash:2"
    [ "$v" = r ] && FAILPOINTS="committer.mid-rewrite=crash:2"
    start_cluster "$v"
    FAILPOINTS=
    if [ "$v" = k ]; then
        wait_for_count "$v" 'Compacted [0-9]+ files' 1 60
        pause_random 500
        kill_role "$v" committer
        wait_for_count "$v" 'Compacted [0-9]+ files' 3 60
        pause_random 500
        kill_role "$v" writer-0
    fi
    expect_exit "$v" 120 0
    t=$(table_of "$v")
    [ "$v" = x ] && { grep -q 'failpoint committer.mid-compact: crash' "$(clog "$v")" ||
        fail "$v" "the mid-compact crash never happened"; }
    [ "$v" = r ] && { grep -q 'failpoint committer.mid-rewrite: crash' "$(clog "$v")" ||
        fail "$v" "the mid-rewrite crash never happened"; }
    oracle "$v" $N --last-max
    written=$(grep -c 'Barrier [0-9]*: 1 files' "$(clog "$v")")
    live=$("$ZSINK" table files "$t" --json | "$PY" -c 'import json,sys; print(len(json.load(sys.stdin)["files"]))')
    compacts=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json,sys; print(sum(s["commit_kind"] == "COMPACT" for s in json.load(sys.stdin)))')
    echo "[$v] $written files written, $live live, $compacts COMPACT snapshots"
    [ "$compacts" -ge 1 ] && [ "$live" -lt "$written" ] || fail "$v" "no compaction took effect"
    # the procedure: whatever small files are left
    out=$("$ZSINK" table compact "$t" --min-file-num 2 --json) || fail "$v" "zsink table compact: $out"
    echo "[$v] compact: $out"
    # Paimon Java's expiration over the compacted table
    before=$(ls "$t/bucket-0" | wc -l)
    out=$(paimon_java expire "$t" --retain-max 1 --retain-min 1 2>>"$SCRATCH/java-$v.err") ||
        fail "$v" "Paimon's expire: $out"
    echo "[$v] paimon expire: $out"
    after=$(ls "$t/bucket-0" | wc -l)
    echo "[$v] bucket-0: $before files before Paimon's expiry, $after after"
    [ "$after" -lt "$before" ] || fail "$v" "Paimon's expiry removed no compacted-away file"
    # (Paimon expires at most snapshot.expire.limit at a time: what is left
    # is what its remaining snapshots name, nothing else)
    orph=$("$ZSINK" table orphans "$t" --older-than 0s --json) || fail "$v" "orphans failed"
    [ "$(echo "$orph" | json_get - count)" = 0 ] || fail "$v" "orphans after Paimon's expiry: $orph"
    "$ZSINK" table verify "$t" >/dev/null || fail "$v" "verify: $("$ZSINK" table verify "$t" 2>&1)"
    duck_table "$v" $N
}
interop_required
run_variants drive k x r
pass
