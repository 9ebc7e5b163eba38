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
# every command `zsink --help` lists (issue 26, item 6): its own --help,
# exit 0, naming it; and every table subcommand it lists, by zsink's name
# and by Paimon's procedure name where it has one
"$ZSINK" --help >"$(vdir $v)/help.txt" || fail $v "zsink --help: exit $?"
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p' "$(vdir $v)/help.txt")
subs=$(sed -n 's/^  table \([a-z-]*\) .*/\1/p' "$(vdir $v)/help.txt")
paimon=$(sed -n 's/^  table [a-z-]* *\([a-z_]*\): .*/\1/p' "$(vdir $v)/help.txt")
[ "$(echo "$cmds" | wc -w)" -ge 9 ] || fail $v "zsink --help lists only: $cmds"
[ "$(echo "$subs" | wc -w)" -ge 19 ] || fail $v "zsink --help lists only the table subcommands: $subs"
for want in expire_snapshots remove_orphan_files rollback_to compact create_tag delete_tag \
    drop_partition expire_partitions; do
    echo "$paimon" | grep -qx "$want" || fail $v "zsink --help does not name Paimon's $want"
done
n=0
for c in $cmds; do
    check "zsink $c --help" "usage: zsink $c" "$ZSINK" $c --help
    n=$((n + 1))
done
# each its own: stop's help is not status's, cancel's not stop's
"$ZSINK" stop --help | grep -q "usage: zsink status" && fail $v "zsink stop --help is status's"
"$ZSINK" cancel --help | grep -q "usage: zsink stop" && fail $v "zsink cancel --help is stop's"
check "zsink cluster --help" "zsink config keys" "$ZSINK" cluster --help
check "zsink keys generate --help" "usage: zsink keys" "$ZSINK" keys generate --help
check "zsink failpoints --help" "ZSINK_FAILPOINTS" "$ZSINK" failpoints --help
m=0
for s in $subs; do
    check "zsink table $s --help" "usage: zsink table $s " "$ZSINK" table $s --help
    m=$((m + 1))
done
for s in $paimon rollback_to_timestamp; do
    check "zsink table $s --help" "Paimon's procedures? .*$s" "$ZSINK" table $s --help
done
# a mistake: one line, naming what is wrong and where the help is
out=$("$ZSINK" table expire /nowhere --older-than x 2>&1)
[ $? = 2 ] || fail $v "a bad --older-than: not exit 2: $out"
[ "$out" = "zsink table expire: --older-than: bad time 'x' (try '2026-12-01 10:00:00' or '1h'); see zsink table expire --help" ] ||
    fail $v "a bad --older-than: $out"
out=$("$ZSINK" table remove_orphan_files /nowhere --bogus 2>&1)
[ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q "'--bogus'.*see zsink table remove_orphan_files --help" ||
    fail $v "an unknown option: $out"
out=$("$ZSINK" nothing-like-this 2>&1)
[ $? = 2 ] && [ "$(echo "$out" | wc -l)" = 1 ] || fail $v "an unknown command: $out"
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
echo "[$v] --help of the $n commands and $m table subcommands zsink --help lists, Paimon's names, keys generate, 3 roles; $("$ZSINK" --version)"
pass
