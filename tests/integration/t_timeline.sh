# zsink timeline (issue 14, point 3; issue 26, item 3): every process
# writes its event log into the job's checkpoint directory, zsink cluster
# its children's deaths and restarts; `zsink timeline DIR -o t.svg` draws
# one lane per process, to be read without hovering.
#
# tl: 1 writer, 300 ms checkpoints, 400 rows with a failure at id 150, the
#     committer killed -9 after checkpoint 2 and the writer after
#     checkpoint 7, so both get a second lane.
# cx: canceled after its first checkpoint (CANCELED).
# fl: fails for good at its first failure (attempts 0: FAILED).
# kl: the same by a kill -9 of its writer: zsink cluster ends the job (its
#     restart limit), and says so in the job's event log (FAILED).
#
# Each SVG is laid out by a real headless Chromium and measured there
# (timeline_check.py): every snapshot labelled, every checkpoint's id
# written, every job state entered named, no two labels overlapping, each
# SIGKILL marked and named on its lane, which ends there, and the
# replacement's lane starting where zsink cluster started it. The same
# again in a picture only 500 px wide (labels in more rows, none dropped).
# The screenshot (decoded here, png_colors.py) shows the commits, the
# failure, the checkpoints and the deaths. zsink cluster says "exited on
# signal 9 (SIGKILL)". DIR may be state.checkpoints.dir: the latest job in
# it, or --job ID.
. "$(dirname "$0")/lib.sh"

command -v chromium >/dev/null || fail setup "no chromium (scripts/setup.sh --test installs it)"
N=400
write_job tl 1 "datagen.number-of-rows: $N" "datagen.rows-per-second: 100" \
    "datagen.fail-at-id: 150" "execution.checkpointing.interval: 300ms"
write_job cx 1 "datagen.number-of-rows: 100000" "datagen.rows-per-second: 200" \
    "execution.checkpointing.interval: 300ms"
write_job fl 1 "datagen.number-of-rows: 2000" "datagen.rows-per-second: 200" \
    "datagen.fail-at-id: 100" "execution.checkpointing.interval: 300ms" \
    "restart-strategy.fixed-delay.attempts: 0"
write_job kl 1 "datagen.number-of-rows: 100000" "datagen.rows-per-second: 200" \
    "execution.checkpointing.interval: 300ms" "restart-strategy.fixed-delay.attempts: 0"
start_cluster tl
start_cluster cx
start_cluster fl
start_cluster kl
wait_for_log tl 'Completed checkpoint 2 for job' 30
committer=$(role_pid tl committer)
kill_role tl committer
wait_for_log tl 'Completed checkpoint 7 for job' 60
writer=$(role_pid tl writer-0)
kill_role tl writer-0
wait_for_log cx 'Completed checkpoint 1 for job' 30
"$ZSINK" cancel -c "$(vdir cx)/job.yaml" >/dev/null || fail cx "zsink cancel"
expect_exit cx 30 0
expect_exit fl 30 1
wait_for_log kl 'Completed checkpoint 1 for job' 30
klw=$(role_pid kl writer-0)
kill_role kl writer-0
expect_exit kl 30 1
grep -qE "writer-0 \\(pid $klw\\) exited on signal 9 \\(SIGKILL\\); writer-0 died 1 times" "$(clog kl)" \
    || fail kl "zsink cluster did not say pid $klw exited on signal 9 (SIGKILL) before failing the job"
expect_exit tl 90 0
oracle tl $N
for pid in "$committer" "$writer"; do
    grep -qE "\\(pid $pid\\) exited on signal 9 \\(SIGKILL\\); restarting" "$(clog tl)" \
        || fail tl "zsink cluster did not say pid $pid exited on signal 9 (SIGKILL)"
done

# draw V ARGS...: zsink timeline ARGS -o V/timeline.svg; its output in $out
draw () {
    _v=$1
    shift
    out=$("$ZSINK" timeline "$@" -o "$(vdir "$_v")/timeline.svg") || fail "$_v" "zsink timeline: $out"
    echo "[$_v] $out"
}
# check V STATES [DEATHS]: what Chromium drew of V/timeline.svg, against V's events
check () {
    _r=$("$PY" "$LIB_DIR/timeline_check.py" "$(vdir "$1")/timeline.svg" \
        "$(chk_of "$1")/$(job_id "$1")" --states "$2" --deaths "${3:-}") || fail "$1" "$_r"
    echo "[$1] Chromium: $_r"
}

draw tl "$(chk_of tl)/$(job_id tl)"
check tl RESTORING,RUNNING,RESTARTING,FINISHING,FINISHED committer:SIGKILL,writer-0:SIGKILL
draw cx "$(chk_of cx)"
check cx RUNNING,CANCELED
draw fl "$(chk_of fl)"
check fl RUNNING,FAILED
draw kl "$(chk_of kl)"
check kl RUNNING,FAILED writer-0:SIGKILL

# the lanes: the coordinator, two committers, two writers
dom=$(chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$(vdir tl)/timeline.svg" 2>/dev/null)
lanes=$(echo "$dom" | grep -o 'class="lane"' | wc -l)
committers=$(echo "$dom" | grep -o 'class="lane" data-name="committer"' | wc -l)
writers=$(echo "$dom" | grep -o 'class="lane" data-name="writer-0"' | wc -l)
echo "[tl] lanes: $lanes ($committers committers, $writers writers)"
[ "$lanes" = 5 ] && [ "$committers" = 2 ] && [ "$writers" = 2 ] \
    || fail tl "lanes: $lanes, committer lanes: $committers, writer lanes: $writers"

# the whole picture: as wide as zsink timeline made it
w=$(grep -o '<svg [^>]*width="[0-9]*"' "$(vdir tl)/timeline.svg" | grep -o '[0-9]*"$' | tr -d '"')
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$w",420 \
    --screenshot="$(vdir tl)/timeline.png" "file://$(vdir tl)/timeline.svg" >/dev/null 2>&1
[ -s "$(vdir tl)/timeline.png" ] || fail tl "no screenshot"
px=$("$PY" "$LIB_DIR/png_colors.py" "$(vdir tl)/timeline.png" ee8800 dd0000 33aa33 990000) \
    || fail tl "png"
echo "[tl] screenshot: $px"
echo "$px" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
c = d["colors"]
assert d["width"] == int(sys.argv[1]) and d["nonwhite"] > 20000, d
assert c["ee8800"] > 50 and c["dd0000"] > 10 and c["33aa33"] > 20, c
assert c["990000"] > 2 * 60, c' "$w" || fail tl "the picture lacks lanes, commits, the failure or the deaths"

# narrow: more rows, nothing dropped, nothing overlapping
cp "$(vdir tl)/timeline.svg" "$(vdir tl)/wide.svg"
draw tl "$(chk_of tl)/$(job_id tl)" --width 500
check tl RUNNING,RESTARTING,FINISHED committer:SIGKILL,writer-0:SIGKILL

# DIR = state.checkpoints.dir: the latest job (another, older one beside
# it, named to sort after it), or the one --job names
older=zz-older-job
cp -r "$(chk_of tl)/$(job_id tl)" "$(chk_of tl)/$older"
touch -d '1 hour ago' "$(chk_of tl)/$older"/events-*
draw tl "$(chk_of tl)"
echo "$out" | grep -q "job $(job_id tl)," || fail tl "not the latest job: $out"
draw tl "$(chk_of tl)" --job $older
echo "$out" | grep -q "job $older," || fail tl "--job $older: $out"
err=$("$ZSINK" timeline "$(chk_of tl)" --job nosuch -o /dev/null 2>&1) && fail tl "--job nosuch: exit 0"
echo "$err" | grep -q "no job nosuch in" || fail tl "--job nosuch: $err"
err=$("$ZSINK" timeline "$(vdir tl)/table" -o /dev/null 2>&1) && fail tl "a table as DIR: exit 0"
echo "$err" | grep -q "no events-\\*.jsonl in" || fail tl "a table as DIR: $err"
echo "[tl] DIR as state.checkpoints.dir: the latest job, --job ID, errors named"
pass
