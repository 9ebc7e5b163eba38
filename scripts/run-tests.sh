#!/bin/sh
# run-tests.sh BUILD_DIR JOBS [CTEST_ARGS...] - every test of BUILD_DIR, as
# `make test` runs them: the S3, Kafka and docker-compose tests (ctest
# labels s3, kafka, deploy) in a lane of their own beside the others, each
# lane `ctest -j JOBS`. Those tests mostly wait (for a lease to lapse, a
# server, a broker or a container to start, a rate-limited source), so the
# second lane costs little CPU and saves the minutes they would add run
# after the rest. The interop ones (label interop: Paimon Java and
# pypaimon beside a job) join them, which evens the two lanes (the first
# took 921 s, the second 669 s, without them). Its output is printed when both are done; exit
# 0 when every test of both passed (or skipped). ZSINK_TEST_LANES=1: one
# lane, every test in one ctest (.ci/run's sanitizer pass, whose processes
# are several times slower).
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR JOBS [CTEST_ARGS...]" >&2; exit 2; }
cd "$1" || exit 2
jobs=$2
shift 2
[ "${ZSINK_TEST_LANES:-2}" = 1 ] && exec ctest --output-on-failure -j "$jobs" "$@"
log=$(mktemp)
ctest --output-on-failure -L 's3|kafka|deploy|interop' -j "$jobs" "$@" >"$log" 2>&1 &
lane=$!
ctest --output-on-failure -LE 's3|kafka|deploy|interop' -j "$jobs" "$@"
rc=$?
wait $lane
rc_s3=$?
echo "---- the S3, Kafka, deploy and interop tests (ctest labels s3, kafka, deploy, interop), run beside the others ----"
cat "$log"
rm -f "$log"
[ $rc = 0 ] && [ $rc_s3 = 0 ]
