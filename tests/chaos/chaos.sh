#!/bin/bash
# chaos.sh - randomized faults against real clusters, each trial checked by
# the exact oracle.
#
#   tests/chaos/chaos.sh [--build DIR] [--trials N | --seconds S] [--seed S]
#                        [--jobs J] [--only K] [--negative] [--dir DIR]
#                        [--procedures PCT]
#
# Per trial (all drawn from the trial's own seed, printed with it):
#   - parallelism 1-4, rate 2,000/4,000/8,000 rows/s for 2-4 s of rows,
#     checkpoint interval 200 ms - 1.2 s; the table keeps 1-4 snapshots
#     (expired after each commit) and compacts from 2-5 small files, so
#     every fault may meet an expiry or a compaction;
#   - 1-3 faults, each one of: kill -9 of a role (coordinator, committer or
#     a writer), SIGSTOP of a role for 0.3-4.5 s then SIGCONT (past the 3 s
#     heartbeat timeout it is a failover), or a fail point (any of `zsink
#     failpoints`, crash or error on its 1st-3rd hit) armed at start;
#   - the oracle (tests/integration/oracle.py): ids 1..N exactly once,
#     verify clean, no orphan file, one commit user, identifiers strictly
#     increasing (COMPACT snapshots: the identifier before them); and the job must end by itself (exit 0) within 180 s.
# --procedures PCT: in PCT% of the trials (drawn from the trial's seed), the
# maintenance a user schedules runs beside the job every 0.2 s:
# remove-orphan-files --older-than 0s, expire-snapshots (retain 1, older
# than 0s) and compact; any of them failing (but a compaction dropped for
# a lost input) fails the trial, as does the oracle afterwards.
# A failed trial keeps its directory and prints how to rerun it alone:
#   tests/chaos/chaos.sh --seed S --only K
#
# --negative: the control. Runs the trials with ZSINK_TEST_NO_FILTER_COMMITTED=1
# (filterCommitted off in the committers) and succeeds only if the oracle
# catches duplicates in at least one trial: proof that the runner can see
# the failure it exists to find.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=$HERE/../../build
TRIALS=20
RUN_SECONDS=0
SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
JOBS=2
ONLY=0
NEGATIVE=0
PROCEDURES=0
DIR=${CHAOS_DIR:-/tmp/zsink-chaos}
while [ $# -gt 0 ]; do
    case $1 in
    --build) BUILD=$2; shift ;;
    --trials) TRIALS=$2; shift ;;
    --seconds) RUN_SECONDS=$2; TRIALS=1000000; shift ;;
    --seed) SEED=$2; shift ;;
    --jobs) JOBS=$2; shift ;;
    --only) ONLY=$2; shift ;;
    --negative) NEGATIVE=1 ;;
    --dir) DIR=$2; shift ;;
    --procedures) PROCEDURES=$2; shift ;;
    -h|--help) sed -n 2,30p "$0"; exit 0 ;;
    *) echo "chaos: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
BUILD=$(cd "$BUILD" && pwd)
B=$BUILD/bin
ORACLE=$HERE/../integration/oracle.py
POINTS=($("$B/zsink" failpoints | awk '/^  [a-z]/ { print $1 }'))
[ ${#POINTS[@]} -gt 0 ] || { echo "chaos: no fail points from $B/zsink" >&2; exit 2; }
mkdir -p "$DIR"
RES=$DIR/results-$SEED
rm -rf "$RES" && mkdir -p "$RES"
echo "chaos: seed $SEED, $([ $RUN_SECONDS -gt 0 ] && echo "$RUN_SECONDS s" || echo "$TRIALS trials"), $JOBS at a time, under $DIR$([ $NEGATIVE = 1 ] && echo ', NEGATIVE CONTROL (filterCommitted off)')"

# pid of a role's current process, a child of the trial's cluster
role_pid () { # cluster_pid role
    case $2 in
    coordinator) pgrep -P "$1" -f 'zsink-coordinator ' | head -n 1 ;;
    committer) pgrep -P "$1" -f 'zsink-committer ' | head -n 1 ;;
    writer-*) pgrep -P "$1" -f "zsink-writer .*--index ${2#writer-}\$" | head -n 1 ;;
    esac
}

# procedures TABLE DIR: the scheduled maintenance, until DIR/stop exists;
# a failure that should never happen goes to DIR/procedures.bad
procedures () {
    local t=$1 d=$2 out
    while [ ! -f "$d/stop" ]; do
        # once the table is there: a job whose first write of schema-0
        # failed has a table directory that is not a table yet, and the
        # procedures rightly say so
        if ls "$t"/schema/schema-[0-9]* >/dev/null 2>&1; then
            "$B/zsink" table remove-orphan-files "$t" --older-than 0s >>"$d/procedures.log" 2>&1 ||
                echo "remove-orphan-files failed" >>"$d/procedures.bad"
            "$B/zsink" table expire-snapshots "$t" --retain-min 1 --older-than 0s \
                >>"$d/procedures.log" 2>&1 || echo "expire-snapshots failed" >>"$d/procedures.bad"
            if ! out=$("$B/zsink" table compact "$t" 2>&1); then
                case $out in *"compaction dropped"*) ;; *) echo "compact: $out" >>"$d/procedures.bad" ;; esac
            fi
        fi
        sleep 0.2 # the users' schedule, not a wait for anything
    done
}

# sleep a random 0-MS milliseconds (this is when the next fault strikes)
rsleep () { sleep "$(awk -v m=$((RANDOM % $1)) 'BEGIN { printf "%.3f", m / 1000 }')"; }

trial () { # k
    local k=$1
    # bash's RANDOM: nearby seeds start alike, so mix them and skip a few
    RANDOM=$((((SEED % 1000003) * 2654435761 + k * 40503) % 2147483647))
    local _i
    for _i in 1 2 3 4 5; do : $RANDOM; done
    local d=$DIR/t-$SEED-$k
    rm -rf "$d" && mkdir -p "$d"
    local p=$((RANDOM % 4 + 1))
    local rates=(2000 4000 8000) ivals=(200 300 500 800 1200)
    local rate=${rates[RANDOM % 3]} secs=$((RANDOM % 3 + 2))
    local n=$((rate * secs)) ival=${ivals[RANDOM % 5]}
    # the table's upkeep: keep 1-4 snapshots, compact from 2-5 small files
    local keep=$((RANDOM % 4 + 1)) cmin=$((RANDOM % 4 + 2))
    cat >"$d/job.yaml" <<YAML
parallelism: $p
execution.checkpointing.interval: ${ival}ms
restart-strategy.fixed-delay.attempts: 100
restart-strategy.fixed-delay.delay: 200ms
heartbeat.timeout: 3s
datagen.rows-per-second: $rate
datagen.number-of-rows: $n
table.path: $d/table
state.checkpoints.dir: $d/chk
snapshot.num-retained.min: 1
snapshot.num-retained.max: $keep
compaction.min.file-num: $cmin
manifest.merge-min-count: 3
YAML
    # the control shows doubled rows; with its checks off, a compacted and
    # expired file committed again is missing instead (another failure)
    # (and a manifest merge refuses a file added twice: none then)
    # (a key given twice in YAML is an error: the control's value replaces it)
    [ $NEGATIVE = 1 ] && sed -i '/^manifest.merge-min-count:/d' "$d/job.yaml" &&
        printf 'write-only: true\nmanifest.merge-min-count: 1000000\n' >>"$d/job.yaml"
    # the faults: fail points armed at start, the rest during the run
    local nf=$((RANDOM % 3 + 1)) spec="" live=() desc=""
    # the control needs a re-commit to happen: one committer kill always
    [ $NEGATIVE = 1 ] && live+=("kill:committer")
    for _ in $(seq $nf); do
        local r=$((RANDOM % 4))
        if [ $r = 3 ]; then
            local fp=${POINTS[RANDOM % ${#POINTS[@]}]} act=crash
            [ $((RANDOM % 2)) = 0 ] && act=error
            case $fp in *.notify) act=drop ;; esac
            case ",$spec" in *",$fp="*) continue ;; esac
            spec="${spec:+$spec,}$fp=$act:$((RANDOM % 3 + 1))"
            desc="$desc failpoint:$fp=$act"
        else
            local roles=(coordinator committer) role
            role=$([ $((RANDOM % 2)) = 0 ] && echo "writer-$((RANDOM % p))" || echo "${roles[RANDOM % 2]}")
            if [ $r = 2 ]; then live+=("pause:$role:$((RANDOM % 4200 + 300))")
            else live+=("kill:$role"); fi
        fi
    done
    local jid=chaos-$SEED-$k
    local procs=0 pp=
    [ "$PROCEDURES" -gt 0 ] && [ $((RANDOM % 100)) -lt "$PROCEDURES" ] && procs=1 && desc="$desc procedures"
    (
        [ -n "$spec" ] && export ZSINK_FAILPOINTS=$spec
        [ $NEGATIVE = 1 ] && export ZSINK_TEST_NO_FILTER_COMMITTED=1
        exec "$B/zsink" cluster -c "$d/job.yaml" --job-id "$jid" >"$d/log" 2>&1
    ) &
    local cp=$!
    # the watchdog: a hung trial is a failure too (its sleep must not hold
    # our stdout open after the trial, or whoever reads it waits 180 s)
    (sleep 180; kill -9 $cp 2>/dev/null) >/dev/null 2>&1 </dev/null &
    local wd=$!
    [ $procs = 1 ] && { procedures "$d/table" "$d" & pp=$!; }
    for f in "${live[@]}"; do
        rsleep $((secs * 1000))
        local kind=${f%%:*} rest=${f#*:} role pid
        role=${rest%%:*}
        pid=$(role_pid $cp "$role")
        [ -n "$pid" ] || { desc="$desc $kind:$role(gone)"; continue; }
        if [ "$kind" = kill ]; then
            kill -9 "$pid" 2>/dev/null && desc="$desc kill:$role"
        else
            local ms=${rest#*:}
            kill -STOP "$pid" 2>/dev/null && desc="$desc pause:$role:${ms}ms"
            sleep "$(awk -v m=$ms 'BEGIN { printf "%.3f", m / 1000 }')"
            kill -CONT "$pid" 2>/dev/null
        fi
    done
    wait $cp
    local rc=$?
    [ -n "$pp" ] && { touch "$d/stop"; wait $pp; }
    pkill -P $wd 2>/dev/null
    kill $wd 2>/dev/null
    wait $wd 2>/dev/null
    local out verdict=ok
    if [ $rc -ne 0 ]; then
        out="cluster exit $rc"
        verdict=FAIL
    elif [ -s "$d/procedures.bad" ]; then
        out="procedures: $(head -n 3 "$d/procedures.bad")"
        verdict=FAIL
    elif ! out=$(python3 "$ORACLE" --zsink "$B/zsink" --table "$d/table" --expect $n \
        --log "$d/log" ${pp:+--hand-compactions} 2>&1); then
        verdict=FAIL
    elif grep -q "AddressSanitizer\|LeakSanitizer\|runtime error:" "$d/log"; then
        # a sanitizer build: a memory error is a failure even when the
        # restarted process still produced an exact table
        out="sanitizer report in $d/log"
        verdict=FAIL
    fi
    local line="trial $k p=$p rate=$rate rows=$n interval=${ival}ms keep=$keep compact-from=$cmin faults:$desc"
    if [ $verdict = ok ]; then
        echo "ok   $line" | tee "$RES/$k"
        rm -rf "$d"
    else
        echo "FAIL $line :: $(echo "$out" | tr '\n' ' ' | cut -c1-300) :: rerun: $0 --seed $SEED --only $k --build $BUILD" | tee "$RES/$k"
    fi
}

start=$(date +%s)
k=0
running=0
while :; do
    k=$((k + 1))
    # (--only K runs trial K whatever --trials says: the rerun line of a
    # trial past the default 20 names no --trials)
    [ $k -gt $TRIALS ] && [ $ONLY = 0 ] && break
    [ $RUN_SECONDS -gt 0 ] && [ $(($(date +%s) - start)) -ge $RUN_SECONDS ] && break
    [ $ONLY -gt 0 ] && [ $k -ne $ONLY ] && continue
    trial $k &
    running=$((running + 1))
    if [ $running -ge $JOBS ]; then
        wait -n
        running=$((running - 1))
    fi
    [ $ONLY -gt 0 ] && break
done
wait

total=$(ls "$RES" | wc -l)
failed=$(grep -l '^FAIL' "$RES"/* 2>/dev/null | wc -l)
dups=$(grep -h '^FAIL' "$RES"/* 2>/dev/null | grep -c 'distinct\|strictly increasing\|committed .* times\|duplicate')
# one fault a token: kill:ROLE, pause:ROLE:MS, failpoint:NAME=ACTION
tokens () { cat "$RES"/* | grep -o 'faults:.*' | sed 's/^faults://; s/ :: .*//' | tr ' ' '\n' | grep ':'; }
faults=$(tokens | wc -l)
by_kind=$(tokens | sed 's/^\(kill\|pause\):\(coordinator\|committer\|writer\)[^ ]*/\1 \2/; s/^failpoint:.*/failpoint/' \
    | sort | uniq -c | awk '{ n = $1; $1 = ""; printf "%s%s %d", sep, substr($0, 2), n; sep = ", " }')
points=$(cat "$RES"/* | grep -o 'failpoint:[a-z.-]*' | sort -u | wc -l)
echo "chaos: seed $SEED: $total trials, $faults faults ($by_kind; $points distinct fail points), $failed failed, $(($(date +%s) - start)) s"
if [ $NEGATIVE = 1 ]; then
    if [ "$dups" -gt 0 ]; then
        echo "chaos: negative control OK: with filterCommitted off the oracle caught duplicates in $dups trial(s)"
        exit 0
    fi
    echo "chaos: negative control FAILED: filterCommitted off and no duplicate found"
    exit 1
fi
[ "$failed" -eq 0 ]
