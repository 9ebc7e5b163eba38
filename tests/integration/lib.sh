# lib.sh - helpers for the integration tests (POSIX sh; sourced).
#
# A test is run as `sh t_<name>.sh BUILD_DIR SCRATCH_DIR`. Every test owns its
# scratch dir; inside it, each job variant (e.g. p1, p3) gets a subdirectory
# with its job.yaml, table, checkpoints and the cluster's log, and a job id
# that is unique to the test, the variant and this shell, so that role
# processes of tests running in parallel are never confused.
#
# Waiting is always for a condition with a deadline (wait_for_log,
# wait_for_count, wait_exit); there are no fixed sleeps to let things settle.
# Random moments (fault tests) come from a seed printed at start: rerun with
# ZSINK_TEST_SEED=<seed> to reproduce.

set -u

# Java takes its charset for paths and arguments from the locale: without a
# UTF-8 one (a minimal Debian sets none) Paimon Java mangles a partition
# directory 'k=日本語' or a filter on '日本語'. C.UTF-8 is in every Debian libc.
case "${LC_ALL:-${LC_CTYPE:-${LANG:-}}}" in
*UTF-8* | *utf8*) ;;
*) export LC_ALL=C.UTF-8 ;;
esac

BUILD=${1:?usage: sh t_NAME.sh BUILD_DIR SCRATCH_DIR}
SCRATCH=${2:?usage: sh t_NAME.sh BUILD_DIR SCRATCH_DIR}
BUILD=$(cd "$BUILD" && pwd)
BIN=$BUILD/bin
ZSINK=$BIN/zsink
TEST_NAME=$(basename "$0" .sh)
LIB_DIR=$(cd "$(dirname "$0")" && pwd)
ORACLE=$LIB_DIR/oracle.py
DUCK=$LIB_DIR/../duckdb/oracle.mjs
# Paimon's own readers (tests/interop): ZSINK_INTEROP is what
# `scripts/setup-interop.sh BUILD_DIR` installed, BUILD_DIR/interop (`make
# test` runs it and exports this; default: this build's). Without it the
# Paimon checks skip with a message, or fail with ZSINK_INTEROP_REQUIRED=1 (CI).
INTEROP=${ZSINK_INTEROP:-$BUILD/interop}
INTEROP_SRC=$(cd "$LIB_DIR/../interop" && pwd)
PY=$(command -v python3 || echo /usr/bin/python3)
SEED=${ZSINK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
RAND_N=0
FAILPOINTS=
T0=$(date +%s)

# Two runs of one test (e.g. two ctest runs in one build dir) would share
# the scratch dir and destroy each other's tables: the second one waits.
mkdir -p "$(dirname "$SCRATCH")"
exec 9>"$SCRATCH.lock"
if ! flock -w 240 9; then
    echo "FAIL $TEST_NAME: another run still holds $SCRATCH.lock"
    exit 1
fi
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
echo "$TEST_NAME: scratch $SCRATCH, seed $SEED (rerun with ZSINK_TEST_SEED=$SEED)"

for b in zsink zsink-coordinator zsink-writer zsink-committer; do
    [ -x "$BIN/$b" ] || { echo "FAIL $TEST_NAME: $BIN/$b not built"; exit 1; }
done

# --- variants --------------------------------------------------------------

vdir () { echo "$SCRATCH/$1"; }
job_id () { echo "${TEST_NAME#t_}-$1-$$" | tr '_' '-'; }
clog () { echo "$SCRATCH/$1/cluster.log"; }
# TABLE_ROOT: where the variants' tables live. Empty: the scratch dir. A test
# on object storage sets it (after sourcing this) to s3://BUCKET/PREFIX: the
# variant's table is then TABLE_ROOT/VARIANT/table, and the oracle reads it
# there (DuckDB's part skipped). CHK_ROOT the same for the checkpoint
# directories (empty: VARIANT/chk in the scratch dir). Both may come from the
# environment (ZSINK_TEST_TABLE_ROOT, ZSINK_TEST_CHK_ROOT): t_s3_seeds.sh
# runs whole tests so, on S3.
TABLE_ROOT=${ZSINK_TEST_TABLE_ROOT:-}
CHK_ROOT=${ZSINK_TEST_CHK_ROOT:-}
table_of () {
    if [ -n "$TABLE_ROOT" ]; then echo "$TABLE_ROOT/$1/table"; else echo "$SCRATCH/$1/table"; fi
}
chk_of () {
    if [ -n "$CHK_ROOT" ]; then echo "$CHK_ROOT/$1/chk"; else echo "$SCRATCH/$1/chk"; fi
}

# write_job VARIANT PARALLELISM [yaml lines ...]: job.yaml with the table and
# checkpoint dir of the variant plus the given lines (key: value).
write_job () {
    _v=$1 _p=$2
    shift 2
    _d=$(vdir "$_v")
    mkdir -p "$_d"
    {
        echo "parallelism: $_p"
        # a line of the caller's naming source.kind replaces the default
        case "$*" in
        *source.kind:*) ;;
        *) if [ -n "${ZSINK_TEST_KAFKA:-}" ]; then kafka_source_lines "$_v"; else
            echo "source.kind: datagen"
        fi ;;
        esac
        echo "table.path: $(table_of "$_v")"
        echo "state.checkpoints.dir: $(chk_of "$_v")"
        for _l in "$@"; do echo "$_l"; done
    } >"$_d/job.yaml"
}

# Kafka as the source (ZSINK_TEST_KAFKA=BOOTSTRAP, set by t_kafka_seeds.sh):
# a job that would read the default datagen source reads the same ids from
# a topic of its own instead, 4 partitions filled with ids 1..N (N its
# datagen.number-of-rows) when its cluster first starts, bounded at the
# topic's end as it is then (scan.bounded.mode latest-offset), throttled
# to its datagen.rows-per-second. Its group's committed offsets must end at
# the topic's end (kafka_check_committed).
kafka_topic_of () { echo "$TEST_NAME-$1" | tr '_' '-'; }
kafka_source_lines () {
    echo "source.kind: kafka"
    echo "source.kafka.topic: $(kafka_topic_of "$1")"
    echo "source.kafka.properties.bootstrap.servers: $ZSINK_TEST_KAFKA"
    echo "source.kafka.properties.group.id: $(kafka_topic_of "$1")"
    echo "source.kafka.scan.startup.mode: earliest-offset"
    echo "source.kafka.scan.bounded.mode: latest-offset"
}
kafka_fill () {
    _kd=$(vdir "$1")
    grep -q '^source.kind: kafka' "$_kd/job.yaml" && [ ! -f "$_kd/kafka.filled" ] || return 0
    _kn=$(sed -n 's/^datagen.number-of-rows: *//p' "$_kd/job.yaml" | tail -n 1)
    _kr=$(sed -n 's/^datagen.rows-per-second: *//p' "$_kd/job.yaml" | tail -n 1)
    _kt=$(kafka_topic_of "$1")
    "$BIN/zsink-ktool" "$ZSINK_TEST_KAFKA" create "$_kt" 4 >/dev/null &&
        "$BIN/zsink-ktool" "$ZSINK_TEST_KAFKA" produce "$_kt" --from 1 --to $((_kn + 1)) \
            --keyed >/dev/null || fail "$1" "cannot fill Kafka topic $_kt with ids 1..$_kn"
    echo "source.kafka.rows-per-second: ${_kr:-0}" >>"$_kd/job.yaml"
    touch "$_kd/kafka.filled"
    echo "[$1] Kafka topic $_kt: ids 1..$_kn in 4 partitions"
}

# The fault-test configuration (fast rates, short delays and timeouts).
FAULT_YAML="datagen.rows-per-second: 4000
datagen.number-of-rows: 20000
execution.checkpointing.interval: 1s
restart-strategy.fixed-delay.attempts: 10
restart-strategy.fixed-delay.delay: 500ms
heartbeat.timeout: 3s"

# write_fault_job VARIANT PARALLELISM [yaml lines ...]: FAULT_YAML, where a
# given line replaces the FAULT_YAML line of the same key.
write_fault_job () {
    _v=$1 _p=$2
    shift 2
    write_job "$_v" "$_p" "$@"
    _keys=$(for _l in "$@"; do echo "${_l%%:*}"; done)
    echo "$FAULT_YAML" | while IFS= read -r _l; do
        echo "$_keys" | grep -qxF -- "${_l%%:*}" || echo "$_l"
    done >>"$(vdir "$_v")/job.yaml"
}

# start_cluster VARIANT [JOB_ID] [extra cluster args ...]
# Runs `zsink cluster` in the background; its output goes to cluster.log,
# its pid to cluster.pid, its exit status (when it ends) to cluster.rc.
# $FAILPOINTS, if set, is passed as ZSINK_FAILPOINTS. With SESSION=setsid
# the cluster gets a session of its own and leads its process group, as a
# shell's foreground job does (for Ctrl-C to the whole group).
start_cluster () {
    _v=$1
    shift
    _id=$(job_id "$_v")
    if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then _id=$1; shift; fi
    _d=$(vdir "$_v")
    [ -z "${ZSINK_TEST_KAFKA:-}" ] || kafka_fill "$_v"
    rm -f "$_d/cluster.pid" "$_d/cluster.rc"
    echo "$_id" >"$_d/job_id"
    (
        if [ -n "$FAILPOINTS" ]; then export ZSINK_FAILPOINTS="$FAILPOINTS"; fi
        $SESSION sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$_d/cluster.pid" \
            "$ZSINK" cluster -c "$_d/job.yaml" --job-id "$_id" "$@" >>"$_d/cluster.log" 2>&1
        echo $? >"$_d/cluster.rc.tmp"
        mv "$_d/cluster.rc.tmp" "$_d/cluster.rc"
    ) &
    _n=0
    while [ ! -s "$_d/cluster.pid" ]; do
        _n=$((_n + 1))
        [ $_n -gt 100 ] && fail "$_v" "cluster did not start"
        sleep 0.05
    done
    echo "[$_v] started cluster pid $(cat "$_d/cluster.pid"), job $_id${FAILPOINTS:+, ZSINK_FAILPOINTS=$FAILPOINTS}"
}

cluster_pid () { cat "$(vdir "$1")/cluster.pid"; }
SESSION=

# --- failing ---------------------------------------------------------------

# fail VARIANT REASON: print the reason and the tail of the variant's log(s),
# stop every cluster of this test, exit 1.
fail () {
    echo "FAIL $TEST_NAME [$1]: $2"
    # the failing variant's log; every variant's when it has none (a
    # failure of the test itself, or of a step outside a variant)
    set -- "$SCRATCH/$1/cluster.log"
    [ -f "$1" ] || set -- "$SCRATCH"/*/cluster.log
    for _f in "$@"; do
        [ -f "$_f" ] || continue
        echo "---- tail of $_f ----"
        tail -n 60 "$_f"
    done
    echo "(seed $SEED)"
    cleanup
    exit 1
}

# Kill what this test started: clusters by their pid (they stop their
# children), then any child left behind, by pid.
cleanup () {
    for _p in "$SCRATCH"/*/cluster.pid; do
        [ -s "$_p" ] || continue
        _pid=$(cat "$_p")
        [ -f "${_p%.pid}.rc" ] && continue
        _kids=$(pgrep -P "$_pid" 2>/dev/null)
        kill -TERM "$_pid" 2>/dev/null
        for _k in $_kids; do kill -9 "$_k" 2>/dev/null; done
        kill -9 "$_pid" 2>/dev/null
    done
    for _p in $EXTRA_PIDS; do kill -9 "$_p" 2>/dev/null; done
    if [ -s "$SCRATCH/.readers.pid" ]; then
        kill -TERM "$(cat "$SCRATCH/.readers.pid")" 2>/dev/null
        rm -f "$SCRATCH/.readers.pid"
    fi
}
EXTRA_PIDS=
trap 'cleanup' INT TERM

# --- waiting ---------------------------------------------------------------

now () { date +%s; }
elapsed () { echo $(($(now) - T0)); }

# wait_for_count VARIANT PATTERN N DEADLINE_S: until the cluster log has at
# least N lines matching PATTERN (grep -E). Fails the test on timeout, or if
# the cluster exited first without reaching the count.
wait_for_count () {
    _v=$1 _pat=$2 _want=$3 _end=$(($(now) + $4))
    _f=$(clog "$_v")
    while :; do
        _c=$(grep -cE -- "$_pat" "$_f" 2>/dev/null)
        [ "${_c:-0}" -ge "$_want" ] && return 0
        if [ -f "$(vdir "$_v")/cluster.rc" ]; then
            _c=$(grep -cE -- "$_pat" "$_f" 2>/dev/null)
            [ "${_c:-0}" -ge "$_want" ] && return 0
            fail "$_v" "cluster exited (status $(cat "$(vdir "$_v")/cluster.rc")) before $_want x '$_pat' (got ${_c:-0})"
        fi
        [ "$(now)" -ge "$_end" ] && fail "$_v" "timeout waiting for $_want x '$_pat' (got ${_c:-0})"
        sleep 0.1
    done
}

wait_for_log () { wait_for_count "$1" "$2" 1 "$3"; }

# wait_exit VARIANT DEADLINE_S: until the cluster exits; its status in $EXIT_RC.
wait_exit () {
    _v=$1 _end=$(($(now) + $2))
    _rcf=$(vdir "$_v")/cluster.rc
    while [ ! -f "$_rcf" ]; do
        [ "$(now)" -ge "$_end" ] && fail "$_v" "cluster did not exit within $2 s"
        sleep 0.1
    done
    EXIT_RC=$(cat "$_rcf")
}

# expect_exit VARIANT DEADLINE_S STATUS
expect_exit () {
    wait_exit "$1" "$2"
    [ "$EXIT_RC" = "$3" ] || fail "$1" "cluster exit status $EXIT_RC, expected $3"
    echo "[$1] cluster exited $EXIT_RC at t=$(elapsed)s"
}

# --- processes ---------------------------------------------------------------

# role_pid VARIANT ROLE: pid of a running child of the variant's cluster;
# ROLE = coordinator | committer | writer-<i>. Empty if not running.
role_pid () {
    _cp=$(cluster_pid "$1")
    case $2 in
    coordinator) pgrep -P "$_cp" -f 'zsink-coordinator ' | head -n 1 ;;
    committer) pgrep -P "$_cp" -f 'zsink-committer ' | head -n 1 ;;
    writer-*) pgrep -P "$_cp" -f "zsink-writer .*--index ${2#writer-}\$" | head -n 1 ;;
    esac
}

# kill_role VARIANT ROLE: kill -9 the role's current process.
kill_role () {
    _pid=$(role_pid "$1" "$2")
    [ -n "$_pid" ] || fail "$1" "no running $2 to kill"
    kill -9 "$_pid" || fail "$1" "kill -9 $_pid ($2) failed"
    echo "[$1] t=$(elapsed)s kill -9 $2 (pid $_pid)"
}

# rand N: sets RAND to a number in [0, N) from the seed (a reproducible
# sequence; call it directly, not in $(...), so the sequence advances).
rand () {
    RAND_N=$((RAND_N + 1))
    RAND=$(awk -v s="$SEED" -v k="$RAND_N" -v n="$1" \
        'BEGIN { srand(s + 7919 * k); print int(rand() * n) }')
}

# pause_random MAX_MS: a random moment inside a checkpoint interval (this
# picks WHEN to inject a fault; it is not waiting for anything).
pause_random () {
    rand "$1"
    echo "[..] random pause $RAND ms"
    sleep "$(awk -v m="$RAND" 'BEGIN { printf "%.3f", m / 1000 }')"
}

# savepoint_part VARIANT JOB KILL more|last [cluster args ...]: run a job,
# kill -9 its role KILL after its first checkpoint, then, once it completed
# another, stop it with a savepoint (more; SAVEPOINT gets its path) or
# wait for it to end by itself (last). A part of a job's life across
# savepoints (t_rescale, t_kafka_rescale).
savepoint_part () {
    _sv=$1 _sjob=$2 _svictim=$3 _slast=$4
    shift 4
    _sbefore=$(count_log "$_sv" 'Completed checkpoint [0-9]+ for job')
    start_cluster "$_sv" "$_sjob" "$@"
    wait_for_count "$_sv" 'Completed checkpoint [0-9]+ for job' $((_sbefore + 1)) 30
    kill_role "$_sv" "$_svictim"
    wait_for_count "$_sv" "Job $_sjob switched from state [A-Z]+ to RESTARTING" 1 30
    wait_for_count "$_sv" 'Completed checkpoint [0-9]+ for job' $((_sbefore + 2)) 30
    if [ "$_slast" = last ]; then
        expect_exit "$_sv" 90 0
        return
    fi
    _ssp=$("$ZSINK" stop --savepoint --json -c "$(vdir "$_sv")/job.yaml") ||
        fail "$_sv" "zsink stop --savepoint failed: $_ssp"
    SAVEPOINT=$(echo "$_ssp" | json_get - savepoint)
    expect_exit "$_sv" 60 0
    echo "[$_sv] job $_sjob stopped with savepoint $SAVEPOINT"
}

# status VARIANT: `zsink status` JSON of the variant's running job.
status () { "$ZSINK" status -c "$(vdir "$1")/job.yaml" --json; }

# wait_status VARIANT PYTHON_EXPR DEADLINE_S: until `zsink status` JSON,
# bound to d, makes the expression true. The last document is in $STATUS.
wait_status () {
    _v=$1 _expr=$2 _end=$(($(now) + $3))
    while :; do
        STATUS=$(status "$_v" 2>/dev/null)
        if [ -n "$STATUS" ] && echo "$STATUS" | "$PY" -c \
            "import json, sys; d = json.load(sys.stdin); sys.exit(0 if ($_expr) else 1)" 2>/dev/null
        then
            return 0
        fi
        [ -f "$(vdir "$_v")/cluster.rc" ] && fail "$_v" "cluster exited before status: $_expr (last: $STATUS)"
        [ "$(now)" -ge "$_end" ] && fail "$_v" "timeout waiting for status: $_expr (last: $STATUS)"
        sleep 0.2
    done
}

# json_get FILE_OR_- KEY: a top-level key of a JSON document.
json_get () {
    "$PY" -c 'import json, sys
f = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1])
print(json.load(f)[sys.argv[2]])' "$1" "$2"
}

free_port () {
    "$PY" -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- the oracle --------------------------------------------------------------

# oracle VARIANT N [extra oracle.py options]: the table holds exactly ids
# 1..N once each, no orphans, verifies clean, one commit user, identifiers
# strictly increasing.
oracle () {
    _v=$1 _n=$2
    shift 2
    if ! _out=$("$PY" "$ORACLE" --zsink "$ZSINK" --table "$(table_of "$_v")" \
        --expect "$_n" --log "$(clog "$_v")" "$@" 2>&1); then
        echo "$_out"
        fail "$_v" "oracle failed"
    fi
    echo "[$_v] $_out"
    duck_table "$_v" "$_n"
    [ -z "${ZSINK_TEST_KAFKA:-}" ] || kafka_check_committed "$_v" "$_n"
}

# kafka_ask BOOTSTRAP ARGS...: zsink-ktool ARGS... asked again until it
# answers (10 s): under load the broker may answer "Not coordinator" for a
# group a moment, and a failed ask must not read as "nothing committed"
kafka_ask () {
    _kb=$1
    shift
    _ke=$(($(now) + 10))
    until _ko=$("$BIN/zsink-ktool" "$_kb" "$@" 2>&1); do
        [ "$(now)" -lt $_ke ] || { echo "$_ko" >&2; return 1; }
        sleep 0.2
    done
    echo "$_ko"
}

# In Kafka mode: the group's committed offsets sum to the rows of the table
# (the job read its whole topic).
kafka_check_committed () {
    grep -q '^source.kind: kafka' "$(vdir "$1")/job.yaml" || return 0
    _kt=$(kafka_topic_of "$1")
    _kc=$(kafka_ask "$ZSINK_TEST_KAFKA" committed "$_kt" "$_kt") ||
        fail "$1" "cannot read the offsets committed for group $_kt"
    _kc=$(echo "$_kc" | awk '$1 == "partition" && $4 > 0 { n += $4 } END { print n + 0 }')
    [ "$_kc" = "$2" ] || fail "$1" "the offsets committed to Kafka sum to $_kc, the table has $2 rows"
    echo "[$1] offsets committed to Kafka for group $_kt: $_kc = the table's rows"
}

# duck_table VARIANT [N]: DuckDB reads the table's live files and agrees
# with zsink's reader on count, distinct ids, min/max/sum of every numeric
# column, null counts and a digest of all rows (with N: ids 1..N once);
# then Paimon's own readers do (paimon_table). An s3:// table: DuckDB's part
# is skipped (it reads s3:// only through its httpfs extension, downloaded
# at run time, which the tests do not do); Paimon's readers still compare
# every figure with zsink's (and oracle.py has checked ids 1..N).
duck_table () {
    case $(table_of "$1") in
    s3://* | S3://*)
        echo "[$1] duckdb: skipped for an s3:// table (DuckDB would need its httpfs extension, downloaded at run time)"
        paimon_table "$1"
        return
        ;;
    esac
    if ! _out=$(node "$DUCK" table --zsink "$ZSINK" --table "$(table_of "$1")" \
        ${2:+--expect "$2"} 2>&1); then
        echo "$_out"
        fail "$1" "DuckDB oracle failed"
    fi
    echo "[$1] duckdb: $_out"
    paimon_table "$1"
}

# duck ARGS...: run the DuckDB oracle script (tests/duckdb/oracle.mjs).
duck () { node "$DUCK" "$@"; }

# interop_ready: true when Paimon's readers are installed and up to date
# (setup-interop.sh --check, asked once per test); else $INTEROP_WHY says why.
interop_ready () {
    _f=$SCRATCH/.interop-ready
    if [ ! -f "$_f" ]; then
        _why=$(sh "$LIB_DIR/../../scripts/setup-interop.sh" --check "$(dirname "$INTEROP")" 2>&1) && _why=ok
        # variants ask at once, and share $$: a name of its own each
        _t=$(mktemp "$_f.XXXXXX")
        echo "$_why" >"$_t"
        mv "$_t" "$_f"
    fi
    INTEROP_WHY=$(cat "$_f")
    [ "$INTEROP_WHY" = ok ]
}

# interop_required: for the t_interop_* tests, which are about nothing else:
# skip (77) without the readers, or fail under ZSINK_INTEROP_REQUIRED=1.
interop_required () {
    interop_ready && return 0
    [ "${ZSINK_INTEROP_REQUIRED:-0}" = 1 ] &&
        fail - "Paimon's readers are required (ZSINK_INTEROP_REQUIRED=1): $INTEROP_WHY"
    echo "SKIP $TEST_NAME: Paimon's readers are not installed: $INTEROP_WHY"
    exit 77
}

# paimon_table VARIANT [readers.py options]: Paimon Java and pypaimon read the
# table and agree with zsink (tests/interop/readers.py): count, ids and the
# digest of all rows, the snapshot list, time travel to the first, a middle
# and the last snapshot, and filterCommitted of every commit user.
paimon_table () {
    _v=$1
    shift
    if ! interop_ready; then
        [ "${ZSINK_INTEROP_REQUIRED:-0}" = 1 ] &&
            fail "$_v" "Paimon's readers are required (ZSINK_INTEROP_REQUIRED=1): $INTEROP_WHY"
        echo "[$_v] paimon: skipped Paimon's readers (pypaimon, Paimon Java): $INTEROP_WHY"
        return 0
    fi
    readers_server
    if ! _out=$("$INTEROP/venv/bin/python" "$INTEROP_SRC/readers.py" --server "$SCRATCH/.readers.sock" \
        --zsink "$ZSINK" --table "$(table_of "$_v")" --interop "$INTEROP" --duck "$DUCK" "$@" 2>&1); then
        echo "$_out"
        fail "$_v" "Paimon's readers disagree with zsink"
    fi
    echo "[$_v] paimon: $_out"
}

# readers_server: this test's `readers.py serve` (one JVM and one pypaimon
# import for all of the test's tables), started unless it runs. Detached (no
# `wait` waits for it); it ends with the test's shell, or at cleanup.
readers_server () {
    (
        flock 8
        _p=$(cat "$SCRATCH/.readers.pid" 2>/dev/null)
        [ -n "$_p" ] && kill -0 "$_p" 2>/dev/null && exit 0
        rm -f "$SCRATCH/.readers.sock"
        # (without the locks of fds 8 and 9, which it would hold for its life)
        ("$INTEROP/venv/bin/python" "$INTEROP_SRC/readers.py" serve --interop "$INTEROP" \
            --socket "$SCRATCH/.readers.sock" --parent $$ </dev/null >>"$SCRATCH/.readers.log" 2>&1 8>&- 9>&- &
            echo $! >"$SCRATCH/.readers.pid")
        # asks queue once the socket is bound, before pypaimon has loaded
        _n=0
        while [ ! -S "$SCRATCH/.readers.sock" ] && [ $_n -lt 100 ]; do
            _n=$((_n + 1))
            sleep 0.05
        done
    ) 8>"$SCRATCH/.readers.lock"
}

# paimon_java ARGS...: Paimon Java's oracle (ZsinkInterop COMMAND ARGS...);
# paimon_py ARGS...: pypaimon's (tests/interop/paimon_py.py). One JSON value
# on stdout each; Paimon's log lines on stderr.
paimon_java () { java @"$INTEROP/java/java.args" ZsinkInterop "$@"; }
paimon_py () { "$INTEROP/venv/bin/python" "$INTEROP_SRC/paimon_py.py" "$@"; }

# paimon_java_bg OUT ERR ARGS...: paimon_java in the background, stdout to
# OUT, stderr to ERR; $BG_PID is the JVM itself, added to EXTRA_PIDS so that
# cleanup kills it (append-loop and maintain also end when the test is gone).
paimon_java_bg () {
    _o=$1 _e=$2
    shift 2
    java @"$INTEROP/java/java.args" ZsinkInterop "$@" >"$_o" 2>"$_e" &
    BG_PID=$!
    EXTRA_PIDS="$EXTRA_PIDS $BG_PID"
}

# run_variants FUNC VARIANT...: run `FUNC VARIANT` for each variant at the
# same time (background subshells); fail if any of them failed.
run_variants () {
    _fn=$1
    shift
    _pids= _i=0
    for _v in "$@"; do
        _i=$((_i + 1))
        (RAND_N=$((_i * 1000)); "$_fn" "$_v") &
        _pids="$_pids $!"
    done
    _bad=0
    for _p in $_pids; do wait "$_p" || _bad=1; done
    if [ $_bad != 0 ]; then
        cleanup
        echo "FAIL $TEST_NAME (seed $SEED)"
        exit 1
    fi
}

# count_log VARIANT PATTERN: lines of the cluster log matching (grep -E);
# 0 before the cluster wrote one.
count_log () { if [ -f "$(clog "$1")" ]; then grep -cE -- "$2" "$(clog "$1")"; else echo 0; fi; }

pass () {
    cleanup
    # Under a sanitizer build a process that trips ASan dies and is
    # restarted, and the table can still come out exact: the report in a
    # log is a failure of its own.
    for _f in "$SCRATCH"/*/cluster.log "$SCRATCH"/*/*.log; do
        [ -f "$_f" ] || continue
        if grep -q "AddressSanitizer\|LeakSanitizer\|runtime error:" "$_f"; then
            echo "FAIL $TEST_NAME: sanitizer report in $_f:"
            grep -m 5 -A 10 "AddressSanitizer\|LeakSanitizer\|runtime error:" "$_f"
            exit 1
        fi
    done
    echo "PASS $TEST_NAME ($(elapsed) s)"
    exit 0
}
