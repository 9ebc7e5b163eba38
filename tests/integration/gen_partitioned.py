#!/usr/bin/env python3
"""gen_partitioned.py DIR FILES ROWS PARTS

JSONL input for t_partitioned: ROWS rows (ids 1..ROWS, round robin over
FILES files) of "id BIGINT NOT NULL, p STRING, hr INT, day DATE, name
STRING". p takes PARTS values: "v0".."v{PARTS-3}", plus the NULL (the
default partition) and "a/b:c" (escaped in the directory) when PARTS >= 3;
hr is 0..3 and day one of two dates, so (p, hr) and (day) spread rows over
partitions as well.
"""
import json
import sys


def p_of(i, parts):
    k = i % parts
    if parts >= 3 and k == parts - 1:
        return None
    if parts >= 3 and k == parts - 2:
        return "a/b:c"
    return f"v{k}"


def main():
    d, nfiles, rows, parts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    outs = [open(f"{d}/part-{k:02d}.jsonl", "w") for k in range(nfiles)]
    for i in range(1, rows + 1):
        r = {"id": i, "p": p_of(i, parts), "hr": (i // 7) % 4,
             "day": "2026-12-04" if i % 2 else "2026-12-05", "name": f"n-{i}"}
        outs[(i - 1) % nfiles].write(json.dumps(r) + "\n")
    for o in outs:
        o.close()


if __name__ == "__main__":
    main()
