#!/usr/bin/env python3
"""selftest.py BUILD_DIR - the oracles checked against each other on tables
that Paimon itself writes (run by selftest.sh, with the interop venv's python).

  1. Java creates a table with every zsink type, appends twice (commit user
     java-a, identifiers 1 and 2; the second append as two files); pypaimon
     appends once (user py-b, identifier 1).
  2. Java and pypaimon agree on summary (count, distinct ids, min/max, digest,
     files) and on the rows themselves; sha256 of `rows` is the digest.
  3. Both list the same snapshots (ids, users, identifiers, kinds, counts).
  4. Time travel: snapshot 1 = the first append's rows, snapshot 2 = both
     Java appends, in both readers.
  5. DuckDB (tests/duckdb/oracle.mjs `file`, which also has zsink read the
     file) spells a Java-written and a pypaimon-written data file with the
     same digest (skipped, and said so, when node/DuckDB/zsink are missing;
     INTEROP_SKIP_DUCKDB=1 skips it too).
  6. count-where = a count over the full rows, for several predicates; the id
     range plans fewer files than the table has.
  7. filter-committed answers per commit user.
  8. expire (retain max 2) drops snapshot 1 only; both readers still agree,
     time travel to snapshot 1 now fails in both.
  9. remove-orphans deletes exactly the planted old orphans (Paimon's default
     1-day margin keeps a new one), --older-than-ms 0 the new one too; the
     table reads the same; a batch append (pypaimon) afterwards still works.

Prints one line a check, JVM start and read times, and a closing
"N passed, N failed"; exits 1 on any failure. The table is left under
BUILD_DIR/interop/selftest-* when something failed.
"""
import datetime
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
INTEROP = os.path.join(BUILD, "interop")
JAVA_ARGS = "@" + os.path.join(INTEROP, "java", "java.args")  # -cp, the CDS archive, C1
PY = os.path.join(INTEROP, "venv", "bin", "python")
PAIMON_PY = os.path.join(HERE, "paimon_py.py")

SCHEMA = ("id BIGINT NOT NULL, name STRING, price DOUBLE, f FLOAT, ok BOOLEAN, n INT, "
          "b BYTES, d DATE, ts TIMESTAMP(3), ts6 TIMESTAMP(6)")
COL = {name: i for i, name in enumerate(
    ["id", "name", "price", "f", "ok", "n", "b", "d", "ts", "ts6"])}
NULL = "\\N"

passed = 0
failed = 0
timings = []  # (tool, command, wall_ms, jvm_start_ms, read_ms)


class CmdError(Exception):
    pass


def run(tool, *args, ok=True, raw=False, stdin=None):
    """Run one oracle command; its JSON (or raw stdout bytes)."""
    if tool == "java":
        cmd = ["java", JAVA_ARGS, "ZsinkInterop", *args]
    else:
        cmd = [PY, PAIMON_PY, *args]
    t0 = time.monotonic()
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    wall = (time.monotonic() - t0) * 1000
    if raw:
        timings.append((tool, args[0], wall, None, None))
        if p.returncode != 0:
            raise CmdError(f"{tool} {' '.join(args)}: exit {p.returncode}: "
                           f"{p.stderr.decode(errors='replace')[-2000:]}")
        return p.stdout
    text = p.stdout.decode().strip().splitlines()
    try:
        out = json.loads(text[-1]) if text else None
    except json.JSONDecodeError:
        out = None
    if isinstance(out, dict):
        timings.append((tool, args[0], wall, out.get("jvm_start_ms"), out.get("read_ms")))
    else:
        timings.append((tool, args[0], wall, None, None))
    good = p.returncode == 0 and out is not None and not (isinstance(out, dict) and out.get("ok") is False)
    if ok and not good:
        raise CmdError(f"{tool} {' '.join(args)}: exit {p.returncode}: {text[-1] if text else ''}\n"
                       f"{p.stderr.decode(errors='replace')[-3000:]}")
    if not ok:
        return good, out
    return out


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name}" + (f": {detail}" if detail else ""))
    sys.stdout.flush()
    return cond


def digest(lines):
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8", "surrogatepass") + b"\n")
    return h.hexdigest()


def lines_of(raw):
    return raw.decode("utf-8", "surrogatepass").split("\n")[:-1]


SUMMARY_KEYS = ("snapshot", "files", "count", "distinct_ids", "min_id", "max_id", "digest")


def same_summary(name, j, p, want_count=None):
    diff = {k: (j.get(k), p.get(k)) for k in SUMMARY_KEYS if j.get(k) != p.get(k)}
    check(f"{name}: java and pypaimon summaries agree", not diff, f"{diff}")
    if want_count is not None:
        check(f"{name}: count {want_count}", j["count"] == want_count == p["count"],
              f"java {j['count']}, pypaimon {p['count']}")


def find_zsink():
    for c in (os.environ.get("ZSINK"), os.path.join(BUILD, "bin", "zsink"),
              os.path.join(ROOT, "build", "bin", "zsink")):
        if c and os.access(c, os.X_OK):
            return c
    return None


def duck_file(zsink, path):
    p = subprocess.run(["node", os.path.join(ROOT, "tests", "duckdb", "oracle.mjs"), "file",
                        "--zsink", zsink, "--file", path], capture_output=True, text=True)
    try:
        return json.loads(p.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return {"ok": False, "error": (p.stdout + p.stderr)[-1500:]}


def set_mtime(path, age_s):
    t = time.time() - age_s
    os.utime(path, (t, t))


def main():
    work = os.path.join(INTEROP, f"selftest-{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    t = os.path.join(work, "t")
    print(f"selftest: table {t}")
    try:
        steps(t)
    except CmdError as e:
        check("oracle command", False, str(e))
    report_timings()
    print(f"{passed} passed, {failed} failed")
    if failed == 0:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"selftest: left {work}")
    return 1 if failed else 0


def steps(t):
    # 1. Java creates and appends twice, pypaimon once
    run("java", "create", t, SCHEMA)
    a1 = run("java", "append", t, "--ids", "1..1000", "--commit-user", "java-a", "--identifier", "1")
    a2 = run("java", "append", t, "--ids", "1001..2000", "--files", "2",
             "--commit-user", "java-a", "--identifier", "2")
    a3 = run("py", "append", t, "--ids", "2001..3000", "--commit-user", "py-b", "--identifier", "1")
    check("appends made snapshots 1, 2, 3", (a1["snapshot"], a2["snapshot"], a3["snapshot"]) == (1, 2, 3),
          f"{a1['snapshot']}, {a2['snapshot']}, {a3['snapshot']}")

    # 2. summaries and rows
    js = run("java", "summary", t)
    ps = run("py", "summary", t)
    same_summary("latest", js, ps, 3000)
    check("latest: ids 1..3000 once each",
          (js["distinct_ids"], js["min_id"], js["max_id"], js["files"]) == (3000, 1, 3000, 4),
          f"{js}")
    jrows = lines_of(run("java", "rows", t, raw=True))
    prows = lines_of(run("py", "rows", t, raw=True))
    check("rows: java and pypaimon print the same lines", jrows == prows,
          f"{len(jrows)} vs {len(prows)} lines, first difference at "
          f"{next((i for i, (x, y) in enumerate(zip(jrows, prows)) if x != y), None)}")
    check("rows: sha256 of the lines is the summary digest", digest(jrows) == js["digest"])
    rows = [line.split("\t") for line in jrows]
    check("rows: 10 columns a row", all(len(r) == 10 for r in rows))

    # 3. snapshots
    jsn = run("java", "snapshots", t)
    psn = run("py", "snapshots", t)
    check("snapshots: java and pypaimon agree", jsn == psn, f"\n  java {jsn}\n  py   {psn}")
    want = [(1, "java-a", 1, "APPEND", 1000, 1000), (2, "java-a", 2, "APPEND", 1000, 2000),
            (3, "py-b", 1, "APPEND", 1000, 3000)]
    got = [(s["id"], s["commit_user"], s["commit_identifier"], s["commit_kind"],
            s["delta_record_count"], s["total_record_count"]) for s in jsn]
    check("snapshots: ids, users, identifiers, kinds, counts", got == want, f"{got}")

    # 4. time travel
    for sid, hi in ((1, 1000), (2, 2000)):
        j = run("java", "summary", t, "--snapshot", str(sid))
        p = run("py", "summary", t, "--snapshot", str(sid))
        same_summary(f"snapshot {sid}", j, p, hi)
        expect = [line for line, r in zip(jrows, rows) if int(r[0]) <= hi]
        check(f"snapshot {sid}: digest = the rows with id <= {hi}", j["digest"] == digest(expect))
        if sid == 1:
            trows = lines_of(run("py", "rows", t, "--snapshot", "1", raw=True))
            check("snapshot 1: pypaimon rows = the first append's rows", trows == expect)
            s1 = j

    # 5. DuckDB (and zsink) read the same files
    zsink = find_zsink()
    node_ok = shutil.which("node") and os.path.isdir(
        os.path.join(ROOT, "tests", "duckdb", "node_modules", "@duckdb", "node-api"))
    if os.environ.get("INTEROP_SKIP_DUCKDB") == "1" or not zsink or not node_ok:
        print(f"skip  duckdb cross-check (node+@duckdb/node-api: {bool(node_ok)}, zsink: {zsink})")
    else:
        f1 = run("java", "files", t, "--snapshot", "1")["files"]
        f2 = {f["path"] for f in run("java", "files", t, "--snapshot", "2")["files"]}
        f3 = [f for f in run("java", "files", t)["files"] if f["path"] not in f2]
        if check("files: snapshot 1 has one file, snapshot 3 added one", len(f1) == 1 and len(f3) == 1,
                 f"{f1} / {f3}"):
            d1 = duck_file(zsink, os.path.join(t, f1[0]["path"]))
            check("duckdb+zsink: the Java-written file has the snapshot 1 digest",
                  d1.get("ok") and d1.get("digest") == s1["digest"], f"{d1}")
            d3 = duck_file(zsink, os.path.join(t, f3[0]["path"]))
            expect = [line for line, r in zip(jrows, rows) if int(r[0]) > 2000]
            check("duckdb+zsink: the pypaimon-written file has the digest of ids 2001..3000",
                  d3.get("ok") and d3.get("digest") == digest(expect), f"{d3}")

    # 6. count-where
    days_1950 = (datetime.date(1950, 1, 1) - datetime.date(1970, 1, 1)).days
    cases = [
        ("id >= 1201 AND id <= 1300", lambda r: 1201 <= int(r[0]) <= 1300),
        ("name = 's3'", lambda r: r[COL["name"]] == '"s3"'),
        ("b IS NULL", lambda r: r[COL["b"]] == NULL),
        ("n IS NOT NULL AND n < 0", lambda r: r[COL["n"]] != NULL and int(r[COL["n"]]) < 0),
        ("ts IS NULL OR d < '1950-01-01'",
         lambda r: r[COL["ts"]] == NULL or (r[COL["d"]] != NULL and int(r[COL["d"]]) < days_1950)),
        ("price > 100.5", lambda r: r[COL["price"]] != NULL and float(r[COL["price"]]) > 100.5),
        ("id > 3000", lambda r: int(r[0]) > 3000),
    ]
    # Java writes min/max/null-count stats for every column (value_stats_cols
    # null); pypaimon 2.1 by default none (metadata.stats-mode=none:
    # value_stats_cols []), so its files are always planned.
    java1 = {f["path"] for f in run("java", "files", t, "--snapshot", "1")["files"]}
    java2 = {f["path"] for f in run("java", "files", t, "--snapshot", "2")["files"]} - java1
    for pred, fn in cases:
        want = sum(1 for r in rows if fn(r))
        c = run("java", "count-where", t, pred)
        check(f"count-where {pred}: {c['count']} = {want} from the rows "
              f"({c['files_planned']}/{c['files_total']} files, {c['rows_read']} rows read)",
              c["count"] == want)
        planned = set(c["planned"])
        if pred.startswith("id >= 1201"):
            check("count-where: the id range plans one of the Java files (1001..1500), not the others",
                  not (planned & java1) and len(planned & java2) == 1 and c["files_planned"] < c["files_total"],
                  f"{c}")
        if pred == "id > 3000":
            check("count-where: no Java file is planned past the max id",
                  not (planned & (java1 | java2)), f"{c}")

    # pypaimon with metadata.stats-mode=full writes stats Java can skip with
    t2 = t + "-stats"
    run("py", "create", t2, SCHEMA, "--option", "metadata.stats-mode=full")
    run("py", "append", t2, "--ids", "1..100")
    run("py", "append", t2, "--ids", "101..200")
    c = run("java", "count-where", t2, "id <= 50")
    check("count-where on pypaimon files with metadata.stats-mode=full: 1 of 2 files planned, count 50",
          c["count"] == 50 and c["files_planned"] == 1 and c["files_total"] == 2, f"{c}")
    c = run("java", "count-where", t2, "b IS NULL")
    want = sum(1 for i in range(1, 201) if (i + COL["b"]) % 7 == 0)
    check(f"count-where b IS NULL on the stats table: {c['count']} = {want} (the derivation)",
          c["count"] == want, f"{c}")

    # 7. filter-committed
    for user, ids, want in (("java-a", ["1", "2", "3"], [3]), ("py-b", ["1", "2"], [2]),
                            ("nobody", ["1"], [1]), ("java-a", ["0", "2", "5", "9"], [5, 9])):
        c = run("java", "filter-committed", t, user, *ids)
        check(f"filter-committed {user} {' '.join(ids)} -> uncommitted {want}",
              c["uncommitted"] == want, f"{c}")

    # 8. expire
    e = run("java", "expire", t, "--retain-max", "2", "--retain-min", "1")
    check("expire --retain-max 2: snapshot 1 expired, 2 and 3 kept",
          e["before"] == [1, 2, 3] and e["after"] == [2, 3], f"{e}")
    jsn = run("java", "snapshots", t)
    psn = run("py", "snapshots", t)
    check("expire: snapshots agree, ids 2 and 3", jsn == psn and [s["id"] for s in jsn] == [2, 3],
          f"{jsn} / {psn}")
    js2 = run("java", "summary", t)
    ps2 = run("py", "summary", t)
    same_summary("after expire", js2, ps2, 3000)
    check("after expire: the same digest as before", js2["digest"] == js["digest"])
    jgood, _ = run("java", "summary", t, "--snapshot", "1", ok=False)
    pgood, _ = run("py", "summary", t, "--snapshot", "1", ok=False)
    check("after expire: time travel to snapshot 1 fails in both", not jgood and not pgood,
          f"java ok={jgood}, pypaimon ok={pgood}")

    # 9. remove-orphans
    live = run("java", "files", t)["files"]
    real = os.path.join(t, live[0]["path"])
    old_data = os.path.join(t, "bucket-0", "data-orphan-old-0.parquet")
    old_manifest = os.path.join(t, "manifest", "manifest-orphan-old-0")
    new_data = os.path.join(t, "bucket-0", "data-orphan-new-0.parquet")
    shutil.copyfile(real, old_data)
    shutil.copyfile(real, new_data)
    with open(old_manifest, "wb") as f:
        f.write(b"Obj\x01 not really")
    set_mtime(old_data, 2 * 86400)
    set_mtime(old_manifest, 2 * 86400)
    set_mtime(new_data, 60)
    r = run("java", "remove-orphans", t)
    check("remove-orphans (default 1-day margin): exactly the two old orphans",
          r["files"] == ["bucket-0/data-orphan-old-0.parquet", "manifest/manifest-orphan-old-0"],
          f"{r}")
    check("remove-orphans: the new orphan survives the margin", os.path.exists(new_data))
    r = run("java", "remove-orphans", t, "--older-than-ms", "0")
    check("remove-orphans --older-than-ms 0: the new orphan too",
          r["files"] == ["bucket-0/data-orphan-new-0.parquet"], f"{r}")
    js3 = run("java", "summary", t)
    ps3 = run("py", "summary", t)
    same_summary("after remove-orphans", js3, ps3, 3000)
    check("after remove-orphans: the same digest", js3["digest"] == js["digest"])
    a4 = run("py", "append", t, "--ids", "3001..3100")
    js4 = run("java", "summary", t)
    ps4 = run("py", "summary", t)
    same_summary("batch append after expire", js4, ps4, 3100)
    check("batch append: snapshot 4, identifier Long.MAX_VALUE",
          a4["snapshot"] == 4 and a4["identifier"] == 2**63 - 1, f"{a4}")


def report_timings():
    def fmt(vals):
        vals = [v for v in vals if v is not None]
        if not vals:
            return "-"
        return f"median {statistics.median(vals):.0f} ms (min {min(vals):.0f}, max {max(vals):.0f}, n={len(vals)})"

    jall = [x for x in timings if x[0] == "java"]
    jsum = [x for x in jall if x[1] == "summary"]
    psum = [x for x in timings if x[0] == "py" and x[1] == "summary"]
    pall = [x for x in timings if x[0] == "py"]
    print("timing: java JVM start to main:", fmt([x[3] for x in jall]))
    print("timing: java summary read (plan + read 1000-3100 rows):", fmt([x[4] for x in jsum]))
    print("timing: java summary wall (process):", fmt([x[2] for x in jsum]))
    print("timing: java any command wall:", fmt([x[2] for x in jall]))
    print("timing: pypaimon summary read:", fmt([x[4] for x in psum]))
    print("timing: pypaimon summary wall (process):", fmt([x[2] for x in psum]))
    print("timing: pypaimon any command wall:", fmt([x[2] for x in pall]))


if __name__ == "__main__":
    sys.exit(main())
