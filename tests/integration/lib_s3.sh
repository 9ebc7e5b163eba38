# lib_s3.sh - the fault proxy (tests/tools/s3proxy.py) for the S3 tests
# (POSIX sh; sourced, after lib.sh or alone).
#
# The proxy sits between zsink and the S3 server; zsink's endpoint is the
# proxy, so zsink signs for the proxy's host and the proxy forwards the Host
# header unchanged. Each proxy has a directory DIR of its own: port, pid,
# control (the fault rules), log (one event a line), stderr.
#
#   s3proxy_start DIR UPSTREAM      start it in the background (UPSTREAM:
#                                   http://127.0.0.1:PORT); exports
#                                   S3PROXY_ENDPOINT and S3PROXY_PID
#   s3proxy_fault DIR 'RULE'        add a rule (METHOD KEY-REGEX ACTION [ARG]
#                                   [COUNT], see s3proxy.py), atomically
#   s3proxy_clear DIR               drop every rule
#   s3proxy_stop DIR                TERM by its pid, wait for the exit
#   s3proxy_faults_applied DIR      how many faults it has applied
#   s3proxy_wait_faults DIR N SECS  until it has applied N faults (1 when
#                                   the deadline passes first)
#   s3proxy_requests DIR [METHOD]   how many requests (of METHOD) it has had
#
# Rules take effect on the next request (the proxy reads the control file
# on every request). A rule that does not parse makes s3proxy_fault fail
# with the reason.

# The proxy: env S3PROXY_PY, else found from the sourcing script's place
# (tests/integration, tests/*, bench/, scripts/ of the source tree).
if [ -z "${S3PROXY_PY:-}" ]; then
    for _c in "$(dirname "$0")/../tools" "$(dirname "$0")/../tests/tools"; do
        if [ -f "$_c/s3proxy.py" ]; then
            S3PROXY_PY=$(cd "$_c" && pwd)/s3proxy.py
            break
        fi
    done
fi

# Is process $1 there (a zombie nobody reaped yet is gone)?
s3proxy_running () {
    kill -0 "$1" 2>/dev/null && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]
}

s3proxy_start () {
    _pd=$1 _up=$2
    if [ ! -f "${S3PROXY_PY:-}" ]; then
        echo "s3proxy_start: tests/tools/s3proxy.py not found from $0 (set S3PROXY_PY)" >&2
        return 1
    fi
    mkdir -p "$_pd"
    _pd=$(cd "$_pd" && pwd)
    rm -f "$_pd/port"
    [ -f "$_pd/control" ] || : >"$_pd/control"
    python3 "$S3PROXY_PY" --listen 127.0.0.1:0 --upstream "$_up" --port-file "$_pd/port" \
        --control-file "$_pd/control" --log "$_pd/log" </dev/null >>"$_pd/stderr" 2>&1 &
    S3PROXY_PID=$!
    echo "$S3PROXY_PID" >"$_pd/pid"
    _end=$(($(date +%s) + 15))
    while [ ! -s "$_pd/port" ]; do
        if ! s3proxy_running "$S3PROXY_PID"; then
            cat "$_pd/stderr" >&2
            echo "s3proxy_start: the proxy exited while starting ($_pd/stderr)" >&2
            return 1
        fi
        if [ "$(date +%s)" -ge "$_end" ]; then
            kill "$S3PROXY_PID" 2>/dev/null
            echo "s3proxy_start: no port file after 15 s ($_pd/stderr)" >&2
            return 1
        fi
        sleep 0.05
    done
    S3PROXY_ENDPOINT=http://127.0.0.1:$(cat "$_pd/port")
    export S3PROXY_ENDPOINT S3PROXY_PID
}

# Writes $2 as the whole control file of proxy $1: temp file, then rename.
s3proxy_write_control () {
    printf '%s\n' "$2" >"$1/control.tmp.$$" && mv "$1/control.tmp.$$" "$1/control"
}

s3proxy_fault () {
    [ -f "${S3PROXY_PY:-}" ] || { echo "s3proxy_fault: no s3proxy.py (set S3PROXY_PY)" >&2; return 1; }
    python3 "$S3PROXY_PY" --check-rule "$2" || return 1
    _old=$(cat "$1/control" 2>/dev/null || true)
    if [ -n "$_old" ]; then
        s3proxy_write_control "$1" "$_old
$2"
    else
        s3proxy_write_control "$1" "$2"
    fi
}

# A unique comment line: the file is not an extension of the old one, so
# rules added after this start with fresh counts even if they read the same.
s3proxy_clear () {
    s3proxy_write_control "$1" "# cleared $(date +%s%N) $$"
}

s3proxy_stop () {
    [ -f "$1/pid" ] || return 0
    _pp=$(cat "$1/pid")
    kill "$_pp" 2>/dev/null || true
    _end=$(($(date +%s) + 10))
    while s3proxy_running "$_pp"; do
        if [ "$(date +%s)" -ge "$_end" ]; then
            kill -9 "$_pp" 2>/dev/null || true
            break
        fi
        sleep 0.05
    done
    wait "$_pp" 2>/dev/null || true
    rm -f "$1/pid"
}

s3proxy_faults_applied () {
    cat "$1/log" 2>/dev/null | grep -c '^[^ ]* conn=[^ ]* fault ' || true
}

s3proxy_wait_faults () {
    _end=$(($(date +%s) + $3))
    while [ "$(s3proxy_faults_applied "$1")" -lt "$2" ]; do
        if [ "$(date +%s)" -ge "$_end" ]; then
            echo "s3proxy_wait_faults: $(s3proxy_faults_applied "$1") of $2 faults after $3 s ($1/log)" >&2
            return 1
        fi
        sleep 0.05
    done
}

s3proxy_requests () {
    if [ -n "${2:-}" ]; then
        cat "$1/log" 2>/dev/null | grep -c "^[^ ]* conn=[^ ]* req $2 " || true
    else
        cat "$1/log" 2>/dev/null | grep -c '^[^ ]* conn=[^ ]* req ' || true
    fi
}

# --- a server of the test's own (after lib.sh) -------------------------------
#
#   s3_server_up BUCKET   skips (77) when SeaweedFS is not built (unless
#                         ZSINK_S3_REQUIRED=1: then fails); else starts one
#                         on loopback (scripts/s3-server.sh, state in
#                         SCRATCH/s3, killed by its pid when the test ends
#                         however it ends), exports AWS_* for it, creates
#                         BUCKET. Sets S3DIR, WEED_PID, S3_BUCKET, and
#                         lib.sh's TABLE_ROOT and CHK_ROOT to
#                         s3://BUCKET/wh and s3://BUCKET/chk: the test's
#                         tables and checkpoints are on the server.
#   s3curl ARGS...        curl with SigV4 and the AWS_* credentials (given
#                         on its stdin, never on a command line)
#   s3_uploads_open       open multipart uploads in S3_BUCKET (0 expected)
#   s3_server SUBCOMMAND  scripts/s3-server.sh SUBCOMMAND S3DIR (kill9, restart)

s3_server () {
    sh "$S3_SRC_ROOT/scripts/s3-server.sh" "$1" "$S3DIR"
}

s3curl () {
    printf 'user = "%s:%s"\n' "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" |
        curl -sS --max-time 30 --aws-sigv4 "aws:amz:$AWS_REGION:s3" -K - "$@"
}

s3_server_up () {
    S3_SRC_ROOT=$(cd "$LIB_DIR/../.." && pwd)
    if ! _why=$(sh "$S3_SRC_ROOT/scripts/setup-s3.sh" --check "$BUILD" 2>&1); then
        [ "${ZSINK_S3_REQUIRED:-0}" = 1 ] &&
            fail - "the S3 server is required (ZSINK_S3_REQUIRED=1): $_why"
        echo "SKIP $TEST_NAME: no S3 server: $_why"
        exit 77
    fi
    export ZSINK_WEED=${ZSINK_WEED:-$BUILD/s3/weed}
    S3DIR=$SCRATCH/s3
    s3_server start >/dev/null || fail - "s3-server.sh start failed (log: $S3DIR/log)"
    WEED_PID=$(cat "$S3DIR/pid")
    EXTRA_PIDS="$EXTRA_PIDS $WEED_PID"
    # the pid of a restarted server is read again when the test ends
    trap 'kill -9 $(cat "$S3DIR/pid" 2>/dev/null) $WEED_PID 2>/dev/null' EXIT
    . "$S3DIR/env"
    S3_BUCKET=$1
    _code=$(s3curl -o /dev/null -w '%{http_code}' -X PUT "$AWS_ENDPOINT_URL/$S3_BUCKET")
    [ "$_code" = 200 ] || fail - "creating bucket $S3_BUCKET: HTTP $_code"
    TABLE_ROOT=s3://$S3_BUCKET/wh
    CHK_ROOT=s3://$S3_BUCKET/chk
    echo "[s3] SeaweedFS pid $WEED_PID at $AWS_ENDPOINT_URL, bucket $S3_BUCKET"
}

s3_uploads_open () {
    s3curl "$AWS_ENDPOINT_URL/$S3_BUCKET?uploads=" | grep -o '<UploadId>' | wc -l
}

# s3_run_tests TEST...: each integration test t_NAME.sh run unchanged with
# its tables and checkpoint directories in S3_BUCKET (lib.sh's
# ZSINK_TEST_TABLE_ROOT, ZSINK_TEST_CHK_ROOT), one after the other; fails
# with the test's log when one fails, or when a multipart upload is left
# open after it.
s3_run_tests () {
    for _t in "$@"; do
        echo "[s3] $_t"
        ZSINK_TEST_TABLE_ROOT=s3://$S3_BUCKET/$_t ZSINK_TEST_CHK_ROOT=s3://$S3_BUCKET/chk/$_t \
            sh "$LIB_DIR/$_t.sh" "$BUILD" "$SCRATCH/$_t" >"$SCRATCH/$_t.log" 2>&1
        _rc=$?
        tail -n 4 "$SCRATCH/$_t.log" | sed "s/^/[s3 $_t] /"
        [ $_rc = 0 ] || { tail -n 80 "$SCRATCH/$_t.log"; fail "$_t" "$_t on S3 exit $_rc ($SCRATCH/$_t.log)"; }
        _n=$(s3_uploads_open)
        [ "$_n" = 0 ] || fail "$_t" "$_n multipart uploads left open in $S3_BUCKET"
    done
}
