# Scenario 7: the committer dies after checkpoint N is complete and notified
# but before it commits N (fail point committer.before-commit=crash:2, first
# run only). After recovery the snapshot with identifier N exists exactly
# once. Parallelism 1 and 3, concurrently.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p"
    FAILPOINTS="committer.before-commit=crash:2"
    start_cluster "$v"
    expect_exit "$v" 90 0
    log=$(clog "$v")
    grep -q 'failpoint committer.before-commit: crash' "$log" ||
        fail "$v" "the fail point did not fire"
    # N: the last checkpoint completed before the crash
    n=$(awk '/failpoint committer.before-commit: crash/ { print last; exit }
             match($0, /Completed checkpoint [0-9]+ for job/) {
                 split(substr($0, RSTART, RLENGTH), w, " "); last = w[3] }' "$log")
    [ -n "$n" ] || fail "$v" "no checkpoint completed before the crash"
    echo "[$v] committer crashed before committing checkpoint $n"
    c=$(grep -cE "with identifier $n and kind APPEND" "$log")
    [ "$c" = 1 ] || fail "$v" "identifier $n committed $c times in the log"
    oracle "$v" 20000 --last-max --include "$n"
}
run_variants drive p1 p3
pass
