# lib.sh - sourced by the curl-only server checks of tests/s3 (after they
# set BUILD, SCRATCH and ROOT): skips (77) without the server binary
# (fails under ZSINK_S3_REQUIRED=1), starts a fresh server in SCRATCH/server
# (scripts/s3-server.sh; FIXTURE; stopped when the script exits), exports
# its AWS_* and gives
#   fail MESSAGE          count a failure (FAILS), say it
#   s3 METHOD PATH [ARGS] the HTTP status of a signed request
#   get PATH              an object's body
export ZSINK_WEED=${ZSINK_WEED:-$BUILD/s3/weed}
FIXTURE="$ROOT/scripts/s3-server.sh"

if [ ! -x "$ZSINK_WEED" ]; then
    msg="no SeaweedFS binary at $ZSINK_WEED: build it with sh scripts/setup-s3.sh $BUILD"
    [ "${ZSINK_S3_REQUIRED:-0}" = 1 ] && { echo "FAIL: $msg (ZSINK_S3_REQUIRED=1)"; exit 1; }
    echo "SKIP: $msg"
    exit 77
fi
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
SERVER=$SCRATCH/server
trap 'sh "$FIXTURE" stop "$SERVER"' EXIT
sh "$FIXTURE" start "$SERVER" >/dev/null || { echo "FAIL: the server did not start"; exit 1; }
. "$SERVER/env"
FAILS=0
fail () {
    echo "FAIL: $*"
    FAILS=$((FAILS + 1))
}

# s3 METHOD PATH [curl args...]: the status code on stdout
s3 () {
    method=$1 path=$2
    shift 2
    curl -s -o /dev/null -w '%{http_code}' --max-time 30 -X "$method" \
        --aws-sigv4 "aws:amz:$AWS_REGION:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
        -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@" "$AWS_ENDPOINT_URL/$path"
}
# get PATH: the object's body on stdout
get () {
    curl -s --max-time 30 --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
        --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" "$AWS_ENDPOINT_URL/$1"
}
