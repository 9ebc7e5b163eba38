# Errors no restart can change fail the job at once, exit 2, naming the key
# and the path; and the restart limit holds for every restart path.
# ro-table, ro-chk: the table directory, or the checkpoint directory, is a
# read-only file system (a tmpfs remounted ro: as root, chmod stops
# nothing). The committer used to restart every second for ever ("cannot
# take the committer lock: … Permission denied"), the job sat in CREATED.
# Now `zsink cluster` refuses before any process starts (needs root:
# skipped without). locks: the table's .locks is a file, which the start
# check does not see; the committer finds it (ENOTDIR) and exits 2, naming
# table.path: the job ends at once, exit 2. later: the table's snapshot/
# turns read-only while the job runs: the next commit's EROFS fails the job
# at once, exit 2 (root only). dies: a committer that dies at
# start every time (exit 1, through --role-wrapper) is restarted
# restart-strategy.fixed-delay.attempts times, then the job fails, exit 1
# (it was restarted for ever).
. "$(dirname "$0")/lib.sh"

MOUNTS=
unmount_all () { for _m in $MOUNTS; do umount -l "$_m" 2>/dev/null; done; }
trap 'unmount_all' EXIT

# run_refused VARIANT STATUS PATTERN: the cluster exits STATUS within 20 s,
# its output matching PATTERN (grep -E)
run_refused () {
    _v=$1
    start_cluster "$_v"
    wait_exit "$_v" 20
    [ "$EXIT_RC" = "$2" ] || fail "$_v" "exit $EXIT_RC, expected $2"
    grep -qE -- "$3" "$(clog "$_v")" || fail "$_v" "no line matching '$3'"
    echo "[$_v] exit $EXIT_RC at t=$(elapsed)s: $(grep -E -m1 -- "$3" "$(clog "$_v")")"
}

# read_only VARIANT DIR: DIR a read-only tmpfs
read_only () {
    mkdir -p "$2"
    mount -t tmpfs -o size=4m "tmpfs-zsink-$$" "$2" || { echo "SKIP $TEST_NAME: cannot mount tmpfs"; exit 77; }
    MOUNTS="$MOUNTS $2"
    mount -o remount,ro "$2" || fail "$1" "cannot remount $2 read-only"
}

JOB="datagen.number-of-rows: 2000"
if [ "$(id -u)" = 0 ]; then
    v=ro-table
    write_fault_job $v 1 "$JOB"
    read_only $v "$(vdir $v)/table"
    run_refused $v 2 "table.path: $(vdir $v)/table: .*Read-only file system"
    v=ro-chk
    write_fault_job $v 1 "$JOB"
    read_only $v "$(vdir $v)/chk"
    run_refused $v 2 "state.checkpoints.dir: $(vdir $v)/chk: .*Read-only file system"
    # later: the table's snapshot/ turns read-only while the job runs (a
    # read-only bind mount of itself): the next commit fails on EROFS, which
    # fails the job at once, exit 2, instead of failing over until the
    # restart attempts are spent
    v=later
    write_fault_job $v 1 "datagen.rows-per-second: 1000" "datagen.number-of-rows: 100000"
    start_cluster $v
    wait_for_count $v 'Successfully commit snapshot' 2 30
    snap=$(table_of $v)/snapshot
    mount --bind "$snap" "$snap" && MOUNTS="$snap $MOUNTS" &&
        mount -o remount,bind,ro "$snap" || fail $v "cannot make $snap read-only"
    echo "[$v] t=$(elapsed)s $snap is read-only now"
    wait_exit $v 30
    [ "$EXIT_RC" = 2 ] || fail $v "exit $EXIT_RC, expected 2"
    grep -qE "cannot run: .*table.path: .*Read-only file system" "$(clog $v)" ||
        fail $v "the failure does not name table.path and the cause"
    [ "$(count_log $v 'to RESTARTING')" = 0 ] || fail $v "the job failed over on a read-only table"
    echo "[$v] exit 2 at t=$(elapsed)s: $(grep -m1 -oE 'cannot run: .*' "$(clog $v)" | cut -c1-200)"
    umount -l "$snap"
else
    echo "(ro-table, ro-chk, later skipped: read-only mounts need root)"
fi

v=locks
write_fault_job $v 1 "$JOB"
mkdir -p "$(vdir $v)/table"
echo "not a directory" >"$(vdir $v)/table/.locks"
run_refused $v 2 "table.path: cannot take the committer lock: .*Not a directory"

v=dies
write_fault_job $v 1 "$JOB" "restart-strategy.fixed-delay.attempts: 2" \
    "restart-strategy.fixed-delay.delay: 100ms"
cat >"$(vdir $v)/wrap" <<'EOS'
#!/bin/sh
# --role-wrapper: NAME BINARY ARGS...; the committer dies at start
name=$1
shift
[ "$name" = committer ] && { echo "committer: dying at start"; exit 1; }
exec "$@"
EOS
chmod +x "$(vdir $v)/wrap"
start_cluster $v --role-wrapper "$(vdir $v)/wrap"
wait_exit $v 30
[ "$EXIT_RC" = 1 ] || fail $v "exit $EXIT_RC, expected 1"
grep -q "committer died 3 times in a row before the job ran again; restart-strategy.fixed-delay.attempts is 2" \
    "$(clog $v)" || fail $v "the restart limit is not said"
[ "$(grep -c 'committer: dying at start' "$(clog $v)")" = 3 ] ||
    fail $v "the committer started $(grep -c 'committer: dying at start' "$(clog $v)") times, expected 3"
echo "[$v] exit 1 at t=$(elapsed)s after 3 committer deaths"
pass
