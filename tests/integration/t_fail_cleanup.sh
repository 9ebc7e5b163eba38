# A job that fails for good leaves no data file it wrote and never
# committed. csv: a bounded file job, checkpointing off, two writers; one
# reaches its end of input (its file is handed to the committer, which
# waits for the other), the other meets a bad value on line 3 of its CSV:
# exit 1 naming the line, and bucket-0/ is empty (the committer deletes the
# end of input it never committed). chk: checkpointing on, the writer fails
# right after handing its files over for checkpoint 1, before any
# checkpoint completed (Shutdown carries last checkpoint 0): no file left.
# Then `verify` on the table, which has no snapshot, reports an orphan
# planted in bucket-0/ (it said OK while `orphans` listed it).
. "$(dirname "$0")/lib.sh"

# no_data_left VARIANT: bucket-0/ holds no file; verify and orphans agree
no_data_left () {
    _t=$(table_of "$1")
    _left=$(ls "$_t/bucket-0" 2>/dev/null)
    [ -z "$_left" ] || fail "$1" "files left in bucket-0/: $_left"
    "$ZSINK" table orphans "$_t" --older-than 0s | grep -q '^0 orphan files' ||
        fail "$1" "orphans: $("$ZSINK" table orphans "$_t" --older-than 0s)"
    "$ZSINK" table verify "$_t" --orphans-older-than 0s >/dev/null || fail "$1" "verify failed"
    echo "[$1] no data file left; verify OK"
}

drive () {
    v=$1
    in=$(vdir "$v")/input
    mkdir -p "$in"
    case $v in
    csv)
        printf 'id,name,qty\n1,a,1\n2,b,2\n3,c,3\n' >"$in/a.csv"
        printf 'id,name,qty\n4,d,4\n5,e,x\n6,f,6\n' >"$in/b.csv"
        write_job "$v" 2 "source.kind: file" "source.file.path: $in" "source.file.format: csv" \
            "table.schema: id BIGINT NOT NULL, name STRING, qty INT" \
            "restart-strategy.fixed-delay.attempts: 0"
        start_cluster "$v"
        expect_exit "$v" 60 1
        grep -q "b.csv:3: column 'qty'" "$(clog "$v")" || fail "$v" "no error naming b.csv:3"
        grep -q "End of input after 3 rows" "$(clog "$v")" ||
            fail "$v" "the other writer did not reach its end of input" ;;
    chk)
        write_job "$v" 1 "datagen.rows-per-second: 1000" "execution.checkpointing.interval: 300ms" \
            "restart-strategy.fixed-delay.attempts: 0"
        FAILPOINTS=writer.after-committables=error start_cluster "$v"
        expect_exit "$v" 60 1
        [ "$(count_log "$v" 'Completed checkpoint')" = 0 ] ||
            fail "$v" "a checkpoint completed before the failure" ;;
    esac
    no_data_left "$v"
}
run_variants drive csv chk

# An orphan in a table without a snapshot: verify reports it.
t=$(table_of csv)
cp "$LIB_DIR/../../README.md" "$t/bucket-0/data-planted-w0-a0-e1-0.parquet"
if out=$("$ZSINK" table verify "$t" --orphans-older-than 0s 2>&1); then
    fail csv "verify says OK with an orphan planted in a table with no snapshot: $out"
fi
echo "$out" | grep -q "data-planted" || fail csv "verify does not name the orphan: $out"
echo "[csv] verify on the table with no snapshot: $(echo "$out" | grep -m1 planted)"
pass
