#!/bin/sh
# layers.sh LIB... - the static libraries of common/, lowest layer first.
# Fails (exit 1, naming the symbol and both libraries) when a library
# refers to a symbol defined in a library above it: a lower layer must not
# depend on a higher one (docs/architecture.md). Include paths already stop
# a lower layer from including a higher one's headers; this catches a call
# through a declaration written by hand.
set -e
command -v nm >/dev/null || { echo "layers.sh: nm not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
k=0
for lib in "$@"; do
    k=$((k + 1))
    nm -u "$lib" | awk '{ print $NF }' | sort -u >"$tmp/undef.$k"
    nm --defined-only -g "$lib" | awk 'NF >= 3 { print $3 }' | sort -u >"$tmp/def.$k"
    echo "$lib" >"$tmp/name.$k"
done
bad=0
i=1
while [ $i -le $k ]; do
    j=$((i + 1))
    while [ $j -le $k ]; do
        for sym in $(comm -12 "$tmp/undef.$i" "$tmp/def.$j"); do
            echo "layers: $(basename "$(cat "$tmp/name.$i")") uses $sym," \
                "defined in $(basename "$(cat "$tmp/name.$j")"), a higher layer" >&2
            bad=1
        done
        j=$((j + 1))
    done
    i=$((i + 1))
done
exit $bad
