# About a hundred checkpoints in one job (100 ms interval), so commits go
# through several manifest merges (every 30 manifests), with the committer
# killed once in the middle: the re-commit builds on merged manifests and
# the result is exact, verify clean, no orphan.
. "$(dirname "$0")/lib.sh"

v=p2
write_fault_job $v 2 "execution.checkpointing.interval: 100ms" \
    "datagen.number-of-rows: 30000" "datagen.rows-per-second: 3000"
start_cluster $v
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 40 60
kill_role $v committer
expect_exit $v 90 0
oracle $v 30000 --last-max
n=$("$ZSINK" table snapshots "$(table_of $v)" --json | "$PY" -c "import json,sys; print(len(json.load(sys.stdin)))")
[ "$n" -ge 60 ] || fail $v "only $n snapshots: the test means to cross several manifest merges"
echo "[$v] $n snapshots"
pass
