# Object-storage faults between zsink and a real S3 server (SeaweedFS), by
# the fault proxy (tests/tools/s3proxy.py): every role's requests go
# through it (s3.endpoint), Paimon's readers and the oracle go straight to
# the server. Table and checkpoints on S3; 2 writers, 20,000 rows; each
# variant ends exact (oracle: ids 1..N once, verify, no orphan, Paimon Java
# and pypaimon agree), with no multipart upload left open, and the faults
# were applied.
#   lost     PUTs whose answer is lost after the server stored them: a
#            snapshot (twice), a chk-N, a manifest, a data file. The PUT is
#            sent again (by us, or by libcurl itself) and gets 412 for its
#            own object: read back, it is ours (S3_READBACK … ours), the
#            commit counts once and is not redone.
#   slow     503 SlowDown on any request, 500 on GETs: retried.
#   reset    connections reset before the request reaches the server.
#   timeout  a manifest PUT that never answers and a snapshot PUT answered
#            after the client gave up (s3.connection.request.timeout 2s):
#            the late write lands while the retry races it.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-faults
P=$SCRATCH/proxy
s3proxy_start "$P" "$AWS_ENDPOINT_URL" || fail - "the fault proxy did not start"
EXTRA_PIDS="$EXTRA_PIDS $S3PROXY_PID"
echo "[s3] fault proxy at $S3PROXY_ENDPOINT"

# run VARIANT MIN_FAULTS RULE...: a job through the proxy with the rules
run () {
    v=$1 min=$2
    shift 2
    s3proxy_clear "$P"
    for r in "$@"; do s3proxy_fault "$P" "$r" || fail $v "bad rule: $r"; done
    before=$(s3proxy_faults_applied "$P")
    write_fault_job $v 2 "s3.endpoint: $S3PROXY_ENDPOINT" "s3.connection.request.timeout: 2s"
    start_cluster $v
    expect_exit $v 180 0
    applied=$(($(s3proxy_faults_applied "$P") - before))
    [ "$applied" -ge "$min" ] || fail $v "only $applied faults applied, expected $min at least"
    oracle $v 20000 --last-max
    n=$(s3_uploads_open)
    [ "$n" = 0 ] || fail $v "$n multipart uploads left open"
    echo "[$v] $applied faults applied; exact; no upload open"
}

run lost 5 \
    'PUT /snapshot/snapshot-[0-9]+$ lose-answer 2' \
    'PUT /chk-[0-9]+$ lose-answer 1' \
    'PUT /manifest/manifest-[^/]*$ lose-answer 1' \
    'PUT /bucket-0/data-[^/]*$ lose-answer 1'
n=$(count_log lost 'S3_READBACK .*snapshot-[0-9]+: .* the object is ours')
[ "$n" -ge 1 ] || fail lost "no lost snapshot PUT was read back as ours"
echo "[lost] $n lost snapshot PUTs read back as ours; $(count_log lost 'S3_READBACK') read-backs in all"

run slow 5 'PUT .* status 503 3' 'GET .* status 500 2'
[ "$(count_log slow 'retrying in')" -ge 1 ] || fail slow "no retry logged"

# A start whose first listing of the table fails for good (every attempt
# 503): the job does not start, and says why; the next listing answering
# must not make a failed one read as "no table" (it once said "not a Paimon
# table (no schema/schema-N)" for a new table, after a transient failure).
v=startfail
s3proxy_clear "$P"
s3proxy_fault "$P" 'GET /'"$S3_BUCKET"'/?$ status 503 6' || fail $v "bad rule"
write_fault_job $v 2 "s3.endpoint: $S3PROXY_ENDPOINT" "s3.connection.request.timeout: 2s"
out=$("$ZSINK" cluster -c "$(vdir $v)/job.yaml" --job-id "$(job_id $v)" 2>&1) &&
    fail $v "the job started although its first listing failed for good"
echo "$out" | grep -q "503" || fail $v "the failed start does not say the store answered 503: $out"
echo "$out" | grep -q "not a Paimon table" && fail $v "a failed listing read as no table: $out"
echo "[$v] refused: $(echo "$out" | tail -n 1)"

run reset 4 '* .* reset 4'

run timeout 2 \
    'PUT /manifest/manifest-[^/]*$ hang 1' \
    'PUT /snapshot/snapshot-[0-9]+$ delay 3000 1'
[ "$(count_log timeout 'retrying in')" -ge 2 ] || fail timeout "no timed-out request retried"

s3proxy_stop "$P"
pass
