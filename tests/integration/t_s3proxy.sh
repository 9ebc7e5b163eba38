#!/bin/sh
# t_s3proxy.sh - the fault proxy (tests/tools/s3proxy.py) between curl and a
# real S3 server (SeaweedFS, BUILD/s3/weed), with curl's own SigV4
# (--aws-sigv4): requests pass verbatim (the server accepts signatures made
# for the proxy's Host), keep-alive and Expect: 100-continue work, and each
# fault does what the S3 tests rely on:
#   status 503/500  the S3 error answer, not forwarded, connection kept;
#   lose-answer     the client gets a reset, the server HAS the object; on
#                   a reused connection libcurl re-sends the PUT by itself
#                   and a conditional PUT gets 412 for its own write;
#   reset           the client gets a reset, the server has nothing;
#   delay           a client with a shorter timeout gives up, the write
#                   still lands later;
#   hang            the client waits, unanswered, until it leaves;
#   COUNT           spent after COUNT requests, also across appended rules;
#                   cleared rules start afresh.
# Also through the proxy: a chunked PUT, HEAD and a ranged GET, a multipart
# upload whose CompleteMultipartUpload answer is lost (with If-None-Match: *
# the retry gets 412, without it 200), 30 racing conditional PUTs (one 200),
# a proxy whose server is down (the client's connection is reset), rules
# that do not parse (refused with the reason), and no credential in the log.
# Skips (77) when the server is not built, unless ZSINK_S3_REQUIRED=1.
set -u
BUILD=${1:?usage: sh t_s3proxy.sh BUILD_DIR SCRATCH_DIR}
SCRATCH=${2:?usage: sh t_s3proxy.sh BUILD_DIR SCRATCH_DIR}
TEST_NAME=t_s3proxy
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T0=$(date +%s)

skip () {
    if [ "${ZSINK_S3_REQUIRED:-0}" = 1 ]; then
        echo "FAIL $TEST_NAME: $1 (ZSINK_S3_REQUIRED=1)"
        exit 1
    fi
    echo "SKIP $TEST_NAME: $1"
    exit 77
}
why=$(sh "$ROOT/scripts/setup-s3.sh" --check "$BUILD") || skip "$why"
command -v curl >/dev/null || skip "no curl"
curl --help all 2>/dev/null | grep -q -- --aws-sigv4 || skip "this curl has no --aws-sigv4"

. "$ROOT/tests/integration/lib_s3.sh"

rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
SCRATCH=$(cd "$SCRATCH" && pwd)
PX=$SCRATCH/proxy
PX2=$SCRATCH/proxy-down
KEY=pxtestkey
SECRET=pxtestsecret
AUTH="--aws-sigv4 aws:amz:us-east-1:s3 --user $KEY:$SECRET"
WEED_PID=

stop_weed () {
    [ -n "$WEED_PID" ] || return 0
    kill -TERM "$WEED_PID" 2>/dev/null
    _end=$(($(date +%s) + 20))
    while s3proxy_running "$WEED_PID" && [ "$(date +%s)" -lt "$_end" ]; do sleep 0.05; done
    kill -KILL "$WEED_PID" 2>/dev/null
    wait "$WEED_PID" 2>/dev/null
    WEED_PID=
}
cleanup () {
    s3proxy_stop "$PX"
    s3proxy_stop "$PX2"
    stop_weed
}
trap 'cleanup' EXIT
trap 'exit 1' INT TERM

fail () {
    echo "FAIL $TEST_NAME [$1]: $2"
    [ -f "$PX/log" ] && { echo "---- tail of $PX/log ----"; tail -n 30 "$PX/log"; }
    [ -s "$PX/stderr" ] && { echo "---- $PX/stderr ----"; tail -n 30 "$PX/stderr"; }
    exit 1
}
check () { [ "$2" = "$3" ] || fail "$1" "got '$2', want '$3'"; }

# --- the server ------------------------------------------------------------

start_weed () {
    mkdir -p "$SCRATCH/weed/data"
    cat >"$SCRATCH/weed/s3.json" <<EOF
{"identities": [{"name": "s3proxy-test",
  "credentials": [{"accessKey": "$KEY", "secretKey": "$SECRET"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
EOF
    # eight free ports on 127.0.0.1, held together while they are picked
    set -- $(python3 -c 'import socket
ss = [socket.socket() for _ in range(8)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
    "$BUILD/s3/weed" server -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$SCRATCH/weed/data" \
        -master.port="$2" -master.port.grpc="$3" -master.telemetry=false \
        -master.volumeSizeLimitMB=64 -volume.max=0 \
        -volume.port="$4" -volume.port.grpc="$5" -volume.preStopSeconds=0 \
        -filer -filer.port="$6" -filer.port.grpc="$7" \
        -s3 -s3.port="$1" -s3.port.grpc="$8" -s3.port.iceberg=0 -s3.port.lance=0 \
        -s3.config="$SCRATCH/weed/s3.json" -s3.autoCreateBucket=false \
        </dev/null >"$SCRATCH/weed/log" 2>&1 &
    WEED_PID=$!
    UP=http://127.0.0.1:$1
    _end=$(($(date +%s) + 60))
    while :; do
        _c=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 $AUTH "$UP/" || true)
        [ "$_c" = 200 ] && break
        s3proxy_running "$WEED_PID" || { tail -20 "$SCRATCH/weed/log"; fail server "weed exited while starting"; }
        [ "$(date +%s)" -lt "$_end" ] || { tail -20 "$SCRATCH/weed/log"; fail server "not ready after 60 s ($_c)"; }
        sleep 0.1
    done
}

# --- helpers ---------------------------------------------------------------

# s3 CURL-ARGS...: signed curl; $RC its exit status, stdout as curl's.
s3 () {
    RC=0
    curl -sS $AUTH "$@" || RC=$?
}
# The status of KEY straight from the server, bypassing the proxy.
direct () { curl -s -o /dev/null -w '%{http_code}' $AUTH -I "$UP/bkt/$1"; }
# Was the connection reset or closed without an answer (curl 52, 55, 56)?
check_reset () {
    case $RC in 52 | 55 | 56) ;; *) fail "$1" "curl exit $RC, want a reset (52/55/56)" ;; esac
}
# The proxy's log from the last mark on.
mark () { LOGN=$(wc -l <"$PX/log"); }
since () { tail -n +$((LOGN + 1)) "$PX/log"; }
count_since () { since | grep -c -- "$1"; }
# wait_until DEADLINE_S WHAT CMD...: until CMD succeeds.
wait_until () {
    _end=$(($(date +%s) + $1)) _what=$2
    shift 2
    until "$@"; do
        [ "$(date +%s)" -lt "$_end" ] || fail "$_what" "not true within the deadline"
        sleep 0.05
    done
}
FAULTS=0
fault () {
    s3proxy_fault "$PX" "$1" || fail rules "s3proxy_fault refused '$1'"
}
faults_now () {
    FAULTS=$((FAULTS + $2))
    check "$1: faults applied" "$(s3proxy_faults_applied "$PX")" "$FAULTS"
}

start_weed
s3proxy_start "$PX" "$UP" || fail proxy "did not start"
P=$S3PROXY_ENDPOINT
echo "$TEST_NAME: server $UP (pid $WEED_PID), proxy $P (pid $S3PROXY_PID), scratch $SCRATCH"
head -c 5000 /dev/urandom >"$SCRATCH/big"
echo "a small object" >"$SCRATCH/small"
BIG=$SCRATCH/big
# a small PUT without Expect: 100-continue (curl -T always asks for it;
# `-H Expect:` would be signed and break the signature)
SMALL="-X PUT -H x-amz-content-sha256:UNSIGNED-PAYLOAD --data-binary @$SCRATCH/small"

# --- verbatim forwarding, keep-alive, 100-continue -------------------------

s3 -o /dev/null -w '%{http_code}' -X PUT "$P/bkt" >"$SCRATCH/out"
check "create bucket" "$(cat "$SCRATCH/out")" 200

mark
s3 -v -w '%{http_code} %{num_connects}\n' -T "$BIG" "$P/bkt/o1" -T "$BIG" "$P/bkt/o2" \
    --next $AUTH -w '%{http_code} %{num_connects}\n' -o "$SCRATCH/g1" "$P/bkt/o1" -o "$SCRATCH/g2" "$P/bkt/o2" \
    >"$SCRATCH/out" 2>"$SCRATCH/err"
check "keep-alive: curl" "$RC" 0
check "keep-alive: answers" "$(tr '\n' ' ' <"$SCRATCH/out")" "200 1 200 0 200 0 200 0 "
check "100-continue relayed" "$(grep -c '^< HTTP/1.1 100 Continue' "$SCRATCH/err")" 2
cmp -s "$BIG" "$SCRATCH/g1" && cmp -s "$BIG" "$SCRATCH/g2" || fail "GET" "the object read back differs"
check "keep-alive: connections opened" "$(count_since ' open ')" 1
check "keep-alive: one connection" "$(since | grep ' req ' | cut -d' ' -f2 | sort -u | wc -l)" 1
check "keep-alive: requests" "$(count_since ' answer 200 ')" 4
check "direct o1" "$(direct o1)" 200
# body sizes: 5000 bytes up with each PUT, 5000 down with each GET
check "sizes: PUTs" "$(since | grep -c ' sizes 200 PUT /bkt/o[12] up=5000 down=0$')" 2
check "sizes: GETs" "$(since | grep -c ' sizes 200 GET /bkt/o[12] up=0 down=5000$')" 2
# a listing's prefix is logged (the one query value that is)
s3 -o /dev/null -w '%{http_code}' "$P/bkt?list-type=2&prefix=o" >"$SCRATCH/out"
check "list" "$(cat "$SCRATCH/out")" 200
check "list: prefix logged" "$(since | grep -c ' req GET /bkt q=list-type,prefix prefix=o$')" 1

# a chunked body (curl -T - from a pipe), HEAD then a ranged GET on one
# connection
s3 -o /dev/null -w '%{http_code}' -T - "$P/bkt/chunked" <"$BIG" >"$SCRATCH/out"
check "chunked PUT" "$(cat "$SCRATCH/out")" 200
grep -q ' req PUT /bkt/chunked$' "$PX/log" || fail "chunked PUT" "not in the log"
grep -q ' sizes 200 PUT /bkt/chunked up=5000 down=0$' "$PX/log" || fail "chunked PUT" "no sizes line (payload 5000 bytes)"
curl -s $AUTH -o "$SCRATCH/g1" "$UP/bkt/chunked"
cmp -s "$BIG" "$SCRATCH/g1" || fail "chunked PUT" "the stored object differs"
s3 -I -o /dev/null -w '%{http_code} %{num_connects}\n' "$P/bkt/o1" \
    --next $AUTH -r 10-19 -o "$SCRATCH/g1" -w '%{http_code} %{num_connects} %{size_download}\n' "$P/bkt/o1" \
    >"$SCRATCH/out"
check "HEAD then range" "$(tr '\n' ' ' <"$SCRATCH/out")" "200 1 206 0 10 "
dd if="$BIG" bs=1 skip=10 count=10 2>/dev/null | cmp -s - "$SCRATCH/g1" || fail "range" "wrong bytes"

# --- status 503 / 500: an S3 error, not forwarded, connection kept ---------

mark
fault 'PUT /bkt/s503$ status 503 1'
s3 -w ' %{http_code} %{num_connects}\n' -T "$SCRATCH/small" "$P/bkt/s503" -T "$SCRATCH/small" "$P/bkt/s503" \
    >"$SCRATCH/out"
grep -q '<Code>SlowDown</Code>.* 503 1$' "$SCRATCH/out" || fail "503" "no SlowDown answer: $(cat "$SCRATCH/out")"
check "503 then success" "$(tail -n 1 "$SCRATCH/out")" " 200 0"
check "503 not forwarded" "$(count_since ' answer ')" 1
check "503 then stored" "$(direct s503)" 200
faults_now 503 1

mark
fault 'GET /bkt/o1$ status 500 1'
s3 -w '%{http_code}\n' -o "$SCRATCH/e500" "$P/bkt/o1" -o /dev/null "$P/bkt/o1" >"$SCRATCH/out"
grep -q '<Code>InternalError</Code>' "$SCRATCH/e500" || fail "500" "no InternalError: $(cat "$SCRATCH/e500")"
check "500 then success" "$(tr '\n' ' ' <"$SCRATCH/out")" "500 200 "
faults_now 500 1

# --- lose-answer: stored, but the client hears nothing ---------------------

fault 'PUT /bkt/lost1$ lose-answer 1'
check "lost1 absent before" "$(direct lost1)" 404
s3 -o /dev/null -T "$BIG" "$P/bkt/lost1"
check_reset "lose-answer (100-continue)"
check "lose-answer stored" "$(direct lost1)" 200
curl -s $AUTH -o "$SCRATCH/g1" "$UP/bkt/lost1"
cmp -s "$BIG" "$SCRATCH/g1" || fail "lose-answer" "the stored object differs"
grep -q ' lost 200 PUT /bkt/lost1$' "$PX/log" || fail "lose-answer" "no 'lost 200' in the log"
fault 'PUT /bkt/lost2$ lose-answer 1'
s3 -o /dev/null $SMALL "$P/bkt/lost2"
check_reset "lose-answer (no 100-continue)"
check "lose-answer stored (small)" "$(direct lost2)" 200
faults_now "lose-answer" 2

# On a reused connection libcurl re-sends a request that got no byte of an
# answer, once, on a new connection: the conditional PUT's second try meets
# its own first write. This is what zsink's committer must recognise.
mark
fault 'PUT /bkt/cond2$ lose-answer 1'
s3 -w '%{http_code}\n' -o /dev/null -H 'If-None-Match: *' $SMALL "$P/bkt/cond1" -o /dev/null "$P/bkt/cond2" \
    >"$SCRATCH/out"
check "lost answer, libcurl's own retry" "$(tr '\n' ' ' <"$SCRATCH/out")" "200 412 "
check "lost answer: PUTs of cond2" "$(count_since ' req PUT /bkt/cond2$')" 2
check "lost answer: the retry's 412" "$(count_since ' answer 412 PUT /bkt/cond2$')" 1
check "lost answer: stored" "$(direct cond2)" 200
faults_now "lose-answer reused" 1

# A multipart upload through the proxy, its CompleteMultipartUpload (with
# If-None-Match: *) answer lost: the retry gets 412 for its own write, the
# object is whole. (curl 7.88 signs "?uploads" wrongly: "?uploads=" works.)
s3 -X POST "$P/bkt/mp?uploads=" >"$SCRATCH/mp.xml"
ID=$(sed -n 's:.*<UploadId>\(.*\)</UploadId>.*:\1:p' "$SCRATCH/mp.xml")
[ -n "$ID" ] || fail "multipart" "no UploadId: $(cat "$SCRATCH/mp.xml")"
head -c $((5 * 1024 * 1024)) /dev/urandom >"$SCRATCH/part1"
: >"$SCRATCH/parts.xml"
for n in 1 2; do
    f=$SCRATCH/part1
    [ $n = 2 ] && f=$SCRATCH/small
    s3 -o /dev/null -D "$SCRATCH/h$n" -T "$f" "$P/bkt/mp?partNumber=$n&uploadId=$ID"
    etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: *\([^\r]*\).*/\1/p' "$SCRATCH/h$n")
    [ -n "$etag" ] || fail "multipart" "part $n: no ETag"
    echo "<Part><PartNumber>$n</PartNumber><ETag>$etag</ETag></Part>" >>"$SCRATCH/parts.xml"
done
{ echo "<CompleteMultipartUpload>"; cat "$SCRATCH/parts.xml"; echo "</CompleteMultipartUpload>"; } \
    >"$SCRATCH/complete.xml"
fault 'POST /bkt/mp$ lose-answer 1'
complete () {
    s3 -o /dev/null -w '%{http_code}' -X POST -H 'If-None-Match: *' -H x-amz-content-sha256:UNSIGNED-PAYLOAD \
        --data-binary @"$SCRATCH/complete.xml" "$P/bkt/mp?uploadId=$ID" >"$SCRATCH/out"
}
complete
check_reset "multipart complete, answer lost"
complete
check "multipart complete retried" "$(cat "$SCRATCH/out")" 412
cat "$SCRATCH/part1" "$SCRATCH/small" >"$SCRATCH/whole"
curl -s $AUTH -o "$SCRATCH/g1" "$UP/bkt/mp"
cmp -s "$SCRATCH/whole" "$SCRATCH/g1" || fail "multipart" "the stored object differs"
faults_now "lose-answer multipart" 1

# Without the condition the repeated complete is answered 200 (SeaweedFS,
# like AWS): a retry cannot tell either.
s3 -X POST "$P/bkt/mp1?uploads=" >"$SCRATCH/mp.xml"
ID=$(sed -n 's:.*<UploadId>\(.*\)</UploadId>.*:\1:p' "$SCRATCH/mp.xml")
s3 -o /dev/null -D "$SCRATCH/h1" -T "$SCRATCH/small" "$P/bkt/mp1?partNumber=1&uploadId=$ID"
etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: *\([^\r]*\).*/\1/p' "$SCRATCH/h1")
echo "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>$etag</ETag></Part></CompleteMultipartUpload>" \
    >"$SCRATCH/complete.xml"
fault 'POST /bkt/mp1$ lose-answer 1'
complete1 () {
    s3 -o /dev/null -w '%{http_code}' -X POST -H x-amz-content-sha256:UNSIGNED-PAYLOAD \
        --data-binary @"$SCRATCH/complete.xml" "$P/bkt/mp1?uploadId=$ID" >"$SCRATCH/out"
}
complete1
check_reset "multipart complete (no condition), answer lost"
complete1
check "multipart complete (no condition) retried" "$(cat "$SCRATCH/out")" 200
check "multipart (no condition) stored" "$(direct mp1)" 200
faults_now "lose-answer multipart, no condition" 1

# 30 conditional PUTs to one key at once, each on its own connection
# through the proxy: exactly one wins
i=0
pids=
while [ $i -lt 30 ]; do
    curl -sS $AUTH -o /dev/null -w '%{http_code}\n' -H 'If-None-Match: *' -T "$SCRATCH/small" \
        "$P/bkt/race" >"$SCRATCH/race.$i" 2>&1 &
    pids="$pids $!"
    i=$((i + 1))
done
for p in $pids; do wait "$p"; done
check "30 racing conditional PUTs" "$(cat "$SCRATCH"/race.* | sort | uniq -c | tr -s ' \n' ' ')" \
    " 1 200 29 412 "

# --- reset: nothing reaches the server --------------------------------------

fault 'PUT /bkt/rst$ reset 1'
s3 -o /dev/null -T "$BIG" "$P/bkt/rst"
check_reset "reset"
check "reset: not stored" "$(direct rst)" 404
s3 -o /dev/null -w '%{http_code}' -T "$BIG" "$P/bkt/rst" >"$SCRATCH/out"
check "reset spent: stored" "$(cat "$SCRATCH/out") $(direct rst)" "200 200"
fault '* /bkt/o2$ reset 1'
s3 -o /dev/null "$P/bkt/o2"
check_reset "reset GET"
faults_now reset 2

# --- delay: the client gives up, the write lands later -----------------------

fault 'PUT /bkt/slow$ delay 4000 1'
s3 -o /dev/null --max-time 1 $SMALL "$P/bkt/slow"
check "delay: client timeout" "$RC" 28
check "delay: not yet stored" "$(direct slow)" 404
slow_stored () { [ "$(direct slow)" = 200 ]; }
wait_until 15 "delay: the late write lands" slow_stored
fault 'GET /bkt/o1$ delay 1500 1'
s3 -o /dev/null --max-time 20 -w '%{http_code} %{time_total}' "$P/bkt/o1" >"$SCRATCH/out"
set -- $(cat "$SCRATCH/out")
check "delay: answered" "$1" 200
python3 -c 'import sys; sys.exit(float(sys.argv[1]) < 1.5)' "$2" || fail "delay" "answered after $2 s, want >= 1.5"
faults_now delay 2

# --- hang: never answered -------------------------------------------------------

mark
fault 'GET /bkt/o2$ hang 1'
curl -sS $AUTH -o /dev/null --max-time 30 "$P/bkt/o2" 2>"$SCRATCH/err" &
hung=$!
s3proxy_wait_faults "$PX" $((FAULTS + 1)) 10 || fail "hang" "the fault was not applied"
s3proxy_running "$hung" || fail "hang" "the client did not wait"
kill "$hung"
wait "$hung"
hang_closed () { since | grep -q ' close$'; }
wait_until 10 "hang: the proxy lets go once the client left" hang_closed
s3 -o /dev/null -w '%{http_code}' "$P/bkt/o2" >"$SCRATCH/out"
check "hang spent" "$(cat "$SCRATCH/out")" 200
faults_now hang 1

# --- counts, clear, rule errors --------------------------------------------------

fault 'PUT /bkt/cnt$ status 503 2'
N=/dev/null
s3 -w '%{http_code}\n' -o $N -T "$SCRATCH/small" "$P/bkt/cnt" -o $N -T "$SCRATCH/small" "$P/bkt/cnt" \
    -o $N -T "$SCRATCH/small" "$P/bkt/cnt" >"$SCRATCH/out"
check "count 2" "$(tr '\n' ' ' <"$SCRATCH/out")" "503 503 200 "
faults_now count 2
fault '* /bkt/o1$ status 500'
s3 -w '%{http_code}\n' -o /dev/null "$P/bkt/o1" -o /dev/null -I "$P/bkt/o1" -o /dev/null "$P/bkt/o1" \
    >"$SCRATCH/out"
check "no count: every one" "$(tr '\n' ' ' <"$SCRATCH/out")" "500 500 500 "
faults_now "no count" 3
# the spent 503 rule stayed spent through all the appends
s3 -o /dev/null -w '%{http_code}' -T "$SCRATCH/small" "$P/bkt/s503" >"$SCRATCH/out"
check "spent stays spent" "$(cat "$SCRATCH/out")" 200
s3proxy_clear "$PX"
s3 -o /dev/null -w '%{http_code}' "$P/bkt/o1" >"$SCRATCH/out"
check "cleared" "$(cat "$SCRATCH/out")" 200
fault 'PUT /bkt/s503$ status 503 1'
s3 -o $N -w '%{http_code}\n' -T "$SCRATCH/small" "$P/bkt/s503" -o $N -T "$SCRATCH/small" "$P/bkt/s503" \
    >"$SCRATCH/out"
check "re-added after clear" "$(tr '\n' ' ' <"$SCRATCH/out")" "503 200 "
faults_now "re-added" 1

for bad in 'PUT .* explode' 'PUT ( status 503' 'PUT .* status' 'PUT .* delay 10 0' \
    'get .* reset' 'PUT .* status 503 1 x' 'PUT .*'; do
    if s3proxy_fault "$PX" "$bad" 2>"$SCRATCH/err"; then fail "bad rule" "'$bad' accepted"; fi
    grep -q "bad rule" "$SCRATCH/err" || fail "bad rule" "no reason for '$bad'"
done
echo 'PUT /bkt/x explode' >>"$PX/control"
s3 -o /dev/null -w '%{http_code}' "$P/bkt/o1" >"$SCRATCH/out"
check "a bad line is ignored" "$(cat "$SCRATCH/out")" 200
grep -q ' rule-error .*unknown action' "$PX/log" || fail "bad line" "not reported in the log"

# --- the server unreachable: the client's connection is reset --------------------

s3proxy_start "$PX2" "http://127.0.0.1:$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')" ||
    fail proxy "the second proxy did not start"
s3 -o /dev/null "$S3PROXY_ENDPOINT/bkt/o1"
check_reset "no server"
grep -q ' error connect:' "$PX2/log" || fail "no server" "no connect error in the log"

# --- the log: no secret ---------------------------------------------------------

check "faults applied" "$(s3proxy_faults_applied "$PX")" "$FAULTS"
if grep -q -e "$SECRET" -e Signature -e Credential -e AWS4 "$PX/log"; then
    fail "log" "a credential in the proxy's log"
fi
echo "$TEST_NAME: $(s3proxy_requests "$PX") requests ($(s3proxy_requests "$PX" PUT) PUT," \
    "$(s3proxy_requests "$PX" GET) GET), $FAULTS faults applied"

pid=$(cat "$PX/pid")
s3proxy_stop "$PX"
s3proxy_running "$pid" && fail stop "the proxy (pid $pid) is still running"
echo "PASS $TEST_NAME ($(($(date +%s) - T0)) s)"
exit 0
