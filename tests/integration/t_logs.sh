# Log files per process and a level (issue 14, point 2): with log.dir each
# process's lines go to <dir>/<name>.log too (the cluster's own to
# cluster.log), a restarted process appending to its file; log.level debug
# shows DEBUG lines, warn none of INFO.
. "$(dirname "$0")/lib.sh"

v=debug
write_job $v 2 "datagen.number-of-rows: 4000" "datagen.rows-per-second: 4000" \
    "execution.checkpointing.interval: 200ms" "log.dir: $(vdir $v)/logs" "log.level: debug"
start_cluster $v
wait_for_log $v 'Completed checkpoint 2 for job' 30
kill_role $v writer-1
expect_exit $v 60 0
oracle $v 4000
d=$(vdir $v)/logs
for f in cluster coordinator committer writer-0 writer-1; do
    [ -s "$d/$f.log" ] || fail $v "no $f.log in $(ls "$d")"
done
grep -q "Completed checkpoint 2 for job" "$d/coordinator.log" || fail $v "coordinator.log lacks its lines"
grep -q "Successfully commit snapshot" "$d/committer.log" || fail $v "committer.log lacks its lines"
# the two lines bench/flink-paimon pairs for "checkpoint triggered -> snapshot durable and
# visible", in Flink's and Paimon's words (Flink's trigger line adds a "(type=...)" before the @)
grep -qE "INFO  \[coordinator\] Triggering checkpoint 2 @ [0-9]{13} for job [^ ]+\.$" "$d/coordinator.log" ||
    fail $v "no 'Triggering checkpoint 2 @ <epoch ms> for job <id>.' at INFO: $(grep -m1 Triggering "$d/coordinator.log")"
grep -qE "INFO  \[committer\] Successfully commit snapshot [0-9]+ to table .* by user .* with identifier 2 and kind APPEND\.$" \
    "$d/committer.log" || fail $v "no 'Successfully commit snapshot S ... with identifier 2 and kind APPEND.'"
grep -q "Job .* over: FINISHED after .*; table .* holds" "$d/cluster.log" || fail $v "cluster.log lacks the summary"
grep -q " DEBUG \[committer\]" "$d/committer.log" || fail $v "log.level debug: no DEBUG line"
[ "$(grep -c 'writer 1 starting' "$d/writer-1.log")" = 2 ] || fail $v "the restarted writer-1 did not append"
! grep -q '\[writer-0\]' "$d/writer-1.log" || fail $v "writer-0's lines in writer-1.log"
echo "[$v] $(cd "$d" && wc -l -- *.log | tail -n 1): $(ls "$d" | tr '\n' ' ')"

v=warn
write_job $v 1 "datagen.number-of-rows: 1000" "datagen.rows-per-second: 4000" \
    "execution.checkpointing.interval: 200ms" "log.level: warn"
start_cluster $v
expect_exit $v 60 0
oracle $v 1000
! grep -qE ' (INFO |DEBUG) \[' "$(clog $v)" || fail $v "log.level warn: INFO lines: $(grep -m1 -E ' INFO  \[' "$(clog $v)")"
echo "[$v] log.level warn: no INFO line from any process"
pass
