#!/bin/sh
# setup-interop.sh BUILD_DIR - install the Paimon test oracles (tests/interop),
# only what is missing, every version pinned:
#
#   Debian      python3-venv, default-jdk-headless (JDK >= 17), maven,
#               ca-certificates (each only when its command or file is absent;
#               the versions are bookworm's: Debian replaces superseded ones)
#   PyPI        BUILD_DIR/interop/venv: tests/interop/requirements.txt
#               (pypaimon and all its dependencies, exact versions, --no-deps)
#   Maven       tests/interop/java/pom.xml compiled into BUILD_DIR/interop/java:
#               classes/, zsink-interop.jar, classpath.txt (the dependency jars, in
#               ~/.m2), cp.txt (the jar and those), an AppCDS archive and java.args,
#               so a test runs
#                 java @BUILD_DIR/interop/java/java.args ZsinkInterop COMMAND …
#               (or plainly: java -cp "$(cat BUILD_DIR/interop/java/cp.txt)" ZsinkInterop …)
#
# A stamp (BUILD_DIR/interop/stamp) holds a hash of the pinned inputs
# (requirements.txt, pom.xml, the Java sources, this script); when it matches
# and the venv and jars are still there, nothing runs (well under a second).
# Safe to run concurrently (flock). Works as root on a fresh Debian 12 that
# reaches Debian's archive, PyPI and Maven Central.
#
#   setup-interop.sh --check BUILD_DIR
#
# installs nothing: exit 0 when BUILD_DIR/interop is complete and up to date,
# else exit 1 with one line saying what is missing (tests/integration/lib.sh
# asks this before it runs Paimon's readers).
set -e
CHECK=0
[ "$1" = --check ] && { CHECK=1; shift; }
[ -n "$1" ] || { echo "usage: $0 [--check] BUILD_DIR" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ $CHECK = 1 ]; then
    [ -d "$1/interop" ] || { echo "not installed: no $1/interop (run: sh scripts/setup-interop.sh $1)"; exit 1; }
else
    mkdir -p "$1/interop"
fi
OUT=$(cd "$1/interop" && pwd)
SRC=$ROOT/tests/interop
VENV=$OUT/venv
JOUT=$OUT/java
STAMP=$OUT/stamp
T0=$(date +%s)

key () {
    { cat "$SRC/requirements.txt" "$SRC/java/pom.xml" "$ROOT/scripts/setup-interop.sh"
      find "$SRC/java/src" -type f -name '*.java' | LC_ALL=C sort | xargs cat
      /usr/bin/python3 -c 'import sys; print(sys.version_info[:2])' 2>/dev/null || true
      java -version 2>&1 || true
    } | sha256sum | cut -c1-64
}

ready () {
    [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(key)" ] || return 1
    [ -x "$VENV/bin/python" ] && [ -f "$JOUT/cp.txt" ] && [ -f "$JOUT/java.args" ] || return 1
    # the jars live in ~/.m2, which may have been wiped
    for j in $(tr ':' ' ' < "$JOUT/classpath.txt"); do [ -f "$j" ] || return 1; done
    command -v java >/dev/null
}

if [ $CHECK = 1 ]; then
    command -v java >/dev/null 2>&1 || { echo "no java on PATH"; exit 1; }
    [ -x "$VENV/bin/python" ] && [ -f "$JOUT/java.args" ] || { echo "not installed in $OUT (run: sh scripts/setup-interop.sh $1)"; exit 1; }
    ready || { echo "out of date or incomplete: $OUT (run: sh scripts/setup-interop.sh $1)"; exit 1; }
    exit 0
fi

# fast path, without the lock (a hash and a few stats)
if ready; then
    echo "setup-interop: up to date ($OUT)"
    exit 0
fi

exec 9>"$OUT/.lock"
flock 9
if ready; then
    echo "setup-interop: up to date ($OUT)"
    exit 0
fi

# --- Debian packages, only for commands that are missing ----------------------
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
missing=""
/usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null || missing="$missing python3 python3-venv"
jdk_ok () {
    command -v javac >/dev/null 2>&1 || return 1
    v=$(javac -version 2>&1 | sed -n 's/^javac \([0-9]*\).*/\1/p')
    [ -n "$v" ] && [ "$v" -ge 17 ]
}
jdk_ok || missing="$missing default-jdk-headless"
command -v mvn >/dev/null 2>&1 || missing="$missing maven"
# pip and Maven fetch over https
[ -s /etc/ssl/certs/ca-certificates.crt ] || missing="$missing ca-certificates"
if [ -n "$missing" ]; then
    echo "setup-interop: apt-get install$missing"
    $SUDO apt-get update -qq
    # A minbase or slim image drops /usr/share/man, and the JDK's postinst
    # (update-alternatives for its man pages) fails without man1: the JDK
    # and Maven would be left unconfigured and every Paimon oracle skip.
    $SUDO mkdir -p /usr/share/man/man1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
    jdk_ok || { echo "setup-interop: no JDK >= 17 after installing default-jdk-headless" >&2; exit 1; }
fi

# --- pypaimon venv ---------------------------------------------------------------
if [ ! -x "$VENV/bin/python" ]; then
    echo "setup-interop: python venv at $VENV"
    /usr/bin/python3 -m venv "$VENV"
fi
echo "setup-interop: pip install -r tests/interop/requirements.txt"
"$VENV/bin/pip" install -q --disable-pip-version-check --no-deps -r "$SRC/requirements.txt"
"$VENV/bin/pip" check --disable-pip-version-check >/dev/null
"$VENV/bin/python" -c 'import pypaimon, pyarrow' 

# --- the Java tool ---------------------------------------------------------------
echo "setup-interop: mvn compile tests/interop/java (Paimon Java, Hadoop client)"
mkdir -p "$JOUT"
if ! mvn -B -ntp -q -f "$SRC/java/pom.xml" -Dinterop.out="$JOUT" compile >"$OUT/mvn.log" 2>&1; then
    cat "$OUT/mvn.log" >&2
    echo "setup-interop: mvn failed (log: $OUT/mvn.log)" >&2
    exit 1
fi
[ -s "$JOUT/classpath.txt" ] && [ -f "$JOUT/classes/ZsinkInterop.class" ]
rm -f "$JOUT/zsink-interop.jar"
jar cf "$JOUT/zsink-interop.jar" -C "$JOUT/classes" .
CP="$JOUT/zsink-interop.jar:$(cat "$JOUT/classpath.txt")"
printf '%s\n' "$CP" > "$JOUT/cp.txt"

# AppCDS: one JVM runs every command on a scratch table and archives the classes
# it loaded; with the archive and C1 only, a command starts and reads about twice
# as fast. Without an archive (say an old JDK) the tool runs all the same.
echo "setup-interop: class data sharing archive (ZsinkInterop train)"
rm -rf "$JOUT/train" "$JOUT/zsink-interop.jsa"
CDS=""
if java -XX:ArchiveClassesAtExit="$JOUT/zsink-interop.jsa" -cp "$CP" ZsinkInterop train "$JOUT/train" \
        >"$JOUT/train.log" 2>&1 && [ -s "$JOUT/zsink-interop.jsa" ]; then
    CDS="-XX:SharedArchiveFile=$JOUT/zsink-interop.jsa"
else
    echo "setup-interop: no CDS archive (see $JOUT/train.log); the tool runs without it" >&2
fi
rm -rf "$JOUT/train"
# java @BUILD_DIR/interop/java/java.args ZsinkInterop COMMAND ...
{ printf '"-cp"\n"%s"\n' "$CP"
  [ -z "$CDS" ] || printf '"%s"\n"-Xlog:cds=off"\n"-Xlog:cds+dynamic=off"\n' "$CDS"
  printf '"-XX:TieredStopAtLevel=1"\n'
} > "$JOUT/java.args"
java @"$JOUT/java.args" ZsinkInterop spell-doubles </dev/null >/dev/null

key > "$STAMP"
echo "setup-interop: done in $(( $(date +%s) - T0 )) s ($OUT)"
