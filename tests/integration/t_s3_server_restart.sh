# kill -9 of the S3 server in the middle of a commit, and its restart.
# Table and checkpoints on a SeaweedFS of this test's own; 2 writers, 40,000
# rows at 2,000 rows/s, 500 ms checkpoints. The third commit is held 4 s
# between its manifests and its snapshot (fail point
# committer.after-manifest=delay:4000:3); the server is killed with kill -9
# while it waits, and started again (same ports, same data: it holds PUTs
# for about 15 s after a restart, by design). Every role's requests fail
# meanwhile: retried, then failed over, the job restarts as often as it
# must (30 attempts, 1 s apart) and ends exact: ids 1..N once, verify, no
# orphan, Paimon's readers agree, no multipart upload left open. Prints
# how long the job took to commit again after the restart command.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-restart
N=40000
v=r
write_fault_job $v 2 "datagen.rows-per-second: 2000" "datagen.number-of-rows: $N" \
    "execution.checkpointing.interval: 500ms" "restart-strategy.fixed-delay.attempts: 30" \
    "restart-strategy.fixed-delay.delay: 1s"
FAILPOINTS=committer.after-manifest=delay:4000:3 start_cluster $v
wait_for_log $v 'failpoint committer.after-manifest: delay' 60
s3_server kill9 >/dev/null || fail $v "kill -9 of the S3 server failed"
echo "[$v] t=$(elapsed)s S3 server killed (kill -9) mid-commit"
commits=$(count_log $v 'Successfully commit snapshot')
ms () { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)
s3_server restart >/dev/null || fail $v "the S3 server did not restart (log: $S3DIR/log)"
echo "[$v] S3 server up again after $(($(ms) - t0)) ms"
wait_for_count $v 'Successfully commit snapshot' $((commits + 1)) 120
echo "[$v] first commit after the restart command: $(($(ms) - t0)) ms"
expect_exit $v 240 0
oracle $v $N --last-max
[ "$(s3_uploads_open)" = 0 ] || fail $v "multipart uploads left open"
echo "[$v] failovers: $(count_log $v 'switched from state [A-Z]+ to RESTARTING'), role restarts: $(count_log $v 'restarting in')"
pass
