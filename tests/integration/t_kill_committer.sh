# Scenario 5: kill -9 of the committer at a random moment (parallelism 1 and
# 3, concurrently): restarted, it restores its state from the checkpoint,
# re-commits what was pending (filterCommitted), and the result is exact.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p"
    start_cluster "$v"
    rand 3
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' $((1 + RAND)) 30
    pause_random 900
    kill_role "$v" committer
    wait_for_count "$v" 'switched from state [A-Z]+ to RESTARTING' 1 30
    wait_for_count "$v" 'Registered committer' 2 30
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
}
run_variants drive p1 p3
pass
