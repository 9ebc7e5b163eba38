# zsink timeline (issue 14, point 3): every process writes its event log
# into the job's checkpoint directory; `zsink timeline JOB_DIR -o t.svg`
# draws one lane per process. The job: 1 writer, 500 ms checkpoints, 300
# rows with a failure at id 150 (scenario 3 of the tour, faster), and the
# committer killed -9 once, so that it gets a second lane. The SVG is
# rendered in a real headless Chromium: its DOM has the lanes (coordinator,
# two committers, the writer), the commits and the failure, and the
# screenshot (decoded here, png_colors.py) is not blank and shows the
# lanes' commit diamonds (orange) and the failure's cross (red).
. "$(dirname "$0")/lib.sh"

command -v chromium >/dev/null || fail setup "no chromium (scripts/setup.sh --test installs it)"
v=tl
N=300
write_job $v 1 "datagen.number-of-rows: $N" "datagen.rows-per-second: 100" \
    "datagen.fail-at-id: 150" "execution.checkpointing.interval: 500ms"
start_cluster $v
wait_for_log $v 'Completed checkpoint 2 for job' 30
kill_role $v committer
expect_exit $v 60 0
oracle $v $N
jd=$(vdir $v)/chk/$(job_id $v)
out=$("$ZSINK" timeline "$jd" -o "$(vdir $v)/timeline.svg") || fail $v "zsink timeline: $out"
echo "[$v] $out"
# what the browser parsed
dom=$(chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$(vdir $v)/timeline.svg" 2>/dev/null)
lanes=$(echo "$dom" | grep -o 'class="lane"' | wc -l)
commits=$(echo "$dom" | grep -o 'class="commit"' | wc -l)
failures=$(echo "$dom" | grep -o 'class="failure"' | wc -l)
committers=$(echo "$dom" | grep -o 'data-name="committer"' | wc -l)
echo "[$v] Chromium's DOM: $lanes lanes ($committers committers), $commits commits, $failures failures"
[ "$lanes" -ge 4 ] && [ "$committers" = 2 ] || fail $v "lanes: $lanes, committer lanes: $committers"
[ "$commits" -ge 3 ] && [ "$failures" -ge 1 ] || fail $v "commits $commits, failures $failures"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,400 \
    --screenshot="$(vdir $v)/timeline.png" "file://$(vdir $v)/timeline.svg" >/dev/null 2>&1
[ -s "$(vdir $v)/timeline.png" ] || fail $v "no screenshot"
px=$("$PY" "$LIB_DIR/png_colors.py" "$(vdir $v)/timeline.png" ee8800 dd0000 33aa33) || fail $v "png"
echo "[$v] screenshot: $px"
echo "$px" | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
c = d["colors"]
assert d["width"] == 1400 and d["nonwhite"] > 20000, d
assert c["ee8800"] > 50 and c["dd0000"] > 10 and c["33aa33"] > 20, c' || fail $v "the picture lacks lanes, commits or the failure"
pass
