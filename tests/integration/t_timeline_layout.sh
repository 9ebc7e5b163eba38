# zsink timeline's layout on event logs written here, no cluster (issue 26,
# item 3): what a real job rarely shows at once, measured in headless
# Chromium by timeline_check.py as t_timeline's pictures are.
#
# - 300 checkpoints and 330 snapshots (every 10th a COMPACT one) in 3 s:
#   at the default width the picture grows wider; at a fixed --width 600
#   the labels take many rows. Either way every label is there and none
#   overlaps another.
# - writer-0 killed (SIGKILL) and started again a second later: its lane
#   ends at the kill, the new one's begins at the restart.
# - writer-1 died of a real-time signal before it logged anything: a lane
#   of its own from zsink cluster's event alone, labelled "signal 34".
# - the job failed by zsink cluster's hand: its FAILED (no pid) is drawn on
#   the coordinator's lane.
# - --last: the state the job was in at the picture's start is drawn.
. "$(dirname "$0")/lib.sh"

command -v chromium >/dev/null || fail setup "no chromium (scripts/setup.sh --test installs it)"
v=ly
job=$(vdir $v)/chk/layout-job
mkdir -p "$job"
"$PY" - "$job" <<'PYEOF'
import json, sys
d = sys.argv[1]
T = 1796400000000.0
files = {}
def ev(p, pid, t, e, **kw):
    files.setdefault(p if p == "cluster" else p, []).append(
        json.dumps({"t": T + t, "p": p, "pid": pid, "e": e, **kw}))
ev("coordinator", 100, 0, "start", job="layout-job", epoch=1)
ev("coordinator", 100, 1, "state", state="RESTORING", epoch=1, why="")
ev("coordinator", 100, 2, "state", state="RUNNING", epoch=1, why="")
ev("committer", 101, 0, "start", job="layout-job")
ev("writer-0", 102, 0, "start", job="layout-job")
snap = 0
for i in range(1, 301):
    t = 5 + i * 10
    ev("coordinator", 100, t, "trigger", id=i, epoch=1, savepoint=False)
    ev("writer-0", 102 if t < 1500 else 103, t + 1, "barrier", id=i, files=1, rows=10) \
        if not 1500 <= t < 2500 else None
    ev("coordinator", 100, t + 3, "complete", id=i, ms=3, bytes=1000)
    snap += 1
    ev("committer", 101, t + 4, "commit", id=i, snapshot=snap, rows=10)
    if i % 10 == 0:
        snap += 1
        ev("committer", 101, t + 5, "compact", snapshot=snap)
ev("cluster", 90, 1500, "exit", role="writer-0", role_pid=102, signal=9, sig="SIGKILL")
ev("cluster", 90, 2500, "spawn", role="writer-0", role_pid=103)
ev("writer-0", 103, 2510, "start", job="layout-job")
ev("cluster", 90, 700, "exit", role="writer-1", role_pid=104, signal=34, sig="a real-time signal")
ev("cluster", 90, 3100, "exit", role="coordinator", role_pid=100, status=0)
ev("cluster", 90, 3110, "state", role="coordinator", state="FAILED", why="ended by zsink cluster")
for name, lines in files.items():
    open(f"{d}/events-{name}.jsonl", "w").write("\n".join(lines) + "\n")
PYEOF

# check ARGS...: draw with ARGS, measure in Chromium
check () {
    out=$("$ZSINK" timeline "$job" -o "$(vdir $v)/t.svg" "$@") || fail $v "zsink timeline $*: $out"
    _r=$("$PY" "$LIB_DIR/timeline_check.py" "$(vdir $v)/t.svg" "$job" --states RUNNING,FAILED \
        --deaths writer-0:SIGKILL,"writer-1:a real-time signal") || fail $v "$* : $_r"
    echo "[$v] $* $_r"
}
check
echo "$_r" | grep -qE "width (1[5-9][0-9]{2}|[2-9][0-9]{3}|1[0-9]{4})" || fail $v "the picture did not grow: $_r"
grep -q 'class="lane" data-name="writer-1" data-pid="104"' "$(vdir $v)/t.svg" \
    || fail $v "no lane for writer-1, known only by its death"
grep -q 'class="label state" data-state="FAILED"' "$(vdir $v)/t.svg" \
    || fail $v "zsink cluster's FAILED not drawn"
check --width 600
echo "$_r" | grep -q "width 600;" || fail $v "--width 600 not kept: $_r"
# --last 1s: RUNNING, entered before, drawn at the picture's start
out=$("$ZSINK" timeline "$job" -o "$(vdir $v)/last.svg" --last 1s) || fail $v "--last: $out"
grep -q 'class="state-band" data-state="RUNNING"' "$(vdir $v)/last.svg" \
    || fail $v "--last 1s: the state RUNNING the job was in is not drawn"
echo "[$v] --last 1s: the job's state at the start drawn"
pass
