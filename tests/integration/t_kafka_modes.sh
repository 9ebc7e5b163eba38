# The Kafka source's modes and errors against a real broker, each variant a
# topic (and group) of its own, exactly once in every case:
#
#   p1 p2 p6   bounded latest-offset over a pre-filled 4-partition topic at
#              parallelism 1, 2 and 6 (6 > 4: two writers without a split,
#              which must never block a checkpoint: checkpoints complete
#              while the others read): ids 1..N once, the last identifier
#              Long.MAX_VALUE, the group's committed offsets = the high
#              watermarks
#   again      the end's offset commit not sent (a fail point): sent again,
#              the group's offsets the partitions' ends
#   p6u        unbounded at parallelism 6 over 4 partitions: the writers
#              without a split keep running and checkpoints go on; a stop
#              with a savepoint after the rows are in
#   earliest latest group timestamp specific
#              scan.startup.mode over a topic with records before the job:
#              the records the mode must not read carry ids > 1000000, those
#              it must read ids 1..N, so the oracle's "ids 1..N once, none
#              else" is the exact set. earliest ignores a committed group
#              offset; latest reads only what is produced after its splits
#              were found; group-offsets starts at the offsets committed with
#              ktool commit; timestamp at the first record at or after the
#              time (one record exactly at it); specific-offsets at Flink's
#              'partition:0,offset:42;partition:1,offset:7', the others at
#              the earliest (no group offset)
#   nogroup    group-offsets with a partition the group has no offset for
#              and no auto.offset.reset: refused with an error naming the
#              partition, nothing committed (the coordinator asks again as
#              for a broker away, until the restore's deadline: canceled)
#   bts csv pattern list
#              scan.bounded.mode timestamp (the first record at the time is
#              not read), value.format csv, topic-pattern and a topic list
#              over two topics of 4 and 2 partitions (a third one, matched
#              by neither, holds ids the job must not read)
#   txn        a transactional producer aborts every third transaction;
#              read_committed (the default): the table is exactly the
#              committed ids, the committed offsets the partitions' ends
#   fail skip  a record that is not JSON among good ones. fail: the job
#              restarts, fails on it again and ends FAILED (exit 1) with an
#              error naming topic, partition and offset; the table holds, in
#              each partition, exactly the records before the last completed
#              checkpoint's position (a prefix, never past the bad record),
#              and the group's committed offsets are those positions. skip:
#              every good row once, the record logged and counted, the
#              committed offsets the partitions' ends.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
kafka_up

OLD=1000001 # the first id of the records a mode must not read
B=${ZSINK_TEST_BAD_AT:-500} # the offset of the bad record in partition 2 (fail, skip)

# job VARIANT PARALLELISM [yaml lines ...]: a Kafka job over the variant's
# topic (unless a line names the topics), its group the topic's name
job () {
    _jv=$1 _jp=$2
    shift 2
    case "$*" in
    *source.kafka.topic*) ;;
    *) set -- "source.kafka.topic: $(kafka_topic_of "$_jv")" "$@" ;;
    esac
    write_job "$_jv" "$_jp" "source.kind: kafka" "source.kafka.properties.bootstrap.servers: $KAFKA_BOOTSTRAP" \
        "source.kafka.properties.group.id: $(kafka_topic_of "$_jv")" \
        "execution.checkpointing.interval: 300ms" "$@"
}

# committed_is_end VARIANT [TOPIC...]: the group's (the variant's topic
# name) committed offset of every partition of the topics (default: the
# variant's topic) is the partition's end (its high watermark)
committed_is_end () {
    _v=$1 _g=$(kafka_topic_of "$1")
    shift
    _d=$(vdir "$_v")
    : >"$_d/ends"
    : >"$_d/committed"
    [ $# -gt 0 ] || set -- "$_g"
    for _t in "$@"; do
        _o=$(kget offsets "$_t") || fail "$_v" "offsets $_t"
        echo "$_o" | awk -v t="$_t" '$1 == "partition" { print t, $2, $6 }' >>"$_d/ends"
        _o=$(kget committed "$_g" "$_t") || fail "$_v" "committed $_t"
        echo "$_o" | awk -v t="$_t" '$1 == "partition" { print t, $2, $4 }' >>"$_d/committed"
    done
    cmp -s "$_d/ends" "$_d/committed" ||
        fail "$_v" "committed offsets $(tr '\n' ' ' <"$_d/committed")!= the ends $(tr '\n' ' ' <"$_d/ends")"
    echo "[$_v] committed offsets = the partitions' ends: $(cut -d' ' -f2- "$_d/committed" | tr '\n' ' ')"
}

# table_ids VARIANT: the table's ids, sorted, one a line
table_ids () {
    "$ZSINK" table scan "$(table_of "$1")" --format jsonl |
        sed -n 's/^{"id":\([0-9]*\),.*/\1/p' | sort -n
}

# bounded: ids 1..N (N = 12000) keyed over 4 partitions, read to the end
bounded () {
    v=$1 p=${1#p} n=12000
    t=$(kafka_topic_of "$v")
    ktool create "$t" 4 >/dev/null && ktool produce "$t" --from 1 --to $((n + 1)) --keyed >/dev/null ||
        fail "$v" "fill $t"
    # each reading writer's share takes 4 s at its rate, whatever p: the
    # checkpoints counted below have that long, not less for more writers
    r=$((n / (p < 4 ? p : 4) / 4))
    job "$v" "$p" "source.kafka.scan.startup.mode: earliest-offset" \
        "source.kafka.scan.bounded.mode: latest-offset" "source.kafka.rows-per-second: $r"
    start_cluster "$v"
    expect_exit "$v" 60 0
    c=$(count_log "$v" 'Completed checkpoint [0-9]+ for job')
    echo "[$v] $c checkpoints completed"
    # (the last one is the end of input's)
    [ "$c" -ge 3 ] || fail "$v" "only $c checkpoints completed while reading $n rows at $r/s a writer"
    oracle "$v" $n --last-max
    committed_is_end "$v"
}

# p6u: unbounded at parallelism 6 over 4 partitions: the two writers
# without a split keep running (a partition may come) and ack every
# barrier; ids 1..400 produced while it runs are committed, then a stop
# with a savepoint
unbounded () {
    v=$1 n=400
    t=$(kafka_topic_of "$v")
    ktool create "$t" 4 >/dev/null || fail "$v" "create $t"
    job "$v" 6 "source.kafka.scan.startup.mode: earliest-offset"
    start_cluster "$v"
    wait_for_log "$v" 'switched from state RESTORING to RUNNING' 30
    ktool produce "$t" --from 1 --to $((n + 1)) >/dev/null || fail "$v" "produce"
    wait_status "$v" 'd["rows_committed"] == '$n 60
    c0=$(count_log "$v" 'Completed checkpoint [0-9]+ for job')
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' $((c0 + 3)) 30
    [ "$(count_log "$v" '\] End of input')" = 0 ] || fail "$v" "a writer ended in an unbounded run"
    idle=$(grep -cE '\[writer-[0-9]\] Starting from scratch with 0 splits' "$(clog "$v")")
    [ "$idle" = 2 ] || fail "$v" "$idle writers without a split, 2 expected"
    "$ZSINK" stop --savepoint -c "$(vdir "$v")/job.yaml" >/dev/null 2>&1 || fail "$v" "stop --savepoint"
    expect_exit "$v" 60 0
    oracle "$v" $n
    committed_is_end "$v"
}

# startup: 400 ids 1..400 round robin over 4 partitions, after or around
# records the mode must skip
startup () {
    v=$1 n=400
    t=$(kafka_topic_of "$v")
    ktool create "$t" 4 >/dev/null || fail "$v" "create $t"
    mode=$v bounded="source.kafka.scan.bounded.mode: latest-offset" extra=
    case $v in
    earliest)
        ktool produce "$t" --from 1 --to $((n + 1)) >/dev/null || fail "$v" "produce"
        # a committed offset the mode ignores
        ktool commit "$t" "$t" 0=50 1=3 >/dev/null || fail "$v" "commit"
        ;;
    latest)
        ktool produce "$t" --from $OLD --to $((OLD + 400)) >/dev/null || fail "$v" "produce old"
        # the new records end at 100 + 100 in each partition
        bounded="source.kafka.scan.bounded.mode: specific-offsets"
        extra="source.kafka.scan.bounded.specific-offsets: partition:0,offset:200;partition:1,offset:200;partition:2,offset:200;partition:3,offset:200"
        ;;
    group | specific)
        # old records: 10, 20, 30, 0 (group) or 42, 7, 0, 0 (specific)
        if [ $v = group ]; then set -- 10 20 30 0; else set -- 42 7 0 0; fi
        o=$OLD
        for k in 0 1 2 3; do
            [ "$1" = 0 ] || ktool produce "$t" --from $o --to $((o + $1)) --partition $k >/dev/null ||
                fail "$v" "produce old"
            o=$((o + $1))
            shift
        done
        ktool produce "$t" --from 1 --to $((n + 1)) >/dev/null || fail "$v" "produce"
        if [ $v = group ]; then
            ktool commit "$t" "$t" 0=10 1=20 2=30 3=0 >/dev/null || fail "$v" "commit"
        else
            extra="source.kafka.scan.startup.specific-offsets: partition:0,offset:42;partition:1,offset:7"
        fi
        ;;
    nogroup)
        # group-offsets, a partition without a committed offset, no
        # auto.offset.reset: refused naming the partition
        ktool produce "$t" --from 1 --to $((n + 1)) >/dev/null && ktool commit "$t" "$t" 0=0 1=0 3=0 >/dev/null ||
            fail "$v" "produce"
        mode=group-offsets
        ;;
    timestamp)
        # record times base + id * 1000 s: the old ones up to 1700000000000,
        # the new from 1700000001000 on, the time given exactly
        ktool produce "$t" --from $OLD --to $((OLD + 400)) \
            --timestamp-base $((1700000000000 - (OLD + 399) * 1000)) >/dev/null &&
            ktool produce "$t" --from 1 --to $((n + 1)) --timestamp-base 1700000000000 >/dev/null ||
            fail "$v" "produce"
        extra="source.kafka.scan.startup.timestamp-millis: 1700000001000"
        ;;
    esac
    case $v in
    earliest | latest) mode=$v-offset ;;
    group | specific) mode=$v-offsets ;;
    esac
    job "$v" 2 "source.kafka.scan.startup.mode: $mode" "$bounded" ${extra:+"$extra"}
    start_cluster "$v"
    if [ $v = nogroup ]; then
        # (the coordinator asks again every 2 s, as for a broker away, until
        # the restore's deadline fails the job over: canceled here)
        wait_for_log "$v" "partition 2 of topic '$t' has no offset committed by group '$t' and properties.auto.offset.reset is none" 30
        "$ZSINK" cancel -c "$(vdir "$v")/job.yaml" >/dev/null 2>&1 || fail "$v" "cancel"
        wait_exit "$v" 30
        echo "[$v] refused naming partition 2; canceled (exit $EXIT_RC)"
        [ "$("$ZSINK" table count "$(table_of "$v")" 2>/dev/null || echo 0)" = 0 ] || fail "$v" "rows committed"
        return
    fi
    if [ $v = latest ]; then
        # the start offsets are resolved when the splits are found
        wait_for_count "$v" 'Discovered split' 4 30
        ktool produce "$t" --from 1 --to $((n + 1)) >/dev/null || fail "$v" "produce new"
    fi
    expect_exit "$v" 60 0
    oracle "$v" $n --last-max
    committed_is_end "$v"
}

# exact VARIANT WANT_FILE: the table's ids are exactly those of the file,
# it verifies, has no orphan, and Paimon's readers agree
exact () {
    table_ids "$1" >"$(vdir "$1")/ids"
    cmp -s "$2" "$(vdir "$1")/ids" ||
        fail "$1" "the table has $(wc -l <"$(vdir "$1")/ids") ids, not exactly the $(wc -l <"$2") expected"
    _out=$("$ZSINK" table verify "$(table_of "$1")") && [ "$_out" = OK ] || fail "$1" "verify: $_out"
    "$ZSINK" table orphans "$(table_of "$1")" --older-than 0s --json | grep -q '"count": *0[,}]' ||
        fail "$1" "orphans: $("$ZSINK" table orphans "$(table_of "$1")" --older-than 0s)"
    echo "[$1] the table holds exactly the $(wc -l <"$2") expected ids; verify OK, no orphan"
    paimon_table "$1"
}

txn () {
    v=$1
    t=$(kafka_topic_of "$v")
    t0=$(date +%s%N)
    ktool create "$t" 4 >/dev/null &&
        ktool produce-txn "$t" --from 1 --to 601 --abort-every 3 --batch 100 >"$(vdir "$v").txn" ||
        fail "$v" "produce-txn"
    grep -qx 'committed-rows 400 aborted-rows 200' "$(vdir "$v").txn" || fail "$v" "produce-txn: $(tail -1 "$(vdir "$v").txn")"
    echo "[$v] 6 transactions, the 3rd and 6th aborted, in $((($(date +%s%N) - t0) / 1000000)) ms"
    job "$v" 2 "source.kafka.scan.startup.mode: earliest-offset" \
        "source.kafka.scan.bounded.mode: latest-offset"
    start_cluster "$v"
    expect_exit "$v" 60 0
    awk '$1 == "committed" { for (i = $2; i < $3; i++) print i }' "$(vdir "$v").txn" | sort -n >"$(vdir "$v")/want"
    exact "$v" "$(vdir "$v")/want"
    committed_is_end "$v"
}

# fail / skip: ids 1..4B round robin (B a partition), 'not json' at
# partition 2 offset B, then ids 4B+1..4000 round robin
bad () {
    v=$1 n=4000
    t=$(kafka_topic_of "$v")
    ktool create "$t" 4 >/dev/null && ktool produce "$t" --from 1 --to $((4 * B + 1)) >/dev/null &&
        ktool produce-raw "$t" 2 'not json' >/dev/null && ktool produce "$t" --from $((4 * B + 1)) --to 4001 >/dev/null ||
        fail "$v" "fill $t"
    job "$v" 2 "source.kafka.scan.startup.mode: earliest-offset" \
        "source.kafka.scan.bounded.mode: latest-offset" "source.kafka.on-error: $v" \
        "source.kafka.rows-per-second: 1000" "restart-strategy.fixed-delay.attempts: 2" \
        "restart-strategy.fixed-delay.delay: 200ms"
    start_cluster "$v"
    if [ $v = skip ]; then
        expect_exit "$v" 60 0
        grep -q "Skipped bad record: Kafka topic '$t' partition 2 offset $B: " "$(clog "$v")" ||
            fail "$v" "the skipped record is not logged with its topic, partition and offset"
        [ "$(count_log "$v" 'End of input after [0-9]+ rows; 1 bad records skipped')" = 1 ] ||
            fail "$v" "the skip is not counted at the end of input"
        oracle "$v" $n --last-max
        committed_is_end "$v"
        return
    fi
    expect_exit "$v" 60 1
    grep -q "Kafka topic '$t' partition 2 offset $B: " "$(clog "$v")" ||
        fail "$v" "no error naming topic $t, partition 2, offset $B"
    r=$(count_log "$v" 'switched from state [A-Z]+ to RESTARTING')
    [ "$r" -ge 2 ] || fail "$v" "$r restarts before FAILED, 2 expected"
    grep -q 'switched from state [A-Z]* to FAILED' "$(clog "$v")" || fail "$v" "the job did not end FAILED"
    # each partition's rows in the table: offsets 0..k-1 exactly (the
    # position of the last completed checkpoint), k never past the bad
    # record; and k is the group's committed offset
    _o=$(kget committed "$t" "$t") || fail "$v" "committed $t"
    echo "$_o" | awk '$1 == "partition" { print $2, $4 }' >"$(vdir "$v")/committed"
    table_ids "$v" | awk -v c="$(vdir "$v")/committed" -v b=$B '
        { p = ($1 <= 4 * b) ? ($1 - 1) % 4 : ($1 - 4 * b - 1) % 4
          o = ($1 <= 4 * b) ? int(($1 - 1) / 4) : b + int(($1 - 4 * b - 1) / 4) + (p == 2)
          if (seen[p, o]++) { print "id " $1 " twice"; bad = 1 }
          n[p]++; if (o + 1 > max[p]) max[p] = o + 1 }
        END { while ((getline l < c) > 0) { split(l, f, " "); k[f[1]] = f[2] < 0 ? 0 : f[2] }
              for (p = 0; p < 4; p++) {
                  printf "partition %d: %d rows, offsets below %d, committed %d\n", p, n[p], max[p], k[p]
                  if (n[p] != max[p]) { print "  not a prefix"; bad = 1 }
                  if (p == 2 && max[p] > b) { print "  past the bad record"; bad = 1 }
                  if (k[p] != n[p]) { print "  committed offset is not the rows"; bad = 1 } }
              exit bad }' >"$(vdir "$v")/prefix"
    rc=$?
    sed "s/^/[$v] /" "$(vdir "$v")/prefix"
    [ $rc = 0 ] || fail "$v" "the table is not the records before the last checkpoint's position"
    _out=$("$ZSINK" table verify "$(table_of "$v")") && [ "$_out" = OK ] || fail "$v" "verify: $_out"
}

# more of the source's keys: bts a bounded timestamp (ids 1..400 at times
# up to 1700000400000, the old ones from exactly the time given on: the
# stop is the first record at or after it, not read); csv values; a topic
# pattern and a topic list, over topics -a (4 partitions, ids 1..200) and
# -b (2 partitions, 201..400), -c (old ids) neither matched nor listed
more () {
    v=$1 n=400
    t=$(kafka_topic_of "$v")
    case $v in
    bts)
        ktool create "$t" 4 >/dev/null &&
            ktool produce "$t" --from 1 --to $((n + 1)) --timestamp-base 1700000000000 >/dev/null &&
            ktool produce "$t" --from $OLD --to $((OLD + 400)) \
                --timestamp-base $((1700000401000 - OLD * 1000)) >/dev/null || fail "$v" "fill $t"
        set -- "source.kafka.scan.bounded.mode: timestamp" \
            "source.kafka.scan.bounded.timestamp-millis: 1700000401000"
        ;;
    csv)
        ktool create "$t" 4 >/dev/null && ktool produce "$t" --from 1 --to $((n + 1)) --format csv >/dev/null ||
            fail "$v" "fill $t"
        set -- "source.kafka.value.format: csv" "source.kafka.scan.bounded.mode: latest-offset"
        ;;
    pattern | list)
        ktool create "$t-a" 4 >/dev/null && ktool create "$t-b" 2 >/dev/null && ktool create "$t-c" 1 >/dev/null &&
            ktool produce "$t-a" --from 1 --to 201 >/dev/null && ktool produce "$t-b" --from 201 --to 401 >/dev/null &&
            ktool produce "$t-c" --from $OLD --to $((OLD + 100)) >/dev/null || fail "$v" "fill $t-a, -b, -c"
        if [ $v = pattern ]; then set -- "source.kafka.topic-pattern: $t-[ab]"; else set -- "source.kafka.topic: $t-a;$t-b"; fi
        set -- "$@" "source.kafka.scan.bounded.mode: latest-offset"
        ;;
    esac
    job "$v" 2 "source.kafka.scan.startup.mode: earliest-offset" "$@"
    start_cluster "$v"
    expect_exit "$v" 60 0
    oracle "$v" $n --last-max
    case $v in
    bts)
        c=$(kget committed "$t" "$t" | awk '$1 == "partition" && $4 > 0 { n += $4 } END { print n + 0 }')
        [ "$c" = $n ] || fail "$v" "the offsets committed sum to $c, the table has $n rows"
        echo "[$v] committed offsets sum to $c = the table's rows"
        ;;
    csv) committed_is_end "$v" ;;
    *) committed_is_end "$v" "$t-a" "$t-b" ;;
    esac
}

# again: the group's offsets are sent once only, at the end (a checkpoint
# every 60 s: the end of input's commit is the only one), and that send
# fails (fail point coordinator.kafka-commit=error:1): it is sent again,
# and the group's offsets end at the partitions' ends
again () {
    v=$1 n=2000
    t=$(kafka_topic_of "$v")
    ktool create "$t" 4 >/dev/null && ktool produce "$t" --from 1 --to $((n + 1)) --keyed >/dev/null ||
        fail "$v" "fill $t"
    write_job "$v" 2 "source.kind: kafka" "source.kafka.properties.bootstrap.servers: $KAFKA_BOOTSTRAP" \
        "source.kafka.topic: $t" "source.kafka.properties.group.id: $t" \
        "source.kafka.scan.startup.mode: earliest-offset" "source.kafka.scan.bounded.mode: latest-offset" \
        "execution.checkpointing.interval: 60s"
    FAILPOINTS=coordinator.kafka-commit=error:1
    start_cluster "$v"
    FAILPOINTS=
    expect_exit "$v" 60 0
    grep -q "not sent; again in" "$(clog "$v")" || fail "$v" "no failed send of the offsets, or not retried"
    oracle "$v" $n --last-max
    committed_is_end "$v"
}

drive () {
    case $1 in
    again) again "$1" ;;
    bts | csv | pattern | list) more "$1" ;;
    p6u) unbounded "$1" ;;
    p*) bounded "$1" ;;
    txn) txn "$1" ;;
    fail | skip) bad "$1" ;;
    *) startup "$1" ;;
    esac
}

run_variants drive ${ZSINK_TEST_VARIANTS:-p1 p2 p6 p6u again earliest latest group timestamp specific nogroup txn fail skip bts csv pattern list}
pass
