# Every command and subcommand answers --help with its usage and exit 0,
# and `zsink --version` names the release and the commit (issue 14, point 5).
. "$(dirname "$0")/lib.sh"

v=help
mkdir -p "$(vdir $v)"
check () { # WHAT PATTERN COMMAND…
    what=$1 pat=$2
    shift 2
    out=$("$@" 2>&1)
    rc=$?
    [ $rc = 0 ] || fail $v "$what: exit $rc: $out"
    echo "$out" | grep -qE -- "$pat" || fail $v "$what: no '$pat' in: $out"
}
for c in cluster status stop cancel keys; do
    check "zsink $c --help" "usage: zsink" "$ZSINK" $c --help
done
check "zsink keys generate --help" "usage: zsink keys" "$ZSINK" keys generate --help
check "zsink failpoints --help" "ZSINK_FAILPOINTS" "$ZSINK" failpoints --help
n=0
for s in snapshots count stats files schema orphans verify expire-snapshots compact \
    remove-orphan-files rollback scan create-tag delete-tag tags partitions drop-partition \
    expire-partitions; do
    check "zsink table $s --help" "zsink table .*$s" "$ZSINK" table $s --help
    n=$((n + 1))
done
for r in coordinator committer writer; do
    check "zsink-$r --help" "usage: zsink-$r" "$BIN/zsink-$r" --help
done
check "zsink --help" "--version" "$ZSINK" --help
# a source tarball (no .git, or no git) builds "(git unknown)"
check "zsink --version" '^zsink [0-9]+\.[0-9]+\.[0-9]+ \(git ([0-9a-f]+|unknown)' "$ZSINK" --version
# in a git checkout, the commit is the one built (taken at build time, not
# when CMake first configured the build directory)
head=$(git -C "$LIB_DIR/../.." rev-parse --short=7 HEAD 2>/dev/null || true)
if [ -n "$head" ]; then
    "$ZSINK" --version | grep -q "(git $head" ||
        fail "$v" "zsink --version: $("$ZSINK" --version), but HEAD is $head"
fi
echo "[$v] --help of 5 commands, keys generate, failpoints, $n table subcommands, 3 roles; $("$ZSINK" --version)"
pass
