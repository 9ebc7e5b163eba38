# The S3 credentials are never written down (docs/object-storage.md): given
# only as -D s3.access-key / -D s3.secret-key to `zsink cluster` (none in
# the environment), the job runs on S3, and the secret appears on no role's
# command line (ps), in no log line, no `zsink status` answer, and in no
# object the job wrote (job.json, history.json, chk-N, pins, leases,
# snapshots, manifests: every object but the Parquet files).
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-secrets
KEY=$AWS_ACCESS_KEY_ID SECRET=$AWS_SECRET_ACCESS_KEY
v=s
write_fault_job $v 2
(
    unset AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY
    start_cluster $v -D "s3.access-key=$KEY" -D "s3.secret-key=$SECRET"
)
wait_for_log $v 'Completed checkpoint [0-9]+ for job' 60
n=0
for pid in $(pgrep -f 'zsink-(coordinator|committer|writer)'); do
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$SECRET" &&
        fail $v "the secret is on the command line of pid $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline")"
    n=$((n + 1))
done
[ $n -ge 4 ] || fail $v "only $n role processes found"
st=$(env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY "$ZSINK" status -c "$(vdir $v)/job.yaml" \
    -D "s3.access-key=$KEY" -D "s3.secret-key=$SECRET" --json 2>&1) ||
    fail $v "zsink status failed: $st"
case $st in *"$SECRET"*) fail $v "zsink status shows the secret" ;; esac
expect_exit $v 120 0
oracle $v 20000 --last-max
grep -rlF -- "$SECRET" "$SCRATCH" --exclude-dir=s3 && fail $v "the secret is in a file of the scratch dir"
keys=$(s3curl "$AWS_ENDPOINT_URL/$S3_BUCKET?list-type=2&max-keys=1000" | grep -o '<Key>[^<]*</Key>' |
    sed 's/<Key>\(.*\)<\/Key>/\1/' | grep -v '\.parquet$')
m=0
for k in $keys; do
    s3curl "$AWS_ENDPOINT_URL/$S3_BUCKET/$k" | grep -qF -- "$SECRET" && fail $v "the secret is in s3://$S3_BUCKET/$k"
    m=$((m + 1))
done
[ $m -ge 10 ] || fail $v "only $m objects to look in"
echo "[$v] the secret is on no command line of $n roles, in no log, status answer or any of $m objects"
pass
