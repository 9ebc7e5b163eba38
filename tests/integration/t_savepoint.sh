# Scenario 10: stop with a savepoint, restore a new job from it, then refuse
# to restore the finished job. Parallelism 1 and 3, concurrently:
#  1. job A (ids 1..20000 at 2,000 rows/s) is stopped with `zsink stop
#     --savepoint`: exit 0, the savepoint path printed and logged;
#  2. job B (a new job id) --restore-from the savepoint finishes the input:
#     ids 1..20000 exactly once, one commit user across both jobs;
#  3. job C --restore-from B's last retained checkpoint (B has committed
#     INT64_MAX: finished) is refused: non-zero exit, and the error names
#     9223372036854775807 / "finished".
. "$(dirname "$0")/lib.sh"

drive () {
    v=$1 p=${1#p}
    write_fault_job "$v" "$p" "datagen.rows-per-second: 2000" \
        "state.checkpoints.num-retained: 2"
    d=$(vdir "$v") log=$(clog "$v")
    start_cluster "$v" "$(job_id "$v")-a"
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' 2 30
    sp=$("$ZSINK" stop --savepoint --json -c "$d/job.yaml") || fail "$v" "zsink stop --savepoint failed: $sp"
    path=$(echo "$sp" | json_get - savepoint)
    echo "[$v] savepoint $path"
    expect_exit "$v" 60 0
    grep -q "stopped with savepoint $path" "$log" || fail "$v" "'stopped with savepoint $path' not logged"
    [ -f "$path" ] || fail "$v" "savepoint $path does not exist"
    user=$("$ZSINK" table snapshots "$(table_of "$v")" --json | "$PY" -c \
        'import json, sys; print(json.load(sys.stdin)[-1]["commit_user"])')
    "$ZSINK" table stats "$(table_of "$v")" --json | "$PY" -c 'import json, sys
d = json.load(sys.stdin)
sys.exit(0 if 0 < d["count"] < 20000 and d["count"] == d["distinct_ids"] else 1)' ||
        fail "$v" "after the savepoint: $("$ZSINK" table stats "$(table_of "$v")" --json)"

    job_b=$(job_id "$v")-b
    start_cluster "$v" "$job_b" --restore-from "$path"
    expect_exit "$v" 60 0
    grep -q "Restoring new job $job_b from $path" "$log" || fail "$v" "job B did not restore from $path"
    oracle "$v" 20000 --last-max --user "$user"

    last=$(ls -d "$d/chk/$job_b"/chk-* 2>/dev/null | sort -t- -k2 -n | tail -n 1)
    [ -n "$last" ] || fail "$v" "no retained checkpoint of job B in $d/chk/$job_b"
    echo "[$v] restoring finished job B's $last (must be refused)"
    start_cluster "$v" "$(job_id "$v")-c" --restore-from "$last"
    wait_exit "$v" 30
    [ "$EXIT_RC" != 0 ] || fail "$v" "restoring a finished job's checkpoint was accepted (exit 0)"
    tail -n 20 "$log" | grep -qE '9223372036854775807|finished' ||
        fail "$v" "the refusal does not mention 9223372036854775807 or 'finished'"
    echo "[$v] refused (exit $EXIT_RC): $(grep 'cannot restore' "$log" | tail -n 1 | cut -c1-160)"
    oracle "$v" 20000 --last-max --user "$user"
}
run_variants drive p1 p3
pass
