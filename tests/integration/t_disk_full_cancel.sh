# Cancel (Ctrl-C) while a disk is full, then space returns. chk: the
# checkpoint directory's disk is full, so the coordinator stops to be
# restarted again and again (it cannot persist job.json); table: the
# table's disk is full, so writers and the committer fail over again and
# again. Either way the cancel ends in bounded time (it used to wait for
# space, saying "Canceling job" ~11 times a second): said once, carried out
# by the coordinator or, when it cannot, by the cluster itself within its
# deadline. No data file of the aborted checkpoints is left (verify and
# orphans at 0 s), and once space returns, a restore from the latest
# checkpoint makes the table exactly ids 1..N.
# Needs root (mount); skipped (exit 77) elsewhere.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
    echo "SKIP $TEST_NAME: needs root to mount a tmpfs"
    exit 77
fi
N=60000
MOUNTS=
unmount_all () { for _m in $MOUNTS; do umount -l "$_m" 2>/dev/null; done; }
trap 'unmount_all' EXIT

fill () {
    dd if=/dev/zero of="$1/filler" bs=1M 2>/dev/null
    dd if=/dev/zero of="$1/filler-small" bs=4k 2>/dev/null
    echo "[$v] t=$(elapsed)s filled $1: $(df --output=avail -B1 "$1" | tail -n 1 | tr -d ' ') bytes free"
}

scenario () {
    v=$1
    d=$(vdir "$v")
    mkdir -p "$d/table" "$d/chk"
    for m in "$d/table" "$d/chk"; do
        mount -t tmpfs -o size=24m "tmpfs-zsink-$$" "$m" || { echo "SKIP $TEST_NAME: cannot mount tmpfs"; exit 77; }
        MOUNTS="$MOUNTS $m"
    done
    write_fault_job "$v" 2 "datagen.rows-per-second: 4000" "datagen.number-of-rows: $N" \
        "restart-strategy.fixed-delay.attempts: 200" "restart-strategy.fixed-delay.delay: 300ms"
    start_cluster "$v"
    wait_for_count "$v" 'Successfully commit snapshot' 3 60
    case $v in
    chk)
        fill "$d/chk"
        wait_for_count "$v" 'coordinator \(pid [0-9]*\) stopped to be restarted' 2 60 ;;
    table)
        fill "$d/table"
        wait_for_count "$v" 'No space left on device' 3 60 ;;
    esac
    t0=$(date +%s)
    kill -INT "$(cluster_pid "$v")"
    # bounded: the cluster's own deadline is 10 s, then 3 s to SIGKILL
    wait_exit "$v" 30
    took=$(($(date +%s) - t0))
    echo "[$v] canceled with the disk full: exit $EXIT_RC after $took s"
    [ "$EXIT_RC" = 0 ] || fail "$v" "cluster exit status $EXIT_RC after the cancel, expected 0"
    [ "$(count_log "$v" 'Canceling job .* \(signal\)')" = 1 ] ||
        fail "$v" "'Canceling job' said $(count_log "$v" 'Canceling job .* \(signal\)') times"
    grep -E 'Cleaned after job|switched from state [A-Z]+ to CANCELED' "$(clog "$v")" | tail -n 2
    # nothing of the aborted checkpoints is left, even before space returns
    t=$(table_of "$v")
    "$ZSINK" table orphans "$t" --older-than 0s | grep -q '^0 orphan files' ||
        fail "$v" "orphans after the cancel: $("$ZSINK" table orphans "$t" --older-than 0s)"
    "$ZSINK" table verify "$t" --orphans-older-than 0s >/dev/null || fail "$v" "verify failed"
    rm -f "$d/table/filler" "$d/table/filler-small" "$d/chk/filler" "$d/chk/filler-small"
    # space is back: a restore from the latest checkpoint completes the job
    id=$(cat "$d/job_id")
    chk=$(ls "$d/chk/$id" | grep '^chk-[0-9]*$' | sort -t- -k2 -n | tail -n 1)
    [ -n "$chk" ] || fail "$v" "no checkpoint to restore from"
    mv "$d/cluster.log" "$d/cluster-canceled.log"
    start_cluster "$v" "$id-r" --restore-from "$d/chk/$id/$chk"
    expect_exit "$v" 120 0
    oracle "$v" "$N" --last-max
}
scenario chk
scenario table
pass
