# Partitioned tables (table.partition-keys; docs/formats.md, "Partitioned
# tables"), a file source of JSONL rows (gen_partitioned.py):
#  - one: 1 live partition (keys p), 2 writers; a writer killed -9;
#  - several: 10 partitions by (p, hr), 40 directories, one of them the
#    NULL (default) partition and one an escaped value 'a/b:c', 3 writers,
#    compaction from 3 files; the committer killed -9;
#  - many: 100 partitions (keys p), 2 writers; a writer killed -9;
#  - lru: 10 partitions, 2 writers holding at most 4 open files each
#    (write-max-writers: the least recently written is rolled; rows come
#    round robin, so every row rolls one: the worst case, tiny files); a
#    writer killed -9.
#  - pressure: 100 partitions, 2 writers each buffering more rows between
#    barriers than write-buffer-size (64 kB): the buffered rows are written
#    out as row groups and the files kept open (a committable never holds
#    more than a file a partition, files have several row groups); a
#    writer killed -9.
# Each ends with ids 1..N exactly once for every reader (lib.sh's oracle:
# zsink, DuckDB, pypaimon, Paimon Java), every data file in its partition's
# directory, the directories Paimon's names (the escaped and the default
# one), Paimon Java's partition filter reading the right rows, no orphan.
# Then on "several": `zsink table compact` compacts within partitions (no
# output mixes two), zsink's expiry and orphan removal, then Paimon Java's
# own expire and remove-orphans: nothing lost, every reader agrees.
#  - cancel: Ctrl-C of a partitioned job with checkpoint 3's files handed
#    over and its ack held back: the files of no restore, in 10 partition
#    directories, are deleted (writers on Shutdown, the committer, zsink
#    cluster's clean-up); no orphan is left and every reader agrees.
#  - java: a table Paimon Java created partitioned by (p, hr) takes a zsink
#    job that names no schema and no keys (the table's are adopted) and
#    reads back exact; a job naming other keys is refused, naming both;
#    Paimon Java appends to it, zsink compacts it, then rolls it back to
#    its own last snapshot: exact again, no orphan.
. "$(dirname "$0")/lib.sh"
interop_required

SCHEMA="id BIGINT NOT NULL, p STRING, hr INT, day DATE, name STRING"

# every live file of the table in the directory of its partition values
check_layout () {
    _t=$(table_of "$1")
    "$ZSINK" table files "$_t" --json | "$PY" -c '
import json, sys
files = json.load(sys.stdin)["files"]
bad = [f["path"] for f in files if "/bucket-0/" not in f["path"] or f["path"].startswith("bucket-")]
if bad:
    sys.exit("files outside a partition directory: %s" % bad[:3])
print(len(files), "files,", len({f["path"].rsplit("/bucket-0/", 1)[0] for f in files}), "partitions")
' || fail "$1" "layout"
}

drive () {
    v=$1
    in=$(vdir "$v")/input
    mkdir -p "$in"
    case $v in
    one) parts=1 p=2 keys=p extra="write-max-writers: 100" N=20000 ;;
    several) parts=10 p=3 keys="p, hr" extra="compaction.min.file-num: 3" N=20000 ;;
    many) parts=100 p=2 keys=p extra="write-max-writers: 100" N=20000 ;;
    lru) parts=10 p=2 keys=p extra="write-max-writers: 4" N=3000 ;;
    pressure) parts=100 p=2 keys=p extra="write-buffer-size: 64kb" N=96000 ;;
    esac
    rate=$((N / 5)) ival="execution.checkpointing.interval: 1s"
    # pressure: 12,000 rows a second (the job's, 8 s), 2 s checkpoints: ~12,000
    # rows (some 450 kB) buffered a writer between barriers, beyond its 64 kB
    [ "$v" = pressure ] && rate=12000 ival="execution.checkpointing.interval: 2s"
    "$PY" "$LIB_DIR/gen_partitioned.py" "$in" 4 $N $parts || fail "$v" "gen_partitioned"
    write_fault_job "$v" $p "source.kind: file" "source.file.path: $in" \
        "source.file.format: jsonl" "source.file.rows-per-second: $rate" \
        "table.schema: $SCHEMA" "table.partition-keys: $keys" "$extra" "$ival"
    start_cluster "$v"
    wait_for_count "$v" 'Completed checkpoint [0-9]+ for job' 2 60
    pause_random 900
    if [ "$v" = several ]; then kill_role "$v" committer; else
        rand "$p"
        kill_role "$v" "writer-$RAND"
    fi
    wait_for_count "$v" 'switched from state [A-Z]+ to RESTARTING' 1 30
    expect_exit "$v" 120 0
    oracle "$v" $N --last-max
    t=$(table_of "$v")
    echo "[$v] $(check_layout "$v")"
    [ -z "$(ls -d "$t"/bucket-* 2>/dev/null)" ] || fail "$v" "a top-level bucket directory in a partitioned table"
    if [ $parts -ge 3 ]; then
        [ -d "$t/p=a%2Fb%3Ac" ] || fail "$v" "no directory p=a%2Fb%3Ac: $(ls "$t")"
        [ -d "$t/p=__DEFAULT_PARTITION__" ] || fail "$v" "no default partition: $(ls "$t")"
        # Paimon Java's own partition filter (manifest partition statistics,
        # then _PARTITION of each entry): the rows of each partition
        out=$(paimon_java count-where "$t" "p = 'a/b:c'" "p IS NULL" "p = 'v1'" 2>>"$SCRATCH/java-$v.err") ||
            fail "$v" "count-where: $out"
        counts=$(echo "$out" | "$PY" -c 'import json,sys; print(" ".join(str(r["count"]) for r in json.load(sys.stdin)))')
        want=$("$PY" -c "
import sys; sys.path.insert(0, '$LIB_DIR')
from gen_partitioned import p_of
ps = [p_of(i, $parts) for i in range(1, $N + 1)]
print(ps.count('a/b:c'), ps.count(None), ps.count('v1'))")
        [ "$counts" = "$want" ] || fail "$v" "Paimon Java's partition filter counts $counts, want $want"
        echo "[$v] Paimon Java partition filter: p='a/b:c', p IS NULL, p='v1': $counts rows"
    fi
    [ "$v" = several ] && maintain "$v"
    if [ "$v" = lru ]; then
        # at most 4 files open a writer, so a barrier handing over more had
        # files rolled by the cap (far below target-file-size)
        most=$(sed -n 's/.*Barrier [0-9]*: \([0-9]*\) files.*/\1/p' "$(clog "$v")" | sort -n | tail -n 1)
        echo "[$v] at most $most files in one writer's committable"
        [ "${most:-0}" -gt 4 ] || fail "$v" "write-max-writers never rolled a file"
    fi
    [ "$v" = pressure ] && pressure "$v"
    return 0
}

# pressure: under write-buffer-size the writers wrote their buffered rows
# out as row groups and kept their files open: no committable holds more
# than one file a partition (100), and files have several row groups
pressure () {
    v=$1 t=$(table_of "$1")
    most=$(sed -n 's/.*Barrier [0-9]*: \([0-9]*\) files.*/\1/p' "$(clog "$v")" | sort -n | tail -n 1)
    [ "${most:-0}" -le 100 ] || fail "$v" "$most files in one committable: files were rolled, not kept open"
    groups=$(cd "$t" && "$INTEROP/venv/bin/python" -c '
import glob, pyarrow.parquet as pq
print(max(pq.ParquetFile(f).num_row_groups for f in glob.glob("*/bucket-0/data-*.parquet")))')
    [ "${groups:-0}" -gt 1 ] || fail "$v" "no data file has more than one row group: the buffers were never written out"
    echo "[$v] at most $most files in one committable; up to $groups row groups in a file"
}

# compaction, expiry and orphans on a partitioned table, zsink's and Paimon's
maintain () {
    v=$1 t=$(table_of "$1")
    out=$("$ZSINK" table compact "$t" --min-file-num 2 --json) || fail "$v" "zsink table compact: $out"
    echo "[$v] compact: $out"
    "$ZSINK" table files "$t" --json | "$PY" -c '
import json, sys
for f in json.load(sys.stdin)["files"]:
    if "-compact-" in f["path"] and "/bucket-0/" not in f["path"]:
        sys.exit("compaction output outside a partition: " + f["path"])' || fail "$v" "compaction layout"
    # a compaction output holds rows of its own partition only
    for f in $(cd "$t" && ls -d */*/bucket-0/data-*-compact-* 2>/dev/null | head -n 3); do
        dir=${f%/bucket-0/*}
        rows=$("$ZSINK" table scan "$t/$f" --format jsonl | "$PY" -c '
import json, sys
print(len({(r["p"], r["hr"]) for r in map(json.loads, sys.stdin)}))')
        [ "$rows" = 1 ] || fail "$v" "$f holds rows of $rows partitions"
    done
    oracle "$v" $N --hand-compactions
    out=$("$ZSINK" table expire-snapshots "$t" --retain-max 2 --retain-min 1 --json) ||
        fail "$v" "zsink expire: $out"
    echo "[$v] zsink expire: $out"
    # an orphan in a partition directory, two days old: found and removed
    f=$(cd "$t" && ls p=v1/hr=0/bucket-0/ | head -n 1)
    cp "$t/p=v1/hr=0/bucket-0/$f" "$t/p=v1/hr=0/bucket-0/data-planted-orphan.parquet"
    touch -d '2 days ago' "$t/p=v1/hr=0/bucket-0/data-planted-orphan.parquet"
    orph=$("$ZSINK" table orphans "$t" --json) || fail "$v" "orphans failed"
    echo "$orph" | grep -q 'p=v1/hr=0/bucket-0/data-planted-orphan.parquet' ||
        fail "$v" "the planted orphan is not found: $orph"
    out=$("$ZSINK" table remove-orphan-files "$t" --older-than 1d --json) ||
        fail "$v" "zsink remove-orphan-files: $out"
    [ ! -f "$t/p=v1/hr=0/bucket-0/data-planted-orphan.parquet" ] || fail "$v" "orphan not removed"
    oracle "$v" $N --hand-compactions
    # Paimon Java's own expiry and orphan removal lose nothing
    cp "$t/p=v1/hr=0/bucket-0/$f" "$t/p=v1/hr=0/bucket-0/data-planted-orphan.parquet"
    touch -d '2 days ago' "$t/p=v1/hr=0/bucket-0/data-planted-orphan.parquet"
    out=$(paimon_java expire "$t" --retain-max 1 --retain-min 1 2>>"$SCRATCH/java-$v.err") ||
        fail "$v" "Paimon's expire: $out"
    echo "[$v] paimon expire: $out"
    out=$(paimon_java remove-orphans "$t" 2>>"$SCRATCH/java-$v.err") || fail "$v" "Paimon's remove-orphans: $out"
    echo "[$v] paimon remove-orphans: $out"
    echo "$out" | grep -q 'data-planted-orphan' || fail "$v" "Paimon did not remove the planted orphan"
    oracle "$v" $N --hand-compactions
}

cancel_job () {
    v=cancel
    in=$(vdir $v)/input
    mkdir -p "$in"
    "$PY" "$LIB_DIR/gen_partitioned.py" "$in" 2 20000 10 || fail $v "gen_partitioned"
    write_job $v 2 "source.kind: file" "source.file.path: $in" "source.file.format: jsonl" \
        "source.file.rows-per-second: 400" "table.schema: $SCHEMA" "table.partition-keys: p" \
        "execution.checkpointing.interval: 1s"
    FAILPOINTS="writer.after-marker=delay:1000:3" SESSION=setsid
    start_cluster $v
    FAILPOINTS= SESSION=
    wait_for_log $v 'Completed checkpoint 2 for job' 30
    wait_for_log $v 'failpoint writer.after-marker: delay' 30
    kill -INT "-$(cluster_pid $v)" || fail $v "cannot signal the cluster"
    expect_exit $v 30 0
    wait_for_log $v "switched from state RUNNING to CANCELED" 1
    orph=$("$ZSINK" table orphans "$(table_of $v)" --older-than 0s --json) || fail $v "orphans failed"
    [ "$(echo "$orph" | json_get - count)" = 0 ] || fail $v "orphans after the cancel: $orph"
    "$ZSINK" table verify "$(table_of $v)" >/dev/null || fail $v "verify failed"
    echo "[$v] $("$ZSINK" table count "$(table_of $v)") rows committed, no orphan; $(check_layout $v)"
    duck_table $v
}

java_table () {
    v=java
    in=$(vdir $v)/input
    t=$(table_of $v)
    mkdir -p "$in"
    "$PY" "$LIB_DIR/gen_partitioned.py" "$in" 2 10000 12 || fail $v "gen_partitioned"
    out=$(paimon_java create "$t" "$SCHEMA" --partition-keys p,hr 2>>"$SCRATCH/java-$v.err") ||
        fail $v "Paimon's create: $out"
    # other keys: refused before anything runs
    write_job $v 2 "source.kind: file" "source.file.path: $in" "source.file.format: jsonl" \
        "table.partition-keys: hr"
    if out=$("$ZSINK" cluster -c "$(vdir $v)/job.yaml" 2>&1); then fail $v "a job with other keys ran"; fi
    echo "$out" | grep -q "partitioned by 'p,hr', the job by 'hr'" || fail $v "refusal does not say: $out"
    echo "[$v] other keys refused: $(echo "$out" | tail -n 1)"
    write_fault_job $v 2 "source.kind: file" "source.file.path: $in" "source.file.format: jsonl" \
        "source.file.rows-per-second: 5000"
    start_cluster $v
    expect_exit $v 90 0
    oracle $v 10000 --last-max
    echo "[$v] $(check_layout $v)"
    # Paimon Java appends to the table zsink wrote (partitions of its own
    # naming, the default one included); zsink reads them, compacts the
    # table within partitions, and every reader still agrees
    out=$(paimon_java append "$t" --ids 10001..10100 --files 2 2>>"$SCRATCH/java-$v.err") ||
        fail $v "Java append: $out"
    out=$("$ZSINK" table compact "$t" --min-file-num 2 --json) || fail $v "zsink table compact: $out"
    echo "[$v] after Java's append, compact: $out"
    n=$("$ZSINK" table count "$t")
    [ "$n" = 10100 ] || fail $v "zsink counts $n rows after Java's append, want 10100"
    "$ZSINK" table verify "$t" >/dev/null || fail $v "verify: $("$ZSINK" table verify "$t" 2>&1)"
    duck_table $v
    # rolled back to zsink's end-input snapshot: Java's files and the
    # compaction outputs, in their partition directories, removed
    last=$("$ZSINK" table snapshots "$t" --json | "$PY" -c \
        'import json, sys; print([s["id"] for s in json.load(sys.stdin) if s["commit_kind"] == "APPEND"][-2])')
    out=$("$ZSINK" table rollback "$t" --to-snapshot "$last" --json) || fail $v "rollback: $out"
    echo "[$v] rollback to snapshot $last: $out"
    orph=$("$ZSINK" table orphans "$t" --older-than 0s --json) || fail $v "orphans failed"
    [ "$(echo "$orph" | json_get - count)" = 0 ] || fail $v "orphans after the rollback: $orph"
    oracle $v 10000 --last-max
}

run_variants drive ${ZSINK_TEST_VARIANTS:-one several many lru pressure}
cancel_job
java_table
pass
