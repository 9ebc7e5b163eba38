# Procedures beside a live job (issue 22, item 3): while a job (datagen, 2
# writers, 300 ms checkpoints, 20,000 rows) runs and its writer, committer
# and coordinator are each killed with -9 once, a loop runs every 0.2 s
#   remove-orphan-files --older-than 0s, expire-snapshots (retain 3,
#   older than 0s), compact, and a reader (zsink table stats),
# the way a user schedules maintenance. Before pins and the clean lock the
# cleaner deleted a completed checkpoint's files or a commit's manifests
# and the job failed (6 runs of 6). Now: the job ends exact (count =
# distinct = N), verify OK, no orphan, Paimon Java and pypaimon read it,
# and every reader in the loop read the table: zsink's stats each round,
# and, all along, Paimon Java and pypaimon reading the latest snapshot in
# loops of their own (read-loop: no read may fail twice in a row, none may
# see an id twice). Paimon's readers are required here, as in every
# interop test: they are the judges of "every reader always succeeds".
. "$(dirname "$0")/lib.sh"
interop_required

ROWS=20000

# procedures VARIANT: the loop, until $(vdir)/stop exists (or the cluster
# exited); failures that
# should never happen go to bad.log.
procedures () {
    _t=$(table_of "$1") _d=$(vdir "$1")
    _i=0
    while [ ! -f "$_d/stop" ] && [ ! -f "$_d/cluster.rc" ]; do
        _i=$((_i + 1))
        "$ZSINK" table remove-orphan-files "$_t" --older-than 0s >>"$_d/procedures.log" 2>&1 ||
            echo "round $_i: remove-orphan-files failed" >>"$_d/bad.log"
        "$ZSINK" table expire-snapshots "$_t" --retain-min 3 --older-than 0s \
            >>"$_d/procedures.log" 2>&1 ||
            echo "round $_i: expire-snapshots failed" >>"$_d/bad.log"
        # a compaction that lost its inputs to the job's own is dropped: fine
        if ! _out=$("$ZSINK" table compact "$_t" --min-file-num 2 2>&1); then
            case $_out in
            *"compaction dropped"*) ;;
            *) echo "round $_i: compact failed: $_out" >>"$_d/bad.log" ;;
            esac
        fi
        echo "$_out" >>"$_d/procedures.log"
        "$ZSINK" table stats "$_t" --json >>"$_d/procedures.log" 2>&1 ||
            echo "round $_i: stats failed: $(tail -n 1 "$_d/procedures.log")" >>"$_d/bad.log"
        echo "$_i" >"$_d/rounds"
        sleep 0.2 # the users' schedule, not a wait for anything
    done
}

# kill_and_recover VARIANT ROLE: kill -9 ROLE once the job has completed a
# further checkpoint, then wait until the job failed over and runs again.
kill_and_recover () {
    _n=$(count_log "$1" 'Completed checkpoint [0-9]+ for job')
    wait_for_count "$1" 'Completed checkpoint [0-9]+ for job' $((_n + 2)) 30
    pause_random 300
    _r=$(count_log "$1" 'to RUNNING')
    kill_role "$1" "$2"
    wait_for_count "$1" 'to RUNNING' $((_r + 1)) 30
}

drive () {
    v=$1
    write_fault_job "$v" 2 "datagen.rows-per-second: 2000" "datagen.number-of-rows: $ROWS" \
        "execution.checkpointing.interval: 300ms" "restart-strategy.fixed-delay.attempts: 30"
    start_cluster "$v"
    wait_for_log "$v" 'Successfully commit snapshot' 30
    procedures "$v" &
    loop=$!
    EXTRA_PIDS="$EXTRA_PIDS $loop"
    d=$(vdir "$v")
    paimon_java_bg "$d/java-reads.json" "$d/java-reads.err" read-loop "$(table_of "$v")" \
        --until "$d/stop-readers" --pause-ms 100
    java_reads=$BG_PID
    paimon_py read-loop "$(table_of "$v")" --until "$d/stop-readers" --pause-ms 100 \
        >"$d/py-reads.json" 2>"$d/py-reads.err" &
    py_reads=$!
    EXTRA_PIDS="$EXTRA_PIDS $py_reads"
    kill_and_recover "$v" writer-0
    kill_and_recover "$v" committer
    _n=$(count_log "$v" 'Completed checkpoint [0-9]+ for job')
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' $((_n + 2)) 30
    kill_role "$v" coordinator
    wait_for_log "$v" 'Resuming job .* in epoch [0-9]+' 30
    expect_exit "$v" 120 0
    touch "$(vdir "$v")/stop" "$(vdir "$v")/stop-readers"
    wait "$loop"
    wait "$java_reads" || fail "$v" "Paimon Java could not read the table beside the job: $(cat "$d/java-reads.json") $(tail -n 5 "$d/java-reads.err")"
    wait "$py_reads" || fail "$v" "pypaimon could not read the table beside the job: $(cat "$d/py-reads.json") $(tail -n 5 "$d/py-reads.err")"
    echo "[$v] beside the job: Paimon Java $(cat "$d/java-reads.json"), pypaimon $(cat "$d/py-reads.json")"
    for r in java py; do
        [ "$(json_get "$d/$r-reads.json" reads)" -ge 3 ] || fail "$v" "$r read the table fewer than 3 times"
    done
    echo "[$v] $(cat "$d/rounds") rounds of procedures; $(grep -c '^deleted ' "$d/procedures.log") files deleted by remove-orphan-files, $(grep -c '^expired ' "$d/procedures.log") expiries, $(grep -c '^compacted ' "$d/procedures.log") compactions"
    if [ -s "$d/bad.log" ]; then
        head -n 20 "$d/bad.log"
        fail "$v" "a procedure or a reader failed beside the job"
    fi
    [ "$(cat "$d/rounds")" -ge 5 ] || fail "$v" "only $(cat "$d/rounds") rounds of procedures ran"
    oracle "$v" "$ROWS" --last-max --hand-compactions
}
run_variants drive p2
pass
