# The three seed scenarios on S3: t_kill_writer, t_kill_committer and
# t_kill_coordinator (kill -9 of a writer, of the committer, of the
# coordinator at a random moment, each at two parallelisms, the oracle
# after each: ids 1..N once, verify, no orphan, Paimon's readers agree), run
# unchanged with the table AND the checkpoint directory on a SeaweedFS of
# this test's own. On S3 the replacement of a killed role waits for its
# predecessor's lease to lapse (heartbeat.timeout: 3 s in these jobs).
# After each: no multipart upload left open in the bucket.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-seeds
s3_run_tests t_kill_writer t_kill_committer t_kill_coordinator
pass
