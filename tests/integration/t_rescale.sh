# Rescaling from a savepoint (issue 24, splits): a job runs with 2 writers,
# one is killed -9, it is stopped with a savepoint; a new job restores that
# savepoint onto 3 writers (the splits are dealt out anew), one of them is
# killed -9, it is stopped with a savepoint; a third job restores onto 1
# writer, which is killed -9 too, and runs to the end of the input. The
# table holds ids 1..N exactly once, under one commit user, and for the file
# source DuckDB's read of the input agrees with the table on every figure.
# Variants: datagen (2 splits: the third writer idles) and the file source
# (7 CSV files: every writer gets files).
. "$(dirname "$0")/lib.sh"

SCHEMA="id BIGINT NOT NULL, name STRING, price DOUBLE, qty INT, ok BOOLEAN, ts TIMESTAMP(3), day DATE"
N=36000

# job_yaml VARIANT PARALLELISM: the variant's job at that parallelism
job_yaml () {
    if [ "$1" = csv ]; then
        write_fault_job "$1" "$2" "source.kind: file" "source.file.path: $(vdir "$1")/input" \
            "source.file.format: csv" "source.file.rows-per-second: 3000" "table.schema: $SCHEMA"
    else
        write_fault_job "$1" "$2" "datagen.rows-per-second: 3000" "datagen.number-of-rows: $N"
    fi
}

drive () {
    v=$1
    if [ "$v" = csv ]; then
        mkdir -p "$(vdir "$v")/input"
        "$PY" "$LIB_DIR/gen_input.py" "$(vdir "$v")/input" csv 7 $N || fail "$v" "gen_input"
    fi
    base=$(job_id "$v")
    job_yaml "$v" 2
    savepoint_part "$v" "$base-a" writer-1 more
    user=$("$ZSINK" table snapshots "$(table_of "$v")" --json | "$PY" -c \
        'import json, sys; print(json.load(sys.stdin)[-1]["commit_user"])')

    job_yaml "$v" 3
    savepoint_part "$v" "$base-b" writer-2 more --restore-from "$SAVEPOINT"
    grep -q "Rescaling: checkpoint [0-9]* has parallelism 2, the job has 3" "$(clog "$v")" ||
        fail "$v" "job B did not say it rescales 2 -> 3"

    job_yaml "$v" 1
    savepoint_part "$v" "$base-c" writer-0 last --restore-from "$SAVEPOINT"
    grep -q "Rescaling: checkpoint [0-9]* has parallelism 3, the job has 1" "$(clog "$v")" ||
        fail "$v" "job C did not say it rescales 3 -> 1"
    oracle "$v" $N --last-max --user "$user"
    if [ "$v" = csv ]; then
        out=$(duck input --zsink "$ZSINK" --table "$(table_of "$v")" --input "$(vdir "$v")/input" \
            --format csv) || fail "$v" "input vs table: $out"
        echo "[$v] duckdb input vs table: $out"
    fi
}
run_variants drive datagen csv
pass
