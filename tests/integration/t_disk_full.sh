# A full disk: the table and the checkpoint directory each live on a small
# tmpfs; once the job has committed a few snapshots both are filled to the
# last block. Every role that needs space gets ENOSPC, says so naming the
# file, and the job fails over and retries; what was committed stays
# readable and verifies clean the whole time. When space returns (the
# filler files are removed) the job resumes from its last checkpoint and
# ends with ids 1..N exactly once.
# Needs root (mount); skipped (exit 77) elsewhere.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
    echo "SKIP $TEST_NAME: needs root to mount a tmpfs"
    exit 77
fi

v=full
d=$(vdir "$v")
MOUNTS=
unmount_all () { for _m in $MOUNTS; do umount -l "$_m" 2>/dev/null; done; }
trap 'unmount_all' EXIT
mkdir -p "$d/table" "$d/chk"
for m in "$d/table" "$d/chk"; do
    umount -l "$m" 2>/dev/null
    mount -t tmpfs -o size=24m "tmpfs-zsink-$$" "$m" || { echo "SKIP $TEST_NAME: cannot mount tmpfs"; exit 77; }
    MOUNTS="$MOUNTS $m"
done

# fill DIR: a filler file until the disk has no block left.
fill () {
    dd if=/dev/zero of="$1/filler" bs=1M 2>/dev/null
    dd if=/dev/zero of="$1/filler-small" bs=4k 2>/dev/null
    echo "[$v] t=$(elapsed)s filled $1: $(df --output=avail -B1 "$1" | tail -n 1 | tr -d ' ') bytes free"
}

write_fault_job "$v" 2 "datagen.rows-per-second: 4000" "datagen.number-of-rows: 60000" \
    "restart-strategy.fixed-delay.attempts: 200" "restart-strategy.fixed-delay.delay: 300ms"
start_cluster "$v"

# full_phase DIR [CHECK]: fill DIR until roles have failed on it a few
# times (each time saying "No space left on device" and the file), run
# CHECK, check the committed table meanwhile, then give the space back.
full_phase () {
    _seen=$(count_log "$v" 'No space left on device')
    fill "$1"
    wait_for_count "$v" 'No space left on device' $((_seen + 3)) 60
    [ -z "${2:-}" ] || "$2"
    grep 'No space left on device' "$(clog "$v")" | tail -n 2
    # the job is running: its checkpoint in flight has young data files
    "$ZSINK" table verify "$(table_of "$v")" --orphans-older-than 1h >/dev/null ||
        fail "$v" "verify failed while $1 was full"
    _rows=$("$ZSINK" table count "$(table_of "$v")") || fail "$v" "count failed while $1 was full"
    echo "[$v] t=$(elapsed)s $1 full: $_rows rows committed and readable; freeing space"
    rm -f "$1/filler" "$1/filler-small"
}

# The table's disk: writers cannot flush at the barrier, the committer
# cannot write manifests; the job fails over until space returns.
wait_for_count "$v" 'Successfully commit snapshot' 3 60
full_phase "$d/table"
# The checkpoint disk: the coordinator cannot persist job.json or chk-N
# and stops to be restarted (exit 75) until space returns.
wait_for_count "$v" 'Successfully commit snapshot' 6 60
# While the disk stays full, each exit 75 in a row doubles the delay before
# the next start (300, 600, 1200 ms … up to 10 s): a calm retry, not a
# restart loop.
calm_retries () {
    wait_for_count "$v" 'coordinator \(pid [0-9]*\) stopped to be restarted' 3 60
    _delays=$(grep -o 'coordinator (pid [0-9]*) stopped to be restarted (exit 75); restarting in [0-9]* ms' \
        "$(clog "$v")" | awk '{ print $(NF - 1) }' | tail -n 3 | tr '\n' ' ')
    echo "[$v] coordinator restart delays while the disk is full: $_delays ms"
    set -- $_delays
    [ "$1" -ge 300 ] && [ "$2" = $(($1 * 2)) ] && [ "$3" = $(($2 * 2)) ] ||
        fail "$v" "restart delays $_delays ms: expected each to double (from the configured 300 ms)"
}
full_phase "$d/chk" calm_retries
expect_exit "$v" 120 0
echo "[$v] ENOSPC errors logged: $(count_log "$v" 'No space left on device'), job failovers: $(count_log "$v" 'to RESTARTING'), coordinator restarts: $(count_log "$v" 'stopping to be restarted')"
oracle "$v" 60000 --last-max
pass
