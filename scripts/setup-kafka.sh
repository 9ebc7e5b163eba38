#!/bin/sh
# setup-kafka.sh BUILD_DIR - install the Kafka broker the tests run against
# (ctest label kafka): Apache Kafka 4.4.0 (Apache-2.0), its jars from Maven
# Central at pinned versions (scripts/kafka/pom.xml), into BUILD_DIR/kafka/libs,
# so that scripts/kafka-server.sh runs
#   java -cp 'BUILD_DIR/kafka/libs/*' kafka.Kafka server.properties
#
# Nothing is built: `mvn dependency:copy-dependencies` copies kafka_2.13 and
# its runtime dependencies (about 45 MB) out of ~/.m2, downloading what is not
# there yet (8 s from an empty ~/.m2 here). Then a broker is started and
# stopped once to make a class data sharing archive (kafka.jsa, 50 MB) that
# halves the start of every broker after. The broker needs Java >= 17 (Kafka 4 does); maven and
# default-jdk-headless are installed from Debian when absent (as
# setup-interop.sh does). About 15 s the first time.
#
# A stamp (BUILD_DIR/kafka/stamp) holds a hash of the pom, this script and
# the java version; when it matches and the jars are there, nothing runs.
# Safe to run concurrently (flock).
#
#   setup-kafka.sh --check BUILD_DIR
#
# installs nothing: exit 0 when BUILD_DIR/kafka/libs is complete and up to
# date, else exit 1 with one line saying what is missing
# (tests/integration/lib_kafka.sh asks this before it starts a broker).
set -e
CHECK=0
[ "$1" = --check ] && { CHECK=1; shift; }
[ -n "$1" ] || { echo "usage: $0 [--check] BUILD_DIR" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
POM=$ROOT/scripts/kafka/pom.xml
if [ $CHECK = 0 ]; then mkdir -p "$1/kafka"; fi
[ -d "$1/kafka" ] || { echo "not installed: no $1/kafka (run: sh scripts/setup-kafka.sh $1)"; exit 1; }
OUT=$(cd "$1/kafka" && pwd)
LIBS=$OUT/libs
STAMP=$OUT/stamp
# the jar whose presence says the copy was whole (it is renamed into place)
MAIN_JAR=kafka_2.13-4.4.0.jar

java_ok () {
    command -v java >/dev/null 2>&1 || return 1
    v=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
    [ -n "$v" ] && [ "$v" -ge 17 ]
}
key () {
    { cat "$POM" "$ROOT/scripts/setup-kafka.sh"; java -version 2>&1 || true; } |
        sha256sum | cut -c1-64
}
ready () {
    java_ok && [ -f "$LIBS/$MAIN_JAR" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(key)" ]
}

if [ $CHECK = 1 ]; then
    java_ok || { echo "no java >= 17 on PATH: the Kafka broker cannot run"; exit 1; }
    ready || { echo "not installed or out of date: $LIBS (run: sh scripts/setup-kafka.sh $1)"; exit 1; }
    exit 0
fi
if ready; then echo "setup-kafka: up to date ($LIBS)"; exit 0; fi
exec 9>"$OUT/.lock"
flock 9
if ready; then echo "setup-kafka: up to date ($LIBS)"; exit 0; fi

T0=$(date +%s)
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
missing=""
java_ok || missing="$missing default-jdk-headless"
command -v mvn >/dev/null 2>&1 || missing="$missing maven"
[ -s /etc/ssl/certs/ca-certificates.crt ] || missing="$missing ca-certificates"
if [ -n "$missing" ]; then
    echo "setup-kafka: apt-get install$missing"
    $SUDO apt-get update -qq
    # the JDK's postinst needs man1, which minbase and slim images drop
    # (setup-interop.sh says more)
    $SUDO mkdir -p /usr/share/man/man1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
    java_ok || { echo "setup-kafka: no java >= 17 after installing default-jdk-headless" >&2; exit 1; }
fi

echo "setup-kafka: mvn dependency:copy-dependencies scripts/kafka/pom.xml (Apache Kafka 4.4.0)"
rm -rf "$LIBS.tmp" "$STAMP"
if ! mvn -B -ntp -q -f "$POM" dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$LIBS.tmp" >"$OUT/mvn.log" 2>&1; then
    cat "$OUT/mvn.log" >&2
    echo "setup-kafka: mvn failed (log: $OUT/mvn.log)" >&2
    exit 1
fi
[ -f "$LIBS.tmp/$MAIN_JAR" ] || { echo "setup-kafka: mvn copied no $MAIN_JAR (log: $OUT/mvn.log)" >&2; exit 1; }
# the jars load: the storage tool answers (it is what formats a broker's log dir)
java -cp "$LIBS.tmp/*" kafka.tools.StorageTool random-uuid >/dev/null 2>"$OUT/check.log" ||
    { cat "$OUT/check.log" >&2; echo "setup-kafka: the jars in $LIBS.tmp do not run kafka.tools.StorageTool" >&2; exit 1; }
rm -rf "$LIBS" "$OUT/kafka.jsa"
mv "$LIBS.tmp" "$LIBS"

# AppCDS: a broker started once and stopped archives the classes it loaded
# (OUT/kafka.jsa, beside libs/); kafka-server.sh uses it when present. A
# start then takes about half the time (3.3 s rather than 5-7 s on a busy
# 2-core machine). Without an archive the broker runs all the same.
echo "setup-kafka: class data sharing archive (a broker started and stopped once)"
TRAIN=$(mktemp -d)
trap 'sh "$ROOT/scripts/kafka-server.sh" stop "$TRAIN/broker" 2>/dev/null; rm -rf "$TRAIN"' EXIT
if ZSINK_KAFKA_LIBS=$LIBS ZSINK_KAFKA_CDS_DUMP=$OUT/kafka.jsa.tmp \
        sh "$ROOT/scripts/kafka-server.sh" start "$TRAIN/broker" >"$OUT/train.log" 2>&1 &&
    ZSINK_KAFKA_LIBS=$LIBS sh "$ROOT/scripts/kafka-server.sh" stop "$TRAIN/broker" >>"$OUT/train.log" 2>&1 &&
    [ -s "$OUT/kafka.jsa.tmp" ]; then
    mv "$OUT/kafka.jsa.tmp" "$OUT/kafka.jsa"
else
    cp "$TRAIN/broker/log" "$OUT/train-broker.log" 2>/dev/null || true
    rm -f "$OUT/kafka.jsa.tmp"
    echo "setup-kafka: no CDS archive (see $OUT/train.log); the broker starts without it" >&2
fi
key >"$STAMP"
echo "setup-kafka: installed $LIBS ($(ls "$LIBS" | wc -l) jars) in $(( $(date +%s) - T0 )) s"
