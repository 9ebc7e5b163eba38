#!/bin/sh
# kafka-server.sh - a single-node Apache Kafka 4.4.0 (KRaft: broker and
# controller in one JVM) for the tests (ctest label kafka), on 127.0.0.1
# only, its state in one directory.
#
#   kafka-server.sh start DIR [PORT]  format DIR and start it (the broker on
#                                     PORT, else a free port; the controller
#                                     on another free port); prints the
#                                     bootstrap address, 127.0.0.1:PORT
#   kafka-server.sh stop DIR          TERM, KILL after 20 s; waits for the exit
#   kafka-server.sh kill9 DIR         kill -9 (a crash); waits for the exit
#   kafka-server.sh restart DIR       start again: same ports, same data
#
# The jars: env ZSINK_KAFKA_LIBS, else BUILD/kafka/libs of the source tree's
# default build directory (build/). scripts/setup-kafka.sh BUILD_DIR installs
# them. java (>= 17) from PATH.
#
# DIR gets: data/ (the log directory: topics, the KRaft metadata log,
# meta.properties), server.properties, log4j2.properties, log (the broker's
# output, a "--- start" line before each start), pid, ports ("BROKER
# CONTROLLER", for restart) and bootstrap ("127.0.0.1:BROKER"). start
# refuses a DIR that holds data already (restart it, or remove DIR).
#
# Storage is formatted once, at start, by kafka.tools.StorageTool format
# --standalone with a fresh cluster id: the one controller is the only voter
# of a dynamic quorum (KIP-853), found through
# controller.quorum.bootstrap.servers; restart reuses the formatted data.
#
# Settings (server.properties) and why:
#   process.roles=broker,controller, node.id=1: one JVM is the whole cluster;
#   listeners on 127.0.0.1 only (PLAINTEXT for clients, CONTROLLER for the
#     quorum), advertised 127.0.0.1:PORT: nothing leaves the machine, two
#     brokers run side by side;
#   offsets.topic.replication.factor=1, transaction.state.log.replication
#     .factor=1, transaction.state.log.min.isr=1: there is one broker, and
#     the defaults (3, 3, 2) would make every group commit and every
#     transaction fail for want of replicas;
#   offsets.topic.num.partitions=1, transaction.state.log.num.partitions=1:
#     the internal topics are made on the first group or transaction, one
#     partition is made at once (the default 50 costs a second or two each
#     time, and disk);
#   group.initial.rebalance.delay.ms=0: a consumer group's first rebalance
#     waits 3 s by default for more members;
#   num.partitions=1, default.replication.factor=1: the defaults of a topic
#     made without them (the tests say how many they want);
#   auto.create.topics.enable=false: a test that reads or writes a topic it
#     did not create is an error, not a new empty topic;
#   log.retention.ms=-1, log.retention.bytes=-1: nothing is ever deleted by
#     age or size while a test runs (a test's records are its oracle);
#   broker.session.timeout.ms=3000, broker.heartbeat.interval.ms=500: after
#     a kill -9 the controller (restarted with the broker) keeps the dead
#     incarnation's registration until its session times out, and refuses
#     the new one until then (DUPLICATE_BROKER_REGISTRATION): 9 s by
#     default, which made a restart take 14 s. Both live in one JVM, so
#     only a stall of 3 s fences the broker (its partitions come back at
#     the next heartbeat);
#   transaction.abort.timed.out.transaction.cleanup.interval.ms=1000: a
#     producer killed inside a transaction leaves it open (the last stable
#     offset stays behind it: read_committed readers wait) until its
#     transaction.timeout.ms has passed and the broker aborts it; the broker
#     looks for such transactions every 10 s by default, now every second;
#   -Xmx512m -Xms128m (as KAFKA_HEAP_OPTS would), -XX:+UseSerialGC: a small
#     broker for 2 cores; Kafka's own script starts it with -Xmx1G and G1;
#   log4j2 to the console at INFO (into DIR/log): the "Kafka Server started"
#     line is what start waits for.
# Ready means: the log, since this start's "--- start" line, says "Kafka
# Server started" (the broker is unfenced: it has caught up with the
# metadata log and recovered its logs, after a kill -9 too) and the broker's
# port accepts connections; 60 s deadline.
# Measured (Java 17, 2 cores busy with other builds: load 5), with the
# class data sharing archive (without it):
#   start (fresh DIR, format included)   2.2-3.7 s   (3.3-8.6 s)
#   restart after kill -9                4.4-4.8 s   (6-9.5 s): the dead
#                                        broker's session (3 s) runs out
#   restart after stop                   1.5-2.9 s
#   stop                                 TERM is enough: 0.2-0.7 s
set -e
CMD=$1
DIR=$2
[ -n "$CMD" ] && [ -n "$DIR" ] || {
    echo "usage: $0 start|stop|kill9|restart DIR [PORT]" >&2
    exit 2
}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIBS=${ZSINK_KAFKA_LIBS:-$ROOT/build/kafka/libs}
JSA=$(dirname "$LIBS")/kafka.jsa

SERVER=kafka-server NPORTS=2
server_mark () { printf '%s\n' "$DIR/server.properties"; }
. "$(dirname "$0")/server-lib.sh"

# A Kafka Uuid: 16 random bytes, base64url without padding (22 characters).
# It may start with '-': passed as --cluster-id=ID, not as an argument.
cluster_id () {
    head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c1-22
}

write_config () {
    set -- $(cat "$DIR/ports")
    cat >"$DIR/server.properties" <<EOF
# written by scripts/kafka-server.sh (see there for why each setting)
process.roles=broker,controller
node.id=1
listeners=PLAINTEXT://127.0.0.1:$1,CONTROLLER://127.0.0.1:$2
advertised.listeners=PLAINTEXT://127.0.0.1:$1
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
controller.quorum.bootstrap.servers=127.0.0.1:$2
log.dirs=$DIR/data
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
num.partitions=1
default.replication.factor=1
auto.create.topics.enable=false
log.retention.ms=-1
log.retention.bytes=-1
broker.heartbeat.interval.ms=500
broker.session.timeout.ms=3000
transaction.abort.timed.out.transaction.cleanup.interval.ms=1000
EOF
    cat >"$DIR/log4j2.properties" <<'EOF'
status = warn
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
EOF
}

# (exec: in the background, $! is then the JVM itself, not a subshell).
# With setup-kafka.sh's class data sharing archive (LIBS/../kafka.jsa, the
# classes a broker loads while it starts) a broker starts in about half
# the time; without one (or one the JVM finds stale) as before.
# ZSINK_KAFKA_CDS_DUMP=FILE (setup-kafka.sh's training run): the broker
# writes such an archive to FILE when it exits.
java_run () {
    cds=
    if [ -n "${ZSINK_KAFKA_CDS_DUMP:-}" ]; then
        [ "$1" != kafka.Kafka ] || cds="-XX:ArchiveClassesAtExit=$ZSINK_KAFKA_CDS_DUMP"
    elif [ -f "$JSA" ]; then
        cds="-XX:SharedArchiveFile=$JSA -Xlog:cds=off -Xlog:cds+dynamic=off"
    fi
    # shellcheck disable=SC2086
    exec java -Xmx512m -Xms128m -XX:+UseSerialGC -Djava.awt.headless=true $cds \
        -Dlog4j2.configurationFile="$DIR/log4j2.properties" -cp "$LIBS/*" "$@"
}

launch () {
    set -- $(cat "$DIR/ports")
    wait_ports_free
    echo "--- start $(date -u +%FT%TZ)" >>"$DIR/log"
    (java_run kafka.Kafka "$DIR/server.properties") </dev/null >>"$DIR/log" 2>&1 &
    echo $! >"$DIR/pid"
    end=$(($(date +%s) + 60))
    # until the subshell has become the JVM, its command line is this script's
    while ! alive; do
        kill -0 "$(cat "$DIR/pid")" 2>/dev/null || { tail -20 "$DIR/log" >&2; return 3; }
        [ "$(date +%s)" -lt "$end" ] || die "pid $(cat "$DIR/pid") did not become the JVM"
        sleep 0.01
    done
    while ! awk '/^--- start/ { seen = 0 } /Kafka Server started/ { seen = 1 } END { exit !seen }' "$DIR/log" ||
        port_free "$1"; do
        alive || { tail -20 "$DIR/log" >&2; return 3; } # a port taken since pick_ports?
        [ "$(date +%s)" -lt "$end" ] || {
            tail -20 "$DIR/log" >&2
            kill -9 "$(cat "$DIR/pid")" 2>/dev/null || true
            die "not started after 60 s (log: $DIR/log)"
        }
        sleep 0.05
    done
    echo "127.0.0.1:$1" >"$DIR/bootstrap"
    echo "127.0.0.1:$1"
}

check_install () {
    [ -f "$LIBS/kafka_2.13-4.4.0.jar" ] ||
        die "no Kafka jars in $LIBS (install them: sh scripts/setup-kafka.sh BUILD_DIR, and set ZSINK_KAFKA_LIBS=BUILD_DIR/kafka/libs)"
    command -v java >/dev/null || die "no java on PATH"
}

case $CMD in
start)
    check_install
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    ! alive || die "already running (pid $(cat "$DIR/pid"), $DIR)"
    [ ! -e "$DIR/data" ] || die "$DIR holds data of an earlier start: restart it, or remove $DIR"
    if [ -n "$3" ]; then
        port_free "$3" || die "port $3 is taken"
    fi
    # another process may take one of the ports between pick and bind: then
    # the next try picks others (a given PORT is kept)
    for try in 1 2 3; do
        pick_ports "$3" >"$DIR/ports"
        write_config
        rm -rf "$DIR/data"
        (java_run kafka.tools.StorageTool format --standalone --cluster-id="$(cluster_id)" \
            -c "$DIR/server.properties") >>"$DIR/log" 2>&1 ||
            { tail -20 "$DIR/log" >&2; die "formatting $DIR/data failed (log: $DIR/log)"; }
        launch && exit 0
        echo "kafka-server: the broker exited while starting (try $try of 3; log: $DIR/log)" >&2
    done
    die "the broker does not start (log: $DIR/log)"
    ;;
restart)
    check_install
    DIR=$(cd "$DIR" && pwd)
    [ -f "$DIR/ports" ] && [ -d "$DIR/data" ] || die "$DIR was never started (no ports or data)"
    ! alive || die "still running (pid $(cat "$DIR/pid")): stop or kill9 it first"
    launch || die "the broker exited while starting (log: $DIR/log)"
    ;;
stop)
    DIR=$(cd "$DIR" 2>/dev/null && pwd) || exit 0
    [ -f "$DIR/pid" ] || exit 0
    if alive; then
        kill -TERM "$(cat "$DIR/pid")" 2>/dev/null || true
        wait_gone 20 || { kill -KILL "$(cat "$DIR/pid")" 2>/dev/null || true; wait_gone 10; } ||
            die "pid $(cat "$DIR/pid") does not exit"
    fi
    ;;
kill9)
    DIR=$(cd "$DIR" && pwd)
    alive || die "not running ($DIR)"
    kill -KILL "$(cat "$DIR/pid")"
    wait_gone 10 || die "pid $(cat "$DIR/pid") does not exit after kill -9"
    ;;
*)
    die "unknown command '$CMD' (start, stop, kill9, restart)"
    ;;
esac
