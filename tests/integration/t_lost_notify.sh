# Scenario 9: the coordinator's second Notify is lost (fail point
# coordinator.notify=drop:2). The next notification, for N+1, commits N and
# N+1 as two snapshots in order; everything is exact. Parallelism 1 and 3.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p"
    FAILPOINTS="coordinator.notify=drop:2"
    start_cluster "$v"
    expect_exit "$v" 90 0
    log=$(clog "$v")
    n=$(sed -n 's/.*failpoint coordinator.notify: dropping Notify(\([0-9]*\)).*/\1/p' "$log")
    [ -n "$n" ] || fail "$v" "the fail point did not fire"
    m=$((n + 1))
    echo "[$v] Notify($n) was dropped"
    # N is committed only after checkpoint N+1 completed, and before N+1
    awk -v n="$n" -v m="$m" '
        $0 ~ "Completed checkpoint " m " for job" { cm = NR }
        $0 ~ "with identifier " n " and kind APPEND" { sn = NR }
        $0 ~ "with identifier " m " and kind APPEND" { sm = NR }
        END { exit !(cm && sn > cm && sm > sn) }' "$log" ||
        fail "$v" "identifier $n was not committed after checkpoint $m completed and before $m"
    oracle "$v" 20000 --last-max --consecutive "$n"
}
run_variants drive p1 p3
pass
