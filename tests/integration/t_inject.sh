# Scenario 12: hostile traffic. While a job runs, zsink-inject sends to the
# coordinator's control socket and then to the committer's data socket:
# random garbage frames, well-formed messages of another job ("otherjob"),
# and messages of this job with epoch 0 (older than any live epoch). They are
# dropped and counted (zsink status: dropped.garbage/foreign/stale, the
# committer's figures arriving through its heartbeats), nothing fails over,
# and the table is exact. Parallelism 1 and 3, concurrently.
. "$(dirname "$0")/lib.sh"
INJECT=$BIN/zsink-inject
[ -x "$INJECT" ] || fail - "$INJECT not built"

drive () {
    v=$1 p=${1#p}
    # 20 s of rows: the job must outlive both injections and the
    # committer's next heartbeat even on a loaded sanitizer build (at 10 s
    # it once ended first under CI)
    write_fault_job "$v" "$p" "datagen.rows-per-second: 1000"
    start_cluster "$v"
    wait_for_log "$v" 'switched from state RESTORING to RUNNING' 30
    cj=$(vdir "$v")/chk/cluster.json
    co=$(json_get "$cj" coordinator) cm=$(json_get "$cj" committer)
    jid=$(cat "$(vdir "$v")/job_id")
    "$INJECT" "$co" "$jid" --garbage 20 --foreign 3 --stale 3 --seed "$SEED" ||
        fail "$v" "zsink-inject (coordinator) failed"
    # the coordinator's own counters: 20 garbage frames, 3 x 3 foreign
    wait_status "$v" 'd["dropped"]["garbage"] >= 20 and d["dropped"]["foreign"] >= 9' 15
    "$INJECT" "$cm" "$jid" --garbage 20 --foreign 3 --stale 3 --seed "$SEED" ||
        fail "$v" "zsink-inject (committer) failed"
    # plus the committer's: 20 garbage, 9 foreign, 9 stale
    wait_status "$v" 'd["dropped"]["garbage"] >= 40 and d["dropped"]["foreign"] >= 18 and d["dropped"]["stale"] >= 9' 15
    echo "[$v] dropped: $(echo "$STATUS" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["dropped"])')"
    expect_exit "$v" 90 0
    ! grep -qE 'switched from state [A-Z]+ to RESTARTING' "$(clog "$v")" ||
        fail "$v" "the injected messages caused a failover"
    grep -q 'dropped data messages: 20 garbage, 9 foreign, 9 stale' "$(clog "$v")" ||
        fail "$v" "the committer's final count of dropped messages is not 20/9/9"
    oracle "$v" 20000 --last-max
}
run_variants drive p1 p3
pass
