# Every fail point × action: each named point of `zsink failpoints` with
# crash:K and error:K (and drop for the message point), K from the seed
# (1..3), on a small job of 2 writers with fast checkpoints. The point must
# fire, and whatever it causes, the job must finish with ids 1..N exactly
# once, verify clean, no orphans, identifiers strictly increasing (lib.sh's
# oracle, DuckDB included). The job keeps one snapshot (expiring the one
# before at each commit), merges manifests after 3 and compacts as soon as
# there are 2 small files, so every fault also meets an expiry and a
# compaction (committer.mid-expire and committer.mid-compact among them). An fs.* error is a full disk or an I/O error at
# the K-th write/fsync/rename/link of every process.
# Every fs.* point also gets error:1, whatever the seed.
# Four trials run at a time. ZSINK_FP_SEEDS=3 runs every combination with
# 3 different K's (by hand; the default run uses one).
. "$(dirname "$0")/lib.sh"

N=4000
SEEDS=${ZSINK_FP_SEEDS:-1}
# (io.s3.* points fire only on object storage: t_s3_midcommit arms them;
# coordinator.kafka-commit only with a Kafka source: t_kafka_broker)
POINTS=$("$ZSINK" failpoints | awk '/^  [a-z]/ { print $1 }' |
    grep -v -e '^io\.s3\.' -e '^coordinator\.kafka-commit$')
[ -n "$POINTS" ] || fail setup "zsink failpoints listed nothing"

trial () {
    v=$1
    spec=$(cat "$(vdir "$v")/spec")
    write_job "$v" 2 "datagen.rows-per-second: 2000" "datagen.number-of-rows: $N" \
        "execution.checkpointing.interval: 300ms" "restart-strategy.fixed-delay.attempts: 20" \
        "restart-strategy.fixed-delay.delay: 200ms" "heartbeat.timeout: 3s" \
        "snapshot.num-retained.min: 1" "snapshot.num-retained.max: 1" "manifest.merge-min-count: 3" \
        "compaction.min.file-num: 2"
    FAILPOINTS=$spec
    start_cluster "$v"
    expect_exit "$v" 120 0
    point=$(cat "$(vdir "$v")/point")
    fired=$(grep -c "failpoint $point: " "$(clog "$v")")
    [ "$fired" -ge 1 ] || fail "$v" "$point never fired: the trial tested nothing"
    oracle "$v" $N --last-max
    echo "[$v] $spec: $point fired $fired time(s)"
}

batch=
n=0
for seed in $(seq 1 "$SEEDS"); do
    for p in $POINTS; do
        actions="crash error"
        case $p in *.notify) actions="drop crash" ;; esac
        for a in $actions; do
            n=$((n + 1))
            # K in 1..3, walking from the seed: every point gets each K
            # over three seeds (ZSINK_FP_SEEDS=3)
            k=$(((SEED + n + seed) % 3 + 1))
            v="t$n-$(echo "$p" | tr '.' '-')-$a"
            mkdir -p "$(vdir "$v")"
            spec="$p=$a:$k"
            # a re-commit happens only after a failover: a coordinator
            # crash once chk-2 is durable makes the committer re-commit
            [ "$p" = committer.mid-recommit ] &&
                spec="coordinator.after-checkpoint-write=crash:2,$p=$a:1"
            echo "$spec" >"$(vdir "$v")/spec"
            echo "$p" >"$(vdir "$v")/point"
            batch="$batch $v"
            if [ $((n % 4)) = 0 ]; then
                run_variants trial $batch
                batch=
            fi
        done
    done
done
[ -n "$batch" ] && run_variants trial $batch
# Always, whatever the seed: an I/O error at the very first write, fsync,
# rename or link of every process (the coordinator's first fsync is its
# checkpoint directory's; such a start once ended the job for good).
batch=
for p in $(echo "$POINTS" | grep '^fs\.'); do
    n=$((n + 1))
    v="t$n-$(echo "$p" | tr '.' '-')-error-first"
    mkdir -p "$(vdir "$v")"
    echo "$p=error:1" >"$(vdir "$v")/spec"
    echo "$p" >"$(vdir "$v")/point"
    batch="$batch $v"
done
run_variants trial $batch
echo "$n trials, every one exact"
pass
