# No silent wrong result, no restart loop for what is certain at start
# (issue 14, point 1). Each case either does the right thing or stops at
# once with exit 2 and a message naming what is wrong, nothing written:
#  - a file source whose path does not exist, or whose directory holds no
#    file of the format (CSV pointed at .jsonl files): exit 2 from `zsink
#    cluster` before any process starts; source.file.allow-empty opts in;
#  - the same with the roles started one by one (as docker-compose does):
#    the writer's Failure is unrecoverable, the coordinator fails the job
#    at once with exit 2, no restart;
#  - a bad --restore-from: exit 2, nothing written;
#  - two clusters of one checkpoint directory at once: the second exits 2
#    naming the first (and a coordinator started by hand too); one of the
#    same job id from another checkpoint directory exits 2 (its committer
#    finds the job's lock held); the first ends exact;
#  - the same bounded job again into a table holding its finished run:
#    exit 2 saying so; job.allow-rerun runs it anyway (and then the rows
#    are there twice, as asked); a file source's input file replaced by
#    new data is a new run, not refused;
#  - a job that ends FAILED says FAILED and names the checkpoint to restore
#    from; restoring from it with the cause fixed ends exact;
#  - `zsink table orphans` says that younger stray files exist.
. "$(dirname "$0")/lib.sh"
FILE_SCHEMA="id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), day DATE"

# refused: exit 2 within 5 s, the message matching $2, nothing written
refused () {
    v=$1 pat=$2
    shift 2
    out=$(vdir "$v")/refused.log
    t=$(now)
    timeout 20 "$ZSINK" cluster -c "$(vdir "$v")/job.yaml" "$@" >"$out" 2>&1
    rc=$?
    [ $rc = 2 ] || { cat "$out"; fail "$v" "exit $rc, expected 2"; }
    [ $(($(now) - t)) -le 5 ] || fail "$v" "took $(($(now) - t)) s to refuse"
    grep -qE -- "$pat" "$out" || { cat "$out"; fail "$v" "no message matching '$pat'"; }
    ! grep -q 'restarting in' "$out" || fail "$v" "went through the restart loop"
    echo "[$v] refused, exit 2: $(grep -E -- "$pat" "$out" | head -n 1 | cut -c1-160)"
}

# 1. the file source's input
v=nopath
write_job $v 1 "source.kind: file" "source.file.path: $(vdir $v)/nothing-here" \
    "execution.checkpointing.interval: 200ms"
refused $v "cannot read input path '.*nothing-here'"
[ ! -e "$(table_of $v)" ] && [ ! -e "$(vdir $v)/chk" ] || fail $v "something was written"

v=csv
mkdir -p "$(vdir $v)/in"
"$PY" "$LIB_DIR/gen_input.py" "$(vdir $v)/in" jsonl 1 50 || fail $v "gen_input"
write_job $v 1 "source.kind: file" "source.file.path: $(vdir $v)/in" "source.file.format: csv" \
    "execution.checkpointing.interval: 200ms"
refused $v "holds no .csv file; it holds 'part-000.jsonl': is source.file.format right\?"
[ ! -e "$(table_of $v)" ] || fail $v "a table was written"
start_cluster $v -Dsource.file.allow-empty=true
expect_exit $v 60 0
[ "$("$ZSINK" table count "$(table_of $v)")" = 0 ] || fail $v "allow-empty: rows from nowhere"
echo "[$v] source.file.allow-empty: true runs on the empty input"

# 2. the roles by hand: the writer's failure is unrecoverable
v=roles
write_job $v 1 "source.kind: file" "source.file.path: $(vdir $v)/nothing-here" \
    "execution.checkpointing.interval: 200ms" "restart-strategy.fixed-delay.attempts: 5"
co=tcp://127.0.0.1:$(free_port)
cm=tcp://127.0.0.1:$(free_port)
log=$(vdir $v)/coordinator.log
"$BIN/zsink-coordinator" -c "$(vdir $v)/job.yaml" --bind "$co" >"$log" 2>&1 &
cpid=$!
"$BIN/zsink-committer" --coordinator "$co" --bind "$cm" >"$(vdir $v)/committer.log" 2>&1 &
mpid=$!
"$BIN/zsink-writer" --coordinator "$co" --committer "$cm" --index 0 >"$(vdir $v)/writer.log" 2>&1 &
wpid=$!
end=$(($(now) + 15))
while kill -0 $cpid 2>/dev/null; do
    [ "$(now)" -ge "$end" ] && { kill $cpid $mpid $wpid; fail $v "the coordinator still runs"; }
    sleep 0.1
done
wait $cpid
rc=$?
kill $mpid $wpid 2>/dev/null
wait $mpid $wpid 2>/dev/null
[ $rc = 2 ] || { cat "$log"; fail $v "coordinator exit $rc, expected 2"; }
grep -q "cannot run: writer-0 failed: cannot read input path" "$log" || { cat "$log"; fail $v "no 'cannot run' message"; }
! grep -q "RESTARTING" "$log" || fail $v "the job was restarted"
echo "[$v] coordinator exit 2 at once: $(grep -o 'cannot run: .*' "$log" | cut -c1-120)"

# 3. a checkpoint that is not there
v=restore
write_job $v 1 "datagen.number-of-rows: 100" "execution.checkpointing.interval: 200ms"
refused $v "--restore-from: .*nope/chk-3" --restore-from "$(vdir $v)/nope/chk-3"
[ ! -e "$(table_of $v)" ] && [ ! -e "$(vdir $v)/chk" ] || fail $v "something was written"

# 4. two clusters of one checkpoint directory; 5. the finished run again
v=twice
N=24000
write_job $v 2 "datagen.number-of-rows: $N" "datagen.rows-per-second: 2000" \
    "execution.checkpointing.interval: 200ms"
start_cluster $v
wait_for_log $v 'Completed checkpoint [0-9]+ for job' 30
refused $v "another zsink cluster \(pid $(cluster_pid $v), job [^)]*\) runs with state.checkpoints.dir"
out=$(timeout 20 "$BIN/zsink-coordinator" -c "$(vdir $v)/job.yaml" --bind "tcp://127.0.0.1:$(free_port)" 2>&1)
rc=$?
[ $rc = 2 ] || { echo "$out"; fail $v "a second coordinator: exit $rc, expected 2"; }
echo "$out" | grep -q "another coordinator (pid .*) runs with state.checkpoints.dir" ||
    { echo "$out"; fail $v "a second coordinator: no message"; }
echo "[$v] a second coordinator by hand: exit 2"
# the same job id from another checkpoint directory, into the same table:
# its committer finds the job's lock held (exit 3), the cluster stops, exit 2
w=sameid
write_job $w 2 "datagen.number-of-rows: $N" "datagen.rows-per-second: 2000" \
    "execution.checkpointing.interval: 200ms"
sed -i "s|^table.path: .*|table.path: $(table_of $v)|" "$(vdir $w)/job.yaml"
start_cluster $w "$(job_id $v)"
expect_exit $w 30 2
grep -q "another committer is running for job $(job_id $v)" "$(clog $w)" &&
    grep -q "cannot run (exit 3)" "$(clog $w)" || fail $w "no word of the other committer"
echo "[$w] the same job id elsewhere: exit 2, $(grep -o 'another committer is running for job [^ ]*' "$(clog $w)" | head -n 1)"
expect_exit $v 60 0
oracle $v $N
refused $v "already holds a finished run of this job's input \(datagen; snapshot [0-9]+.*job.allow-rerun: true"
start_cluster $v "$(job_id $v)-again" -Djob.allow-rerun=true
expect_exit $v 60 0
stats=$("$ZSINK" table stats "$(table_of $v)" --json)
[ "$(echo "$stats" | json_get - count)" = $((2 * N)) ] &&
    [ "$(echo "$stats" | json_get - distinct_ids)" = $N ] || fail $v "allow-rerun: $stats"
echo "[$v] job.allow-rerun: the rows twice, as asked"

# 5b. a file source's finished run is its files as they were: the same
# files again are refused; the file replaced by new data (another size and
# modification time, as a nightly export at one path) is new input and runs
v=fileagain
in=$(vdir $v)/input
mkdir -p "$in"
"$PY" "$LIB_DIR/gen_input.py" "$in" jsonl 1 300 || fail $v "gen_input"
write_job $v 1 "source.kind: file" "source.file.path: $in" "source.file.format: jsonl" \
    "execution.checkpointing.interval: 200ms" "table.schema: $FILE_SCHEMA"
start_cluster $v
expect_exit $v 60 0
refused $v "already holds a finished run of this job's input \($in"
cp -p "$in"/*.jsonl "$(vdir $v)/" # the first night's file, its time kept
"$PY" "$LIB_DIR/gen_input.py" "$in" jsonl 1 500 || fail $v "gen_input"
start_cluster $v "$(job_id $v)-next"
expect_exit $v 60 0
count=$("$ZSINK" table stats "$(table_of $v)" --json | json_get - count)
[ "$count" = 800 ] || fail $v "the replaced file's rows: count $count, expected 300 + 500"
echo "[$v] the same file again refused; replaced by new data, it ran: $count rows"
# the first run's end-input snapshot expired: the latest snapshot still
# remembers that run finished (committedIdentifiers), so its file again
# (the same name, size and time) is refused
"$ZSINK" table expire-snapshots "$(table_of $v)" --retain-min 1 --retain-max 1 >/dev/null || fail $v "expire"
[ "$(ls "$(table_of $v)/snapshot" | grep -c '^snapshot-')" = 1 ] || fail $v "not expired"
cp -p "$(vdir $v)"/*.jsonl "$in/"
refused $v "already holds a finished run of this job's input \($in; end-input snapshot expired"

# 6. a FAILED job names its checkpoint; restoring from it ends exact
v=failed
N=2000
write_job $v 1 "execution.checkpointing.interval: 300ms" "datagen.rows-per-second: 400" \
    "datagen.number-of-rows: $N" "datagen.fail-at-id: 900" "restart-strategy.fixed-delay.attempts: 0"
start_cluster $v
expect_exit $v 60 1
grep -qE "Job .* over: FAILED after [0-9.]+ s, [0-9,]+ rows of this job committed .*; table .* holds [0-9]+ rows .*; 0 restarts" "$(clog $v)" ||
    fail $v "the summary does not say FAILED"
chk=$(grep -o -- "--restore-from [^ \`]*" "$(clog $v)" | head -n 1 | cut -d' ' -f2)
[ -f "$chk" ] || fail $v "the summary names no checkpoint file: '$chk'"
echo "[$v] FAILED, restore from $chk"
start_cluster $v "$(job_id $v)-restored" --restore-from "$chk" -Ddatagen.fail-at-id=
expect_exit $v 60 0
oracle $v $N

# 7. young strays are mentioned
t=$(table_of $v)
touch "$t/bucket-0/data-stray-1.parquet" "$t/bucket-0/data-stray-2.parquet"
out=$("$ZSINK" table orphans "$t")
echo "$out" | grep -q "0 orphan files older than 1h; 2 younger files in no snapshot not counted" ||
    fail $v "orphans: $out"
echo "[$v] orphans: $out"
pass
