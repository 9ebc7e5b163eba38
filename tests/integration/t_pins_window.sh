# Orphan removal in the exact windows where it used to destroy a live job
# (issue 22, item 3), made deterministic with fail points:
#  ack: the committer waits (committer.before-commit) between checkpoint
#       3's completion and its commit; remove-orphan-files --older-than 0s
#       runs in that window. Before pins it deleted the completed
#       checkpoint's data files: the commit failed, and so did every
#       restore of that checkpoint (rows lost for good).
#  link: the committer waits (committer.after-manifest) between writing
#       its commit's manifests and linking the snapshot; the cleaner runs
#       then. Before the clean lock it deleted those manifests and the
#       snapshot named them: every reader of the table failed.
#  restore: the committer dies (committer.before-commit crash) after
#       checkpoint 3 completed, before its commit, and the job fails for
#       good (no restart attempts); the cleaner runs on the dead job's
#       table; then a new job --restore-from chk-3. Before pins the cleaner
#       deleted chk-3's files and that restore failed forever.
#  flight: the writers wait (writer.after-flush) with checkpoint 3's files
#       closed and not yet handed over. remove-orphan-files --older-than 0s
#       keeps them (the job runs); then they are removed by hand, as an
#       engine that knows no pins (or a cleaner while the committer is
#       down) would: checkpoint 3 fails, the job fails over to 2 and
#       replays, no row is lost.
# After: the pin keeps the first and third, the lock holds the cleaner until
# the snapshot is linked; exact, verify clean, every reader reads.
. "$(dirname "$0")/lib.sh"

ROWS=6000

# restore: the job dies for good between checkpoint 3 and its commit.
drive_restore () {
    v=$1
    write_fault_job "$v" 2 "datagen.rows-per-second: 3000" "datagen.number-of-rows: $ROWS" \
        "execution.checkpointing.interval: 300ms" "restart-strategy.fixed-delay.attempts: 0"
    FAILPOINTS="committer.before-commit=crash:3" start_cluster "$v" "$(job_id "$v")-a"
    expect_exit "$v" 60 1
    FAILPOINTS=
    t=$(table_of "$v")
    chk=$(sed -n 's/.*--restore-from \([^ `]*chk-[0-9]*\).*/\1/p' "$(clog "$v")" | tail -n 1)
    [ -n "$chk" ] || fail "$v" "the failed job named no checkpoint to restore"
    out=$("$ZSINK" table remove-orphan-files "$t" --older-than 0s 2>&1) ||
        fail "$v" "remove-orphan-files failed: $out"
    echo "[$v] remove-orphan-files on the dead job's table: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
    # unpin --dry-run (issue 26) says what it would release, and keeps the
    # pin: the restore below needs it
    user=$(echo "$out" | sed -n 's/^pinned by commit user \([^ ]*\) .*(not running).*/\1/p')
    dry=$("$ZSINK" table unpin "$t" --user "$user" --dry-run 2>&1) ||
        fail "$v" "unpin --dry-run: $dry"
    echo "$dry" | grep -q "^would unpin commit user $user: [1-9][0-9]* data files\? it keeps" ||
        fail "$v" "unpin --dry-run: $dry"
    "$ZSINK" table orphans "$t" --older-than 0s | grep -q "^pinned by commit user $user " ||
        fail "$v" "unpin --dry-run removed the pin"
    start_cluster "$v" "$(job_id "$v")-b" --restore-from "$chk"
    expect_exit "$v" 90 0
    oracle "$v" "$ROWS" --last-max
    # the cleaner said what it kept, and how to drop it
    echo "$out" | grep -q "^pinned by commit user .* (not running): [1-9].* zsink table unpin $t --user " ||
        fail "$v" "remove-orphan-files did not list the dead job's pin: $out"
    # finished, the user pins nothing any more
    "$ZSINK" table orphans "$t" --older-than 0s | grep -q '^pinned' &&
        fail "$v" "a pin is left after the job finished"
    true
}

# flight: a file not yet handed over is the checkpoint's to lose, not a row.
drive_flight () {
    v=$1
    write_fault_job "$v" 2 "datagen.rows-per-second: 3000" "datagen.number-of-rows: $ROWS" \
        "execution.checkpointing.interval: 300ms" "heartbeat.timeout: 20s"
    FAILPOINTS="writer.after-flush=delay:3000:3" start_cluster "$v"
    wait_for_count "$v" "failpoint writer.after-flush: delay" 2 30
    t=$(table_of "$v")
    files=$(ls "$t"/bucket-0/data-*-w*-a2-* 2>/dev/null)
    [ -n "$files" ] || fail "$v" "no file of checkpoint 3 in flight"
    out=$("$ZSINK" table remove-orphan-files "$t" --older-than 0s 2>&1) ||
        fail "$v" "remove-orphan-files failed: $out"
    for f in $files; do
        [ -f "$f" ] || fail "$v" "remove-orphan-files removed $f of the running job's checkpoint in flight"
    done
    # a running job's pin is not for dropping
    user=$(echo "$out" | sed -n 's/^pinned by commit user \([^ ]*\) .*(running).*/\1/p')
    [ -n "$user" ] || fail "$v" "remove-orphan-files did not list the running job's pin: $out"
    if "$ZSINK" table unpin "$t" --user "$user" >/dev/null 2>&1; then
        fail "$v" "zsink table unpin dropped the pin of a running job"
    fi
    rm -f $files
    echo "[$v] removed by hand, in flight: $(echo $files | wc -w) files"
    expect_exit "$v" 90 0
    [ "$(count_log "$v" 'switched from state [A-Z]+ to RESTARTING')" -ge 1 ] ||
        fail "$v" "checkpoint 3 did not fail without its files"
    oracle "$v" "$ROWS" --last-max
}

drive () {
    v=$1
    [ "$v" = restore ] && { drive_restore "$v"; return; }
    [ "$v" = flight ] && { drive_flight "$v"; return; }
    case $v in
    ack) point=committer.before-commit ;;
    link) point=committer.after-manifest ;;
    esac
    write_fault_job "$v" 2 "datagen.rows-per-second: 3000" "datagen.number-of-rows: $ROWS" \
        "execution.checkpointing.interval: 300ms" "heartbeat.timeout: 20s"
    FAILPOINTS="$point=delay:4000:3" start_cluster "$v"
    wait_for_log "$v" "failpoint $point: delay" 30
    t=$(table_of "$v")
    # the cleaner, in the window (for link it waits for the commit's lock)
    out=$("$ZSINK" table remove-orphan-files "$t" --older-than 0s 2>&1) ||
        fail "$v" "remove-orphan-files failed: $out"
    echo "[$v] remove-orphan-files in the window: $(echo "$out" | tail -n 1)"
    # every reader reads the table the moment the cleaner is done
    "$ZSINK" table count "$t" >/dev/null 2>&1 || fail "$v" "zsink table count fails after the cleaner"
    expect_exit "$v" 90 0
    [ "$(count_log "$v" 'switched from state [A-Z]+ to RESTARTING')" = 0 ] ||
        fail "$v" "the job failed over: the cleaner took a file of the commit"
    oracle "$v" "$ROWS"
}
run_variants drive ${PINS_VARIANTS:-ack link restore flight}
pass
