#!/usr/bin/env python3
"""paimon_py.py - pypaimon (PyPI) as a test oracle for Paimon tables.

Run with the venv that scripts/setup-interop.sh builds:

    BUILD_DIR/interop/venv/bin/python tests/interop/paimon_py.py COMMAND ...

Commands (one JSON object or array on stdout; errors: {"ok": false, "error": …}
on stdout and exit 1; usage errors exit 2):

  summary TABLE [--snapshot ID]
      reads every row through pypaimon's read path (read builder -> scan ->
      plan -> splits -> to_arrow): {"ok", "snapshot", "files", "count",
      "distinct_ids", "min_id", "max_id", "digest", "read_ms"}. The digest is
      the one tests/duckdb/oracle.mjs computes: each row's values spelt
      canonically, joined by tabs, the lines sorted (UTF-16 code-unit order, as
      JavaScript sorts), sha256 over each line + "\\n". distinct_ids/min_id/
      max_id only when the table has a BIGINT column named id (else null), as
      `zsink table stats`.
  rows TABLE [--snapshot ID]
      the canonical lines themselves, sorted (sha256sum of the output = digest)
  snapshots TABLE
      [{"id", "commit_user", "commit_identifier", "commit_kind", "time_millis",
        "delta_record_count", "total_record_count"}, …] (oldest first), the keys
      of `zsink table snapshots --json`
  check TABLE [--snapshots ID,ID...]
      {"ok", "latest": <summary>, "snapshots": <snapshots>, "at": {"ID":
      <summary --snapshot ID>, …}}: what lib.sh's oracle asks, in one process
  create TABLE SCHEMA_SPEC [--option K=V ...]
      a new append-only table: "id BIGINT NOT NULL, name STRING, …", options
      bucket=-1, file.format=parquet (plus any --option)
  append TABLE --ids A..B [--commit-user U] [--identifier N] [--files K]
      writes rows A..B (values derived from the id, see derive() and README)
      in one commit; with --commit-user/--identifier through the stream write
      builder (that user, that identifier), else the batch write builder; K
      writers, each a contiguous slice of the ids, so K data files
  read-time TABLE [--repeat N]
      plans and reads the whole table into Arrow N times (default 3) in this
      process: {"rows", "first_ms", "best_ms", …} (bench/run.sh)
  spell-doubles
      reads one number a line on stdin (decimal text or 0x + 16 hex digits of
      the IEEE bits) and prints "<double spelling>\\t<float spelling>" a line:
      how the digest spells DOUBLE and FLOAT (the self-test compares this with
      node's String())
"""
import argparse
import decimal
import hashlib
import json
import math
import os
import re
import struct
import sys
import time


def fail(msg, code=1):
    print(json.dumps({"ok": False, "error": msg}))
    sys.exit(code)


# ---- canonical spelling (tests/duckdb/oracle.mjs: canonDuck / canonText) ----

NULL = "\\N"


def js_number(x):
    """ECMAScript Number::toString of a double (what String(x) prints), except
    that -0 is "-0" as oracle.mjs spells it. repr() gives the shortest digits
    that read back the same double (the closest such, as ECMAScript asks)."""
    if x != x:
        return "NaN"
    if x == math.inf:
        return "Infinity"
    if x == -math.inf:
        return "-Infinity"
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    if x < 0:
        return "-" + js_number(-x)
    r = repr(x)
    mant, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    ip, _, fp = mant.partition(".")
    digits = ip + fp
    point = len(ip) + exp  # the decimal point sits after this many digits
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    s = stripped.rstrip("0")
    k, n = len(s), point
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    sign = "+" if e >= 0 else "-"
    if k == 1:
        return s + "e" + sign + str(abs(e))
    return s[0] + "." + s[1:] + "e" + sign + str(abs(e))


def float32(x):
    """x rounded to the nearest float (IEEE, as Java's (float) cast and
    JavaScript's Math.fround), back as the exactly equal double."""
    import numpy as np

    with np.errstate(over="ignore"):
        return float(np.float32(x))


def kind_of(type_str):
    """The canonical spelling kind of a Paimon type string (as pypaimon keeps
    it: upper case, no NOT NULL)."""
    t = type_str.upper().strip()
    if t == "BOOLEAN":
        return "bool", None
    if t in ("TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT"):
        return "int", None
    if t == "FLOAT":
        return "float", None
    if t == "DOUBLE":
        return "double", None
    if t == "STRING" or t.startswith("VARCHAR") or t.startswith("CHAR"):
        return "string", None
    if t == "BYTES" or t.startswith("VARBINARY") or t.startswith("BINARY"):
        return "bytes", None
    if t == "DATE":
        return "date", None
    m = re.fullmatch(r"TIMESTAMP(?:\((\d+)\))?", t)
    if m:
        p = int(m.group(1)) if m.group(1) else 6
        if p > 6:
            return "ts9", p
        return "ts", p
    more = kind_of_more(t)
    if more:
        return more
    raise ValueError(f"type {type_str} has no canonical spelling (zsink's types only)")


def kind_of_more(t):
    """The kinds of the types beyond zsink's first ones (issue 25, "Types"):
    DECIMAL (the plain number at its scale), TIME (milliseconds of the day),
    TIMESTAMP(7..9) (epoch nanoseconds), WITH LOCAL TIME ZONE as TIMESTAMP.
    None for a type that is none of them."""
    m = re.fullmatch(r"(?:DECIMAL|NUMERIC|DEC)(?:\((\d+)(?:,\s*(\d+))?\))?", t)
    if m:
        return "decimal", int(m.group(2) or 0)
    if re.fullmatch(r"TIME(?:\(\d+\))?", t):
        return "time", None
    m = re.fullmatch(r"(?:TIMESTAMP(?:\((\d+)\))? WITH LOCAL TIME ZONE|TIMESTAMP_LTZ(?:\((\d+)\))?)", t)
    if m:
        p = int(m.group(1) or m.group(2) or 6)
        return ("ts9", p) if p > 6 else ("ts", p)
    return None


def canon_more(arr, kind, param):
    """canon_column for kind_of_more's kinds (and ts9); None for the others."""
    import pyarrow as pa

    if kind == "decimal":
        ctx = decimal.Context(prec=80)
        q = decimal.Decimal(1).scaleb(-param)
        return [NULL if v is None else format(v.quantize(q, context=ctx), "f")
                for v in arr.to_pylist()]
    if kind == "time":
        out = []
        for v in arr.to_pylist():
            out.append(NULL if v is None else str(((v.hour * 60 + v.minute) * 60 + v.second) * 1000
                                                  + v.microsecond // 1000))
        return out
    if kind == "ts9":
        t = arr.type
        scale = {"s": 10**9, "ms": 10**6, "us": 1000, "ns": 1}[t.unit]
        ints = arr.cast(pa.int64()).to_pylist()
        return [NULL if v is None else str(v * scale) for v in ints]
    return None


# ---- nested types (ARRAY, MAP, ROW) -------------------------------------------
#
# The canonical spelling of a nested value (oracle.mjs spellNested, the Java
# oracle's spellNested): null inside is `null`; ARRAY `[a,b]`; ROW
# `{"name":v,...}` in field order; MAP `{k:v,...}` with the entries sorted by
# the key's spelling; a scalar inside is spelt as its column would be.


def kind_of_field(dtype):
    """kind_of for a pypaimon DataType: ("nested", dtype) for ARRAY, MAP, ROW."""
    if hasattr(dtype, "element") or hasattr(dtype, "key") or hasattr(dtype, "fields"):
        return "nested", dtype
    return kind_of(dtype.type)


def spell_scalar(v, type_str):
    import datetime

    kind, param = kind_of(type_str)
    if kind == "bool":
        return "true" if v else "false"
    if kind == "int":
        return str(v)
    if kind in ("double", "float"):
        return js_number(v)
    if kind == "string":
        return json.dumps(v, ensure_ascii=False)
    if kind == "bytes":
        return v.hex()
    if kind == "date":
        return str((v - datetime.date(1970, 1, 1)).days)
    if kind == "decimal":
        ctx = decimal.Context(prec=80)
        return format(v.quantize(decimal.Decimal(1).scaleb(-param), context=ctx), "f")
    raise ValueError(f"type {type_str} inside a nested type has no canonical spelling")


def spell_nested(v, t):
    if v is None:
        return "null"
    if hasattr(t, "element"):
        return "[" + ",".join(spell_nested(e, t.element) for e in v) + "]"
    if hasattr(t, "key"):
        items = v.items() if isinstance(v, dict) else v
        pairs = sorted((spell_nested(k, t.key), spell_nested(x, t.value)) for k, x in items)
        return "{" + ",".join(k + ":" + x for k, x in pairs) + "}"
    if hasattr(t, "fields"):
        return "{" + ",".join(json.dumps(f.name) + ":" + spell_nested(v.get(f.name), f.type)
                              for f in t.fields) + "}"
    return spell_scalar(v, t.type)


def canon_column(arr, kind, param=None):
    """Canonical text of every value of one arrow column (a ChunkedArray)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if kind == "nested":
        return [NULL if v is None else spell_nested(v, param) for v in arr.to_pylist()]
    more = canon_more(arr, kind, param)
    if more is not None:
        return more
    if kind in ("int", "date", "ts"):
        t = arr.type
        if pa.types.is_timestamp(t):
            scale = {"s": 1000000, "ms": 1000, "us": 1, "ns": None}[t.unit]
            ints = arr.cast(pa.int64())
            if scale is None:
                vals = ints.to_pylist()
                if any(v is not None and v % 1000 for v in vals):
                    raise ValueError("nanosecond timestamps have no canonical spelling")
                return [NULL if v is None else str(v // 1000) for v in vals]
            ints = pc.multiply(ints, pa.scalar(scale, pa.int64()))
        elif pa.types.is_date32(t):
            ints = arr.cast(pa.int32())
        elif pa.types.is_integer(t):
            ints = arr
        else:
            raise ValueError(f"arrow type {t} where an integer/date/timestamp was expected")
        return pc.fill_null(pc.cast(ints, pa.string()), NULL).to_pylist()
    vals = arr.to_pylist()
    if kind == "bool":
        return [NULL if v is None else ("true" if v else "false") for v in vals]
    if kind == "double":
        return [NULL if v is None else js_number(v) for v in vals]
    if kind == "float":
        # arrow hands a float32 over as the exactly equal double: Math.fround()
        # in oracle.mjs leaves it as it is
        return [NULL if v is None else js_number(v) for v in vals]
    if kind == "string":
        return [NULL if v is None else json.dumps(v, ensure_ascii=False) for v in vals]
    if kind == "bytes":
        return [NULL if v is None else v.hex() for v in vals]
    raise AssertionError(kind)


def utf16_key(s):
    return s.encode("utf-16-be", "surrogatepass")


def sort_lines(lines):
    # JavaScript's default sort compares UTF-16 code units; for text without
    # characters beyond U+FFFF that is the code point order Python uses
    if any(max(line, default="\0") > "\uffff" for line in lines):
        lines.sort(key=utf16_key)
    else:
        lines.sort()
    return lines


def digest_of(lines):
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


# ---- tables ------------------------------------------------------------------
#
# TABLE is a local directory (file:///abs too, as zsink takes it) or
# s3://bucket/key, as zsink's table.path. pypaimon opens s3:// with pyarrow's
# S3FileSystem, configured by s3_options() from the environment zsink reads.

def is_s3(path):
    return path[:5].lower() == "s3://"


def table_path(path):
    """A local path made absolute; s3:// as given (less a trailing /); file:///abs
    as /abs; any other scheme refused."""
    if is_s3(path):
        return path.rstrip("/")
    if path[:7].lower() == "file://":
        path = path[7:]
    elif re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", path):
        fail(f"unsupported table path '{path}': a local directory, file:///abs or s3://bucket/key", 2)
    return os.path.abspath(path)


def s3_options():
    """pypaimon's keys for an s3:// table, from the variables zsink falls back
    to (so one environment serves zsink and every reader):

      fs.s3.endpoint           AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, kept with
                               its http:// or https:// (pyarrow takes the
                               scheme from it: without one it speaks https, and
                               pypaimon passes no scheme option of its own)
      fs.s3.accessKeyId        AWS_ACCESS_KEY_ID
      fs.s3.accessKeySecret    AWS_SECRET_ACCESS_KEY
      fs.s3.region             AWS_REGION, AWS_DEFAULT_REGION
      fs.s3.path-style-access  true when an endpoint is given (zsink's rule).
                               pypaimon otherwise forces virtual-host style
                               (pyarrow >= 16), which against a host name such
                               as localhost asks bucket.localhost and finds
                               nothing: "Path does not exist", not an error
                               about the address
    """
    env = os.environ.get
    endpoint = env("AWS_ENDPOINT_URL_S3") or env("AWS_ENDPOINT_URL")
    key, secret = env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY")
    region = env("AWS_REGION") or env("AWS_DEFAULT_REGION")
    if not key or not secret:
        raise ValueError("s3: no credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)")
    opts = {"fs.s3.accessKeyId": key, "fs.s3.accessKeySecret": secret,
            "fs.s3.path-style-access": "true" if endpoint else "false"}
    if endpoint:
        opts["fs.s3.endpoint"] = endpoint
    if region:
        opts["fs.s3.region"] = region
    return opts


def file_io_options(path):
    return s3_options() if is_s3(path) else {}


def open_table(path, snapshot=None, tag=None):
    from pypaimon.table.file_store_table import FileStoreTable

    path = table_path(path)
    if not is_s3(path) and not os.path.isdir(path):
        fail(f"no table at {path}")
    table = FileStoreTable.from_path(path, file_io_options(path))
    if snapshot is not None:
        table = table.copy({"scan.snapshot-id": str(snapshot)})
    if tag is not None:  # time travel by tag (VERSION AS OF 'NAME')
        table = table.copy({"scan.tag-name": tag})
    return table


def read_all(table):
    """(arrow table or None, number of data files the scan planned, snapshot id)"""
    rb = table.new_read_builder()
    plan = rb.new_scan().plan()
    splits = plan.splits()
    files = sum(len(s.files) for s in splits)
    snap = None
    for s in splits:
        snap = getattr(s, "snapshot_id", None)
        break
    arrow = rb.new_read().to_arrow(splits) if splits else None
    return arrow, files, snap


def canonical_lines(table):
    """(sorted canonical lines, column info, raw id values, files, snapshot)"""
    t0 = time.monotonic()
    arrow, files, snap = read_all(table)
    read_ms = (time.monotonic() - t0) * 1000
    fields = table.fields
    kinds = [kind_of_field(f.type) for f in fields]
    id_idx = next((i for i, f in enumerate(fields)
                   if f.name == "id" and getattr(f.type, "type", "").upper() == "BIGINT"), None)
    cols = []
    ids = []
    if arrow is not None and arrow.num_rows:
        names = arrow.column_names
        want = [f.name for f in fields]
        if names[:len(want)] != want:
            fail(f"pypaimon returned columns {names}, the schema has {want}")
        for i, f in enumerate(fields):
            cols.append(canon_column(arrow.column(i), *kinds[i]))
        if id_idx is not None:
            ids = [v for v in arrow.column(id_idx).to_pylist() if v is not None]
        lines = ["\t".join(r) for r in zip(*cols)]
    else:
        lines = []
    sort_lines(lines)
    return lines, ids, id_idx is not None, files, snap, read_ms


def cmd_summary(a):
    print(json.dumps(summary_of(open_table(a.table, a.snapshot, a.tag), a.snapshot)))


def summary_of(table, snapshot=None):
    t0 = time.monotonic()
    lines, ids, has_id, files, snap, read_ms = canonical_lines(table)
    if snap is None:
        latest = table.snapshot_manager().get_latest_snapshot()
        snap = snapshot if snapshot is not None else (latest.id if latest else None)
    out = {
        "ok": True,
        "reader": "pypaimon",
        "snapshot": snap,
        "files": files,
        "count": len(lines),
        "distinct_ids": len(set(ids)) if has_id else None,
        "min_id": (min(ids) if ids else None) if has_id else None,
        "max_id": (max(ids) if ids else None) if has_id else None,
        "digest": digest_of(lines),
        "read_ms": round(read_ms, 1),
        "total_ms": round((time.monotonic() - t0) * 1000, 1),
    }
    return out


def cmd_read_loop(a):
    """The table read again and again until --until exists (as the Java
    tool's read-loop: a read that fails is read again at once on the
    newest snapshot; only a failure of that one counts)."""
    reads = retried = 0
    failures = []
    while not os.path.exists(a.until):
        why = None
        for attempt in range(2):
            try:
                m = summary_of(open_table(a.table))
                why = None if m["count"] == m["distinct_ids"] else \
                    f"snapshot {m['snapshot']}: count {m['count']} but distinct ids {m['distinct_ids']}"
                break
            except Exception as e:  # noqa: BLE001 - counted, the loop goes on
                why = f"{type(e).__name__}: {e}"
                retried += attempt == 0
        reads += 1
        if why and len(failures) < 10:
            failures.append(f"read {reads}: {why}")
        time.sleep(a.pause_ms / 1000)
    print(json.dumps({"ok": not failures, "reads": reads, "retried": retried, "failures": failures}))
    if failures:
        sys.exit(1)


def cmd_rows(a):
    table = open_table(a.table, a.snapshot, a.tag)
    lines = canonical_lines(table)[0]
    out = sys.stdout.buffer
    for line in lines:
        out.write(line.encode("utf-8", "surrogatepass") + b"\n")


def cmd_snapshots(a):
    print(json.dumps(snapshot_list(open_table(a.table))))


def snapshot_list(table):
    out = []
    for s in table.snapshot_manager().list_snapshots():
        out.append({
            "id": s.id,
            "commit_user": s.commit_user,
            "commit_identifier": s.commit_identifier,
            "commit_kind": s.commit_kind,
            "time_millis": s.time_millis,
            "delta_record_count": s.delta_record_count,
            "total_record_count": s.total_record_count,
        })
    return out


def check(path, ids):
    """What lib.sh's oracle asks of pypaimon, in one process: the latest
    snapshot read in full, the snapshot list, and a read by id (time travel)
    of each of ids (a failed one: {"ok": false, "error"})."""
    t0 = time.monotonic()
    table = open_table(path)
    out = {"ok": True, "reader": "pypaimon", "latest": summary_of(table),
           "snapshots": snapshot_list(table), "at": {}}
    for i in ids:
        try:
            out["at"][str(i)] = summary_of(open_table(path, i), i)
        except Exception as e:  # noqa: BLE001 - reported, compared by the caller
            out["at"][str(i)] = {"ok": False, "error": f"{type(e).__name__}: {e}"}
    out["total_ms"] = round((time.monotonic() - t0) * 1000, 1)
    return out


def cmd_check(a):
    ids = [int(x) for x in a.snapshots.split(",")] if a.snapshots else []
    print(json.dumps(check(a.table, ids)))


def split_spec(spec):
    """'a BIGINT NOT NULL, b DECIMAL(10, 2)' -> [('a', 'BIGINT NOT NULL'), …]"""
    parts, depth, cur = [], 0, ""
    for ch in spec:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        p = p.strip()
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s+(.+)", p)
        if not m:
            fail(f"bad column '{p}' in schema spec", 2)
        out.append((m.group(1), m.group(2).strip()))
    return out


def cmd_create(a):
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options.options import Options
    from pypaimon.schema.data_types import DataField, DataTypeParser
    from pypaimon.schema.schema import Schema
    from pypaimon.schema.schema_manager import SchemaManager

    path = table_path(a.table)
    fields = []
    for i, (name, typ) in enumerate(split_spec(a.schema)):
        dt = DataTypeParser.parse_atomic_type_sql_string(typ)
        kind_of(dt.type)  # only types with a canonical spelling
        fields.append(DataField(i, name, dt))
    options = {"bucket": "-1", "file.format": "parquet"}
    for kv in a.option or []:
        k, _, v = kv.partition("=")
        options[k] = v
    if not is_s3(path):
        os.makedirs(path, exist_ok=True)
    file_io = FileIO.get(path, Options(file_io_options(path)))
    SchemaManager(file_io, path).create_table(Schema(fields=fields, options=options))
    print(json.dumps({"ok": True, "table": path, "columns": len(fields), "options": options}))


def cmd_create_fields(a):
    """create-fields TABLE FILE: a table whose columns are a schema file's
    "fields" (FILE: that JSON array), nested types too (t_nested_types)."""
    from pypaimon.common.file_io import FileIO
    from pypaimon.common.options.options import Options
    from pypaimon.schema.data_types import DataTypeParser
    from pypaimon.schema.schema import Schema
    from pypaimon.schema.schema_manager import SchemaManager

    path = table_path(a.table)
    fields = [DataTypeParser.parse_data_field(f) for f in json.load(open(a.file))]
    options = {"bucket": "-1", "file.format": "parquet"}
    if not is_s3(path):
        os.makedirs(path, exist_ok=True)
    file_io = FileIO.get(path, Options(file_io_options(path)))
    SchemaManager(file_io, path).create_table(Schema(fields=fields, options=options))
    print(json.dumps({"ok": True, "table": path, "columns": len(fields)}))


def arrow_value(v, t):
    """A JSON value (t's type) as pyarrow takes it: DECIMAL from its text,
    a MAP as (key, value) pairs, keys from their text."""
    if v is None:
        return None
    if hasattr(t, "element"):
        return [arrow_value(e, t.element) for e in v]
    if hasattr(t, "key"):
        return [(arrow_value(key_of(k, t.key), t.key), arrow_value(x, t.value))
                for k, x in v.items()]
    if hasattr(t, "fields"):
        return {f.name: arrow_value(v.get(f.name), f.type) for f in t.fields}
    if t.type.upper().startswith("DECIMAL"):
        return decimal.Decimal(v)
    return v


def key_of(text, t):
    kind, _ = kind_of(t.type)
    return int(text) if kind == "int" else text


def cmd_append_json(a):
    """append-json TABLE FILE: a JSON-lines file's rows in one batch commit."""
    import pyarrow as pa
    from pypaimon.schema.data_types import PyarrowFieldParser

    table = open_table(a.table)
    fields = table.fields
    rows = [json.loads(line) for line in open(a.file, encoding="utf-8") if line.strip()]
    schema = pa.schema([pa.field(f.name, PyarrowFieldParser.from_paimon_type(f.type),
                                 nullable=f.type.nullable) for f in fields])
    cols = {f.name: [arrow_value(r.get(f.name), f.type) for r in rows] for f in fields}
    batch = pa.Table.from_pydict(cols, schema=schema)
    wb = table.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(batch)
    c = wb.new_commit()
    c.commit(w.prepare_commit())
    w.close()
    c.close()
    print(json.dumps({"ok": True, "rows": len(rows)}))


# ---- row derivation (the same in ZsinkInterop.java; README "Row derivation") --

GOLDEN = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1


def derive(name, type_str, kind, prec, nullable, k, i):
    """Value of column k (name, kind) in the row of id i (i >= 0), in the
    Python type pyarrow takes: int for ints, days, epoch ticks."""
    if name == "id" and kind == "int":
        return i
    if nullable and (i + k) % 7 == 0:
        return None
    sign = 1 if i % 2 == 0 else -1
    if kind == "bool":
        return i % 3 == 0
    if kind == "int":
        if type_str.upper() == "TINYINT":
            return (i * 31) % 201 - 100
        return (i * 31) % 2001 - 1000
    if kind == "float":
        return float32(i * 0.1) if i % 2 == 0 else float32(i * 1.5e21)
    if kind == "double":
        return i / 3.0 if i % 2 == 0 else -(i * 1e-7)
    if kind == "string":
        s = "s" + str(i % 13)
        if i % 4 == 3:
            s += "\t\"\\\u00e9\u4e2d\U0001F600"
        return s
    if kind == "bytes":
        return ((i * GOLDEN) & MASK64).to_bytes(8, "big")[: i % 9]
    if kind == "date":
        return i % 40000 - 10000
    if kind == "ts":
        if prec <= 3:
            return sign * i * 86400123  # milliseconds
        return sign * i * 86400123457  # microseconds
    raise AssertionError(kind)


def arrow_type_for(kind, prec, type_str):
    import pyarrow as pa

    t = type_str.upper()
    if kind == "int":
        return {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(),
                "INTEGER": pa.int32(), "BIGINT": pa.int64()}[t]
    return {
        "bool": pa.bool_(), "float": pa.float32(), "double": pa.float64(),
        "string": pa.string(), "bytes": pa.binary(), "date": pa.date32(),
        "ts": pa.timestamp("ms") if kind == "ts" and prec <= 3 else pa.timestamp("us"),
    }[kind]


def int_range_check(t, v):
    lim = {"TINYINT": 7, "SMALLINT": 15, "INT": 31, "INTEGER": 31}.get(t.upper())
    if lim is not None and v is not None and not (-(1 << lim) <= v < (1 << lim)):
        fail(f"derived value {v} does not fit {t}")


def build_batch(table, lo, hi):
    import pyarrow as pa
    from pypaimon.schema.data_types import PyarrowFieldParser

    schema = PyarrowFieldParser.from_paimon_schema(table.fields)
    arrays = []
    for k, f in enumerate(table.fields):
        kind, prec = kind_of(f.type.type)
        vals = [derive(f.name, f.type.type, kind, prec, f.type.nullable, k, i) for i in range(lo, hi + 1)]
        if kind == "int":
            for v in vals:
                int_range_check(f.type.type, v)
        arrays.append(pa.array(vals, type=arrow_type_for(kind, prec, f.type.type)))
    return pa.Table.from_arrays(arrays, schema=schema)


def parse_range(text):
    m = re.fullmatch(r"(\d+)\.\.(\d+)", text)
    if not m or int(m.group(1)) > int(m.group(2)):
        fail(f"--ids wants A..B with 0 <= A <= B, not '{text}'", 2)
    return int(m.group(1)), int(m.group(2))


def slices(lo, hi, k):
    n = hi - lo + 1
    k = max(1, min(k, n))
    out, start = [], lo
    for j in range(k):
        size = n // k + (1 if j < n % k else 0)
        out.append((start, start + size - 1))
        start += size
    return out


def cmd_append(a):
    lo, hi = parse_range(a.ids)
    table = open_table(a.table)
    t0 = time.monotonic()
    stream = a.commit_user is not None or a.identifier is not None
    if stream:
        wb = table.new_stream_write_builder()
        if a.commit_user is not None:
            wb._with_commit_user(a.commit_user)
        ident = a.identifier if a.identifier is not None else 1
    else:
        wb = table.new_batch_write_builder()
    messages = []
    for s_lo, s_hi in slices(lo, hi, a.files):
        w = wb.new_write()
        w.write_arrow(build_batch(table, s_lo, s_hi))
        messages.extend(w.prepare_commit(ident) if stream else w.prepare_commit())
        w.close()
    c = wb.new_commit()
    if stream:
        c.commit(messages, ident)
    else:
        c.commit(messages)
    c.close()
    latest = table.snapshot_manager().get_latest_snapshot()
    print(json.dumps({
        "ok": True, "rows": hi - lo + 1, "commit_user": wb.commit_user,
        "identifier": ident if stream else latest.commit_identifier,
        "snapshot": latest.id if latest else None,
        "ms": round((time.monotonic() - t0) * 1000, 1),
    }))


def cmd_read_time(a):
    """Plan and read the whole table into Arrow, a.repeat times in this
    process (pypaimon's imports not counted): the first read and the best."""
    table = open_table(a.table)
    runs = []
    rows = 0
    for _ in range(a.repeat):
        t0 = time.monotonic()
        rb = table.new_read_builder()
        splits = rb.new_scan().plan().splits()
        t1 = time.monotonic()
        arrow = rb.new_read().to_arrow(splits) if splits else None
        t2 = time.monotonic()
        rows = arrow.num_rows if arrow is not None else 0
        runs.append(((t1 - t0) * 1000, (t2 - t1) * 1000))
    best = min(runs, key=lambda r: r[0] + r[1])
    print(json.dumps({"reader": "pypaimon", "what": "plan + to_arrow, every column",
                      "rows": rows, "first_ms": round(sum(runs[0]), 1),
                      "best_ms": round(sum(best), 1), "best_plan_ms": round(best[0], 1)}))


def cmd_spell_doubles(a):
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if line.startswith("0x"):
            x = struct.unpack(">d", bytes.fromhex(line[2:].rjust(16, "0")))[0]
        else:
            x = float(line)
        print(js_number(x) + "\t" + js_number(float32(x)))


def main():
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `rows | head` ends quietly
    p = argparse.ArgumentParser(description="pypaimon oracle (see the module doc)")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("summary")
    s.add_argument("table")
    s.add_argument("--snapshot", type=int)
    s.add_argument("--tag")
    s = sub.add_parser("rows")
    s.add_argument("table")
    s.add_argument("--snapshot", type=int)
    s.add_argument("--tag")
    s = sub.add_parser("snapshots")
    s.add_argument("table")
    s = sub.add_parser("check")
    s.add_argument("table")
    s.add_argument("--snapshots", default="")
    s = sub.add_parser("create")
    s.add_argument("table")
    s.add_argument("schema")
    s.add_argument("--option", action="append")
    s = sub.add_parser("append")
    s.add_argument("table")
    s.add_argument("--ids", required=True)
    s.add_argument("--commit-user")
    s.add_argument("--identifier", type=int)
    s.add_argument("--files", type=int, default=1)
    s = sub.add_parser("read-time")
    s.add_argument("table")
    s.add_argument("--repeat", type=int, default=3)
    s = sub.add_parser("read-loop")
    s.add_argument("table")
    s.add_argument("--until", required=True)
    s.add_argument("--pause-ms", type=int, default=0)
    sub.add_parser("spell-doubles")
    for name in ("create-fields", "append-json"):
        s = sub.add_parser(name)
        s.add_argument("table")
        s.add_argument("file")
    a = p.parse_args()
    try:
        {"summary": cmd_summary, "rows": cmd_rows, "snapshots": cmd_snapshots, "check": cmd_check,
         "create": cmd_create, "append": cmd_append, "read-time": cmd_read_time,
         "read-loop": cmd_read_loop, "spell-doubles": cmd_spell_doubles,
         "create-fields": cmd_create_fields, "append-json": cmd_append_json}[a.cmd](a)
    except SystemExit:
        raise
    except Exception as e:  # noqa: BLE001 - one JSON error line for the tests
        import traceback
        traceback.print_exc(file=sys.stderr)
        fail(f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
