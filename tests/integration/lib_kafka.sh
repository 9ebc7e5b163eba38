# lib_kafka.sh - a Kafka broker of the test's own for the kafka tests (ctest
# label kafka; POSIX sh; sourced after lib.sh).
#
#   kafka_up              skips (77) when the broker is not installed
#                         (scripts/setup-kafka.sh BUILD_DIR; unless
#                         ZSINK_KAFKA_REQUIRED=1: then fails); else starts
#                         one on loopback (scripts/kafka-server.sh, state in
#                         SCRATCH/kafka, killed by its pid when the test
#                         ends however it ends). Exports KAFKA_BOOTSTRAP
#                         (127.0.0.1:PORT); sets KAFKADIR and KAFKA_PID.
#   kafka_server CMD      scripts/kafka-server.sh CMD KAFKADIR (stop, kill9,
#                         restart; a restarted broker's pid is killed at the
#                         end too)
#   ktool ARGS...         zsink-ktool KAFKA_BOOTSTRAP ARGS... (see
#                         tests/tools/ktool.c: create, produce, produce-txn,
#                         offsets, committed, ...). In the background, when
#                         its pid is wanted (to kill it), run
#                         "$KTOOL" "$KAFKA_BOOTSTRAP" ARGS... & instead: $! of
#                         a function is a subshell, not the tool
#   kafka_offsets TOPIC   ktool offsets: "partition P low L high H" lines
#   kafka_high_total TOPIC  the sum of the partitions' high watermarks
#   kget ARGS...          ktool, asked again until it answers (10 s)
#   kafka_committed_total GROUP TOPIC
#                         the sum of GROUP's committed offsets (a partition
#                         without one counts 0; "?" when the broker does not
#                         answer)
#
# A broker starts in 2-4 s, restarts after a kill -9 in about 4.5 s
# (figures in scripts/kafka-server.sh). The broker's log: KAFKADIR/log.

KTOOL=$BIN/zsink-ktool
KAFKA_SRC_ROOT=$(cd "$LIB_DIR/../.." && pwd)

kafka_server () {
    sh "$KAFKA_SRC_ROOT/scripts/kafka-server.sh" "$1" "$KAFKADIR" || return 1
    if [ "$1" = restart ]; then
        KAFKA_PID=$(cat "$KAFKADIR/pid")
        EXTRA_PIDS="$EXTRA_PIDS $KAFKA_PID"
    fi
}

# Kills the broker (its pid read again: it may have been restarted) and,
# when the test has one, lib_s3.sh's server too: one EXIT trap for both.
kafka_exit () {
    kill -9 $(cat "$KAFKADIR/pid" 2>/dev/null) $KAFKA_PID 2>/dev/null
    if [ -n "${S3DIR:-}" ]; then
        kill -9 $(cat "$S3DIR/pid" 2>/dev/null) ${WEED_PID:-} 2>/dev/null
    fi
}

kafka_up () {
    if ! _why=$(sh "$KAFKA_SRC_ROOT/scripts/setup-kafka.sh" --check "$BUILD" 2>&1); then
        [ "${ZSINK_KAFKA_REQUIRED:-0}" = 1 ] &&
            fail - "the Kafka broker is required (ZSINK_KAFKA_REQUIRED=1): $_why"
        echo "SKIP $TEST_NAME: no Kafka broker: $_why"
        exit 77
    fi
    [ -x "$KTOOL" ] || fail - "$KTOOL not built"
    export ZSINK_KAFKA_LIBS=${ZSINK_KAFKA_LIBS:-$BUILD/kafka/libs}
    KAFKADIR=$SCRATCH/kafka
    _t0=$(date +%s%N)
    kafka_server start >/dev/null || fail - "kafka-server.sh start failed (log: $KAFKADIR/log)"
    KAFKA_PID=$(cat "$KAFKADIR/pid")
    EXTRA_PIDS="$EXTRA_PIDS $KAFKA_PID"
    trap 'kafka_exit' EXIT
    KAFKA_BOOTSTRAP=$(cat "$KAFKADIR/bootstrap")
    export KAFKA_BOOTSTRAP
    echo "[kafka] broker pid $KAFKA_PID at $KAFKA_BOOTSTRAP, started in $((($(date +%s%N) - _t0) / 1000000)) ms"
}

ktool () {
    "$KTOOL" "$KAFKA_BOOTSTRAP" "$@"
}

kafka_offsets () {
    ktool offsets "$@"
}

kafka_high_total () {
    ktool offsets "$1" | awk '$1 == "partition" { n += $6 } END { print n + 0 }'
}

# kget ARGS...: ktool ARGS..., asked again until it answers (lib.sh's
# kafka_ask)
kget () {
    kafka_ask "$KAFKA_BOOTSTRAP" "$@"
}

kafka_committed_total () {
    _kct=$(kget committed "$1" "$2") || { echo "?"; return 1; }
    echo "$_kct" | awk '$1 == "partition" && $4 > 0 { n += $4 } END { print n + 0 }'
}
