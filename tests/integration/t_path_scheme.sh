# Path keys with a URI scheme, from the command line (-D) as a new user
# types them. An unsupported scheme (hdfs://, oss://, file://HOST/...; s3://
# but for table.path) is
# refused before anything runs: exit 2, the error names the key and the
# value, and no directory "./s3:" appears (the path was once taken as a
# relative directory, and the job said the table held the rows). file:///ABS
# is the local path /ABS, as Flink users write it: the job runs there.
. "$(dirname "$0")/lib.sh"

v=s
d=$(vdir "$v")
write_job "$v" 1 "datagen.number-of-rows: 500" "datagen.rows-per-second: 0"
mkdir -p "$d/cwd"

# refused KEY VALUE: exit 2 naming KEY and VALUE, nothing written in the cwd
refused () {
    _out=$(cd "$d/cwd" && "$ZSINK" cluster -c "$d/job.yaml" --job-id "$(job_id "$v")" \
        -D "$1=$2" 2>&1)
    _rc=$?
    [ "$_rc" = 2 ] || fail "$v" "$1=$2: exit $_rc, expected 2: $_out"
    echo "$_out" | grep -qF "$1: '$2'" || fail "$v" "$1=$2: the error does not name key and value: $_out"
    [ -z "$(ls -A "$d/cwd")" ] || fail "$v" "$1=$2: wrote into the cwd: $(ls -A "$d/cwd")"
    echo "[$v] $1=$2 refused: $_out"
}
refused table.path s3://Bad_Bucket/warehouse/t
refused table.path hdfs://namenode:8020/t
refused table.path file://otherhost/tmp/t
refused table.path file:relative/t
refused state.checkpoints.dir s3://Bad_Bucket/chk
refused source.file.path oss://bucket/in
echo "$(cd "$d/cwd" && "$ZSINK" cluster -c "$d/job.yaml" -D table.path=gs://b/t 2>&1)" |
    grep -q "not supported yet" || fail "$v" "gs:// is not said to be not supported yet"
# s3:// is taken for the table; without credentials the job does not
# start (exit 2, saying which keys), and writes nothing
_out=$(cd "$d/cwd" && env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY "$ZSINK" cluster \
    -c "$d/job.yaml" --job-id "$(job_id "$v")" -D table.path=s3://bucket/wh/t 2>&1)
_rc=$?
[ "$_rc" = 2 ] || fail "$v" "s3:// without credentials: exit $_rc, expected 2: $_out"
echo "$_out" | grep -q "s3.access-key and s3.secret-key" ||
    fail "$v" "s3:// without credentials: the error does not say which keys: $_out"
[ -z "$(ls -A "$d/cwd")" ] || fail "$v" "s3:// wrote into the cwd: $(ls -A "$d/cwd")"

# file:///ABS is /ABS: the job writes its table there, and nothing else.
cat "$d/job.yaml" | grep -v '^table.path\|^state.checkpoints.dir' >"$d/job2.yaml"
mv "$d/job2.yaml" "$d/job.yaml"
echo "table.path: file://$d/table" >>"$d/job.yaml"
(cd "$d/cwd" && "$ZSINK" cluster -c "$d/job.yaml" --job-id "$(job_id "$v")" \
    -D "state.checkpoints.dir=file://$d/chk" >"$d/cluster.log" 2>&1) ||
    fail "$v" "the job with file:///ABS paths failed"
[ -z "$(ls -A "$d/cwd")" ] || fail "$v" "file:///ABS wrote into the cwd: $(ls -A "$d/cwd")"
[ -d "$d/chk" ] || fail "$v" "no checkpoint directory at $d/chk"
oracle "$v" 500
pass
