#!/usr/bin/env python3
"""gen_input.py DIR FORMAT FILES ROWS [--bad FILE:LINE ...]

Writes FILES input files of ROWS rows in all (ids 1..ROWS, spread round
robin) as JSONL or CSV with a header, for the file-source tests: unicode,
empty strings, quotes, commas and newlines inside strings, nulls, dates
and millisecond timestamps. --bad F:L replaces line L (1-based, counting
the CSV header) of file number F (0-based) with a line that does not parse.
"""
import json
import sys

WORDS = ["", "plain", "ünïcødé", "日本語", "emoji 🚀", "comma,here", 'quote"in',
         "line\nbreak", "tab\there", "back\\slash"]


def row(i):
    return {
        "id": i,
        "name": None if i % 11 == 0 else f"{WORDS[i % len(WORDS)]}-{i}" if i % 3 else WORDS[i % len(WORDS)],
        "price": None if i % 13 == 0 else (i % 100000) / 100.0 - 17.5,
        "qty": (i * 7919) % 200001 - 100000,
        "ok": None if i % 17 == 0 else i % 2 == 0,
        "ts": f"20{10 + i % 20:02d}-0{1 + i % 9}-1{i % 10} 0{i % 10}:1{i % 6}:2{i % 10}.{i % 1000:03d}",
        "day": None if i % 19 == 0 else f"19{50 + i % 50:02d}-1{i % 3}-2{i % 8}",
    }


def csv_field(v):
    """RFC 4180: None is an empty field (NULL), "" a quoted empty string."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    s = str(v)
    if s == "" or any(c in s for c in ',"\n\r'):
        return '"' + s.replace('"', '""') + '"'
    return s


def main():
    d, fmt, nfiles, rows = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    bad = {}
    args = sys.argv[5:]
    while args:
        if args[0] == "--bad":
            f, l = args[1].split(":")
            bad[(int(f), int(l))] = True
            args = args[2:]
        else:
            sys.exit(f"unknown argument {args[0]}")
    per = [[] for _ in range(nfiles)]
    for i in range(1, rows + 1):
        per[(i - 1) % nfiles].append(row(i))
    cols = list(row(1).keys())
    for k, rs in enumerate(per):
        lines = []
        if fmt == "csv":
            lines.append(",".join(cols))
            for r in rs:
                lines.append(",".join(csv_field(r[c]) for c in cols))
        else:
            for r in rs:
                lines.append(json.dumps(r, ensure_ascii=False))
        for (f, l) in bad:
            if f == k:
                lines[l - 1] = ('{"id": 1, "qty": "not a number"}' if fmt == "jsonl"
                                else "1,x,1.0,not-a-number,true,2020-01-01 00:00:00.000,2020-01-01")
        with open(f"{d}/part-{k:03d}.{fmt}", "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


main()
