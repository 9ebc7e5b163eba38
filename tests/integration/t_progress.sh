# What a job says while it runs and when it ends (issue 26, items 2 and 8),
# read from `zsink cluster`'s output:
#   - a bounded datagen job into a table that already holds rows of another
#     job, with a writer killed -9 halfway (a normal failover): the cluster's
#     progress lines show rows/s, percent and ETA; "rows committed" counts
#     this job's rows only (never more than it produces, although the
#     table holds more); no progress line lags a commit the coordinator
#     logged before it (its "committed checkpoint N in snapshot S: R rows"
#     line); the final line says FINISHED, the elapsed time and the average
#     rows/s, and the job's rows; and neither this run nor the first (a
#     plain bounded run) logs a WARN line: a failover and the end of a
#     bounded job are normal, and a WARN there would be a real problem.
#   - the killed writer's failover is told in plain words ("writer-N
#     restarted: pid Q registered in place of pid P, which is gone").
#   - a coordinator killed -9 (restarted by the cluster, the participants
#     refused by the new one and saying hello again): no WARN either, and
#     the final line counts the job's rows across both coordinators.
. "$(dirname "$0")/lib.sh"

# first: a plain bounded job, 3,000 rows, into the shared table
v=first
write_job $v 1 "datagen.number-of-rows: 3000" "datagen.rows-per-second: 6000" \
    "execution.checkpointing.interval: 200ms"
start_cluster $v
expect_exit $v 60 0
grep -q "Job .* over: FINISHED after [0-9.]* s, 3,000 rows of this job committed" "$(clog $v)" ||
    fail $v "no final line for 3,000 rows: $(tail -n 2 "$(clog $v)")"

# second: 20,000 rows at 5,000 rows/s into the same table, a writer killed
v=second
N=20000
write_job $v 2 "datagen.number-of-rows: $N" "datagen.rows-per-second: 5000" \
    "execution.checkpointing.interval: 200ms"
sed -i "s|^table.path: .*|table.path: $(table_of first)|" "$(vdir $v)/job.yaml"
start_cluster $v
wait_for_log $v 'progress: state RUNNING, rows read [0-9]+, rows committed [1-9]' 30
kill_role $v writer-1
wait_for_log $v 'writer-1 restarted: pid [0-9]+ registered in place of pid [0-9]+, which is gone' 30
expect_exit $v 90 0

"$PY" - "$(clog first)" "$(clog $v)" "$N" <<'PYEOF' || fail $v "the output"
import re, sys
first, log, n = open(sys.argv[1]).read(), open(sys.argv[2]).read(), int(sys.argv[3])
for name, text in (("first", first), ("second", log)):
    warns = [l for l in text.splitlines() if " WARN " in l]
    assert not warns, f"{name}: WARN lines in a normal run:\n" + "\n".join(warns)
commit_re = re.compile(r"committed (?:checkpoint \d+|the end of input) in snapshot (\d+): ([\d,]+) rows of this job")
prog_re = re.compile(r"progress: state (\w+), rows read (\d+), rows committed (\d+) \(([\d,]+) rows/s(?:, ([\d.]+)%)?(?:, ETA (\d+) s)?\)")
logged, progress, with_eta = 0, 0, 0
for l in log.splitlines():
    m = commit_re.search(l)
    if m:
        logged = max(logged, int(m.group(2).replace(",", "")))
        continue
    m = prog_re.search(l)
    if m:
        progress += 1
        committed = int(m.group(3))
        assert committed >= logged, f"progress lags a logged commit ({logged} rows): {l}"
        assert committed <= n, f"rows committed beyond this job's {n}: {l}"
        if m.group(1) == "RUNNING" and committed:
            assert m.group(5) is not None, f"no percent for a bounded job: {l}"
            with_eta += m.group(6) is not None
assert progress >= 2, f"{progress} progress lines"
assert with_eta >= 1, "no ETA in any progress line"
assert logged == n, f"the coordinator's last commit line says {logged} rows, not {n}"
fin = re.search(r"Job \S+ over: FINISHED after ([\d.]+) s, ([\d,]+) rows of this job committed \(([\d,]+) rows/s on average\); table \S+ holds (\d+) rows", log)
assert fin, "no final FINISHED line"
secs, rows, rate, table = float(fin.group(1)), int(fin.group(2).replace(",", "")), int(fin.group(3).replace(",", "")), int(fin.group(4))
assert rows == n and table == n + 3000, (rows, table)
assert abs(rate - rows / secs) <= 0.05 * rows / secs + 1, (rate, rows, secs)
print(f"[second] {progress} progress lines, none behind a commit line; final: {rows} rows "
      f"in {secs} s, {rate} rows/s; the table holds {table}; no WARN in either run")
PYEOF

v=third
write_job $v 2 "datagen.number-of-rows: 12000" "datagen.rows-per-second: 4000" \
    "execution.checkpointing.interval: 200ms"
start_cluster $v
wait_for_count $v 'committed checkpoint [0-9]+ in snapshot' 3 30
kill_role $v coordinator
wait_for_count $v 'switched from state CREATED to RESTORING' 2 30
expect_exit $v 90 0
oracle $v 12000
! grep " WARN " "$(clog $v)" || fail $v "WARN lines after a coordinator's kill -9"
grep -q "Job .* over: FINISHED after [0-9.]* s, 12,000 rows of this job committed" "$(clog $v)" ||
    fail $v "final line: $(tail -n 1 "$(clog $v)")"
echo "[$v] coordinator killed: no WARN, $(tail -n 1 "$(clog $v)" | sed 's/.*| //')"
pass
