# kill -9 of `zsink cluster` itself, the supervisor, mid-job. The kernel
# sends each role SIGTERM as its parent dies (PR_SET_PDEATHSIG): they exit
# without ending the job, so job.json stays RUNNING and nothing is left
# running. `zsink cluster --job-id` with the same id then resumes from the
# last completed checkpoint, and the table ends with ids 1..N exactly once.
. "$(dirname "$0")/lib.sh"

v=p2
N=20000
write_fault_job $v 2 "datagen.number-of-rows: $N"
start_cluster $v
id=$(job_id $v)
wait_for_log $v 'Completed checkpoint 2 for job' 30
cp=$(cluster_pid $v)
kids=$(pgrep -P "$cp")
[ "$(echo "$kids" | wc -w)" = 4 ] || fail $v "expected 4 roles under the cluster, found: $kids"
kill -9 "$cp" || fail $v "kill -9 $cp failed"
wait_exit $v 10
[ "$EXIT_RC" = 137 ] || fail $v "the killed cluster's status is $EXIT_RC, expected 137"
echo "[$v] t=$(elapsed)s killed zsink cluster (pid $cp) after checkpoint 2"

# every role goes on its own, promptly
end=$(($(now) + 10))
for k in $kids; do
    while kill -0 "$k" 2>/dev/null; do
        [ "$(now)" -ge "$end" ] && fail $v "role pid $k still runs 10 s after its supervisor died"
        sleep 0.1
    done
done
echo "[$v] t=$(elapsed)s all 4 roles exited"
status=$(json_get "$(vdir $v)/chk/$id/job.json" status)
[ "$status" = RUNNING ] || fail $v "job.json says $status after the supervisor died, expected RUNNING"

start_cluster $v "$id"
wait_for_log $v "Resuming job $id" 30
expect_exit $v 90 0
oracle $v $N --last-max
pass
