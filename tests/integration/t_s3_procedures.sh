# Paimon's procedures on an S3 table, run unchanged with the table and the
# checkpoints on a SeaweedFS of this test's own:
#   t_tags             tags made by zsink and Paimon Java, zsink's expiry and
#                      Paimon's, both orphan cleans at no margin, rollback
#                      --to-tag, the tagged snapshots read by every reader
#                      (compaction runs in every S3 test's jobs: their
#                      COMPACT snapshots are checked by the oracle)
#   t_procedures_live  with ZSINK_S3_LONG=1 (about 5 minutes): compaction,
#                      expiry and orphan removal by hand every 0.2 s beside
#                      a running job with kill -9 of a writer, the committer
#                      and the coordinator; Paimon's readers reading all
#                      along (passed on S3 when written; docs/reliability.md)
# Each ends exact, read alike by Paimon Java and pypaimon, with no
# multipart upload left open.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-procedures
s3_run_tests t_tags
[ "${ZSINK_S3_LONG:-0}" = 1 ] && s3_run_tests t_procedures_live
pass
