#!/bin/sh
# bench/flink-paimon/run.sh [SECONDS] [--only xmx,tput,ceiling,latency,kill,scenarios] [--out DIR]
#                           [--reps N] [--intervals 1,10] [--heaps 1g,512m,...]
#
# zsink and Flink 2.0 + Paimon 2.0 side by side, the same jobs, in one run (default 60 s per
# latency case, 30 s throughput windows; 10 makes a smoke run). Prints a table of the figures
# of zsink, Flink default and Flink tuned and their ratios; the raw figures are in
# OUT/results.json. README.md says what each figure is and how it is taken.
#
#   ZSINK_BIN=DIR      zsink binaries (default: build/bin of this repository)
#   ZSINK_INTEROP=DIR  the venv with pypaimon (default: build/interop; scripts/setup-interop.sh)
#   FLINK_HEAP=SIZE    -Xmx of the MiniCluster JVMs (default 1g)
#   FLINK_TUNED_HEAP=SIZE|1:SIZE,2:SIZE  -Xmx of the tuned Flink without an xmx sweep (512m)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
sh "$HERE/setup.sh" --check || sh "$HERE/setup.sh" >&2
exec python3 "$HERE/run.py" "$@"
