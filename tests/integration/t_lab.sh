# zsink lab (issue 14, point 4): every scenario runs as a real cluster and
# every fact it prints holds: 1. identifiers 1, 2, MAX; 2. nothing
# committed, with the warning; 3. 200 rows, 200 distinct, no orphan after a
# failure at id 120; 4. the committer stopped at Notify(2): identifier 2
# committed once after the restore; 5. a failure before the first
# checkpoint: a start from scratch, each row once. Each has its timeline.
. "$(dirname "$0")/lib.sh"

v=lab
mkdir -p "$(vdir $v)"
"$ZSINK" lab list >"$(vdir $v)/list.txt" || fail $v "zsink lab list"
n=$(wc -l <"$(vdir $v)/list.txt")
[ "$n" = 5 ] || fail $v "zsink lab list: $n scenarios, expected 5"
"$ZSINK" lab all --dir "$(vdir $v)/runs" >"$(vdir $v)/all.txt" 2>&1
rc=$?
grep -E '^====|\[ok\]|\[FAIL\]' "$(vdir $v)/all.txt"
[ $rc = 0 ] || fail $v "zsink lab all: exit $rc"
tail -n 1 "$(vdir $v)/all.txt" | grep -q "every fact holds" || fail $v "not every fact holds"
[ "$(grep -c '\[ok\]' "$(vdir $v)/all.txt")" -ge 30 ] || fail $v "fewer facts than expected"
for s in $(cut -d' ' -f1 "$(vdir $v)/list.txt"); do
    [ -s "$(vdir $v)/runs/$s/timeline.svg" ] || fail $v "$s: no timeline"
done
out=$("$ZSINK" lab nothing-like-this 2>&1)
[ $? = 2 ] || fail $v "an unknown scenario: not exit 2: $out"
pass
