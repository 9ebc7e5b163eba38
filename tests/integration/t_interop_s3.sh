# A zsink table on S3-compatible object storage, read by Paimon's own
# readers: the same oracle as on local disk.
#
# A SeaweedFS server of the test's own (scripts/s3-server.sh, on loopback,
# stopped by its pid whatever happens), one bucket. Job A (2 writers, 300 ms
# checkpoints) writes ids 1..N to s3://BUCKET/wh/a/table; its checkpoints
# stay in the scratch dir. Then:
#  1. the table is on the server, not in a local directory named "s3:" (the
#     silent fallback the issue reports): the bucket lists its snapshots, and
#     no "s3:" directory appeared;
#  2. lib.sh's oracle, unchanged: oracle.py (zsink's stats, orphans, verify,
#     snapshots: ids 1..N once, one user, identifiers increasing), then
#     Paimon Java (paimon-s3) and pypaimon (pyarrow's S3FileSystem), both
#     configured from the same AWS_* environment as zsink, agree with zsink
#     on count, ids, the digest of all rows, every snapshot field, time
#     travel and filterCommitted (DuckDB's part is skipped on s3://: see
#     lib.sh's duck_table);
#  3. time travel to every snapshot, in all three readers;
#  4. the other way round: Paimon Java and pypaimon each commit 1000 more
#     rows to the s3:// table (users java-s3 and py-s3); zsink reads them
#     (stats: ids 1..N+2000 once), `zsink table verify` is OK, and the three
#     readers agree again, filterCommitted of all three users included;
#  5. with a wrong secret in the environment both readers fail (the store's
#     403), and neither prints the secret.
# Skips (77) without Paimon's readers (lib.sh) or without the S3 server
# (`scripts/setup-s3.sh --check BUILD`), unless ZSINK_INTEROP_REQUIRED=1 or
# ZSINK_S3_REQUIRED=1 respectively.
. "$(dirname "$0")/lib.sh"
interop_required

. "$LIB_DIR/lib_s3.sh"
BUCKET=zsink-interop
s3_server_up $BUCKET

N=20000
v=a
t=$(table_of $v)
write_job $v 2 "datagen.rows-per-second: 8000" "datagen.number-of-rows: $N" \
    "execution.checkpointing.interval: 300ms"
start_cluster $v
expect_exit $v 120 0

# 1. on the server
# (the prefix URL-encoded: curl signs the query as written)
keys=$(s3curl "$AWS_ENDPOINT_URL/$BUCKET?list-type=2&prefix=wh%2F$v%2Ftable%2Fsnapshot%2F" |
    grep -o '<Key>[^<]*</Key>' | grep -c 'snapshot-[0-9]*<')
nsnap=$("$ZSINK" table snapshots "$t" --json | "$PY" -c 'import json, sys; print(len(json.load(sys.stdin)))')
[ "$keys" -ge 2 ] && [ "$keys" = "$nsnap" ] ||
    fail $v "the bucket lists $keys snapshot objects, zsink reads $nsnap snapshots of $t"
# (the cluster runs in this shell's directory: a fallback would land there)
for d in "$PWD/s3:" "$SCRATCH/s3:" "$(vdir $v)/s3:"; do
    [ ! -e "$d" ] || fail $v "a local directory $d appeared: the table was not written to S3"
done
echo "[$v] $t: $keys snapshot objects in the bucket, as zsink reads"

# 2. the oracle, as on local disk
oracle $v $N --last-max

# 3. time travel to every snapshot (first, middle and last were read above)
all=$("$ZSINK" table snapshots "$t" --json | "$PY" -c \
    'import json, sys; print(",".join(str(s["id"]) for s in json.load(sys.stdin)))')
paimon_table $v --snapshots "$all"

# 4. Paimon's writers on the s3:// table, zsink reading what they wrote
out=$(paimon_java append "$t" --ids $((N + 1))..$((N + 1000)) --commit-user java-s3 \
    --identifier 1 2>"$SCRATCH/java-append.err") ||
    { cat "$SCRATCH/java-append.err"; fail $v "Paimon Java append to $t: $out"; }
echo "[$v] paimon java append: $out"
out=$(paimon_py append "$t" --ids $((N + 1001))..$((N + 2000)) --commit-user py-s3 \
    --identifier 1 2>"$SCRATCH/py-append.err") ||
    { cat "$SCRATCH/py-append.err"; fail $v "pypaimon append to $t: $out"; }
echo "[$v] pypaimon append: $out"
M=$((N + 2000))
stats=$("$ZSINK" table stats "$t" --json) || fail $v "zsink table stats $t failed"
echo "$stats" | "$PY" -c 'import json, sys
s = json.load(sys.stdin); m = int(sys.argv[1])
sys.exit(0 if (s["count"], s["distinct_ids"], s["min_id"], s["max_id"]) == (m, m, 1, m) else 1)' $M ||
    fail $v "zsink reads $stats after Paimon's appends, expected ids 1..$M once"
out=$("$ZSINK" table verify "$t" 2>&1) || fail $v "zsink table verify after Paimon's appends: $out"
echo "[$v] zsink: ids 1..$M once; verify: $(echo "$out" | tail -n 1)"
paimon_table $v

# 5. the readers do take the store's credentials from the environment: with a
# wrong secret each fails, saying so, and never prints the secret
bad=not-the-secret-$$
for r in java py; do
    if out=$(AWS_SECRET_ACCESS_KEY=$bad paimon_$r summary "$t" 2>&1); then
        fail $v "paimon_$r read $t with a wrong secret: $out"
    fi
    case $out in *"$bad"*) fail $v "paimon_$r printed the secret: $out" ;; esac
    echo "[$v] paimon_$r with a wrong secret fails: $(echo "$out" | grep '"ok"' | cut -c1-160)"
done

pass
