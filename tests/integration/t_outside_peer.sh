# A stranger's messages never reach a checkpoint, and cannot fail the job
# over. tests/integration/outside_peer.py is a ZeroMQ client that shares no
# code with zsink (its own protobuf encoding, pyzmq); it learns the job id
# and epoch from an ordinary STATUS request, as anyone on the network can.
#
#   forge-live, forge-missing: both writers hold barrier 5 for 3 s after
#     flushing (writer.after-flush=delay:3000:5, which made the race go the
#     bad way every time) while the peer sends, on connections that never
#     registered ("writer-0-evil…", "writer-1-evil…"), a Committable(5)
#     naming a file the table already holds (or one that does not exist)
#     and BarrierMarkers of both writers, under every sequence number up to
#     40. All of it is dropped and counted as unregistered: no failover,
#     checkpoint 5 completes with the writers' own files, the table is
#     exact.
#   flood: through a job with one genuine failure (datagen.fail-at-id), the
#     peer keeps sending Failures and WriterAcks to the coordinator and
#     committables and markers to the committer with the live job id and
#     epoch, refreshed every round, also from an anonymous socket: the job
#     restarts exactly once (the genuine failure) and finishes exact.
#   junk: an oversize frame and a 3-frame message to the committer and to
#     the coordinator are counted per reason, and each log names the peer.
. "$(dirname "$0")/lib.sh"
PEER_PY=/usr/bin/python3
PEER="$LIB_DIR/outside_peer.py"
"$PEER_PY" -c 'import zmq' 2>/dev/null || fail - "python3-zmq is not installed (make test installs it)"

endpoints () {
    cj=$(vdir "$1")/chk/cluster.json
    co=$(json_get "$cj" coordinator) cm=$(json_get "$cj" committer)
}

no_failover () {
    ! grep -qE 'switched from state [A-Z]+ to RESTARTING' "$(clog "$1")" ||
        fail "$1" "the outside peer's messages caused a failover"
    ! grep -q 'sequence gap' "$(clog "$1")" || fail "$1" "a stranger's sequence number was applied"
}

forge () {
    v=$1
    N=20000
    write_job "$v" 2 "datagen.rows-per-second: 2000" "datagen.number-of-rows: $N" \
        "execution.checkpointing.interval: 300ms" "execution.checkpointing.timeout: 20s"
    FAILPOINTS=writer.after-flush=delay:3000:5
    start_cluster "$v"
    wait_for_log "$v" 'with identifier 4 and kind APPEND' 60
    wait_for_log "$v" 'Triggering checkpoint 5 ' 30
    endpoints "$v"
    if [ "$v" = forge-live ]; then
        file=$("$ZSINK" table files "$(table_of "$v")" --json | "$PY" -c 'import json, sys
f = json.load(sys.stdin)["files"][0]; print("%s:%d:%d" % (f["path"], f["rows"], f["size"]))')
    else
        file=bucket-0/data-never-written.parquet:500:4096
    fi
    "$PEER_PY" "$PEER" forge --committer "$cm" --coordinator "$co" --checkpoint 5 \
        --file "$file" || fail "$v" "outside_peer.py forge failed"
    # still inside the hold: the drops are counted before the writers go on
    wait_status "$v" 'd["dropped"]["unregistered"] >= 60' 15
    echo "[$v] during barrier 5: dropped $(echo "$STATUS" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["dropped"])')"
    expect_exit "$v" 90 0
    grep -q 'Completed checkpoint 5 for job' "$(clog "$v")" || fail "$v" "checkpoint 5 did not complete"
    grep -qE 'dropped a data message from writer-0-evil[0-9a-f]+ \(unregistered: claims writer 0' \
        "$(clog "$v")" || fail "$v" "the committer did not name the stranger"
    no_failover "$v"
    oracle "$v" $N --last-max
}

flood () {
    v=$1
    N=12000
    write_job "$v" 2 "datagen.rows-per-second: 2000" "datagen.number-of-rows: $N" \
        "execution.checkpointing.interval: 300ms" "datagen.fail-at-id: 7000" \
        "restart-strategy.fixed-delay.attempts: 1" "restart-strategy.fixed-delay.delay: 200ms"
    start_cluster "$v"
    wait_for_log "$v" 'switched from state RESTORING to RUNNING' 30
    endpoints "$v"
    "$PEER_PY" "$PEER" flood --committer "$cm" --coordinator "$co" --seconds 5 ||
        fail "$v" "outside_peer.py flood failed"
    wait_status "$v" 'd["dropped"]["unregistered"] >= 100' 15
    echo "[$v] dropped: $(echo "$STATUS" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["dropped"])')"
    # one restart allowed, and taken by the genuine failure alone
    expect_exit "$v" 90 0
    n=$(count_log "$v" 'switched from state RUNNING to RESTARTING')
    [ "$n" = 1 ] || fail "$v" "$n failovers, expected exactly 1 (datagen.fail-at-id)"
    grep -q 'switched from state RUNNING to RESTARTING: writer-[01] failed: datagen.fail-at-id' \
        "$(clog "$v")" || fail "$v" "the failover was not the genuine one"
    ! grep -q 'an outside peer says' "$(clog "$v")" || fail "$v" "a forged Failure was believed"
    oracle "$v" $N --last-max
}

junk () {
    v=$1
    write_job "$v" 1 "datagen.rows-per-second: 1000" "execution.checkpointing.interval: 300ms"
    start_cluster "$v"
    wait_for_log "$v" 'switched from state RESTORING to RUNNING' 30
    endpoints "$v"
    "$PEER_PY" "$PEER" junk --endpoint "$cm" --name outside-data ||
        fail "$v" "outside_peer.py junk (committer) failed"
    "$PEER_PY" "$PEER" junk --endpoint "$co" --name outside-ctl ||
        fail "$v" "outside_peer.py junk (coordinator) failed"
    wait_status "$v" 'd["dropped"]["oversize"] >= 2 and d["dropped"]["bad_frames"] >= 2' 15
    echo "[$v] dropped: $(echo "$STATUS" | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["dropped"])')"
    for what in 'data message from outside-data \(oversize' \
        'data message from outside-data \(bad_frames' \
        'message from outside-ctl \(oversize' 'message from outside-ctl \(bad_frames'; do
        grep -qE "dropped a $what" "$(clog "$v")" || fail "$v" "no log line names the peer: $what"
    done
    "$ZSINK" cancel -c "$(vdir "$v")/job.yaml" >/dev/null || fail "$v" "cancel failed"
    expect_exit "$v" 30 0
    no_failover "$v"
}

run_variants forge forge-live forge-missing
run_variants flood flood
run_variants junk junk
pass
