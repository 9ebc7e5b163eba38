# Scenario 4: kill -9 of a writer, twice, at random moments, at parallelism 2
# and 3 (concurrently); 20,000 rows at 4,000 rows/s, 1 s checkpoints. The
# cluster restarts the writer, the job fails over, and the result is exact.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p"
    start_cluster "$v"
    runs=1
    for round in 1 2; do
        wait_for_count "$v" 'switched from state RESTORING to RUNNING' $runs 30
        if [ $round = 1 ]; then
            rand 2
            wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' $((1 + RAND)) 30
        fi
        pause_random 900
        rand "$p"
        kill_role "$v" "writer-$RAND"
        runs=$((runs + 1))
        wait_for_count "$v" 'switched from state [A-Z]+ to RESTARTING' $((runs - 1)) 30
    done
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
}
run_variants drive p2 p3
pass
