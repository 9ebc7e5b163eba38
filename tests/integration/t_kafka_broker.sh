# The kafka tests' fixture itself (lib_kafka.sh, scripts/kafka-server.sh,
# zsink-ktool) against a real Apache Kafka 4.4.0, with librdkafka: a topic
# of 4 partitions gets ids 1..1000 keyed (the watermarks sum to 1000, every
# partition has some, a read gives each id once as zsink's JSON); a
# transactional producer aborts every third of 10 transactions (the
# committed and aborted ranges are printed; read_committed sees exactly the
# committed ids, read_uncommitted all 1000; the last stable offsets are the
# high watermarks); a transaction held open is invisible to read_committed
# and holds the last stable offset back until, its producer killed -9, the
# broker aborts it; a group's committed offsets read back; offsets by
# record time; records deleted up to an offset. Then kill -9 of
# the broker and a restart on the same ports and data: watermarks, records
# and committed offsets are unchanged, and producing works again. No zsink
# job runs here.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
kafka_up
v=-

# ids of the records a read gives, one a line, sorted (the JSON's "id")
ids_read () {
    ktool consume "$@" | sed -n 's/^[0-9]* [0-9]* {"id":\([0-9]*\),.*/\1/p' | sort -n
}

ktool create keyed 4 >/dev/null || fail $v "create keyed 4"
out=$(ktool produce keyed --from 1 --to 1001 --keyed) || fail $v "produce keyed: $out"
echo "$out" | grep -qx 'produced 1000' || fail $v "produce keyed: $out"
offs=$(kafka_offsets keyed) || fail $v "offsets keyed"
echo "$offs" | sed 's/^/[keyed] /'
[ "$(echo "$offs" | grep -c '^partition [0-3] low 0 high [1-9][0-9]*$')" = 4 ] ||
    fail $v "keyed: not 4 partitions from 0 with records each"
[ "$(kafka_high_total keyed)" = 1000 ] || fail $v "keyed: watermarks sum to $(kafka_high_total keyed), not 1000"
ids_read keyed >"$SCRATCH/keyed.ids"
seq 1 1000 | cmp -s - "$SCRATCH/keyed.ids" || fail $v "keyed: a read does not give ids 1..1000 once each"
# the values are zsink's default schema in its JSON spelling (datagen's values)
ktool consume keyed | grep -q '^[0-3] [0-9]* {"id":7,"name":"name-7","price":0.07,"ts":"2023-11-14 22:13:27.000"}$' ||
    fail $v "keyed: id 7's record is not datagen's row in JSON"
ktool create csv 1 >/dev/null && ktool produce csv --from 1 --to 3 --format csv >/dev/null ||
    fail $v "produce csv"
ktool consume csv | grep -qx '0 0 1,name-1,0.01,2023-11-14 22:13:21.000' ||
    fail $v "csv: $(ktool consume csv | head -1)"

# transactions: batches of 100, the 3rd, 6th and 9th aborted
ktool create txn 3 >/dev/null || fail $v "create txn 3"
ktool produce-txn txn --from 1 --to 1001 --abort-every 3 --batch 100 >"$SCRATCH/txn.out" ||
    fail $v "produce-txn: $(cat "$SCRATCH/txn.out")"
sed 's/^/[txn] /' "$SCRATCH/txn.out"
[ "$(grep -c '^aborted ' "$SCRATCH/txn.out")" = 3 ] && [ "$(grep -c '^committed ' "$SCRATCH/txn.out")" = 7 ] &&
    grep -qx 'aborted 201 301' "$SCRATCH/txn.out" && grep -qx 'aborted 801 901' "$SCRATCH/txn.out" &&
    grep -qx 'committed-rows 700 aborted-rows 300' "$SCRATCH/txn.out" ||
    fail $v "produce-txn does not print the expected ranges"
awk '$1 == "committed" { for (i = $2; i < $3; i++) print i }' "$SCRATCH/txn.out" | sort -n >"$SCRATCH/txn.want"
ids_read txn >"$SCRATCH/txn.ids"
cmp -s "$SCRATCH/txn.want" "$SCRATCH/txn.ids" ||
    fail $v "read_committed gives $(wc -l <"$SCRATCH/txn.ids") ids, not exactly the 700 committed ones"
[ "$(ids_read txn --read-uncommitted | wc -l)" = 1000 ] ||
    fail $v "read_uncommitted does not see the aborted records: they were never written"
toffs=$(ktool offsets txn --committed-isolation) || fail $v "offsets txn"
echo "$toffs" | sed 's/^/[txn] /'
echo "$toffs" | awk '$1 == "partition" && $6 != $8 { bad = 1 } END { exit bad }' ||
    fail $v "a last stable offset is not the high watermark, with no transaction open"

# a transaction held open: the last stable offset stays before it and
# read_committed does not see it; the producer killed (-9) inside it, the
# broker aborts it after its timeout (3 s here) and the LSO moves on
"$KTOOL" "$KAFKA_BOOTSTRAP" -X transaction.timeout.ms=3000 produce-txn txn --from 2001 --to 2011 --abort-every 0 \
    --batch 10 --open-ms 60000 >"$SCRATCH/open.out" 2>&1 &
open_pid=$!
EXTRA_PIDS="$EXTRA_PIDS $open_pid"
end=$(($(date +%s) + 30))
until grep -qx 'open 2001 2011' "$SCRATCH/open.out"; do
    kill -0 $open_pid 2>/dev/null || fail $v "produce-txn --open-ms exited: $(cat "$SCRATCH/open.out")"
    [ "$(date +%s)" -lt "$end" ] || fail $v "no open transaction after 30 s"
    sleep 0.05
done
ooffs=$(ktool offsets txn --committed-isolation)
echo "$ooffs" | sed 's/^/[open] /'
echo "$ooffs" | awk '$1 == "partition" && $8 < $6 { lag = 1 } END { exit !lag }' ||
    fail $v "an open transaction, but every last stable offset is the high watermark"
ids_read txn | cmp -s "$SCRATCH/txn.want" - || fail $v "read_committed sees an open transaction's records"
kill -9 $open_pid
wait $open_pid 2>/dev/null
t0=$(date +%s)
until ktool offsets txn --committed-isolation | awk '$1 == "partition" && $8 != $6 { bad = 1 } END { exit bad }'; do
    [ "$(date +%s)" -lt $((t0 + 30)) ] || fail $v "the killed producer's transaction still open after 30 s"
    sleep 0.2
done
echo "[open] the killed producer's transaction aborted by the broker after $(($(date +%s) - t0)) s"
ids_read txn | cmp -s "$SCRATCH/txn.want" - || fail $v "read_committed sees the killed producer's records"
grep -q '^committed 2001' "$SCRATCH/open.out" && fail $v "the producer was not killed inside its transaction"

# a group's committed offsets, as zsink commits them on a checkpoint
ktool commit grp keyed 0=5 2=17 >/dev/null || fail $v "commit"
ktool committed grp keyed >"$SCRATCH/committed.before" || fail $v "committed"
grep -qx 'partition 0 committed 5' "$SCRATCH/committed.before" &&
    grep -qx 'partition 1 committed -1' "$SCRATCH/committed.before" &&
    grep -qx 'partition 2 committed 17' "$SCRATCH/committed.before" ||
    fail $v "committed offsets: $(cat "$SCRATCH/committed.before")"

# record timestamps (ListOffsets by time) and deleted records (the log
# start moves, as retention moves it)
ktool create ts 2 >/dev/null &&
    ktool produce ts --from 1 --to 101 --timestamp-base 1700000000000 >/dev/null || fail $v "produce ts"
ktool times ts 1700000050000 | tr '\n' ' ' | grep -qx 'partition 0 offset 25 partition 1 offset 24 ' ||
    fail $v "times: $(ktool times ts 1700000050000 | tr '\n' ' ') (ids 51 and 50 expected)"
ktool delete-records ts 0=10 >/dev/null || fail $v "delete-records"
kafka_offsets ts | grep -qx 'partition 0 low 10 high 50' || fail $v "delete-records: $(kafka_offsets ts)"

# kill -9 and restart: same data
ktool offsets keyed >"$SCRATCH/keyed.before"
ktool offsets txn --committed-isolation >"$SCRATCH/txn.before"
kafka_server kill9 || fail $v "kill -9 of the broker"
ms () { echo $(($(date +%s%N) / 1000000)); }
t0=$(ms)
kafka_server restart >/dev/null || fail $v "the broker did not restart (log: $KAFKADIR/log)"
echo "[kafka] restarted after kill -9 in $(($(ms) - t0)) ms, pid $KAFKA_PID"
ktool offsets keyed | cmp -s "$SCRATCH/keyed.before" - || fail $v "keyed: watermarks changed by the restart"
ktool offsets txn --committed-isolation | cmp -s "$SCRATCH/txn.before" - ||
    fail $v "txn: offsets changed by the restart"
ktool committed grp keyed | cmp -s "$SCRATCH/committed.before" - || fail $v "committed offsets changed by the restart"
ids_read keyed | cmp -s "$SCRATCH/keyed.ids" - || fail $v "keyed: records changed by the restart"
ids_read txn | cmp -s "$SCRATCH/txn.want" - || fail $v "txn: committed records changed by the restart"
out=$(ktool produce keyed --from 1001 --to 1101 --keyed) || fail $v "produce after the restart: $out"
[ "$(kafka_high_total keyed)" = 1100 ] || fail $v "keyed: watermarks sum to $(kafka_high_total keyed) after 100 more, not 1100"
ktool produce-txn txn --from 1001 --to 1101 --abort-every 0 | grep -qx 'committed 1001 1101' ||
    fail $v "a transaction after the restart"
t0=$(ms)
kafka_server stop || fail $v "stop"
echo "[kafka] stopped in $(($(ms) - t0)) ms"
pass
