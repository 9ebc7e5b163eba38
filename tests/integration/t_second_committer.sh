# Scenario 11: only one committer per job. While a job runs, a second
# zsink-committer pointed at the job's coordinator (endpoint from
# <state.checkpoints.dir>/cluster.json) must exit 3 with "another committer
# is running", before it registers: the job is not disturbed (no failover)
# and its result is exact. Parallelism 1 and 3, concurrently.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p" "datagen.rows-per-second: 2000"
    start_cluster "$v"
    wait_for_log "$v" 'Completed checkpoint [0-9]+ for job' 30
    co=$(json_get "$(vdir "$v")/chk/cluster.json" coordinator)
    out=$(vdir "$v")/second-committer.log
    timeout 30 "$BIN/zsink-committer" --coordinator "$co" \
        --bind "tcp://127.0.0.1:$(free_port)" >"$out" 2>&1
    rc=$?
    echo "[$v] second committer exited $rc: $(grep -i 'another committer' "$out" | head -n 1)"
    [ $rc = 3 ] || { cat "$out"; fail "$v" "second committer exit status $rc, expected 3"; }
    grep -q 'another committer is running' "$out" ||
        { cat "$out"; fail "$v" "no 'another committer is running' message"; }
    expect_exit "$v" 90 0
    ! grep -qE 'switched from state [A-Z]+ to RESTARTING' "$(clog "$v")" ||
        fail "$v" "the second committer disturbed the job (failover)"
    oracle "$v" 20000 --last-max
}
run_variants drive p1 p3
pass
