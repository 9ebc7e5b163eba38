#!/usr/bin/env python3
"""readers.py - Paimon's own readers as the oracle of a zsink table.

Run with the interop venv (scripts/setup-interop.sh); lib.sh's `oracle`
calls it for every integration test's table:

    INTEROP/venv/bin/python tests/interop/readers.py --zsink BIN --table DIR \\
        --interop INTEROP [--duck tests/duckdb/oracle.mjs] [--snapshots ID,ID] \\
        [--expired ID,ID]

Paimon Java (`ZsinkInterop check`, one JVM), pypaimon (paimon_py.check, in
this process) and zsink itself (`zsink table snapshots/stats`, and
`oracle.mjs snapshots` for the digest of `zsink table scan --snapshot ID`)
read the table at once, and must agree:

  - the latest snapshot: count, distinct ids, min/max id (`zsink table
    stats`) and the digest of all rows (zsink's scan, as oracle.mjs computes
    it; the DuckDB oracle has already checked that against DuckDB), read as
    the table's latest schema (an altered table: as every reader does);
  - the snapshot list: every field `zsink table snapshots --json` prints
    (id, commit user, identifier, kind, time, delta and total records);
  - time travel: a read by id of the first, a middle and the last snapshot
    (or --snapshots) gives zsink's count, ids and digest of that snapshot,
    read as the snapshot's schema (its schemaId);
    each --expired id fails in zsink and in both readers;
  - filterCommitted (Paimon Java's FileStoreCommit.filterCommitted): for
    every commit user in the list, each of its identifiers is committed and
    the one above its newest is not; and the user's last identifier is the
    one zsink's own filterCommitted goes by (the committedIdentifiers of
    the latest snapshot, when zsink wrote it).

Prints one line (what agreed, and each reader's time); on any difference
one line per difference and exit 1.

The table may be s3://bucket/key (zsink's table.path on object storage):
every reader then takes the store from the environment zsink reads
(AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION),
each mapped to its own keys (paimon_py.s3_options, ZsinkInterop.s3Options,
oracle.mjs's curl). A server answers with the environment it was started
with.

A test asks this for many tables (t_failpoints: dozens), and each ask would
pay a JVM start and pypaimon's imports (~2 s of CPU together). So lib.sh
runs one server per test:

    readers.py serve --interop INTEROP --socket PATH --parent PID

imports pypaimon once, keeps one `ZsinkInterop serve` JVM, and answers the
asks that come with `--server PATH` one after another; it ends when PID (the
test's shell) is gone, on SIGTERM (lib.sh's cleanup), or after --idle
seconds without an ask. An ask that finds no server answering is done here,
directly, as without --server.
"""
import argparse
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INT64_MAX = 9223372036854775807
SNAP_KEYS = ("id", "commit_user", "commit_identifier", "commit_kind", "time_millis",
             "delta_record_count", "total_record_count")
STAT_KEYS = ("count", "distinct_ids", "min_id", "max_id")


def zsink_json(zsink, *args):
    p = subprocess.run([zsink, "table", *args, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout).strip()
    return json.loads(p.stdout), None


def pick(ids, want):
    """The snapshots to travel to: --snapshots, or first, middle, last."""
    if want:
        return [int(x) for x in want.split(",") if x]
    if not ids:
        return []
    chosen = [ids[0], ids[len(ids) // 2], ids[-1]]
    return sorted(set(chosen))


def short(d):
    return (d or "")[:12]


class Check:
    def __init__(self):
        self.errors = []

    def eq(self, what, mine, theirs):
        if mine != theirs:
            self.errors.append(f"{what}: {theirs!r}, zsink says {mine!r}")


def compare_reader(c, name, r, zs):
    """r: a reader's check output; zs: zsink's figures."""
    if not r.get("ok"):
        c.errors.append(f"{name}: {r.get('error')}")
        return
    lat = r["latest"]
    for k in STAT_KEYS:
        c.eq(f"{name} latest {k}", zs["stats"].get(k), lat.get(k))
    c.eq(f"{name} latest digest", zs["digest"], lat.get("digest"))
    c.eq(f"{name} latest snapshot id", zs["last"], lat.get("snapshot"))
    theirs = [{k: s.get(k) for k in SNAP_KEYS} for s in r["snapshots"]]
    mine = [{k: s.get(k) for k in SNAP_KEYS} for s in zs["snapshots"]]
    if theirs != mine:
        ti = {s["id"]: s for s in theirs}
        mi = {s["id"]: s for s in mine}
        if sorted(ti) != sorted(mi):
            c.errors.append(f"{name} snapshot ids {sorted(ti)}, zsink lists {sorted(mi)}")
        for i in sorted(set(ti) & set(mi)):
            for k in SNAP_KEYS:
                c.eq(f"{name} snapshot {i} {k}", mi[i][k], ti[i][k])
    for sid, want in zs["at"].items():
        got = r["at"].get(str(sid))
        if got is None:
            c.errors.append(f"{name}: no read of snapshot {sid}")
        elif not got.get("ok"):
            c.errors.append(f"{name} snapshot {sid}: {got.get('error')}")
        else:
            for k in STAT_KEYS:
                c.eq(f"{name} snapshot {sid} {k}", want["stats"].get(k), got.get(k))
            c.eq(f"{name} snapshot {sid} digest", want["digest"], got.get("digest"))
            c.eq(f"{name} snapshot {sid} planned id", sid, got.get("snapshot"))
    for sid in zs["expired"]:
        got = r["at"].get(str(sid))
        if got is None or got.get("ok"):
            c.errors.append(f"{name} read expired snapshot {sid}: {got}")


def compare_filter(c, java, zs):
    """Paimon Java's filterCommitted against the identifiers zsink lists."""
    by_user = {}
    for s in zs["snapshots"]:
        by_user.setdefault(s["commit_user"], set()).add(s["commit_identifier"])
    seen = set()
    for f in java.get("filter_committed", []):
        u = f["commit_user"]
        seen.add(u)
        mine = by_user.get(u, set())
        top = max(mine) if mine else None
        c.eq(f"java filterCommitted({u}) committed", sorted(mine), sorted(f["committed"]))
        c.eq(f"java filterCommitted({u}) uncommitted",
             [] if top is None or top == INT64_MAX else [top + 1], sorted(f["uncommitted"]))
        c.eq(f"java latest identifier of {u}", top, f["latest_identifier_of_user"])
        # zsink's own answer: the list the latest snapshot carries
        carried = zs["carried"].get(u)
        if carried is not None:
            c.eq(f"zsink committedIdentifiers[{u}] vs java's latest identifier of the user",
                 carried, f["latest_identifier_of_user"])
    if set(by_user) != seen:
        c.errors.append(f"java asked filterCommitted of {sorted(seen)}, the users are {sorted(by_user)}")


def is_s3(table):
    return table[:5].lower() == "s3://"


def table_arg(table):
    """A local table's absolute path; an s3:// table as given (less a trailing /)."""
    return table.rstrip("/") if is_s3(table) else os.path.abspath(table)


def read_text(table, rel):
    """A file of the table as text (s3://: through pypaimon's FileIO)."""
    if not is_s3(table):
        with open(os.path.join(table, rel)) as f:
            return f.read()
    sys.path.insert(0, HERE)
    import paimon_py
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options.options import Options
    return FileIO.get(table, Options(paimon_py.s3_options())).read_file_utf8(f"{table}/{rel}")


def carried_ids(table, last):
    """committedIdentifiers of the latest snapshot, {} when zsink did not write it."""
    if last is None:
        return {}
    try:
        snap = json.loads(read_text(table, f"snapshot/snapshot-{last}"))
    except (OSError, ValueError):
        return {}
    return {e["user"]: e["identifier"] for e in snap.get("committedIdentifiers", [])}


# ---- Paimon Java: a JVM per ask, or the server's one ---------------------------

def java_cmd(interop):
    return ["java", "@" + os.path.join(interop, "java", "java.args"), "ZsinkInterop"]


class JavaOnce:
    """`ZsinkInterop check` in a JVM of its own, started at once."""

    def __init__(self, interop, table, travel):
        self.err = tempfile.TemporaryFile(mode="w+")
        self.p = subprocess.Popen(java_cmd(interop) + ["check", table, "--snapshots", travel],
                                  stdout=subprocess.PIPE, stderr=self.err, text=True)

    def result(self):
        out, _ = self.p.communicate()
        self.err.seek(0)
        return out, self.err.read()


class JavaServe:
    """One `ZsinkInterop serve` JVM for many asks (one at a time)."""

    def __init__(self, interop, log):
        self.interop, self.log, self.p = interop, log, None

    def ask(self, table, travel):
        if self.p is None or self.p.poll() is not None:
            self.p = subprocess.Popen(java_cmd(self.interop) + ["serve"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.log.write(f"---- check {table} --snapshots {travel}\n")
        self.log.flush()
        try:
            self.p.stdin.write("\t".join(["check", table, "--snapshots", travel]) + "\n")
            self.p.stdin.flush()
        except OSError:
            pass  # result() reports the JVM's end
        return self

    def result(self):
        line = self.p.stdout.readline()
        if not line:
            self.p.wait()
            return "", (f"ZsinkInterop serve ended (status {self.p.returncode}); "
                        f"see {os.path.abspath(self.log.name)}")
        return line, f"(ZsinkInterop's log lines: {os.path.abspath(self.log.name)})"

    def close(self):
        if self.p is not None and self.p.poll() is None:
            self.p.stdin.close()
            try:
                self.p.wait(10)
            except subprocess.TimeoutExpired:
                self.p.kill()


# ---- one table ------------------------------------------------------------------

def check_table(a, start_java):
    """Every reader on a.table; (exit status, the lines to print)."""
    table = table_arg(a.table)
    c = Check()

    snaps, err = zsink_json(a.zsink, "snapshots", table)
    if snaps is None:
        return 1, f"zsink table snapshots failed: {err}"
    ids = [s["id"] for s in snaps]
    at_ids = pick(ids, a.snapshots)
    expired = [int(x) for x in (a.expired or "").split(",") if x]
    travel = ",".join(str(i) for i in at_ids + expired)

    # Java and node run while this process reads with pypaimon
    t0 = time.monotonic()
    java = start_java(table, travel)
    node = None
    if at_ids:
        # and the latest: a plain scan reads as the table's latest schema,
        # which may be newer than the last snapshot's schemaId (an ALTER
        # TABLE since), as Paimon's latest read does
        node = subprocess.Popen(
            ["node", a.duck, "snapshots", "--zsink", a.zsink, "--table", table,
             "--ids", ",".join(map(str, at_ids + ["latest"]))], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)

    zs = {"snapshots": snaps, "last": ids[-1] if ids else None, "at": {}, "expired": expired,
          "carried": carried_ids(table, ids[-1] if ids else None)}
    zs["stats"], err = zsink_json(a.zsink, "stats", table)
    if zs["stats"] is None:
        c.errors.append(f"zsink table stats: {err}")
        zs["stats"] = {}
    for sid in at_ids:
        st, err = zsink_json(a.zsink, "stats", table, "--snapshot", str(sid))
        if st is None:
            c.errors.append(f"zsink table stats --snapshot {sid}: {err}")
        zs["at"][sid] = {"stats": st or {}, "digest": None}
    for sid in expired:
        st, _ = zsink_json(a.zsink, "stats", table, "--snapshot", str(sid))
        if st is not None:
            c.errors.append(f"zsink still reads expired snapshot {sid}: {st}")

    tp = time.monotonic()
    sys.path.insert(0, HERE)
    try:
        import paimon_py
        py = paimon_py.check(table, at_ids + expired)
    except SystemExit:
        py = {"ok": False, "error": "paimon_py exited (see above)"}
    except Exception as e:  # noqa: BLE001 - a reader's failure is a finding
        py = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    py_s = time.monotonic() - tp

    if node is not None:
        out, _ = node.communicate()
        try:
            nd = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            nd = {"ok": False, "error": out.strip()[-500:]}
        if not nd.get("ok"):
            c.errors.append(f"oracle.mjs snapshots: {nd.get('error')}")
        else:
            for sid in at_ids:
                zs["at"][sid]["digest"] = nd["snapshots"][str(sid)]["digest"]
            zs["digest"] = nd["snapshots"]["latest"]["digest"]
    # the latest snapshot's digest: zsink's plain scan (no snapshot: the
    # digest of no rows)
    if "digest" not in zs:
        zs["digest"] = (zs["at"][zs["last"]]["digest"] if zs["last"] in zs["at"]
                        else hashlib.sha256(b"").hexdigest())

    out, jerr = java.result()
    java_s = time.monotonic() - t0
    try:
        jv = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        jv = {"ok": False, "error": "no JSON from ZsinkInterop check: " + out.strip()[-300:]}

    compare_reader(c, "java", jv, zs)
    compare_reader(c, "pypaimon", py, zs)
    if jv.get("ok"):
        compare_filter(c, jv, zs)

    if c.errors:
        lines = ["DIFF " + e for e in c.errors]
        if not jv.get("ok"):
            lines.append("---- ZsinkInterop stderr ----\n" + jerr[-3000:])
        return 1, "\n".join(lines)
    users = len({s["commit_user"] for s in snaps})
    line = (f"java = pypaimon = zsink: {zs['stats'].get('count')} rows, digest {short(zs['digest'])}, "
            f"{len(snaps)} snapshots, time travel to {','.join(map(str, at_ids)) or '-'}")
    if expired:
        line += f", expired {','.join(map(str, expired))} gone"
    line += (f", filterCommitted of {users} user(s) (java {java_s:.1f} s, "
             f"pypaimon {py_s:.1f} s)")
    return 0, line


# ---- the per-test server and its clients ---------------------------------------------

ASK_KEYS = ("zsink", "table", "interop", "duck", "snapshots", "expired")


def unix_socket(path):
    """A socket and the name to bind/connect: the directory's relative name, so
    that a deep build directory cannot pass the 108-byte limit of a path."""
    return socket.socket(socket.AF_UNIX, socket.SOCK_STREAM), os.path.basename(path)


def ask_server(path, a):
    """(status, text) from the server at path, or None when none answers."""
    s, name = unix_socket(path)
    here = os.getcwd()
    try:
        os.chdir(os.path.dirname(os.path.abspath(path)))
        s.settimeout(5)
        s.connect(name)
        os.chdir(here)
        ask = {k: getattr(a, k) for k in ASK_KEYS}
        for k in ("zsink", "interop", "duck"):
            ask[k] = os.path.abspath(ask[k])
        ask["table"] = table_arg(ask["table"])
        s.sendall(json.dumps(ask).encode() + b"\n")
        s.settimeout(280)  # a queue of asks from a test's variants
        buf = b""
        while not buf.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                return None
            buf += chunk
        r = json.loads(buf)
        return r["status"], r["out"]
    except (OSError, ValueError, KeyError):
        return None
    finally:
        os.chdir(here)
        s.close()


def serve(a):
    """Answer asks on a.socket until a.parent is gone, SIGTERM, or a.idle idle seconds."""
    os.chdir(os.path.dirname(os.path.abspath(a.socket)))
    sock, name = unix_socket(a.socket)
    try:
        os.unlink(name)
    except FileNotFoundError:
        pass
    sock.bind(name)
    sock.listen(16)  # asks queue here while pypaimon loads
    sock.settimeout(1)
    log = open(name + ".java.log", "a")
    java = JavaServe(a.interop, log)

    def stop(*_):
        # at once, whatever is under way (the JVM ends at the end of its stdin)
        try:
            os.unlink(name)
        except FileNotFoundError:
            pass
        os._exit(0)
    signal.signal(signal.SIGTERM, stop)
    sys.path.insert(0, HERE)
    import paimon_py  # noqa: F401 - pypaimon's imports, once
    last = time.monotonic()
    try:
        while time.monotonic() - last < a.idle:
            try:
                os.kill(a.parent, 0)
            except ProcessLookupError:
                break
            try:
                conn, _ = sock.accept()
            except socket.timeout:
                continue
            with conn:
                conn.settimeout(30)
                buf = b""
                try:
                    while not buf.endswith(b"\n"):
                        chunk = conn.recv(65536)
                        if not chunk:
                            break
                        buf += chunk
                    ask = argparse.Namespace(**json.loads(buf))
                    status, out = check_table(ask, java.ask)
                except Exception as e:  # noqa: BLE001 - the ask fails, the server goes on
                    status, out = 1, f"readers.py serve: {type(e).__name__}: {e}"
                try:
                    conn.sendall(json.dumps({"status": status, "out": out}).encode() + b"\n")
                except OSError:
                    pass
            last = time.monotonic()
    finally:
        java.close()
        try:
            os.unlink(name)
        except FileNotFoundError:
            pass
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        ap = argparse.ArgumentParser(description="readers.py's per-test server (see the module doc)")
        ap.add_argument("serve")
        ap.add_argument("--interop", required=True)
        ap.add_argument("--socket", required=True)
        ap.add_argument("--parent", type=int, required=True)
        ap.add_argument("--idle", type=float, default=600)
        return serve(ap.parse_args())
    ap = argparse.ArgumentParser(description="Paimon's readers vs zsink (see the module doc)")
    ap.add_argument("--zsink", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--interop", required=True, help="BUILD_DIR/interop of setup-interop.sh")
    ap.add_argument("--duck", default=os.path.join(HERE, "..", "duckdb", "oracle.mjs"))
    ap.add_argument("--snapshots", help="ids to travel to (default: first, middle, last)")
    ap.add_argument("--expired", default="", help="ids that must be gone for every reader")
    ap.add_argument("--server", help="the socket of a running `readers.py serve`")
    a = ap.parse_args()
    r = ask_server(a.server, a) if a.server else None
    if r is None:
        r = check_table(a, lambda table, travel: JavaOnce(a.interop, table, travel))
    print(r[1])
    return r[0]


if __name__ == "__main__":
    sys.exit(main())
