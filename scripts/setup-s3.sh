#!/bin/sh
# setup-s3.sh BUILD_DIR - build the S3 server the tests run against (ctest
# label s3): SeaweedFS (Apache-2.0) from the Go module proxy, at a pinned
# pseudo-version, into BUILD_DIR/s3/weed.
#
# `go install` refuses the module (its go.mod has replace directives), so the
# module is downloaded (`go mod download -json`) and built where it lands
# (`go build ./weed`). The Go toolchain is the machine's (`go` on PATH, or
# /usr/local/go/bin/go); Debian 12's golang is too old for this module. About
# ten minutes on 2 cores the first time; the module and build caches are Go's
# own (~/go, ~/.cache/go-build), so a rebuild after `rm -rf BUILD_DIR` is
# quick.
#
# A stamp (BUILD_DIR/s3/stamp) holds a hash of the version, this script and
# the Go version; when it matches and the binary is there, nothing runs.
# Safe to run concurrently (flock).
#
#   setup-s3.sh --check BUILD_DIR
#
# builds nothing: exit 0 when BUILD_DIR/s3/weed is built and up to date,
# else exit 1 with one line saying what is missing.
set -e
VERSION=v0.0.0-20261109003541-7506e5f91cd6
MODULE=github.com/seaweedfs/seaweedfs
CHECK=0
[ "$1" = --check ] && { CHECK=1; shift; }
[ -n "$1" ] || { echo "usage: $0 [--check] BUILD_DIR" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GO=$(command -v go || true)
[ -n "$GO" ] || { [ -x /usr/local/go/bin/go ] && GO=/usr/local/go/bin/go; }
if [ $CHECK = 0 ]; then mkdir -p "$1/s3"; fi
[ -d "$1/s3" ] || { echo "not built: no $1/s3 (run: sh scripts/setup-s3.sh $1)"; exit 1; }
OUT=$(cd "$1/s3" && pwd)
STAMP=$OUT/stamp

key () {
    { echo "$MODULE@$VERSION"; cat "$ROOT/scripts/setup-s3.sh"; "$GO" version 2>&1 || true; } |
        sha256sum | cut -c1-64
}
ready () {
    [ -n "$GO" ] && [ -x "$OUT/weed" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(key)" ]
}

if [ $CHECK = 1 ]; then
    [ -n "$GO" ] || { echo "no Go toolchain (go on PATH or /usr/local/go): the S3 server cannot be built"; exit 1; }
    ready || { echo "not built or out of date: $OUT/weed (run: sh scripts/setup-s3.sh $1)"; exit 1; }
    exit 0
fi
[ -n "$GO" ] || { echo "setup-s3: no Go toolchain (go on PATH or /usr/local/go): the S3 server cannot be built" >&2; exit 1; }
if ready; then echo "setup-s3: up to date ($OUT/weed)"; exit 0; fi
exec 9>"$OUT/.lock"
flock 9
if ready; then echo "setup-s3: up to date ($OUT/weed)"; exit 0; fi

T0=$(date +%s)
echo "setup-s3: building SeaweedFS $VERSION (about ten minutes the first time)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
( cd "$TMP" && GOFLAGS=-mod=mod "$GO" mod download -json "$MODULE@$VERSION" ) >"$TMP/dl.json" ||
    { cat "$TMP/dl.json" >&2; echo "setup-s3: go mod download $MODULE@$VERSION failed" >&2; exit 1; }
DIR=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p' "$TMP/dl.json")
[ -d "$DIR" ] || { echo "setup-s3: the module's directory is not in go mod download's answer" >&2; exit 1; }
rm -f "$OUT/weed" "$STAMP"
( cd "$DIR" && CGO_ENABLED=0 "$GO" build -o "$OUT/weed.tmp" ./weed ) ||
    { echo "setup-s3: go build ./weed failed" >&2; exit 1; }
mv "$OUT/weed.tmp" "$OUT/weed"
key >"$STAMP"
echo "setup-s3: built $OUT/weed in $(( $(date +%s) - T0 )) s"
