# Scenario 4: kill -9 of a writer, twice, at random moments, at parallelism 2
# and 3 (concurrently); 20,000 rows at 4,000 rows/s, 1 s checkpoints. The
# cluster restarts the writer, the job fails over, and the result is exact.
# No role holds the read end of another's output pipe (they were inherited
# before the cluster made its pipes close-on-exec).
. "$(dirname "$0")/lib.sh"

# pipes read by the cluster (fd 3 and up) that PID has open (fd 3 and up)
leaked_pipes () {
    _cp=$(cluster_pid "$1")
    _reads=$(ls -l /proc/"$_cp"/fd 2>/dev/null | awk '/^lr/ && /pipe:/ && $(NF-2)+0 >= 3 { print $NF }')
    ls -l /proc/"$2"/fd 2>/dev/null | awk -v r="$_reads" '
        BEGIN { n = split(r, a, "\n"); for (i = 1; i <= n; i++) mine[a[i]] = 1 }
        /pipe:/ && $(NF-2)+0 >= 3 && ($NF in mine) { print $(NF-2) "->" $NF }'
}

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
    for pid in $(pgrep -P "$(cluster_pid "$v")"); do
        l=$(leaked_pipes "$v" "$pid")
        [ -z "$l" ] || fail "$v" "pid $pid holds the cluster's output pipes: $l"
    done
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
}
run_variants drive p2 p3
pass
