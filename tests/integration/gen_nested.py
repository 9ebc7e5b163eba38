#!/usr/bin/env python3
"""gen_nested.py DIR FILES N - JSONL input for t_nested_types.sh: ids 1..N
over FILES files, with ARRAY, MAP, ROW and nestings of them, nulls at every
level (the column, an element, a field, a map value), empty arrays and maps.
Values are spelt as `zsink table scan --format jsonl` spells them back
(DECIMAL as a string at its scale), so the scan equals the input.
    check INPUT_DIR SCAN_JSONL - the scan's rows equal the input's (any order)
"""
import json
import os
import sys

SCHEMA = ("id BIGINT NOT NULL, tags ARRAY<STRING>, scores ARRAY<INT NOT NULL>, "
          "attrs MAP<STRING, BIGINT>, addr ROW<city STRING, zip INT NOT NULL>, "
          "items ARRAY<ROW<sku STRING NOT NULL, qty INT, price DECIMAL(10, 2)>>, "
          "m2 MAP<INT, ARRAY<DOUBLE>>, deep ROW<a ARRAY<ARRAY<BIGINT>>, "
          "b ROW<c MAP<STRING, ROW<d BOOLEAN>>>>")


def paimon_fields():
    """SCHEMA as a schema file's "fields" (Paimon's JSON), for Paimon Java's
    and pypaimon's create-fields: a table Paimon makes, with the same
    columns. Ids as Paimon gives them: a column's, then its nested fields'
    (each after its own type's)."""
    nxt = [-1]

    def new_id():
        nxt[0] += 1
        return nxt[0]

    def row_t(*fields):
        out = []
        for n, t in fields:
            t = t() if callable(t) else t
            out.append({"id": new_id(), "name": n, "type": t})
        return {"type": "ROW", "fields": out}

    def col(name, t):
        i = new_id()
        return {"id": i, "name": name, "type": t() if callable(t) else t}

    return [
        col("id", "BIGINT NOT NULL"),
        col("tags", {"type": "ARRAY", "element": "STRING"}),
        col("scores", {"type": "ARRAY", "element": "INT NOT NULL"}),
        col("attrs", {"type": "MAP", "key": "STRING NOT NULL", "value": "BIGINT"}),
        col("addr", lambda: row_t(("city", "STRING"), ("zip", "INT NOT NULL"))),
        col("items", lambda: {"type": "ARRAY", "element": row_t(
            ("sku", "STRING NOT NULL"), ("qty", "INT"), ("price", "DECIMAL(10, 2)"))}),
        col("m2", {"type": "MAP", "key": "INT NOT NULL",
                   "value": {"type": "ARRAY", "element": "DOUBLE"}}),
        col("deep", lambda: row_t(
            ("a", {"type": "ARRAY", "element": {"type": "ARRAY", "element": "BIGINT"}}),
            ("b", lambda: row_t(("c", lambda: {"type": "MAP", "key": "STRING NOT NULL",
                                               "value": row_t(("d", "BOOLEAN"))}))))),
    ]


def row(i):
    h = (i * 2654435761) % 1000003
    r = {"id": i}
    k = h % 6
    r["tags"] = None if k == 0 else [] if k == 1 else \
        [None if (h + j) % 5 == 0 else f"t{(h + j) % 97}é" for j in range(k)]
    r["scores"] = None if h % 7 == 0 else [(h * (j + 1)) % 1000 - 500 for j in range(h % 4)]
    k = h % 5
    r["attrs"] = None if k == 0 else {f"k{j}": (None if (h + j) % 3 == 0 else h * j - 7)
                                      for j in range(k - 1)}
    r["addr"] = None if h % 9 == 0 else {"city": None if h % 4 == 0 else f"c{h % 13}",
                                         "zip": h % 100000}
    k = h % 4
    r["items"] = None if k == 0 else [
        None if (h + j) % 6 == 0 else
        {"sku": f"s{h % 50}-{j}", "qty": None if (h + j) % 5 == 0 else (h + j) % 20,
         "price": None if (h + j) % 7 == 0 else f"{((h * (j + 3)) % 200000 - 100000) / 100:.2f}"}
        for j in range(k)]
    k = h % 3
    r["m2"] = None if k == 0 else {str(h % 10 + j): (None if (h + j) % 4 == 0 else
                                                      [float((h + j) % 9) / 4, None][: 1 + (h + j) % 2])
                                   for j in range(k)}
    r["deep"] = None if h % 11 == 0 else {
        "a": None if h % 3 == 0 else [[h, -h], [], None][: h % 4],
        "b": None if h % 5 == 0 else {"c": {} if h % 2 else {"x": None, "y": {"d": h % 2 == 0}}}}
    return r


def gen(d, files, n):
    os.makedirs(d, exist_ok=True)
    per = (n + files - 1) // files
    for f in range(files):
        with open(os.path.join(d, f"part-{f}.jsonl"), "w") as out:
            for i in range(f * per + 1, min(n, (f + 1) * per) + 1):
                out.write(json.dumps(row(i), ensure_ascii=False) + "\n")


def check(d, scan):
    want = {}
    for name in sorted(os.listdir(d)):
        for line in open(os.path.join(d, name), encoding="utf-8"):
            r = json.loads(line)
            want[r["id"]] = r
    got = {}
    for line in open(scan, encoding="utf-8"):
        r = json.loads(line)
        if r["id"] in got:
            sys.exit(f"id {r['id']} twice in the table")
        got[r["id"]] = r
    if set(got) != set(want):
        sys.exit(f"ids differ: {len(got)} in the table, {len(want)} in the input")
    for i, r in want.items():
        if got[i] != r:
            sys.exit(f"id {i}: table {json.dumps(got[i])}\n  input {json.dumps(r)}")
    print(f"{len(got)} rows equal the input")


if __name__ == "__main__":
    if sys.argv[1] == "schema":
        print(SCHEMA)
    elif sys.argv[1] == "fields":
        print(json.dumps(paimon_fields()))
    elif sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    else:
        gen(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
