#!/bin/bash
# The writer's CPU (docs/performance.md): zsink's Parquet writer alone over
# rows already in memory, for zstd levels, dictionary on/off, page sizes
# and encodings (delta, the default, against plain), the floor (zstd level 1
# alone over the pages the writer hands it, and the writer's rows per CPU
# second as a fraction of it), and DuckDB's COPY … TO parquet (zstd, one
# thread) of the same rows, side by side, with perf's view of where the
# default's CPU goes.
#
#   bench/writer_cpu.sh [ROWS [REPEAT]]    (default 2,000,000 rows, 5 runs)
#
# Everything printed is what docs/performance.md and docs/decisions.md
# quote; rows/s is the best run, CPU the median (the machine may be
# shared: CPU time is steadier than wall time, but both move).
set -eu
cd "$(dirname "$0")/.."
ROWS=${1:-2000000}
REPEAT=${2:-5}
BIN=${ZSINK_BIN:-build/bin} # another build: ZSINK_BIN=DIR/bin
WORK=$(mktemp -d /tmp/zsink-writer-cpu.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

echo "zsink writer CPU, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), $ROWS rows, $REPEAT runs," \
    "git $(git describe --always --dirty 2>/dev/null || echo "?"), load $(cut -d' ' -f1-3 /proc/loadavg)"
$BIN/zsink-bench-writer-cpu "$WORK" "$ROWS" "$REPEAT"

if [ -e tests/duckdb/node_modules/@duckdb/node-api ]; then
    node bench/writer_cpu_duckdb.mjs "$WORK" "$REPEAT"
else
    echo "(DuckDB skipped: no tests/duckdb/node_modules; npm ci there)"
fi

# Where the default variant's CPU goes (perf, if it may sample here).
if command -v perf >/dev/null && perf record -o "$WORK/probe.data" true >/dev/null 2>&1; then
    echo
    echo "== perf: the defaults, default schema, $ROWS rows x $REPEAT (datagen included: it runs once)"
    perf record -q -o "$WORK/perf.data" $BIN/zsink-bench-writer-cpu "$WORK/perf" "$ROWS" "$REPEAT" \
        default default >/dev/null 2>&1
    perf report -i "$WORK/perf.data" --no-children --sort dso --stdio 2>/dev/null |
        grep '%' | head -5
    perf report -i "$WORK/perf.data" --no-children --sort dso,symbol --stdio 2>/dev/null |
        grep '%' | grep -v 'libzstd\|0x0000' | head -15
fi
