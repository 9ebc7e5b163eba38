#!/bin/sh
# conditional_put.sh BUILD_DIR SCRATCH - the S3 server's conditional PUT,
# checked with the curl command alone, none of zsink's code: a server that
# stopped enforcing it can never pass for a bug (or a fix) of ours.
#
#   1. 30 concurrent PUTs of one key with If-None-Match: *, each its own
#      body: exactly one 200, 29 412, and the object is the winner's body;
#   2. If-Match with a stale ETag: 412, the object unchanged; with the
#      current ETag: 200, the object replaced; on a missing key: 404.
#
# The server: BUILD_DIR/s3/weed (scripts/setup-s3.sh builds it) through
# scripts/s3-server.sh. Exit 0 pass, 1 fail, 77 skip when it is not built
# (1 then if ZSINK_S3_REQUIRED=1).
set -u
BUILD=$1
SCRATCH=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/s3/lib.sh"
N=30
# etag PATH: the ETag header's value, quotes kept
etag () {
    curl -s -I --max-time 30 --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
        --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" "$AWS_ENDPOINT_URL/$1" |
        tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: *//p'
}

code=$(s3 PUT cput)
[ "$code" = 200 ] || { echo "FAIL: create bucket: HTTP $code"; exit 1; }

# 1. the race
i=1
while [ $i -le $N ]; do
    s3 PUT cput/race -H 'If-None-Match: *' --data-binary "body of racer $i" >"$SCRATCH/code.$i" &
    i=$((i + 1))
done
wait
ok=0 refused=0 other="" winner=""
i=1
while [ $i -le $N ]; do
    c=$(cat "$SCRATCH/code.$i")
    case $c in
    200) ok=$((ok + 1)); winner=$i ;;
    412) refused=$((refused + 1)) ;;
    *) other="$other racer $i: $c;" ;;
    esac
    i=$((i + 1))
done
echo "If-None-Match race: $ok x 200, $refused x 412${other:+, other:$other}"
[ $ok = 1 ] && [ $refused = $((N - 1)) ] || fail "want exactly one 200 and $((N - 1)) 412"
if [ $ok = 1 ]; then
    body=$(get cput/race)
    [ "$body" = "body of racer $winner" ] || fail "object is '$body', the winner wrote 'body of racer $winner'"
fi
code=$(s3 PUT cput/race -H 'If-None-Match: *' --data-binary late)
[ "$code" = 412 ] || fail "If-None-Match: * on an existing key: HTTP $code, want 412"

# 2. If-Match
cur=$(etag cput/race)
[ -n "$cur" ] || fail "HEAD gave no ETag"
stale='"0123456789abcdef0123456789abcdef"'
code=$(s3 PUT cput/race -H "If-Match: $stale" --data-binary stale)
echo "If-Match stale ETag: HTTP $code"
[ "$code" = 412 ] || fail "If-Match with a stale ETag: HTTP $code, want 412 (is If-Match enforced?)"
[ "$(get cput/race)" != stale ] || fail "a PUT with a stale If-Match replaced the object"
code=$(s3 PUT cput/race -H "If-Match: $cur" --data-binary current)
echo "If-Match current ETag: HTTP $code"
[ "$code" = 200 ] || fail "If-Match with the current ETag: HTTP $code, want 200"
[ "$(get cput/race)" = current ] || fail "the If-Match PUT did not replace the object"
code=$(s3 PUT cput/absent -H "If-Match: $cur" --data-binary x)
echo "If-Match on a missing key: HTTP $code"
[ "$code" = 404 ] || fail "If-Match on a missing key: HTTP $code, want 404"

[ $FAILS = 0 ] || exit 1
echo "PASS"
