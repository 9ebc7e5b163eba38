#!/bin/sh
# t_deploy.sh - the docker-compose deployment (deploy/), for real.
#
#   sh tests/deploy/t_deploy.sh BUILD_DIR SCRATCH_DIR      (ctest: deploy.compose)
#
# 1. Images: the base without a registry (deploy/build-base-image, cached
#    under zsink-base:bookworm) and the runtime image from BUILD_DIR/bin
#    (deploy/build-image, a tag of this run's own).
# 2. deploy/docker-compose.yml under a project of this run's own: 3 writers,
#    2 s checkpoints, ids 1..200000 at 10000 rows/s. While it runs, kill -9
#    from the host, each time after the job recovered from the last and
#    completed a checkpoint: writer-1's process, the committer container's
#    main process (its init: everything in the container dies), writer-1's
#    process again (a restarted container killed again), the coordinator's
#    process. `docker kill` would not do: Docker counts it as a manual stop
#    and the restart policy leaves the container down.
# 3. The job finishes (every container exited 0) and the table, read from
#    the volume on the host, holds ids 1..200000 exactly once: count =
#    distinct = 200000, min 1, max 200000, no orphan, verify clean, one
#    commit user, identifiers increasing and the last INT64_MAX (oracle.py),
#    and DuckDB agrees when it is installed (tests/duckdb).
# 4. `down` of a running (unbounded) job is prompt (init: true forwards
#    SIGTERM) and keeps only the volume; `up` resumes the job from it (same
#    job id); `down -v` is prompt too and leaves no container, network or
#    volume of the project.
#
# Containers, networks, volumes and the image are removed by name on every
# exit, pass or fail. Exit 77 (skipped) when not root, when no docker engine
# answers, or for a sanitizer build (the image takes plain binaries); with
# ZSINK_DEPLOY_REQUIRED=1 (.ci/run sets it) a missing engine is a failure,
# not a skip. The helpers (skip rules, cleanup, kill_role) are in
# lib_deploy.sh, shared with t_deploy_s3.sh.
set -u

BUILD=$(cd "${1:?usage: t_deploy.sh BUILD_DIR SCRATCH_DIR}" && pwd)
SCRATCH=${2:?usage: t_deploy.sh BUILD_DIR SCRATCH_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ZSINK=$BUILD/bin/zsink
ROWS=200000
IMAGE=zsink-deploy-test:$$
JOB_ID=deploy-test-$$
T0=$(date +%s)

TEST=t_deploy
COMPOSE_FILE=$ROOT/deploy/docker-compose.yml
PREFIX=zsinkdeploy
IMAGES=zsink-deploy-test
. "$HERE/lib_deploy.sh"

# --- can it run here? ---------------------------------------------------------

deploy_setup
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"
say "project $PROJECT, image $IMAGE, job $JOB_ID, compose: $($COMPOSE version --short 2>/dev/null || $COMPOSE version | head -n 1)"
export ZSINK_IMAGE=$IMAGE ZSINK_JOB_ID=$JOB_ID ZSINK_JOB_CONFIG=$SCRATCH/job.yaml

# --- 1. images ------------------------------------------------------------------

t=$(now_ms)
sh "$ROOT/deploy/build-base-image" || skip "cannot build the base image (debootstrap, the Debian archive)"
BASE_S=$(secs "$t" "$(now_ms)")
t=$(now_ms)
sh "$ROOT/deploy/build-image" --bin "$BUILD/bin" --tag "$IMAGE" || fail "deploy/build-image failed"
IMAGE_S=$(secs "$t" "$(now_ms)")
BASE_MB=$("$DOCKER" image inspect -f '{{.Size}}' zsink-base:bookworm | awk '{ printf "%.1f", $1 / 1e6 }')
IMAGE_MB=$("$DOCKER" image inspect -f '{{.Size}}' "$IMAGE" | awk '{ printf "%.1f", $1 / 1e6 }')
say "base image ${BASE_MB} MB (${BASE_S} s, cached after the first run), image ${IMAGE_MB} MB (${IMAGE_S} s)"

# --- 2. the job, and the kills ------------------------------------------------------

cat >"$SCRATCH/job.yaml" <<EOF
parallelism: 3
execution.checkpointing.interval: 2s
source.kind: datagen
datagen.rows-per-second: 10000
datagen.number-of-rows: $ROWS
restart-strategy.fixed-delay.attempts: 20
restart-strategy.fixed-delay.delay: 1s
table.path: /data/table
state.checkpoints.dir: /data/checkpoints
EOF

t=$(now_ms)
dc up -d >"$SCRATCH/up.log" 2>&1 || { cat "$SCRATCH/up.log"; fail "docker-compose up failed"; }
UP_S=$(secs "$t" "$(now_ms)")
say "up -d returned in ${UP_S} s (it waits for the coordinator's healthcheck)"
T_UP=$t
wait_coord "Completed checkpoint" 1 60
kill_role writer-1 role
kill_role committer init
kill_role writer-1 role
kill_role coordinator role

# --- 3. the end, and the table --------------------------------------------------------

wait_exited0 300 coordinator
RUN_S=$(secs "$T_UP" "$(now_ms)")
say "job finished ${RUN_S} s after up: $(coord_log | grep -m 1 -o 'Job [^ ]* switched from state FINISHING to FINISHED')"
wait_exited0 30 committer writer-0 writer-1 writer-2
for s in coordinator committer writer-0 writer-1 writer-2; do
    echo "  $s: exited 0, restarted $(restarts "$s") time(s)"
done
[ "$(restarts writer-1)" = 2 ] && [ "$(restarts committer)" = 1 ] \
    && [ "$(restarts coordinator)" = 1 ] || fail "restart counts differ from the kills"
say "failovers: $(count_coord 'switched from state RUNNING to RESTARTING'), coordinator resumes: $(count_coord 'Resuming job')"

VOL=$("$DOCKER" volume inspect -f '{{.Mountpoint}}' "${PROJECT}_data") || fail "no volume ${PROJECT}_data"
TABLE=$VOL/table
dc logs --no-color >"$SCRATCH/compose.log" 2>&1
deploy_oracle "$TABLE"
DUCK=$ROOT/tests/duckdb
if command -v node >/dev/null && [ -d "$DUCK/node_modules/@duckdb/node-api" ]; then
    out=$(node "$DUCK/oracle.mjs" table --zsink "$ZSINK" --table "$TABLE" --expect "$ROWS" 2>&1) \
        || { echo "$out"; fail "DuckDB disagrees"; }
    echo "  duckdb: $out"
else
    echo "  duckdb: not installed (scripts/setup.sh --test), skipped"
fi

# --- 4. down while a job runs, up resumes it, down -v -----------------------------------

# An unbounded job (a new job id; its own table) so that every container is
# running when `down` stops them.
sed -e '/number-of-rows/d' -e 's#/data/table#/data/table-down#' "$SCRATCH/job.yaml" \
    >"$SCRATCH/job-down.yaml"
export ZSINK_JOB_CONFIG=$SCRATCH/job-down.yaml ZSINK_JOB_ID=$JOB_ID-down
running () { "$DOCKER" ps -q --filter "label=com.docker.compose.project=$PROJECT" | wc -l; }
left () {
    echo "$("$DOCKER" ps -aq --filter "label=com.docker.compose.project=$PROJECT" | wc -l)" \
        "$("$DOCKER" network ls -q --filter "name=${PROJECT}_" | wc -l)" \
        "$("$DOCKER" volume ls -q --filter "name=${PROJECT}_" | wc -l)"
}
# timed_down ARGS...: `down ARGS` of 5 running containers; its time in $DOWN_S
timed_down () {
    n=$(count_coord "Completed checkpoint")
    wait_coord "Completed checkpoint" $((n + 1)) 60
    [ "$(running)" = 5 ] || fail "$(running) containers running before down, expected 5"
    t=$(now_ms)
    dc down "$@" >"$SCRATCH/down.log" 2>&1 || { cat "$SCRATCH/down.log"; fail "down $* failed"; }
    DOWN_S=$(secs "$t" "$(now_ms)")
    say "down${*:+ $*} of 5 running containers took ${DOWN_S} s"
    awk -v s="$DOWN_S" 'BEGIN { exit !(s <= 8) }' \
        || fail "down took ${DOWN_S} s: a role did not stop on SIGTERM (init: true?)"
}
dc up -d >"$SCRATCH/up2.log" 2>&1 || { cat "$SCRATCH/up2.log"; fail "second up failed"; }
timed_down
DOWN1_S=$DOWN_S
# containers and network gone, the volume kept: the job is RUNNING on it
[ "$(left)" = "0 0 1" ] || fail "after down: containers, networks, volumes left: $(left), expected 0 0 1"
dc up -d >"$SCRATCH/up3.log" 2>&1 || { cat "$SCRATCH/up3.log"; fail "third up failed"; }
wait_coord "Resuming job $ZSINK_JOB_ID" 1 60
say "up after down: $(coord_log | grep -o 'Resuming job .*')"
timed_down -v
[ "$(left)" = "0 0 0" ] || fail "after down -v: containers, networks, volumes left: $(left)"

echo "figures: base image ${BASE_MB} MB (build ${BASE_S} s), image ${IMAGE_MB} MB (build ${IMAGE_S} s), up ${UP_S} s, up -> finished ${RUN_S} s with $KILLS kills, down ${DOWN1_S} s, down -v ${DOWN_S} s"
echo "PASS t_deploy ($(($(date +%s) - T0)) s)"
exit 0
