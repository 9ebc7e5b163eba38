#!/usr/bin/env python3
"""oracle.py - what every integration test asserts about the final table.

  --expect N     stats: count = distinct_ids = N, min_id 1, max_id N
                 (N = 0: count 0, min/max null)
  always         orphans --older-than 0s: none; verify: exit 0 and OK;
                 snapshots: at most one commit user, the APPEND snapshots'
                 identifiers strictly increasing (so none is committed
                 twice), each COMPACT snapshot (the job's compaction) with
                 the identifier of the snapshot before it and no row added
  --snapshots K  exactly K APPEND snapshots
  --last-max     the last identifier is INT64_MAX
  --ids-are-completed-checkpoints
                 the identifiers except the last are exactly the checkpoint
                 ids of the log's `Completed checkpoint N for job` lines
  --include ID   the identifier ID is present (repeatable)
  --consecutive A  identifiers A and A+1 are in consecutive APPEND snapshots
  --user U       the commit user is U
  --hand-compactions
                 COMPACT snapshots of other commit users (`zsink table
                 compact` run by hand beside the job) are left out of the
                 snapshot checks

Prints one summary line; exits 1 with the reasons on failure.
"""
import argparse
import json
import re
import subprocess
import sys

INT64_MAX = 9223372036854775807


def run(zsink, *args):
    p = subprocess.run([zsink, "table", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zsink", required=True)
    ap.add_argument("--table", required=True)
    ap.add_argument("--expect", type=int, required=True)
    ap.add_argument("--log")
    ap.add_argument("--snapshots", type=int)
    ap.add_argument("--last-max", action="store_true")
    ap.add_argument("--ids-are-completed-checkpoints", action="store_true")
    ap.add_argument("--include", type=int, action="append", default=[])
    ap.add_argument("--consecutive", type=int, action="append", default=[])
    ap.add_argument("--user")
    ap.add_argument("--hand-compactions", action="store_true")
    a = ap.parse_args()
    errors = []
    n = a.expect

    rc, out, err = run(a.zsink, "stats", a.table, "--json")
    if rc != 0:
        print(f"table stats failed ({rc}): {err.strip()}")
        return 1
    st = json.loads(out)
    want = {"count": n, "distinct_ids": n, "min_id": 1 if n else None,
            "max_id": n if n else None}
    for k, v in want.items():
        if st.get(k) != v:
            errors.append(f"stats {k} = {st.get(k)}, expected {v}")

    rc, out, err = run(a.zsink, "orphans", a.table, "--older-than", "0s", "--json")
    if rc != 0:
        errors.append(f"table orphans failed ({rc}): {err.strip()}")
    else:
        orph = json.loads(out)
        if orph["count"] != 0:
            errors.append(f"{orph['count']} orphan files: {orph['files'][:5]}")
        # files only the pin of a job that no longer runs keeps: its end
        # should have removed them (or a restore commits them: not here,
        # the job is over)
        if orph.get("held_by_pins", 0) != 0:
            errors.append(f"{orph['held_by_pins']} files no snapshot references kept by a "
                          f"pin: {orph.get('pins')}")

    rc, out, err = run(a.zsink, "verify", a.table)
    if rc != 0 or out.strip() != "OK":
        errors.append(f"table verify exit {rc}: {(out + err).strip()[:500]}")

    rc, out, err = run(a.zsink, "snapshots", a.table, "--json")
    if rc != 0:
        errors.append(f"table snapshots failed ({rc}): {err.strip()}")
        snaps = []
    else:
        snaps = json.loads(out)
    if a.hand_compactions:
        job_users = {s["commit_user"] for s in snaps if s["commit_kind"] != "COMPACT"}
        snaps = [s for s in snaps if s["commit_kind"] != "COMPACT" or s["commit_user"] in job_users]
    # a COMPACT snapshot (the job's compaction) carries the identifier of
    # the APPEND before it; the APPEND snapshots carry the checkpoints
    ids = [s["commit_identifier"] for s in snaps if s["commit_kind"] != "COMPACT"]
    last = None
    for s in snaps:
        # (the first snapshot left after an expiry has none before it)
        if s["commit_kind"] == "COMPACT" and last is not None and s["commit_identifier"] != last:
            errors.append(f"COMPACT snapshot {s['id']} carries identifier "
                          f"{s['commit_identifier']}, the one before it {last}")
        if s["commit_kind"] == "COMPACT" and s["delta_record_count"] != 0:
            errors.append(f"COMPACT snapshot {s['id']} changes the row count by "
                          f"{s['delta_record_count']}")
        last = s["commit_identifier"]
    users = sorted({s["commit_user"] for s in snaps})
    if len(users) > 1:
        errors.append(f"{len(users)} commit users: {users}")
    if a.user and users and users != [a.user]:
        errors.append(f"commit user {users}, expected {a.user}")
    if any(x >= y for x, y in zip(ids, ids[1:])):
        errors.append(f"identifiers not strictly increasing: {ids}")
    if a.snapshots is not None and len(ids) != a.snapshots:
        errors.append(f"{len(ids)} APPEND snapshots, expected {a.snapshots}")
    if a.last_max and (not ids or ids[-1] != INT64_MAX):
        errors.append(f"last identifier {ids[-1] if ids else None}, expected {INT64_MAX}")
    if a.ids_are_completed_checkpoints:
        done = [int(m) for m in re.findall(r"Completed checkpoint (\d+) for job",
                                           open(a.log).read())]
        if ids[:-1] != done:
            errors.append(f"identifiers {ids[:-1]} (all but the last) != completed "
                          f"checkpoints {done}")
    for i in a.include:
        if i not in ids:
            errors.append(f"identifier {i} missing from {ids}")
    for c in a.consecutive:
        if c not in ids or c + 1 not in ids or ids.index(c + 1) != ids.index(c) + 1:
            errors.append(f"identifiers {c} and {c + 1} not in consecutive snapshots: {ids}")
    short = ids if len(ids) <= 12 else ids[:5] + ["..."] + ids[-5:]
    compacts = len(snaps) - len(ids)
    summary = (f"oracle: count {st['count']} distinct {st['distinct_ids']} min {st['min_id']} "
               f"max {st['max_id']}, {len(snaps)} snapshots ({compacts} COMPACT), "
               f"identifiers {short}, "
               f"user {users[0] if users else None}")
    if errors:
        print(summary)
        for e in errors:
            print("  ORACLE: " + e)
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
