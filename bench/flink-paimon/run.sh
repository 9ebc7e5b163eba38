#!/bin/sh
# bench/flink-paimon/run.sh [SECONDS] [--only tput,latency,kill,scenarios] [--out DIR]
#
# zsink and Flink 2.0 + Paimon 2.0 side by side, the same jobs, in one run (default 60 s per
# throughput and latency case; 10 makes a smoke run). Prints a table of the figures of both and
# their ratio zsink/Flink; the raw figures are in OUT/results.json. README.md says what each
# figure is and how it is taken.
#
#   ZSINK_BIN=DIR      zsink binaries (default: build/bin of this repository)
#   ZSINK_INTEROP=DIR  the venv with pypaimon (default: build/interop; scripts/setup-interop.sh)
#   FLINK_HEAP=SIZE    -Xmx of the MiniCluster JVMs (default 1g)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
sh "$HERE/setup.sh" --check || sh "$HERE/setup.sh" >&2
exec python3 "$HERE/run.py" "$@"
