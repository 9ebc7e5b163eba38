# A hung process (SIGSTOP) keeps its TCP connection, so only heartbeats can
# tell: a writer, then (in a second job at the same time) the committer, is
# paused until the coordinator reports it timed out, then resumed. The job
# fails over, the resumed process finds it was dropped (Refused, or no
# heartbeat), rejoins, and the result is exact.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1
    case $v in
    writer) role=writer-1 name=writer-1 ;;
    committer) role=committer name=committer ;;
    esac
    write_fault_job "$v" 2
    start_cluster "$v"
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' 2 30
    pid=$(role_pid "$v" $role)
    [ -n "$pid" ] || fail "$v" "no $role to pause"
    kill -STOP "$pid"
    echo "[$v] t=$(elapsed)s SIGSTOP $role (pid $pid)"
    wait_for_log "$v" "$name \\(pid $pid\\) timed out: no heartbeat" 20
    kill -CONT "$pid"
    echo "[$v] t=$(elapsed)s SIGCONT $role (pid $pid)"
    wait_for_count "$v" "Registered $name \\(pid $pid," 2 30
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
}
run_variants drive writer committer
pass
