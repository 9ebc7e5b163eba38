#!/bin/sh
# t_deploy_s3.sh - the compose deployment on S3 (deploy/docker-compose.s3.yml),
# for real: no volume shared between the roles, an S3 service killed and
# started again under the running job.
#
#   sh tests/deploy/t_deploy_s3.sh BUILD_DIR SCRATCH_DIR    (ctest: deploy.compose_s3)
#
# 1. Images: the base (deploy/build-base-image, cached), the runtime image
#    from BUILD_DIR/bin (deploy/build-image) and the S3 service's from
#    BUILD_DIR/s3/weed (deploy/build-s3-image), tags of this run's own.
# 2. docker-compose.s3.yml under a project of this run's own, its S3 API
#    published on a free port of the host's loopback: 3 writers, 2 s
#    checkpoints, ids 1..ROWS at 10000 rows/s, table and checkpoints in the
#    bucket. Each role's container mounts nothing but the coordinator's
#    job.yaml; the credentials are in no log line and no job.json. While the
#    job runs, each time after it recovered from the last and completed a
#    checkpoint: kill -9 from the host writer-1's process, the committer
#    container's init, the coordinator's process (each replacement of the
#    committer and the coordinator waits for its predecessor's lease to
#    lapse), then `docker kill -s KILL` of the S3 container and `docker
#    start` of it: the roles ride the outage out (retries, exits restarted
#    by the policy, failovers) and the job completes a checkpoint again.
# 3. The job finishes (every role exited 0) and the table, read from the
#    host through the published port, holds ids 1..ROWS exactly once
#    (oracle.py: stats, verify, no orphan, identifiers), and no multipart
#    upload is left open in the bucket.
#
# Exit 77 (skipped) as t_deploy.sh (not root, no docker engine, a sanitizer
# build; ZSINK_DEPLOY_REQUIRED=1 makes a missing engine a failure) and when
# the SeaweedFS binary is not built (scripts/setup-s3.sh --check BUILD_DIR),
# unless ZSINK_S3_REQUIRED=1.
set -u

BUILD=$(cd "${1:?usage: t_deploy_s3.sh BUILD_DIR SCRATCH_DIR}" && pwd)
SCRATCH=${2:?usage: t_deploy_s3.sh BUILD_DIR SCRATCH_DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ZSINK=$BUILD/bin/zsink
ROWS=300000
IMAGE=zsink-deploy-s3-test:$$
S3_IMAGE=zsink-deploy-s3-weed:$$
JOB_ID=deploy-s3-test-$$
BUCKET=zsink
KEY=zsinktestkey
SECRET=zsinktestsecret
T0=$(date +%s)

TEST=t_deploy_s3
COMPOSE_FILE=$ROOT/deploy/docker-compose.s3.yml
PREFIX=zsinks3deploy
IMAGES="zsink-deploy-s3-test zsink-deploy-s3-weed"
. "$HERE/lib_deploy.sh"

# --- can it run here? ---------------------------------------------------------

deploy_setup
if ! why=$(sh "$ROOT/scripts/setup-s3.sh" --check "$BUILD"); then
    if [ "${ZSINK_S3_REQUIRED:-0}" = 1 ]; then
        echo "FAIL $TEST: the S3 server is required (ZSINK_S3_REQUIRED=1): $why"
        exit 1
    fi
    echo "SKIP $TEST: $why"
    exit 77
fi
rm -rf "$SCRATCH"
mkdir -p "$SCRATCH"

# A free port on the host's loopback for the S3 API (fixed for the run: a
# restarted container must publish the same one).
PORT=
for _try in $(seq 1 200); do
    p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 12000))
    [ -z "$(ss -Htln "sport = :$p" 2>/dev/null)" ] && { PORT=$p; break; }
done
[ -n "$PORT" ] || fail "no free port for the S3 API"
export ZSINK_IMAGE=$IMAGE ZSINK_S3_IMAGE=$S3_IMAGE ZSINK_JOB_ID=$JOB_ID \
    ZSINK_JOB_CONFIG=$SCRATCH/job.yaml ZSINK_S3_PORT=$PORT ZSINK_S3_BUCKET=$BUCKET \
    ZSINK_S3_ACCESS_KEY=$KEY ZSINK_S3_SECRET_KEY=$SECRET
# the host's zsink and curl reach the same server through the published port
export AWS_ENDPOINT_URL=http://127.0.0.1:$PORT AWS_ACCESS_KEY_ID=$KEY \
    AWS_SECRET_ACCESS_KEY=$SECRET AWS_REGION=us-east-1
say "project $PROJECT, images $IMAGE $S3_IMAGE, job $JOB_ID, S3 on 127.0.0.1:$PORT, compose: $($COMPOSE version --short 2>/dev/null || $COMPOSE version | head -n 1)"

# s3get PATH: a signed GET from the host; the body on stdout, the status last
s3get () {
    curl -s --max-time 5 -w '\n%{http_code}' --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
        --user "$KEY:$SECRET" "$AWS_ENDPOINT_URL$1"
}
s3code () { s3get "$1" | tail -n 1; }

# --- 1. images ------------------------------------------------------------------

t=$(now_ms)
sh "$ROOT/deploy/build-base-image" || skip "cannot build the base image (debootstrap, the Debian archive)"
sh "$ROOT/deploy/build-image" --bin "$BUILD/bin" --tag "$IMAGE" || fail "deploy/build-image failed"
sh "$ROOT/deploy/build-s3-image" --weed "$BUILD/s3/weed" --tag "$S3_IMAGE" \
    || fail "deploy/build-s3-image failed"
S3_MB=$("$DOCKER" image inspect -f '{{.Size}}' "$S3_IMAGE" | awk '{ printf "%.1f", $1 / 1e6 }')
say "images built in $(secs "$t" "$(now_ms)") s; the S3 image ${S3_MB} MB"

# --- 2. the job, and the kills ------------------------------------------------------

# job.s3.yaml with this run's rows; no credentials (they are in the roles'
# environment)
sed -e "s/^datagen.number-of-rows:.*/datagen.number-of-rows: $ROWS/" \
    -e "s#s3://zsink/#s3://$BUCKET/#" "$ROOT/deploy/job.s3.yaml" >"$SCRATCH/job.yaml"
grep -q "number-of-rows: $ROWS" "$SCRATCH/job.yaml" || fail "deploy/job.s3.yaml has no number-of-rows"

t=$(now_ms)
dc up -d >"$SCRATCH/up.log" 2>&1 || { cat "$SCRATCH/up.log"; fail "docker-compose up failed"; }
UP_S=$(secs "$t" "$(now_ms)")
T_UP=$t
say "up -d returned in ${UP_S} s (it waits for the S3 service's and the coordinator's healthchecks)"
[ "$(s3code "/$BUCKET")" = 200 ] || fail "the bucket $BUCKET is not there after up (HEAD: $(s3code "/$BUCKET"))"

# Nothing shared: the roles mount nothing but the coordinator's job.yaml,
# the S3 service its own volume.
mounts () { "$DOCKER" inspect -f '{{range .Mounts}}{{.Type}}:{{.Destination}} {{end}}' "$(cid "$1")"; }
for s in committer writer-0 writer-1 writer-2; do
    [ -z "$(mounts "$s")" ] || fail "$s mounts $(mounts "$s"): expected nothing"
done
[ "$(mounts coordinator)" = "bind:/etc/zsink/job.yaml " ] || fail "the coordinator mounts $(mounts coordinator)"
[ "$(mounts s3)" = "volume:/data " ] || fail "the S3 service mounts $(mounts s3)"
say "mounts: coordinator $(mounts coordinator)| s3 $(mounts s3)| the others none"

wait_coord "Completed checkpoint" 1 60
# the start is clean: the S3 service was ready (bucket and all) before the
# roles began, so none of them has been restarted yet
for s in coordinator committer writer-0 writer-1 writer-2; do
    [ "$(restarts "$s")" = 0 ] || fail "$s was restarted $(restarts "$s") time(s) before the first kill"
done
kill_role writer-1 role
kill_role committer init
kill_role coordinator role

# kill_s3: docker kill -s KILL of the S3 container (a crash of the whole
# store; docker start brings it back: the policy leaves a killed container
# down), then wait until the job completes a checkpoint again.
ROLES="coordinator committer writer-0 writer-1 writer-2"
restart_counts () { for _s in $ROLES; do printf '%s=%s ' "$_s" "$(restarts "$_s")"; done; }
kill_s3 () {
    coord_log | grep -q "reached end of input" \
        && fail "the job reached end of input before the S3 kill: the kills came too late"
    _c=$(cid s3)
    _fo=$(count_coord 'switched from state RUNNING to RESTARTING')
    _rs=$(count_coord 'Resuming job')
    RC_BEFORE=$(restart_counts)
    T_KILL=$(now_ms)
    "$DOCKER" kill -s KILL "$_c" >/dev/null || fail "docker kill -s KILL of the S3 container failed"
    _end=$(($(date +%s) + 30))
    until [ "$("$DOCKER" inspect -f '{{.State.Status}}' "$_c")" = exited ]; do
        [ "$(date +%s)" -ge "$_end" ] && fail "the S3 container did not exit within 30 s of KILL"
        sleep 0.1
    done
    say "docker kill -s KILL of the S3 container ($(secs "$T_KILL" "$(now_ms)") s to exited)"
    # counted now, not before the kill: a checkpoint in flight then may
    # complete before the store dies; none can complete while it is down
    _done=$(count_coord "Completed checkpoint")
    "$DOCKER" start "$_c" >/dev/null || fail "docker start of the S3 container failed"
    say "S3 container started again"
    _end=$(($(date +%s) + 60))
    until [ "$(s3code "/$BUCKET")" = 200 ]; do
        [ "$(date +%s)" -ge "$_end" ] && fail "the S3 service does not answer 60 s after its start"
        sleep 0.2
    done
    S3_BACK_S=$(secs "$T_KILL" "$(now_ms)")
    say "S3 answers again (HEAD of the bucket 200), ${S3_BACK_S} s after the kill"
    wait_coord "Completed checkpoint" $((_done + 1)) 180
    STALL_S=$(secs "$T_KILL" "$(now_ms)")
    RC_AFTER=$(restart_counts)
    S3_FAILOVERS=$(($(count_coord 'switched from state RUNNING to RESTARTING') - _fo))
    S3_RESUMES=$(($(count_coord 'Resuming job') - _rs))
    say "the job completed a checkpoint ${STALL_S} s after the S3 kill; failovers since: $S3_FAILOVERS, coordinator resumes: $S3_RESUMES"
    say "restart counts before: $RC_BEFORE"
    say "restart counts after:  $RC_AFTER"
}
kill_s3

# --- 3. the end, and the table --------------------------------------------------------

wait_exited0 300 coordinator
RUN_S=$(secs "$T_UP" "$(now_ms)")
say "job finished ${RUN_S} s after up: $(coord_log | grep -m 1 -o 'Job [^ ]* switched from state FINISHING to FINISHED')"
wait_exited0 60 committer writer-0 writer-1 writer-2
for s in $ROLES; do
    echo "  $s: exited 0, restarted $(restarts "$s") time(s)"
done
[ "$(restarts writer-1)" -ge 1 ] && [ "$(restarts committer)" -ge 1 ] \
    && [ "$(restarts coordinator)" -ge 1 ] || fail "restart counts below the kills"
say "failovers: $(count_coord 'switched from state RUNNING to RESTARTING'), coordinator resumes: $(count_coord 'Resuming job')"
dc logs --no-color >"$SCRATCH/compose.log" 2>&1
# what the roles said of the outage: their errors and lost leases
echo "  the roles' errors and lost leases:"
grep -E '^(coordinator|committer|writer-[0-9])[^|]*\| .* (ERROR|FATAL) ' "$SCRATCH/compose.log" \
    | cut -c1-230 | sed 's/^/    /'

# the secret key is in no container's log and not in the job's job.json
grep -qF -- "$SECRET" "$SCRATCH/compose.log" && fail "the secret key is in a container's log"
job_json=$(s3get "/$BUCKET/checkpoints/$JOB_ID/job.json")
[ "$(echo "$job_json" | tail -n 1)" = 200 ] || fail "no checkpoints/$JOB_ID/job.json in the bucket"
echo "$job_json" | grep -qF -- "$SECRET" && fail "the secret key is in job.json"
echo "$job_json" | grep -qF -- "$KEY" && fail "the access key is in job.json"

TABLE=s3://$BUCKET/table
deploy_oracle "$TABLE"
uploads=$(s3get "/$BUCKET?uploads=")
[ "$(echo "$uploads" | tail -n 1)" = 200 ] || fail "ListMultipartUploads: $uploads"
n=$(echo "$uploads" | grep -o '<UploadId>' | wc -l)
[ "$n" = 0 ] || { echo "$uploads"; fail "$n multipart upload(s) left open in the bucket"; }
echo "  open multipart uploads: 0"

echo "figures: S3 image ${S3_MB} MB, up ${UP_S} s, up -> finished ${RUN_S} s with $KILLS kills -9 and the S3 kill, S3 answering ${S3_BACK_S} s and a checkpoint ${STALL_S} s after its kill"
echo "PASS $TEST ($(($(date +%s) - T0)) s)"
exit 0
