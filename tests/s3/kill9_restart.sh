#!/bin/sh
# kill9_restart.sh BUILD_DIR SCRATCH - the S3 server keeps, across a kill -9
# and a restart on the same port and data, every object it answered 200
# for, even with PUTs in flight when it died; and after the restart PUTs
# (conditional ones too) go through at once. With curl alone, as
# conditional_put.sh, so the fixture the other S3 tests crash and restart
# is known to lose nothing by itself.
#
# Exit 0 pass, 1 fail, 77 skip without the server binary (1 then if
# ZSINK_S3_REQUIRED=1).
set -uf
BUILD=$1
SCRATCH=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/s3/lib.sh"

[ "$(s3 PUT crash)" = 200 ] || { echo "FAIL: create bucket"; exit 1; }
# two writers, one plain and one conditional, record each key answered 200
writer () {
    i=1
    while [ $i -le 100000 ]; do
        code=$(s3 PUT "crash/$1-$i" $2 --data-binary "body of $1 $i")
        [ "$code" = 200 ] && echo "$1-$i" >>"$SCRATCH/acked.$1"
        [ "$code" = 000 ] && return 0 # the server is gone
        i=$((i + 1))
    done
}
: >"$SCRATCH/acked.plain"
: >"$SCRATCH/acked.cond"
writer plain "" &
P1=$!
writer cond "-H If-None-Match:*" &
P2=$!
# kill -9 once both writers have had 100 answers
end=$(( $(date +%s) + 60 ))
while [ "$(cat "$SCRATCH/acked.plain" "$SCRATCH/acked.cond" | wc -l)" -lt 200 ]; do
    [ "$(date +%s)" -lt "$end" ] || { echo "FAIL: 200 PUTs not answered in 60 s"; exit 1; }
    sleep 0.05
done
sh "$FIXTURE" kill9 "$SERVER" || { echo "FAIL: kill9"; exit 1; }
wait $P1 $P2
acked=$(cat "$SCRATCH/acked.plain" "$SCRATCH/acked.cond" | wc -l)
t0=$(date +%s)
sh "$FIXTURE" restart "$SERVER" >/dev/null || { echo "FAIL: restart"; exit 1; }
echo "killed -9 after $acked answered PUTs; restarted in $(( $(date +%s) - t0 )) s"
[ "$(cat "$SERVER/endpoint")" = "$AWS_ENDPOINT_URL" ] || fail "the endpoint moved: $(cat "$SERVER/endpoint")"
lost=0
for w in plain cond; do
    while read -r k; do
        body=$(get "crash/$k")
        [ "$body" = "body of $(echo "$k" | sed 's/-/ /')" ] || { lost=$((lost + 1)); echo "lost crash/$k: '$body'"; }
    done <"$SCRATCH/acked.$w"
done
[ $lost = 0 ] || fail "$lost of $acked answered objects lost or changed"
# the server takes writes at once: a conditional PUT, a plain one, a 412
t1=$(date +%s)
[ "$(s3 PUT crash/after -H 'If-None-Match: *' --data-binary after)" = 200 ] || fail "conditional PUT after restart"
[ "$(s3 PUT crash/after2 --data-binary after)" = 200 ] || fail "PUT after restart"
[ "$(s3 PUT crash/after -H 'If-None-Match: *' --data-binary again)" = 412 ] || fail "If-None-Match after restart"
[ $(( $(date +%s) - t1 )) -le 2 ] || fail "PUTs after the restart took $(( $(date +%s) - t1 )) s"
[ $FAILS = 0 ] || exit 1
echo "PASS"
