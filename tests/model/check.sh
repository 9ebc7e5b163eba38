#!/bin/sh
# check.sh [OUTDIR] - model-check zsink's commit protocol (zsink.pml) with spin.
#
# Builds and runs every variant in its own directory under OUTDIR (default: a
# fresh mktemp -d), prints one line per variant:
#     variant  result  states-stored  pan-seconds  wall-seconds
# and exits 0 only if every variant of the real protocol verifies (no error,
# search complete) and every mutant yields a counterexample. A mutant's
# counterexample is replayed into OUTDIR/<variant>/counterexample.txt.
# Exit 77 (for ctest's SKIP_RETURN_CODE) if spin or a C compiler is missing.
# See README.md for what each variant is.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
MODEL="$HERE/zsink.pml"
OUT=${1:-}
if [ -z "$OUT" ]; then
    OUT=$(mktemp -d "${TMPDIR:-/tmp}/zsink-model.XXXXXX") || exit 2
else
    mkdir -p "$OUT" || exit 2
fi
CC=${CC:-cc}
command -v spin >/dev/null 2>&1 || { echo "check.sh: spin not found (Debian: apt-get install spin)"; exit 77; }
command -v "$CC" >/dev/null 2>&1 || { echo "check.sh: C compiler '$CC' not found"; exit 77; }

# pan: lossless state compression, a memory cap, warnings off (pan.c is
# generated code); -O1 for the full searches (compiling pan.c costs more
# than it saves beyond that); the mutants are searched breadth-first
# (-DBFS), which gives the shortest counterexample, and -O0 suffices.
# -m: search depth limit (never reached: checked below).
CFLAGS_PAN="-w -DCOLLAPSE -DMEMLIM=3072"
DEPTH=100000

now() { date +%s.%N 2>/dev/null || date +%s; }

status=0
printf '%-16s %-22s %12s %9s %9s\n' variant result states pan_s wall_s

# run NAME KIND SPIN_DEFINES PAN_CFLAGS PAN_ARGS
#   KIND: verify (must verify) or mutant (must give a counterexample)
run() {
    name=$1 kind=$2 defs=$3 cflags=$4 panargs=$5
    dir="$OUT/$name"
    rm -rf "$dir" && mkdir -p "$dir" || { status=1; return; }
    cp "$MODEL" "$dir/zsink.pml"
    t0=$(now)
    (
        cd "$dir" &&
        spin $defs -a zsink.pml >spin.log 2>&1 &&
        $CC $CFLAGS_PAN $cflags -o pan pan.c >cc.log 2>&1 &&
        ./pan -m$DEPTH $panargs >pan.out 2>&1
    )
    rc=$?
    t1=$(now)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    out="$dir/pan.out"
    states=$(awk '/states, stored/ { print $1; exit }' "$out" 2>/dev/null)
    pans=$(awk '/pan: elapsed time/ { print $4; exit }' "$out" 2>/dev/null)
    errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$out" 2>/dev/null | head -n 1)
    : "${states:=?}" "${pans:=?}"
    if [ -z "$errors" ]; then
        result="BUILD/RUN FAILED"
        [ $rc -ne 0 ] && result="FAILED (rc $rc)"
        status=1
        printf '%-16s %-22s %12s %9s %9s   (see %s)\n' "$name" "$result" "$states" "$pans" "$wall" "$dir"
        return
    fi
    if grep -q "max search depth too small\|out of memory\|reached -DMEMLIM" "$out"; then
        result="INCOMPLETE"
        status=1
    elif [ "$errors" -eq 0 ]; then
        result="verified"
        [ "$kind" = mutant ] && { result="NO counterexample"; status=1; }
    else
        result="counterexample found"
        [ "$kind" = verify ] && { result="ERROR (counterexample)"; status=1; }
    fi
    what=$(sed -n 's/^pan:1: \(.*\) (at depth.*/\1/p' "$out" | head -n 1)
    printf '%-16s %-22s %12s %9s %9s' "$name" "$result" "$states" "$pans" "$wall"
    [ -n "$what" ] && printf '   %s' "$what"
    printf '\n'
    if [ "$errors" -ne 0 ] && [ -f "$dir/zsink.pml.trail" ]; then
        (cd "$dir" && spin $defs -t zsink.pml 2>&1 |
            sed -n 's/^ *\(MSC: .*\)$/\1/p; /Error: assertion violated/p; /text of failed assertion/p' \
            >counterexample.txt)
    fi
}

# The real protocol: safety (assertions + invalid end states), exhaustive.
run real           verify ""                               "-O1 -DSAFETY" "-w22"
run real-reg2      verify "-DMAXREG=2 -DMAXABORT=0"        "-O1 -DSAFETY" "-w22"
run real-finishing verify "-DFINISHING_TRIGGERS -DMAXCRASH=1 -DMAXABORT=0" "-O1 -DSAFETY" "-w22"
# No cycle at all (non-progress cycle search, no progress labels): every
# execution ends, and by the safety run it ends with the job FINISHED.
run real-nocycle   verify ""                               "-O1 -DNP" "-l -w22"
# Mutants, each with only the faults it needs, so the counterexample shows
# that fault (they are also caught with the default bounds).
run NO_FILTER      mutant "-DNO_FILTER -DMAXLOSS=0 -DMAXABORT=0"      "-O0 -DSAFETY -DBFS" "-w20"
run COMMIT_EARLY   mutant "-DCOMMIT_EARLY -DMAXLOSS=0 -DMAXABORT=0"   "-O0 -DSAFETY -DBFS" "-w20"
run COMMIT_ONLY_N  mutant "-DCOMMIT_ONLY_N -DMAXCRASH=0 -DMAXABORT=0" "-O0 -DSAFETY -DBFS" "-w20"

if [ $status -eq 0 ]; then
    echo "model check: OK (real protocol verified, every mutant caught); files in $OUT"
else
    echo "model check: FAILED; files in $OUT"
fi
exit $status
