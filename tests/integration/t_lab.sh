# zsink lab (issue 14, point 4): every scenario runs as a real cluster and
# every fact it prints holds: 1. identifiers 1, 2, MAX; 2. nothing
# committed, with the warning; 3. 200 rows, 200 distinct, no orphan after a
# failure at id 120; 4. the committer stopped at Notify(2): identifier 2
# committed once after the restore; 5. a failure before the first
# checkpoint: a start from scratch, each row once. Each has its timeline.
# The list numbers them, and a number runs the scenario as its name does
# (issue 26, item 6): `zsink lab 2` is `zsink lab no-checkpoints`.
. "$(dirname "$0")/lib.sh"

v=lab
mkdir -p "$(vdir $v)"
"$ZSINK" lab list >"$(vdir $v)/list.txt" || fail $v "zsink lab list"
n=$(wc -l <"$(vdir $v)/list.txt")
[ "$n" = 5 ] || fail $v "zsink lab list: $n scenarios, expected 5"
# numbered 1 to 5, and bare `zsink lab` lists them too
awk '{print $1}' "$(vdir $v)/list.txt" | tr '\n' ' ' | grep -qx '1 2 3 4 5 ' ||
    fail $v "zsink lab list is not numbered 1 to 5: $(cat "$(vdir $v)/list.txt")"
"$ZSINK" lab | grep -q "^3  failure " || fail $v "zsink lab: no list with numbers"
"$ZSINK" lab all --dir "$(vdir $v)/runs" >"$(vdir $v)/all.txt" 2>&1
rc=$?
grep -E '^====|\[ok\]|\[FAIL\]' "$(vdir $v)/all.txt"
[ $rc = 0 ] || fail $v "zsink lab all: exit $rc"
tail -n 1 "$(vdir $v)/all.txt" | grep -q "every fact holds" || fail $v "not every fact holds"
[ "$(grep -c '\[ok\]' "$(vdir $v)/all.txt")" -ge 30 ] || fail $v "fewer facts than expected"
for s in $(awk '{print $2}' "$(vdir $v)/list.txt"); do
    [ -s "$(vdir $v)/runs/$s/timeline.svg" ] || fail $v "$s: no timeline"
done
out=$("$ZSINK" lab nothing-like-this 2>&1)
[ $? = 2 ] || fail $v "an unknown scenario: not exit 2: $out"
out=$("$ZSINK" lab 6 2>&1)
[ $? = 2 ] || fail $v "scenario 6 of 5: not exit 2: $out"
# by its number: the short one, no-checkpoints
"$ZSINK" lab 2 --dir "$(vdir $v)/by-number" >"$(vdir $v)/two.txt" 2>&1 ||
    fail $v "zsink lab 2: exit $?: $(tail -n 5 "$(vdir $v)/two.txt")"
grep -q '^==== 2\. No checkpoints, no commits (no-checkpoints)' "$(vdir $v)/two.txt" ||
    fail $v "zsink lab 2 did not run no-checkpoints: $(head -n 3 "$(vdir $v)/two.txt")"
[ "$(grep -c '^====' "$(vdir $v)/two.txt")" = 1 ] || fail $v "zsink lab 2 ran more than one"
tail -n 1 "$(vdir $v)/two.txt" | grep -q "every fact holds" || fail $v "zsink lab 2: a fact failed"
pass
