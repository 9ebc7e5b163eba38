# kill -9 in the middle of a commit, and of a multipart upload, on S3
# (table and checkpoints on a SeaweedFS of this test's own).
#   c  the committer, while its third commit waits between its manifests
#      and its snapshot (fail point committer.after-manifest=delay:3000:3)
#   o  the coordinator, at the same place
#   w  a writer whose data file is a multipart upload (one writer, 300,000
#      rows uncompressed and PLAIN (delta integers would halve the file) as
#      fast as it goes, one checkpoint at the end: a
#      file of about 11 MB, two 8 MiB parts), killed while its first part
#      is up and the upload open
#      (io.s3.after-part=delay:4000:1): its replacement aborts the upload
#      (S3_UPLOAD_ABORTED) as it deletes its predecessor's files.
# Each ends exact (oracle, Paimon's readers), with no upload left open.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-midcommit

for v in c o; do
    write_fault_job $v 2 "execution.checkpointing.interval: 500ms"
    FAILPOINTS=committer.after-manifest=delay:3000:3 start_cluster $v
    wait_for_log $v 'failpoint committer.after-manifest: delay' 60
    [ $v = c ] && kill_role $v committer || kill_role $v coordinator
    expect_exit $v 180 0
    oracle $v 20000 --last-max
    [ "$(s3_uploads_open)" = 0 ] || fail $v "multipart uploads left open"
done

v=w N=300000
write_fault_job $v 1 "datagen.rows-per-second: 0" "datagen.number-of-rows: $N" \
    "execution.checkpointing.interval: 60s" "target-file-size: 1gb" "file.compression: none" \
    "parquet.writer.encoding: plain"
FAILPOINTS=io.s3.after-part=delay:4000:1 start_cluster $v
wait_for_log $v 'failpoint io.s3.after-part: delay' 120
[ "$(s3_uploads_open)" = 1 ] || fail $v "no open upload while the writer waits after its first part"
kill_role $v writer-0
wait_for_log $v 'S3_UPLOAD_ABORTED' 60
expect_exit $v 240 0
oracle $v $N --last-max
[ "$(s3_uploads_open)" = 0 ] || fail $v "multipart uploads left open"
echo "[$v] $(grep -o 'S3_UPLOAD_ABORTED.*' "$(clog $v)" | head -n 1)"
pass
