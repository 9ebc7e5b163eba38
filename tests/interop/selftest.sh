#!/bin/sh
# selftest.sh BUILD_DIR - prove the Paimon oracles (pypaimon and Paimon Java)
# against tables Paimon itself writes: installs what is missing
# (scripts/setup-interop.sh, quick when done), then runs selftest.py with the
# interop venv. Exits non-zero on any disagreement; the last line is
# "N passed, N failed". See tests/interop/README.md.
set -e
[ -n "$1" ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
sh "$ROOT/scripts/setup-interop.sh" "$1"
B=$(cd "$1" && pwd)
exec "$B/interop/venv/bin/python" "$ROOT/tests/interop/selftest.py" "$B"
