#!/bin/sh
# bench/kafka.sh [kafka_bench.py options] - the Kafka -> table figures of zsink beside Flink's
# Kafka source -> Paimon's Flink sink, on one broker, one topic and the same rows, one command
# from a fresh checkout:
#
#   bench/kafka.sh                          # 2,000,000 rows x 3 runs at p=1 and 2, then
#                                           # 20,000 rows/s for 60 s: about 8 min
#   bench/kafka.sh --rows 200000 --runs 1 --secs 10     # a smoke run, about 2 min
#   bench/kafka.sh --only latency --no-flink            # any subset; zsink alone
#
# What each figure is and how it is taken: bench/kafka_bench.py (its docstring, or --help).
# Builds what is missing (build/: zsink, zsink-ktool; scripts/setup-kafka.sh: the broker's jars;
# bench/flink-paimon/setup.sh: the Flink side, unless --no-flink), starts a broker of its own
# (scripts/kafka-server.sh, a free port, its state under the output directory) and stops it by
# its PID on exit. Output: build/bench-kafka/<UTC time>/ (or --out DIR): every job's log and
# table, results.json, table.txt.
#
#   ZSINK_BUILD=DIR   the build directory (default build/ of this repository)
#   FLINK_HEAP=SIZE   -Xmx of the Flink MiniCluster JVM (default 1g)
# Not part of ctest: run it by hand, on a machine as quiet as you can get (it prints the load).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${ZSINK_BUILD:-$ROOT/build}
# the binaries are (re)built when missing or out of date (cmake's own check)
[ -f "$BUILD/CMakeCache.txt" ] || cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target zsink-cli zsink-coordinator zsink-writer zsink-committer \
    zsink-ktool >/dev/null
sh "$ROOT/scripts/setup-kafka.sh" "$BUILD" >&2
case " $* " in
*" --no-flink "*) ;;
*) sh "$ROOT/bench/flink-paimon/setup.sh" --check || sh "$ROOT/bench/flink-paimon/setup.sh" >&2 ;;
esac

OUT=$BUILD/bench-kafka/$(date -u +%Y%m%dT%H%M%SZ)
prev=
for a in "$@"; do
    [ "$prev" = --out ] && OUT=$a
    prev=$a
done
mkdir -p "$OUT"
BOOT=$(ZSINK_KAFKA_LIBS=$BUILD/kafka/libs sh "$ROOT/scripts/kafka-server.sh" start "$OUT/broker")
trap 'ZSINK_KAFKA_LIBS=$BUILD/kafka/libs sh "$ROOT/scripts/kafka-server.sh" stop "$OUT/broker" >/dev/null' EXIT
echo "kafka.sh: broker $BOOT (stopped on exit), output $OUT" >&2
python3 "$ROOT/bench/kafka_bench.py" --bootstrap "$BOOT" --bin "$BUILD/bin" --out "$OUT" "$@"
