#!/bin/sh
# bench/flink-paimon/setup.sh - build the Flink + Paimon side of the comparison.
#
# Fetches Paimon's Flink 2.0 connector jar from the repository mvn uses (its parent POM is not
# served, so Maven cannot take it as a dependency; the jar is checked against the registry's
# .sha1), then
#   mvn -B -ntp -q compile
# which leaves target/classes and target/classpath.txt (dependency:build-classpath, jars in
# ~/.m2). run.sh then starts plain `java -cp` JVMs. Also installs eatmydata (below). Idempotent;
# --check only says whether the build (and eatmydata, or the record that it cannot be had) is
# there (exit 0) or not (exit 1).
set -eu
cd "$(dirname "$0")"
PAIMON=2.0.0
JAR=target/jars/paimon-flink-2.0-$PAIMON.jar
JARPATH=org/apache/paimon/paimon-flink-2.0/$PAIMON/paimon-flink-2.0-$PAIMON.jar

# eatmydata (Debian's libeatmydata.so: fsync and friends return at once), for the latency case's
# fsync-off runs; installed when missing and apt-get can (root, or sudo without a password).
# One failed attempt leaves target/eatmydata.unavailable, and the bench runs without it.
have_eatmydata() {
    ls /usr/lib/*/libeatmydata.so* >/dev/null 2>&1 || ls /usr/lib/libeatmydata.so* >/dev/null 2>&1 ||
        [ -e target/eatmydata.unavailable ] || ! command -v apt-get >/dev/null 2>&1
}
install_eatmydata() {
    have_eatmydata && return 0
    sudo=; [ "$(id -u)" = 0 ] || sudo="sudo -n"
    echo "setup: apt-get install -y eatmydata"
    $sudo apt-get install -y -q eatmydata >/dev/null 2>&1 ||
        { $sudo apt-get update -q >/dev/null 2>&1 && $sudo apt-get install -y -q eatmydata >/dev/null 2>&1; } || {
        echo "setup: eatmydata could not be installed; the latency case runs with fsync only" >&2
        mkdir -p target && : >target/eatmydata.unavailable
    }
}

if [ "${1:-}" = --check ]; then
    [ -s "$JAR" ] && [ -s target/classpath.txt ] && [ -d target/classes/zsink/bench ] &&
        [ target/classes/zsink/bench/FlinkPaimonJob.class -nt src/main/java/zsink/bench/FlinkPaimonJob.java ] &&
        have_eatmydata
    exit
fi
install_eatmydata
command -v mvn >/dev/null 2>&1 || { echo "setup: mvn not found (apt-get install maven default-jdk-headless)" >&2; exit 1; }
mkdir -p target/jars
if [ ! -s "$JAR" ]; then
    # the repository mvn resolves from, as this machine configures it
    # (settings, mirrors), asked of mvn itself: no host is written here
    repo=${MAVEN_CENTRAL:-$(mvn -B -q -N help:evaluate \
        -Dexpression='project.remoteArtifactRepositories[0].url' -DforceStdout |
        sed 's/\x1b\[[0-9;]*m//g')}
    [ -n "$repo" ] || { echo "setup: mvn names no repository to fetch from" >&2; exit 1; }
    URL=${repo%/}/$JARPATH
    echo "setup: fetching $URL"
    curl -fsSL -o "$JAR.part" "$URL"
    want=$(curl -fsSL "$URL.sha1" | cut -c1-40)
    got=$(sha1sum "$JAR.part" | cut -c1-40)
    [ "$want" = "$got" ] || { echo "setup: sha1 mismatch for $JAR ($got, registry says $want)" >&2; rm -f "$JAR.part"; exit 1; }
    mv "$JAR.part" "$JAR"
fi
echo "setup: mvn compile (Flink 2.0.0, Paimon $PAIMON; the first run downloads ~200 MB into ~/.m2)"
mvn -B -ntp -q compile
echo "setup: ok (target/classes, target/classpath.txt)"
