# What zsink cancel, stop --savepoint and status say (issue 26, item 8):
# cancel and stop print one sentence (the job, and the checkpoint it ends
# at or the savepoint to go on from), --json the coordinator's answer;
# zsink status of a job that is over shows how it ended, its rows
# committed and its last snapshot, and the text and the JSON say the same.
. "$(dirname "$0")/lib.sh"

# status_agrees VARIANT STATE ROWS: the finished job's status, text and JSON
status_agrees () {
    _d=$(vdir "$1")
    "$ZSINK" status -c "$_d/job.yaml" >"$_d/status.txt" || fail "$1" "zsink status failed"
    "$ZSINK" status -c "$_d/job.yaml" --json >"$_d/status.json" || fail "$1" "zsink status --json failed"
    "$PY" - "$_d" "$2" "$3" "$(table_of "$1")" "$ZSINK" <<'PYEOF' || fail "$1" "status: $(cat "$_d/status.txt")"
import json, re, subprocess, sys
d, state, rows, table, zsink = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
doc, text = json.load(open(f"{d}/status.json")), open(f"{d}/status.txt").read()
assert doc["state"] == state and doc["running"] is False, doc
m = re.search(r"job (\S+): (\w+) \(not running", text)
assert m and m.group(1) == doc["job_id"] and m.group(2) == state, text
m = re.search(r"rows committed (\d+) \(snapshot (\d+); the table then held (\d+) rows\)", text)
assert m, f"no rows committed in the text: {text}"
assert int(m.group(1)) == doc["rows_committed"] and int(m.group(2)) == doc["last_snapshot"] \
    and int(m.group(3)) == doc["table_rows"], (m.groups(), doc)
snaps = json.loads(subprocess.check_output([zsink, "table", "snapshots", table, "--json"]))
latest = max(s["id"] if "id" in s else s["snapshot_id"] for s in (snaps if isinstance(snaps, list) else snaps["snapshots"]))
assert doc["last_snapshot"] >= 1 and doc["last_snapshot"] <= latest, (doc["last_snapshot"], latest)
if rows != "any":
    assert doc["rows_committed"] == int(rows), (doc["rows_committed"], rows)
print(f"[{d.split('/')[-1]}] status {state}: {doc['rows_committed']} rows committed, "
      f"snapshot {doc['last_snapshot']} (text and JSON agree)")
PYEOF
}

v=fin
write_job $v 2 "datagen.number-of-rows: 4000" "datagen.rows-per-second: 8000" \
    "execution.checkpointing.interval: 200ms"
start_cluster $v
expect_exit $v 60 0
status_agrees $v FINISHED 4000

v=cancel
write_job $v 1 "datagen.rows-per-second: 3000" "execution.checkpointing.interval: 200ms"
start_cluster $v
wait_for_count $v 'committed checkpoint [0-9]+ in snapshot' 2 30
# running: the text shows the progress (an unbounded job: rows/s only)
st=$("$ZSINK" status -c "$(vdir $v)/job.yaml") || fail $v "zsink status: $st"
echo "$st" | grep -qE '^progress: [1-9][0-9]* rows of this job committed, [0-9]+ rows/s$' ||
    fail $v "no progress in the status: $st"
out=$("$ZSINK" cancel -c "$(vdir $v)/job.yaml") || fail $v "zsink cancel: $out"
echo "$out" | grep -qE "^Job $(job_id $v) is being canceled: it ends at its last completed checkpoint, [0-9]+\.$" ||
    fail $v "zsink cancel said: $out"
echo "[$v] $out"
expect_exit $v 60 0
status_agrees $v CANCELED any

v=cjson
write_job $v 1 "datagen.rows-per-second: 3000" "execution.checkpointing.interval: 200ms"
start_cluster $v
wait_for_log $v 'Completed checkpoint [0-9]+ for job' 30
out=$("$ZSINK" cancel --json -c "$(vdir $v)/job.yaml") || fail $v "zsink cancel --json: $out"
[ "$(echo "$out" | json_get - result)" = canceling ] && [ "$(echo "$out" | json_get - job_id)" = "$(job_id $v)" ] ||
    fail $v "zsink cancel --json said: $out"
expect_exit $v 60 0

v=stop
write_job $v 1 "datagen.rows-per-second: 3000" "execution.checkpointing.interval: 200ms"
start_cluster $v
wait_for_count $v 'Completed checkpoint [0-9]+ for job' 2 30
out=$("$ZSINK" stop --savepoint -c "$(vdir $v)/job.yaml") || fail $v "zsink stop: $out"
sp=$(echo "$out" | sed -n 's/^Job .* stopped with a savepoint in \([^ ]*\)\. To go on from it: zsink cluster -c JOB.yaml --restore-from \([^ ]*\)$/\1 \2/p')
set -- $sp
[ $# = 2 ] && [ "$1" = "$2" ] && [ -f "$1" ] || fail $v "zsink stop --savepoint said: $out"
echo "[$v] $out"
expect_exit $v 60 0
grep -q "Job $(job_id $v) over: FINISHED (stopped with a savepoint) after" "$(clog $v)" ||
    fail $v "final line: $(tail -n 1 "$(clog $v)")"
status_agrees $v STOPPED any

# a refusal is one line on stderr, exit 1
out=$("$ZSINK" cancel --coordinator "tcp://127.0.0.1:$(free_port)" 2>&1) && fail refuse "cancel of nothing succeeded: $out"
[ "$(echo "$out" | wc -l)" = 1 ] || fail refuse "more than one line: $out"
pass
