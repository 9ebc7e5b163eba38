# lib_deploy.sh - what the compose tests share (POSIX sh; sourced by
# t_deploy.sh and t_deploy_s3.sh).
#
# The sourcing script sets, before it calls deploy_setup:
#   TEST          its name, in SKIP/FAIL lines
#   BUILD, SCRATCH, ROOT, ZSINK (BUILD/bin/zsink), T0 (date +%s)
#   COMPOSE_FILE  the compose file it runs
#   PREFIX        its projects are PREFIX<pid of the test's shell>
#   IMAGES        the repositories of its test images, each tagged :<pid>
#
#   deploy_setup          the skip rules (root, plain build, a docker engine,
#                         compose); sets DOCKER, COMPOSE, PROJECT; removes
#                         what runs killed outright left; traps the cleanup
#   dc ARGS...            compose on the test's project and file
#   cid SERVICE           the service's container
#   coord_log, count_coord RE, wait_coord RE N SECS, restarts SERVICE
#   kill_role SERVICE role|init    kill -9 from the host, then wait for the
#                         restart, the recovery and a completed checkpoint
#   wait_exited0 SECS SERVICE...   each service's container has exited 0
#
# Containers, networks, volumes and the test images are removed by name on
# every exit, pass or fail.

say () { echo "[t=$(($(date +%s) - T0))s] $*"; }
skip () {
    if [ "${ZSINK_DEPLOY_REQUIRED:-}" = 1 ]; then
        echo "FAIL $TEST: $* (in CI the deploy test must run: .ci/run sets docker up)"
        exit 1
    fi
    echo "SKIP $TEST: $*"
    exit 77
}
now_ms () { date +%s%3N; }
secs () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1000 }'; }

dc () { $COMPOSE -p "$PROJECT" -f "$COMPOSE_FILE" "$@"; }

# cleanup_project P: everything of compose project P (and its test images),
# by label and by name, whatever state it is in.
cleanup_project () {
    $COMPOSE -p "$1" -f "$COMPOSE_FILE" down -v --remove-orphans -t 2 >/dev/null 2>&1
    _ids=$("$DOCKER" ps -aq --filter "label=com.docker.compose.project=$1" 2>/dev/null)
    [ -n "$_ids" ] && "$DOCKER" rm -f $_ids >/dev/null 2>&1
    for _n in $("$DOCKER" network ls -q --filter "name=${1}_" 2>/dev/null); do
        "$DOCKER" network rm "$_n" >/dev/null 2>&1
    done
    for _v in $("$DOCKER" volume ls -q --filter "name=${1}_" 2>/dev/null); do
        "$DOCKER" volume rm -f "$_v" >/dev/null 2>&1
    done
    for _i in $IMAGES; do
        "$DOCKER" image rm -f "$_i:${1#"$PREFIX"}" >/dev/null 2>&1
    done
    return 0
}

deploy_setup () {
    [ "$(id -u)" = 0 ] || skip "needs root (the docker engine, debootstrap, the volume on the host)"
    for _b in zsink zsink-coordinator zsink-committer zsink-writer; do
        [ -x "$BUILD/bin/$_b" ] || { echo "FAIL $TEST: $BUILD/bin/$_b not built"; exit 1; }
    done
    if ldd "$ZSINK" | grep -q 'libasan\|libubsan'; then
        echo "SKIP $TEST: $BUILD is a sanitizer build; the image takes plain binaries"
        exit 77
    fi
    # Debian's client when there is one (a newer `docker` first on PATH may lack buildx)
    DOCKER=docker
    [ -x /usr/bin/docker ] && DOCKER=/usr/bin/docker
    export DOCKER
    command -v "$DOCKER" >/dev/null || skip "no docker client (apt-get install docker.io)"
    "$DOCKER" info >/dev/null 2>&1 || skip "no docker engine answers (start dockerd; .ci/run does)"
    if [ -n "${ZSINK_COMPOSE:-}" ]; then
        COMPOSE=$ZSINK_COMPOSE
    elif command -v docker-compose >/dev/null; then
        COMPOSE=docker-compose
    elif "$DOCKER" compose version >/dev/null 2>&1; then
        COMPOSE="$DOCKER compose"
    else
        skip "neither docker-compose nor docker compose (apt-get install docker-compose)"
    fi
    PROJECT=$PREFIX$$
    # A run killed outright (ctest's timeout sends SIGKILL: no trap runs) left
    # its project behind: remove those of runs whose shell is gone.
    for _p in $({ "$DOCKER" ps -a --format '{{.Label "com.docker.compose.project"}}'
        "$DOCKER" volume ls -q; "$DOCKER" network ls --format '{{.Name}}'; } 2>/dev/null \
        | sed -n "s/^\\(${PREFIX}[0-9][0-9]*\\).*/\\1/p" | sort -u); do
        kill -0 "${_p#"$PREFIX"}" 2>/dev/null && continue
        say "removing $_p, left by an earlier run"
        cleanup_project "$_p"
    done
    trap 'cleanup_project "$PROJECT"' EXIT
    trap 'exit 1' INT TERM
}

fail () {
    echo "FAIL $TEST: $*"
    echo "---- containers ----"
    "$DOCKER" ps -a --filter "label=com.docker.compose.project=$PROJECT" \
        --format '{{.Names}} {{.Status}}' 2>/dev/null
    echo "---- last lines of the logs ----"
    dc logs --no-color --tail 40 2>&1 | tail -n 160
    exit 1
}

cid () {
    "$DOCKER" ps -aq --filter "label=com.docker.compose.project=$PROJECT" \
        --filter "label=com.docker.compose.service=$1" | head -n 1
}
# deploy_oracle TABLE: oracle.py from the host (ids 1..ROWS once, verify,
# no orphan, identifiers increasing), then the table's stats, orphans and
# verify printed
deploy_oracle () {
    if ! _out=$(python3 "$ROOT/tests/integration/oracle.py" --zsink "$ZSINK" --table "$1" \
        --expect "$ROWS" --last-max 2>&1); then
        echo "$_out"
        fail "the table is not exactly ids 1..$ROWS"
    fi
    echo "  $_out"
    echo "  stats: $("$ZSINK" table stats "$1" --json)"
    echo "  orphans: $("$ZSINK" table orphans "$1" --older-than 0s --json)"
    echo "  verify: $("$ZSINK" table verify "$1")"
}

coord_log () { "$DOCKER" logs "$(cid coordinator)" 2>&1; }
count_coord () { coord_log | grep -cE -- "$1"; }
restarts () { "$DOCKER" inspect -f '{{.RestartCount}}' "$(cid "$1")"; }

# wait_coord PATTERN N DEADLINE_S: the coordinator's log has N lines matching
wait_coord () {
    _end=$(($(date +%s) + $3))
    while [ "$(count_coord "$1")" -lt "$2" ]; do
        [ "$(date +%s)" -ge "$_end" ] && fail "timeout waiting for $2 x '$1' in the coordinator's log"
        sleep 0.2
    done
}

# kill_role SERVICE role|init: kill -9 from the host the role's process (the
# child of the container's init) or the container's main process (the init).
# `docker kill` would not do: Docker counts it as a manual stop and the
# restart policy leaves the container down.
KILLS=0
kill_role () {
    _c=$(cid "$1")
    [ -n "$_c" ] || fail "no container for $1"
    _init=$("$DOCKER" inspect -f '{{.State.Pid}}' "$_c")
    [ "${_init:-0}" -gt 0 ] || fail "$1 is not running"
    if coord_log | grep -q "reached end of input"; then
        fail "the job reached end of input before kill $((KILLS + 1)): the kills came too late"
    fi
    if [ "$2" = init ]; then _pid=$_init; else _pid=$(pgrep -P "$_init" | head -n 1); fi
    [ -n "$_pid" ] || fail "no process under $1's init ($_init)"
    _before=$(restarts "$1")
    _comm=$(cat "/proc/$_pid/comm" 2>/dev/null)
    _recovered=$(count_coord "from state RESTORING to RUNNING")
    _resumed=$(count_coord "Resuming job")
    _t=$(now_ms)
    kill -9 "$_pid" || fail "kill -9 $_pid ($1) failed"
    KILLS=$((KILLS + 1))
    say "kill -9 $1's $2 process: host pid $_pid ($_comm)"
    # the restart policy brings it back ...
    _end=$(($(date +%s) + 60))
    while :; do
        _st=$("$DOCKER" inspect -f '{{.State.Status}} {{.RestartCount}}' "$_c")
        [ "$_st" = "running $((_before + 1))" ] && break
        [ "$(date +%s)" -ge "$_end" ] && fail "$1 not restarted within 60 s (state: $_st)"
        sleep 0.2
    done
    say "$1 restarted by the restart policy (restart count $((_before + 1)))"
    # ... the job recovers (a failover, or a coordinator resuming its job) ...
    if [ "$1" = coordinator ]; then
        wait_coord "Resuming job $ZSINK_JOB_ID" $((_resumed + 1)) 60
    fi
    wait_coord "from state RESTORING to RUNNING" $((_recovered + 1)) 60
    # ... and completes a checkpoint before the next kill
    _done=$(count_coord "Completed checkpoint")
    wait_coord "Completed checkpoint" $((_done + 1)) 60
    say "job recovered and completed a checkpoint ($(secs "$_t" "$(now_ms)") s after the kill)"
}

# wait_exited0 DEADLINE_S SERVICE...: each has exited 0 (another exit fails)
wait_exited0 () {
    _d=$1
    shift
    for _s in "$@"; do
        _end=$(($(date +%s) + _d))
        while :; do
            _st=$("$DOCKER" inspect -f '{{.State.Status}} {{.State.ExitCode}}' "$(cid "$_s")")
            [ "$_st" = "exited 0" ] && break
            case $_st in exited*) fail "$_s exited: $_st" ;; esac
            [ "$(date +%s)" -ge "$_end" ] && fail "$_s did not exit 0 within $_d s (state: $_st)"
            sleep 0.2
        done
    done
}
