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
# After: the pin keeps the first, the lock holds the cleaner until the
# snapshot is linked; exact, verify clean, every reader reads.
. "$(dirname "$0")/lib.sh"

ROWS=6000

drive () {
    v=$1
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
run_variants drive ${PINS_VARIANTS:-ack link}
pass
