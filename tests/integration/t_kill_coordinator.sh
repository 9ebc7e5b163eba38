# Scenario 6: kill -9 of the coordinator at a random moment (parallelism 1
# and 3, concurrently): the cluster restarts it; it resumes the job from its
# checkpoint directory in a higher epoch, and the result is exact.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p"
    start_cluster "$v"
    rand 3
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' $((1 + RAND)) 30
    pause_random 900
    kill_role "$v" coordinator
    wait_for_log "$v" 'Resuming job .* in epoch [0-9]+' 30
    epoch=$(sed -n 's/.*Resuming job .* in epoch \([0-9]*\);.*/\1/p' "$(clog "$v")" | tail -n 1)
    [ "${epoch:-0}" -ge 2 ] || fail "$v" "resumed in epoch '$epoch', expected >= 2"
    echo "[$v] coordinator resumed in epoch $epoch"
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
}
run_variants drive p1 p3
pass
