# CURVE authentication (docs/security.md). A 2-writer job with
# security.curve.enabled finishes exactly once, while zsink-inject attacks
# both servers (the coordinator's control ROUTER, the committer's data
# ROUTER) three ways:
#   1. no key (plain ZMTP): the handshake fails, nothing is delivered;
#   2. a key the servers do not know (another `zsink keys generate`): zauth
#      refuses the handshake, nothing is delivered;
#   3. writer-1's own key, claiming to be writer 0: delivered, and every
#      message is dropped as unauthorized, counted, logged once per server.
# `zsink status` shows the refused handshakes and exactly the unauthorized
# messages of 3, and no garbage/foreign/stale: nothing of 1 or 2 got as far
# as being decoded. The table is exact. Before all that, bad keys are
# configuration errors (exit 2) naming the file or key.
. "$(dirname "$0")/lib.sh"
INJECT=$BIN/zsink-inject
[ -x "$INJECT" ] || fail - "$INJECT not built"

KEYS=$SCRATCH/keys ROGUE=$SCRATCH/rogue
"$ZSINK" keys generate "$KEYS" --writers 2 >/dev/null || fail - "zsink keys generate failed"
"$ZSINK" keys generate "$ROGUE" --writers 1 >/dev/null || fail - "zsink keys generate (rogue) failed"
[ "$(stat -c %a "$KEYS/writer-1.cert_secret")" = 600 ] || fail - "a secret key is not 0600"
[ "$(stat -c %a "$KEYS")" = 700 ] || fail - "the keys directory is not 0700"
"$ZSINK" keys check "$KEYS" --writers 2 >/dev/null || fail - "zsink keys check failed"

# refused ZSINK_ARGS... EXPECT_TEXT: `zsink cluster` exits 2 naming it
refused () {
    _want=$1
    shift
    _out=$("$ZSINK" cluster "$@" 2>&1)
    _rc=$?
    [ $_rc = 2 ] || fail bad "exit $_rc, expected 2, for $*: $_out"
    echo "$_out" | grep -qF -- "$_want" || fail bad "no '$_want' in: $_out"
    echo "[bad] refused as expected: $(echo "$_out" | tail -n 1)"
}
write_job bad 2 "security.curve.enabled: true"
refused "security.curve.keys-dir: required" -c "$(vdir bad)/job.yaml"
refused "$SCRATCH/none: not a keys directory" -c "$(vdir bad)/job.yaml" \
    -Dsecurity.curve.keys-dir="$SCRATCH/none"
refused "$KEYS/writer-2.cert_secret: cannot read" -c "$(vdir bad)/job.yaml" \
    -Dsecurity.curve.keys-dir="$KEYS" -Dparallelism=3
cp -rp "$KEYS" "$SCRATCH/broken"
chmod 644 "$SCRATCH/broken/writer-0.cert_secret"
refused "$SCRATCH/broken/writer-0.cert_secret: permissions 0644 are too open" \
    -c "$(vdir bad)/job.yaml" -Dsecurity.curve.keys-dir="$SCRATCH/broken"
chmod 600 "$SCRATCH/broken/writer-0.cert_secret"
sed -i 's/secret-key = ".\{5\}/secret-key = "00000/' "$SCRATCH/broken/writer-0.cert_secret"
refused "$SCRATCH/broken/writer-0.cert_secret: the secret key does not belong" \
    -c "$(vdir bad)/job.yaml" -Dsecurity.curve.keys-dir="$SCRATCH/broken"
echo "not a certificate" >"$SCRATCH/broken/public/README"
refused "$SCRATCH/broken/public/README: cannot read or parse as a ZeroMQ certificate" \
    -c "$(vdir bad)/job.yaml" -Dsecurity.curve.keys-dir="$SCRATCH/broken"

# inject VARIANT ENDPOINT JOB_ID WANT_HANDSHAKE [inject args ...]
inject () {
    _v=$1 _ep=$2 _jid=$3 _want=$4
    shift 4
    _out=$("$INJECT" "$_ep" "$_jid" "$@" 2>&1) || fail "$_v" "zsink-inject $* failed: $_out"
    echo "$_out" | grep -q "handshake: $_want" ||
        fail "$_v" "zsink-inject $*: expected handshake $_want, got: $_out"
    echo "[$_v] $(echo "$_out" | tr '\n' ' ')"
}

drive () {
    v=$1 p=${1#p}
    # 20 s of rows: the job outlives every injection
    write_fault_job "$v" "$p" "datagen.rows-per-second: 1000" \
        "security.curve.enabled: true" "security.curve.keys-dir: $KEYS"
    start_cluster "$v"
    wait_for_log "$v" 'switched from state RESTORING to RUNNING' 30
    grep -q "CURVE authentication on: keys in $KEYS" "$(clog "$v")" ||
        fail "$v" "the coordinator does not say CURVE is on"
    cj=$(vdir "$v")/chk/cluster.json
    co=$(json_get "$cj" coordinator) cm=$(json_get "$cj" committer)
    jid=$(cat "$(vdir "$v")/job_id")
    hostile="--garbage 5 --foreign 2 --stale 2 --register-stale --seed $SEED"
    # 1 and 2, at both servers at once: nothing gets through
    pids=
    for ep in "$co" "$cm"; do
        inject "$v" "$ep" "$jid" failed $hostile &
        pids="$pids $!"
        inject "$v" "$ep" "$jid" failed $hostile \
            --cert "$ROGUE/writer-0.cert_secret" --server-cert "$KEYS/server.cert" &
        pids="$pids $!"
    done
    # (a bare `wait` would wait for the cluster too)
    for pid in $pids; do wait "$pid" || fail "$v" "an injection failed"; done
    wait_status "$v" 'd["refused_handshakes"] >= 4' 15
    dropped='d["dropped"]["garbage"] == 0 and d["dropped"]["foreign"] == 0 and d["dropped"]["stale"] == 0'
    echo "$STATUS" | "$PY" -c "import json, sys; d = json.load(sys.stdin); sys.exit(0 if ($dropped and d['dropped']['unauthorized'] == 0) else 1)" ||
        fail "$v" "a message without a valid key reached a server: $STATUS"
    # 3: writer-1's key claiming writer 0 (a stale Register, then 2 x 3
    # stale messages: 7 each), at the coordinator then the committer
    for ep in "$co" "$cm"; do
        inject "$v" "$ep" "$jid" succeeded --stale 2 --register-stale \
            --cert "$KEYS/writer-1.cert_secret" --server-cert "$KEYS/server.cert"
    done
    wait_status "$v" "d['dropped']['unauthorized'] == 14 and $dropped" 15
    echo "[$v] status: dropped $(echo "$STATUS" | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["dropped"], "refused handshakes", d["refused_handshakes"])')"
    expect_exit "$v" 90 0
    log=$(clog "$v")
    for role in coordinator committer; do
        n=$(grep -c "\[$role\] dropped an unauthorized message: key .* of writer-1 (public/writer-1.cert) claims to be writer-0" "$log")
        [ "$n" = 1 ] || fail "$v" "$role logged the unauthorized key $n times, expected once"
    done
    grep -q 'refused a CURVE handshake' "$log" || fail "$v" "no refused handshake logged"
    ! grep -qE 'switched from state [A-Z]+ to RESTARTING' "$log" ||
        fail "$v" "the hostile traffic caused a failover"
    ! "$ZSINK" table files "$(table_of "$v")" | grep -q injected ||
        fail "$v" "an injected file is in the table"
    oracle "$v" 20000 --last-max
}
run_variants drive p2
pass
