# The three seed scenarios on S3: t_kill_writer, t_kill_committer and
# t_kill_coordinator (kill -9 of a writer, of the committer, of the
# coordinator at a random moment, each at two parallelisms, the oracle
# after each: ids 1..N once, verify, no orphan, Paimon's readers agree), run
# unchanged with the table AND the checkpoint directory on a SeaweedFS of
# this test's own (lib.sh's ZSINK_TEST_TABLE_ROOT, ZSINK_TEST_CHK_ROOT).
# On S3 the replacement of a killed role waits for its predecessor's lease
# to lapse (heartbeat.timeout: 3 s in these jobs). After each: no multipart
# upload left open in the bucket.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-seeds

for t in t_kill_writer t_kill_committer t_kill_coordinator; do
    echo "[s3] $t"
    ZSINK_TEST_TABLE_ROOT=s3://$S3_BUCKET/$t ZSINK_TEST_CHK_ROOT=s3://$S3_BUCKET/chk/$t \
        sh "$LIB_DIR/$t.sh" "$BUILD" "$SCRATCH/$t" >"$SCRATCH/$t.log" 2>&1
    rc=$?
    tail -n 4 "$SCRATCH/$t.log" | sed "s/^/[s3 $t] /"
    [ $rc = 0 ] || { tail -n 80 "$SCRATCH/$t.log"; fail "$t" "$t on S3 exit $rc ($SCRATCH/$t.log)"; }
    n=$(s3_uploads_open)
    [ "$n" = 0 ] || fail "$t" "$n multipart uploads left open in $S3_BUCKET"
done
pass
