# Scenario 8: a failure before any checkpoint completes. Variant f1/f3: the
# row with id 5 fails (datagen.fail-at-id) long before the first checkpoint
# (interval 20 s); variant k3: a writer is killed -9 as soon as the job runs,
# before the first checkpoint. Both restart from scratch; the result is exact.
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#[fk]}
    case $v in
    f*) write_fault_job "$v" "$p" "execution.checkpointing.interval: 20s" \
            "datagen.fail-at-id: 5" ;;
    k*) write_fault_job "$v" "$p" "execution.checkpointing.interval: 20s" ;;
    esac
    start_cluster "$v"
    wait_for_log "$v" 'switched from state RESTORING to RUNNING' 30
    case $v in k*)
        [ "$(count_log "$v" 'Completed checkpoint')" = 0 ] ||
            fail "$v" "a checkpoint completed before the kill"
        rand "$p"
        kill_role "$v" "writer-$RAND" ;;
    esac
    wait_for_log "$v" 'switched from state [A-Z]+ to RESTARTING' 30
    [ "$(count_log "$v" 'Completed checkpoint')" = 0 ] ||
        fail "$v" "a checkpoint completed before the failure"
    wait_for_count "$v" 'No checkpoint found during restore' 2 30
    expect_exit "$v" 90 0
    oracle "$v" 20000 --last-max
}
run_variants drive f1 f3 k3
pass
