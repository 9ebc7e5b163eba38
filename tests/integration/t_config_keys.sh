# `zsink config keys` lists every key a job takes, each with its type, its
# default and a description, read from the layers' own tables (issue 26);
# every default it prints parses back (`zsink config show` with each one as
# -D) to the job's default; every key `config show` prints is listed; the
# credentials are listed as secrets and never shown.
. "$(dirname "$0")/lib.sh"

v=keys
d=$(vdir $v)
mkdir -p "$d"
for sub in --help "keys --help" "show --help"; do
    # shellcheck disable=SC2086
    "$ZSINK" config $sub | grep -q "usage: zsink config keys" || fail $v "zsink config $sub: no usage"
done
"$ZSINK" config keys --json >"$d/keys.json" || fail $v "zsink config keys --json: exit $?"
"$ZSINK" config keys >"$d/keys.txt" || fail $v "zsink config keys: exit $?"
req="-D table.path=$d/t -D state.checkpoints.dir=$d/c"
# shellcheck disable=SC2086
"$ZSINK" config show $req --json >"$d/show.json" || fail $v "zsink config show: exit $?"

# Every listed key: a description, a type, one entry; each one in the text
# listing too. The -D arguments giving each key its printed default.
out=$("$PY" - "$d" <<'PY'
import json, sys
d = sys.argv[1]
keys = json.load(open(d + "/keys.json"))
show = json.load(open(d + "/show.json"))
text = open(d + "/keys.txt").read()
seen = {}
for k in keys:
    for f in ("key", "layer", "type", "default", "description"):
        if not isinstance(k.get(f), str):
            sys.exit("%s: no %s" % (k.get("key"), f))
    if len(k["description"]) < 10:
        sys.exit("%s: description '%s'" % (k["key"], k["description"]))
    if k["key"] in seen:
        sys.exit("%s listed twice" % k["key"])
    if ("\n  %s\n" % k["key"]) not in text:
        sys.exit("%s: not in the text listing" % k["key"])
    seen[k["key"]] = k
layers = sorted(set(k["layer"] for k in keys))
if layers != ["format", "io", "job", "table"]:
    sys.exit("layers: %s" % layers)
# every key the job's configuration holds (config show) is listed
for key in show:
    if key not in seen and not key.startswith("source.kafka.properties."):
        sys.exit("%s: shown by config show, not listed by config keys" % key)
for s in ("s3.access-key", "s3.secret-key"):
    if not seen[s]["secret"] or s in show:
        sys.exit("%s: not a secret, or shown" % s)
# the printed defaults, as -D arguments (one a line); the family of
# Kafka properties is no one key
with open(d + "/defaults.args", "w") as f:
    for k in keys:
        if "<" not in k["key"] and not k["secret"]:
            f.write("%s=%s\n" % (k["key"], k["default"]))
print(len(keys), sum(1 for k in keys if k["table_option"]))
PY
) || fail $v "$out"
n=$(echo "$out" | cut -d' ' -f1)
nt=$(echo "$out" | cut -d' ' -f2)

# Every printed default parses back, and (but for the table options, unset
# in a job: the table's own value holds) is the job's default.
set --
while IFS= read -r line; do
    case $line in
    table.path=* | state.checkpoints.dir=*) ;;
    *) set -- "$@" -D "$line" ;;
    esac
done <"$d/defaults.args"
# shellcheck disable=SC2086
"$ZSINK" config show $req "$@" --json >"$d/back.json" 2>"$d/back.err" ||
    fail $v "the printed defaults do not parse back: $(cat "$d/back.err")"
out=$("$PY" - "$d" <<'PY'
import json, sys
d = sys.argv[1]
keys = {k["key"]: k for k in json.load(open(d + "/keys.json"))}
show, back = json.load(open(d + "/show.json")), json.load(open(d + "/back.json"))
for key, value in show.items():
    if key in keys and not keys[key]["table_option"] and back[key] != value:
        sys.exit("%s: default printed as '%s' reads back as '%s', the default is '%s'"
                 % (key, keys[key]["default"], back[key], value))
PY
) || fail $v "$out"
echo "[$v] $n keys ($nt table options) listed with type, default and description;" \
    "every default parses back as the default"

# Input errors (issue 26, item 7): a YAML syntax error, with line and
# column; a key given twice; a table path that is a file.
v=input
d=$(vdir $v)
mkdir -p "$d"
bad () { # WHAT PATTERN ARGS…
    _what=$1 _pat=$2
    shift 2
    _out=$("$ZSINK" config show "$@" 2>&1) && fail $v "$_what: accepted"
    echo "$_out" | grep -qF -- "$_pat" || fail $v "$_what: no '$_pat' in: $_out"
    echo "[$v] $_what: $_out"
}
printf 'parallelism: 2\ntable.path: "%s/t\n' "$d" >"$d/syntax.yaml"
bad "syntax error" "syntax.yaml:3:1: YAML syntax error" -c "$d/syntax.yaml"
printf 'parallelism: 2\nexecution:\n  checkpointing:\n    interval: 1s\nparallelism: 3\n' >"$d/twice.yaml"
bad "key twice" "parallelism: given twice (lines 1 and 5)" -c "$d/twice.yaml" $req
printf 'execution.checkpointing.interval: 2s\nexecution:\n  checkpointing.interval: 1s\n' >"$d/nested.yaml"
bad "flat and nested" "execution.checkpointing.interval: given twice (lines 1 and 3)" \
    -c "$d/nested.yaml" $req
# a file where a directory is named: the key, before any process starts
: >"$d/file"
for key in table.path state.checkpoints.dir; do
    set -- -D table.path="$d/t" -D state.checkpoints.dir="$d/c" -D "$key=$d/file" \
        -D datagen.number-of-rows=10
    _out=$(timeout 30 "$ZSINK" cluster "$@" 2>&1)
    rc=$?
    [ $rc = 2 ] || fail $v "$key a file: exit $rc: $_out"
    echo "$_out" | grep -qF "$key: $d/file is a file, not a directory" ||
        fail $v "$key a file: $_out"
    [ ! -e "$d/t" ] || fail $v "$key a file: the table was made"
    echo "[$v] $key a file: exit 2, $_out"
done
pass
