# A committable naming a file the table must not take fails checkpoint N,
# never the restore of a completed one. On a registered connection (a
# buggy writer, or a stranger who took over a writer's connection without
# CURVE) the writer fail points forge the third committable of each
# writer: a file of its previous committable again (duplicate: committed or
# still pending), a file that does not exist (missing), or its own file
# recorded one byte larger (size). The committer refuses it as it arrives:
# checkpoint N is never acked, never completes, the job fails over once to
# N-1 and completes N+1 and the rest; the table is exact.
. "$(dirname "$0")/lib.sh"

N=6000
forged () {
    v=$1
    write_job "$v" 2 "datagen.rows-per-second: 2000" "datagen.number-of-rows: $N" \
        "execution.checkpointing.interval: 300ms" "restart-strategy.fixed-delay.attempts: 1" \
        "restart-strategy.fixed-delay.delay: 200ms"
    FAILPOINTS="writer.$v=error:3"
    start_cluster "$v"
    expect_exit "$v" 90 0
    log=$(clog "$v")
    line=$(grep -m1 'refused committable of writer [01] for checkpoint' "$log") ||
        fail "$v" "no committable was refused"
    n=$(echo "$line" | sed 's/.*for checkpoint \([0-9]*\).*/\1/')
    echo "[$v] refused, checkpoint $n: ${line#*refused so far): }"
    ! grep -q "Completed checkpoint $n for job" "$log" ||
        fail "$v" "checkpoint $n completed although it held a refused committable"
    grep -q "Completed checkpoint $((n + 1)) for job" "$log" ||
        fail "$v" "checkpoint $((n + 1)) did not complete after the failover"
    fails=$(count_log "$v" 'switched from state RUNNING to RESTARTING')
    [ "$fails" = 1 ] || fail "$v" "$fails failovers, expected 1"
    ! grep -q 're-commit of checkpoint .* failed' "$log" || fail "$v" "a restore failed"
    case $v in
    forge-duplicate) want='which is already added|is in a committable already' ;;
    forge-missing) want='data file to commit is missing' ;;
    forge-size) want='has size [0-9]+, recorded' ;;
    esac
    echo "$line" | grep -qE "$want" || fail "$v" "the refusal does not say '$want'"
    oracle "$v" $N --last-max
}
run_variants forged forge-duplicate forge-missing forge-size
pass
