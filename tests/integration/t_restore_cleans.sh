# A restore removes the files of the checkpoint its job aborted. The whole
# cluster is killed -9 while checkpoint 3 is in flight (its files handed to
# the committer, the writer's ack held back): those files stay, orphans of
# job A. `zsink cluster --restore-from A/chk-2` starts job B, whose writers
# delete only files named with B's id: A's stayed for ever (verify: orphan
# data file). Now the cluster deletes A's files written after A's latest
# checkpoint that no snapshot references before B starts; the table ends
# exact, without an orphan.
. "$(dirname "$0")/lib.sh"

v=r
write_fault_job $v 1 "datagen.rows-per-second: 2000" "datagen.number-of-rows: 20000"
FAILPOINTS="writer.after-marker=delay:3000:3" start_cluster $v
FAILPOINTS=
wait_for_log $v 'failpoint writer.after-marker: delay' 30
pid=$(cluster_pid $v)
kids=$(pgrep -P "$pid")
kill -9 "$pid" $kids
echo "[$v] t=$(elapsed)s killed -9 the cluster and its roles: $pid $kids"
wait_exit $v 10
t=$(table_of $v)
# the committer pinned checkpoint 3's files before its ack (a restore of
# job A from chk-3 would need them): orphans, but kept by A's pin
orphans=$("$ZSINK" table orphans "$t" --older-than 0s --json | json_get - held_by_pins)
[ "$orphans" -gt 0 ] || fail $v "no data file of the aborted checkpoint left to clean"
echo "[$v] $orphans orphan data files of the aborted checkpoint"
id=$(cat "$(vdir $v)/job_id")
chk=$(ls "$(vdir $v)/chk/$id" | grep '^chk-[0-9]*$' | sort -t- -k2 -n | tail -n 1)
[ -n "$chk" ] || fail $v "no checkpoint to restore from"
mv "$(clog $v)" "$(vdir $v)/cluster-killed.log"
start_cluster $v "$id-b" --restore-from "$(vdir $v)/chk/$id/$chk"
expect_exit $v 60 0
oracle $v 20000 --last-max
grep -m1 "Before restoring from" "$(clog $v)" || fail $v "the restore did not say it cleaned"
pass
