#!/bin/sh
# Build the libFuzzer targets with clang and run each one for a while.
#
#   sh tests/fuzz/run.sh [SECONDS_PER_TARGET] [BUILD_DIR] [TARGET...]
#
# SECONDS_PER_TARGET defaults to 10, BUILD_DIR to build-fuzz at the top of
# the repository (a relative path is taken from the current directory);
# TARGET names (codec, parquet, …) restrict the run to those. Each target
# fuzzes a scratch copy of tests/fuzz/corpus/<target> (the checked-in corpus
# is never written), so a run leaves BUILD_DIR/run/<target>/ with its log,
# the grown corpus and any crash. Exit 1 when any target crashes, leaks,
# trips UBSan, hangs (-timeout) or runs out of memory (-rss_limit_mb): the
# reproducer's path is printed, and `BUILD_DIR/fuzz_<target> REPRODUCER`
# replays it.
#
# Environment: FUZZ_CC (default clang), FUZZ_BUILD_JOBS (default 2).
set -u

SECS=${1:-10}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${2:-$ROOT/build-fuzz}
case $BUILD in
/*) ;;
*) BUILD=$(pwd)/$BUILD ;;
esac
[ $# -gt 2 ] && shift 2 || set --
ONLY="$*"
FUZZ="$ROOT/tests/fuzz"

# Target and the longest input it gets: a little above the largest real
# input of its kind (a 64-column schema is ~6 kB; Parquet seeds are < 8 kB).
TARGETS="codec:16384 snapshot:8192 manifest:16384 schema:8192 config:8192
parquet:32768 thrift:4096 rle:4096 avro:32768 value:256 nested:4096 computed:4096
partition_filter:1024"

say () { printf 'fuzz: %s\n' "$*"; }

GEN=
if command -v ninja >/dev/null 2>&1 && [ ! -f "$BUILD/CMakeCache.txt" ]; then
    GEN="-G Ninja"
fi
say "building in $BUILD"
mkdir -p "$BUILD"
# shellcheck disable=SC2086
if ! CC=${FUZZ_CC:-clang} cmake -S "$FUZZ" -B "$BUILD" $GEN >"$BUILD/configure.log" 2>&1; then
    cat "$BUILD/configure.log"
    say "configure failed"
    exit 1
fi
if ! cmake --build "$BUILD" -j "${FUZZ_BUILD_JOBS:-2}" >"$BUILD/build.log" 2>&1; then
    cat "$BUILD/build.log"
    say "build failed"
    exit 1
fi

# Leaks are failures; UB already aborts (-fno-sanitize-recover); stacks for
# UBSan reports too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"

failed=0
for spec in $TARGETS; do
    t=${spec%%:*}
    max_len=${spec#*:}
    if [ -n "$ONLY" ]; then
        case " $ONLY " in *" $t "*) ;; *) continue ;; esac
    fi
    work="$BUILD/run/$t"
    rm -rf "$work"
    mkdir -p "$work/corpus" "$work/artifacts"
    cp "$FUZZ/corpus/$t"/* "$work/corpus/" 2>/dev/null
    dict=
    [ -f "$FUZZ/dict/$t.dict" ] && dict="-dict=$FUZZ/dict/$t.dict"
    # shellcheck disable=SC2086
    "$BUILD/fuzz_$t" -max_total_time="$SECS" -max_len="$max_len" -rss_limit_mb=2048 \
        -timeout=30 -print_final_stats=1 -artifact_prefix="$work/artifacts/" $dict \
        "$work/corpus" >"$work/log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
    cov=$(grep -E '^#[0-9]+' "$work/log" | tail -1 | sed -n 's/.*\(cov: [0-9]*\).*\(ft: [0-9]*\).*/\1 \2/p')
    crashes=$(ls "$work/artifacts" 2>/dev/null)
    if [ $rc -ne 0 ] || [ -n "$crashes" ]; then
        failed=1
        say "$t: FAILED (exit $rc) after ${execs:-?} runs; log $work/log"
        grep -E 'ERROR: |SUMMARY: |runtime error|property failed' "$work/log" | head -5 |
            sed 's/^/    /'
        for a in $crashes; do
            say "$t: reproducer $work/artifacts/$a"
            say "$t: replay with $BUILD/fuzz_$t $work/artifacts/$a"
        done
    else
        say "$t: ok, ${execs:-?} runs in ${SECS}s, ${cov:-?}"
    fi
done
[ $failed -eq 0 ] || exit 1
say "all targets ok"
