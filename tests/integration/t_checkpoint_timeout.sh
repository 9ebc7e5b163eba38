# execution.checkpointing.timeout with no tolerable failures: the writers
# hold the third barrier 2.5 s (a delay fail point) past the 1 s timeout,
# the checkpoint expires, the job fails over, and the result is exact. Its id
# is skipped, never reused.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p" "execution.checkpointing.timeout: 1s" \
        "execution.checkpointing.tolerable-failed-checkpoints: 0"
    start_cluster "$v"
    wait_for_log "$v" 'Checkpoint 3 of job .* expired before completing' 30
    wait_for_log "$v" 'to RESTARTING: Exceeded checkpoint tolerable failure threshold' 5
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
    if grep -qE "with identifier 3 and kind APPEND" "$(clog "$v")"; then
        fail "$v" "the expired checkpoint's id 3 was committed"
    fi
}
FAILPOINTS="writer.after-flush=delay:2500:3"
run_variants drive p1 p3
pass
