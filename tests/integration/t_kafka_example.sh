# examples/kafka.yaml runs as docs/kafka.md says: the 30 example orders
# (examples/data/orders-jsonl, one JSON value a record) in a 4-partition
# topic `orders`, the job run from the repository root with the broker's
# address and -Dsource.kafka.scan.bounded.mode=latest-offset: it ends, and
# its table holds the same 30 rows as examples/jsonl.yaml's.
. "$(dirname "$0")/lib.sh"
. "$LIB_DIR/lib_kafka.sh"
kafka_up

ROOT=$(cd "$LIB_DIR/../.." && pwd)
ktool create orders 4 >/dev/null || fail - "create orders"
i=0
cat "$ROOT"/examples/data/orders-jsonl/*.jsonl | while IFS= read -r line; do
    ktool produce-raw orders $((i % 4)) "$line" >/dev/null || exit 1
    i=$((i + 1))
done || fail - "produce the example orders"
for v in kafka jsonl; do
    mkdir -p "$(vdir $v)"
    (cd "$ROOT" && timeout 120 "$ZSINK" cluster -c "examples/$v.yaml" \
        -Dtable.path="$(table_of $v)" -Dstate.checkpoints.dir="$(vdir $v)/chk" \
        -Dsource.kafka.properties.bootstrap.servers="$KAFKA_BOOTSTRAP" \
        -Dsource.kafka.scan.bounded.mode=latest-offset >"$(clog $v)" 2>&1) ||
        { tail -n 20 "$(clog $v)"; fail $v "examples/$v.yaml: exit $?"; }
    echo "[$v] $(tail -n 1 "$(clog $v)")"
    "$ZSINK" table scan "$(table_of $v)" --format csv | sort >"$(vdir $v)/rows.csv"
done
[ "$(wc -l <"$(vdir kafka)/rows.csv")" = 31 ] || fail kafka "not 30 rows and a header"
cmp -s "$(vdir kafka)/rows.csv" "$(vdir jsonl)/rows.csv" || fail kafka "the Kafka and JSONL tables differ"
got=$(kafka_committed_total zsink-orders orders)
[ "$got" = 30 ] || fail kafka "offsets committed for zsink-orders: $got, not 30"
echo "[kafka] the same 30 rows as examples/jsonl.yaml; offsets committed: $got"
pass
