#!/usr/bin/env python3
"""all_types.py - the input and the expected rows of t_all_types.sh.

  all_types.py schema            the table.schema of every scalar type
  all_types.py input FILE N      FILE: N JSON lines, ids 1..N: the edge
                                 values first (decimal max/min at p = 9,
                                 18, 38, values next to the scale, times
                                 before 1970 and at the ends of
                                 TIMESTAMP(9)'s range, p = 0 and 9, TIME
                                 23:59:59.999, offsets for WITH LOCAL TIME
                                 ZONE), then seeded random ones
  all_types.py expect FILE       the canonical lines of FILE's rows (the
                                 spelling of tests/interop: Paimon Java's
                                 and pypaimon's `rows`), sorted, computed
                                 from the input alone
  all_types.py same A B          A and B (files of lines, or `-`) hold the
                                 same lines once sorted; else the first
                                 differences and exit 1

The expected values are computed here from the text, not by zsink: DECIMAL
the plain number at its scale, TIME milliseconds of the day, TIMESTAMP(0..6)
epoch microseconds, TIMESTAMP(7..9) epoch nanoseconds, WITH LOCAL TIME ZONE
the instant (the offset applied), BINARY the text's UTF-8 bytes in hex.
"""
import datetime
import decimal
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop"))
from paimon_py import js_number, sort_lines  # noqa: E402  (no pyarrow needed for these)

COLUMNS = [
    ("id", "BIGINT NOT NULL"),
    ("b", "BOOLEAN"),
    ("ti", "TINYINT"),
    ("ti_nn", "TINYINT NOT NULL"),
    ("si", "SMALLINT"),
    ("i", "INT"),
    ("f", "FLOAT"),
    ("dbl", "DOUBLE"),
    ("d1", "DECIMAL(1, 1)"),
    ("d9", "DECIMAL(9, 2)"),
    ("d9_nn", "DECIMAL(9, 2) NOT NULL"),
    ("d18", "DECIMAL(18, 4)"),
    ("d38", "DECIMAL(38, 10)"),
    ("d38_nn", "DECIMAL(38, 0) NOT NULL"),
    ("c", "CHAR(3)"),
    ("vc", "VARCHAR(20)"),
    ("vc_nn", "VARCHAR(40) NOT NULL"),
    ("bn", "BINARY(4)"),
    ("vb", "VARBINARY(32)"),
    ("raw", "BYTES"),
    ("dt", "DATE"),
    ("t0", "TIME(0)"),
    ("t3", "TIME(3) NOT NULL"),
    ("ts0", "TIMESTAMP(0)"),
    ("ts3", "TIMESTAMP(3)"),
    ("ts6", "TIMESTAMP(6)"),
    ("ts9", "TIMESTAMP(9)"),
    ("ts9_nn", "TIMESTAMP(9) NOT NULL"),
    ("l3", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
    ("l6", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
    ("l9", "TIMESTAMP(9) WITH LOCAL TIME ZONE"),
    ("s", "STRING NOT NULL"),
]

D = decimal.Decimal
CTX = decimal.Context(prec=100)


def nines(p, s, sign=1):
    return str(CTX.multiply(D(sign), CTX.subtract(CTX.power(D(10), p - s), CTX.power(D(10), -s))).quantize(D(1).scaleb(-s), context=CTX))


EDGES = [
    # max at every precision class, times at the edges, offsets
    {"b": True, "ti": 127, "ti_nn": -128, "si": 32767, "i": 2147483647, "f": 0.5, "dbl": 1e300,
     "d1": 0.9, "d9": 9999999.99, "d9_nn": nines(9, 2), "d18": nines(18, 4), "d38": nines(38, 10),
     "d38_nn": nines(38, 0), "c": "abc", "vc": "twenty characters!!!", "vc_nn": "a string longer than sixteen chars",
     "bn": "wxyz", "vb": "bytes", "raw": "", "dt": "1969-12-31", "t0": "23:59:59", "t3": "23:59:59.999",
     "ts0": "1969-12-31 23:59:59", "ts3": "1900-01-01 00:00:00.001", "ts6": "2024-02-29 12:34:56.123456",
     "ts9": "2262-04-11 23:47:16.854775807", "ts9_nn": "1969-12-31 23:59:59.999999999",
     "l3": "2024-01-01 00:00:00.123Z", "l6": "2024-06-30T23:59:59.999999+02:00",
     "l9": "1970-01-01T00:00:00.000000001Z", "s": "max"},
    # min at every precision class
    {"b": False, "ti": -128, "ti_nn": 127, "si": -32768, "i": -2147483648, "f": -0.5, "dbl": -1e-300,
     "d1": -0.9, "d9": -9999999.99, "d9_nn": nines(9, 2, -1), "d18": nines(18, 4, -1),
     "d38": nines(38, 10, -1), "d38_nn": nines(38, 0, -1), "c": "", "vc": "ñandú 日本", "vc_nn": "日本語のテキストは十六文字より長いです",
     "bn": "", "vb": "", "raw": "\u0000zero", "dt": "0001-01-01", "t0": "00:00:00", "t3": "00:00:00.000",
     "ts0": "0001-01-01 00:00:00", "ts3": "1677-09-21 00:12:43.146", "ts6": "0001-01-01 00:00:00.000001",
     "ts9": "1677-09-21 00:12:43.145224192", "ts9_nn": "1677-09-21T00:12:43.145224193",
     "l3": "1960-01-01 00:00:00-05:00", "l6": "1969-12-31 23:59:59.999999Z",
     "l9": "2262-04-11T23:47:16.854775807Z", "s": "min"},
    # next to the scale, zeros
    {"b": None, "ti": 0, "ti_nn": 0, "si": 0, "i": 0, "f": 0.0, "dbl": 0.0,
     "d1": "0.1", "d9": 0.01, "d9_nn": "-0.01", "d18": "0.0001", "d38": "-0.0000000001",
     "d38_nn": "0", "c": "z", "vc": "", "vc_nn": "", "bn": "a", "vb": "\u00ff", "raw": "x",
     "dt": "1970-01-01", "t0": "12:00:00", "t3": "00:00:00.001", "ts0": "1970-01-01 00:00:00",
     "ts3": "1969-12-31 23:59:59.999", "ts6": "1969-12-31 23:59:59.999999", "ts9": "1970-01-01 00:00:00",
     "ts9_nn": "1970-01-01 00:00:00.000000001", "l3": "1970-01-01 00:00:00Z", "l6": "1970-01-01 00:00:00+00:00",
     "l9": "1969-12-31T23:59:59.999999999Z", "s": "zero"},
]


def rand_decimal(rng, p, s):
    digits = rng.randint(1, p)
    x = rng.randrange(10 ** digits) * (1 if rng.random() < 0.5 else -1)
    v = D(x).scaleb(-s, context=CTX)
    return str(v.quantize(D(1).scaleb(-s), context=CTX))


def rand_ts(rng, lo_year, hi_year, digits):
    base = datetime.datetime(lo_year, 1, 1)
    span = (datetime.datetime(hi_year, 1, 1) - base).total_seconds()
    t = base + datetime.timedelta(seconds=rng.randrange(int(span)))
    frac = "".join(rng.choice("0123456789") for _ in range(digits))
    return t.strftime("%Y-%m-%d %H:%M:%S") + ("." + frac if digits else "")


def rand_row(rng, i):
    words = ["", "a", "ü", "日本語", "emoji 🚀", "quote\"", "tab\t", "sixteen-chars-xx", "seventeen-chars-x"]
    r = {
        "b": rng.random() < 0.5, "ti": rng.randint(-128, 127), "ti_nn": rng.randint(-128, 127),
        "si": rng.randint(-32768, 32767), "i": rng.randint(-2**31, 2**31 - 1),
        "f": rng.randint(-10**6, 10**6) / 8.0, "dbl": rng.uniform(-1e6, 1e6),
        "d1": rand_decimal(rng, 1, 1), "d9": float(rand_decimal(rng, 9, 2)), "d9_nn": rand_decimal(rng, 9, 2),
        "d18": rand_decimal(rng, 18, 4), "d38": rand_decimal(rng, 38, 10), "d38_nn": rand_decimal(rng, 38, 0),
        "c": rng.choice(["", "a", "ab", "abc", "日本"]), "vc": rng.choice(words) + str(i % 100),
        "vc_nn": rng.choice(words) * 2, "bn": rng.choice(["", "ab", "abcd"]),
        "vb": "".join(chr(rng.randint(32, 126)) for _ in range(rng.randint(0, 20))), "raw": rng.choice(words),
        "dt": rand_ts(rng, 1900, 2100, 0)[:10], "t0": rand_ts(rng, 2000, 2001, 0)[11:],
        "t3": rand_ts(rng, 2000, 2001, 3)[11:], "ts0": rand_ts(rng, 1900, 2100, 0),
        "ts3": rand_ts(rng, 1900, 2100, 3), "ts6": rand_ts(rng, 1900, 2100, 6),
        "ts9": rand_ts(rng, 1700, 2200, 9), "ts9_nn": rand_ts(rng, 1700, 2200, 9).replace(" ", "T"),
        "l3": rand_ts(rng, 1900, 2100, 3) + "Z", "l6": rand_ts(rng, 1900, 2100, 6) + "+01:30",
        "l9": rand_ts(rng, 1700, 2200, 9) + "Z", "s": "r%d" % i,
    }
    for name, t in COLUMNS:
        if "NOT NULL" not in t and rng.random() < 0.1:
            r[name] = None
    return r


def cmd_input(path, n):
    rng = random.Random(25)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(1, n + 1):
            r = dict(EDGES[i - 1]) if i <= len(EDGES) else rand_row(rng, i)
            r["id"] = i
            out.write(json.dumps({k: r.get(k) for k, _ in COLUMNS}, ensure_ascii=False) + "\n")


# ---- expected canonical values ------------------------------------------------

EPOCH = datetime.datetime(1970, 1, 1)


def ts_units(text, per_second):
    """'YYYY-MM-DD[ T]HH:MM:SS[.f][Z|+HH:MM|-HH:MM]' to units since the epoch."""
    t = text.replace("T", " ")
    east = 0
    if t.endswith("Z"):
        t = t[:-1]
    elif len(t) > 6 and t[-6] in "+-" and t[-3] == ":":
        east = (int(t[-5:-3]) * 60 + int(t[-2:])) * 60 * (1 if t[-6] == "+" else -1)
        t = t[:-6]
    main, _, frac = t.partition(".")
    d = datetime.datetime.strptime(main, "%Y-%m-%d %H:%M:%S")
    delta = d - EPOCH
    secs = delta.days * 86400 + delta.seconds - east
    digits = {1000000: 6, 1000000000: 9}[per_second]
    return secs * per_second + int((frac + "0" * 9)[:digits])


def canon(t, v):
    if v is None:
        return "\\N"
    base = t.replace(" NOT NULL", "")
    if base == "BOOLEAN":
        return "true" if v else "false"
    if base in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return str(v)
    if base in ("FLOAT", "DOUBLE"):
        return js_number(float(v))
    if base.startswith("DECIMAL"):
        s = int(base.split(",")[1].strip(" )"))
        return format(D(str(v)).quantize(D(1).scaleb(-s), context=CTX), "f")
    if base.startswith(("CHAR", "VARCHAR")) or base == "STRING":
        return json.dumps(v, ensure_ascii=False)
    if base.startswith(("BINARY", "VARBINARY")) or base == "BYTES":
        return v.encode("utf-8").hex()
    if base == "DATE":
        return str((datetime.date.fromisoformat(v) - EPOCH.date()).days)
    if base.startswith("TIME("):
        hh, mm, rest = v.split(":")
        ss, _, frac = rest.partition(".")
        return str(((int(hh) * 60 + int(mm)) * 60 + int(ss)) * 1000 + int((frac + "000")[:3]))
    p = int(base[base.index("(") + 1:base.index(")")])
    return str(ts_units(v, 1000000000 if p > 6 else 1000000))


def cmd_expect(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for l in f:
            r = json.loads(l)
            lines.append("\t".join(canon(t, r.get(name)) for name, t in COLUMNS))
    for l in sort_lines(lines):
        print(l)


def read_lines(p):
    f = sys.stdin if p == "-" else open(p, encoding="utf-8")
    return sort_lines([l.rstrip("\n") for l in f if l.strip()])


def cmd_same(a, b):
    la, lb = read_lines(a), read_lines(b)
    if la == lb:
        print(f"same {len(la)} lines")
        return 0
    sa, sb = set(la), set(lb)
    for l in sorted(sa - sb)[:3]:
        print("only in " + a + ": " + l)
    for l in sorted(sb - sa)[:3]:
        print("only in " + b + ": " + l)
    print(f"{len(la)} vs {len(lb)} lines")
    return 1


def main():
    cmd = sys.argv[1]
    if cmd == "schema":
        print(", ".join(f"{n} {t}" for n, t in COLUMNS))
    elif cmd == "input":
        cmd_input(sys.argv[2], int(sys.argv[3]))
    elif cmd == "expect":
        cmd_expect(sys.argv[2])
    elif cmd == "same":
        return cmd_same(sys.argv[2], sys.argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main())
