# Two committers racing for one table on S3, and one committer per job.
#   race  two jobs (commit users) write ids 1..N each into ONE s3:// table
#         at once, 200 ms checkpoints, a kill -9 of job a's committer on
#         the way: their snapshot creations race (PutObject If-None-Match:
#         *, the loser retries on top). Each job's rows are in the table
#         exactly once: count 2N, ids 1..N, each user's APPEND deltas sum to
#         N with its identifiers strictly increasing; verify, no orphan,
#         Paimon Java and pypaimon agree; no multipart upload left open.
#   second while job b runs, a second zsink-committer for it is refused
#         (exit 3, "another committer is running"): the lease is alive; the
#         job goes on undisturbed.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_s3.sh"
s3_server_up zsink-race
N=20000
t=$(table_of race)

for v in a b; do
    write_fault_job $v 2 "execution.checkpointing.interval: 200ms" "datagen.rows-per-second: 2000"
    sed -i "s|^table.path: .*|table.path: $t|" "$(vdir $v)/job.yaml"
done
start_cluster a
start_cluster b
wait_for_count a 'Completed checkpoint [0-9]+ for job' 2 60
kill_role a committer

# one committer per job: a second one for job a is turned away (it waits
# out the lease's ttl first: the holder might have died)
co=$(s3curl "$AWS_ENDPOINT_URL/$S3_BUCKET/chk/b/chk/cluster.json" | json_get - coordinator) ||
    fail second "no cluster.json of job b in the bucket"
out=$(vdir b)/second-committer.log
timeout 60 "$BIN/zsink-committer" --coordinator "$co" --bind "tcp://127.0.0.1:$(free_port)" \
    >"$out" 2>&1
rc=$?
[ $rc = 3 ] && grep -q 'another committer is running' "$out" ||
    { cat "$out"; fail second "a second committer of job b: exit $rc, expected 3"; }
echo "[second] refused: $(grep 'another committer' "$out" | cut -c1-200)"

expect_exit a 180 0
expect_exit b 180 0
[ "$(count_log a 'Registered committer')" -ge 2 ] || fail a "job a's committer was not replaced"

stats=$("$ZSINK" table stats "$t" --json) || fail race "zsink table stats $t failed"
echo "$stats" | "$PY" -c 'import json, sys
s = json.load(sys.stdin); n = int(sys.argv[1])
sys.exit(0 if (s["count"], s["distinct_ids"], s["min_id"], s["max_id"]) == (2 * n, n, 1, n) else 1)' $N ||
    fail race "two jobs of ids 1..$N: the table holds $stats"
"$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json, sys
snaps, n = json.load(sys.stdin), int(sys.argv[1])
users = {}
for s in snaps:
    if s["commit_kind"] == "APPEND":
        users.setdefault(s["commit_user"], []).append(s)
bad = [u for u, l in users.items() if sum(x["delta_record_count"] for x in l) != n
       or any(a["commit_identifier"] >= b["commit_identifier"] for a, b in zip(l, l[1:]))]
print("[race] %d users, APPEND snapshots %s" % (len(users), [len(l) for l in users.values()]))
sys.exit(0 if len(users) == 2 and not bad else 1)' $N || fail race "a user's commits are not exact"
out=$("$ZSINK" table verify "$t" 2>&1) || fail race "verify: $out"
o=$("$ZSINK" table orphans "$t" --older-than 0s --json) || fail race "orphans failed"
[ "$(echo "$o" | json_get - count)" = 0 ] ||
    fail race "orphans left: $o"
paimon_table race
[ "$(s3_uploads_open)" = 0 ] || fail race "multipart uploads left open"
echo "[race] lost races retried: a $(count_log a 'committed by another user, retrying'), b $(count_log b 'committed by another user, retrying')"
pass
