#!/usr/bin/env python3
"""png_colors.py FILE.png RRGGBB... - decode a PNG (8-bit RGB or RGBA, any
filter; what Chromium's screenshots are) with the standard library only and
print its size and, for each colour asked, how many pixels are within a
small distance of it, as JSON."""
import json
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"PNG depth {depth} colour type {ctype}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


width, height, bpp, rows = decode(sys.argv[1])
want = [tuple(int(h[i:i + 2], 16) for i in (0, 2, 4)) for h in sys.argv[2:]]
counts = {h: 0 for h in sys.argv[2:]}
nonwhite = 0
for row in rows:
    for x in range(width):
        px = tuple(row[x * bpp:x * bpp + 3])
        if px != (255, 255, 255):
            nonwhite += 1
        for h, w in zip(sys.argv[2:], want):
            if sum(abs(p - q) for p, q in zip(px, w)) <= 30:
                counts[h] += 1
print(json.dumps({"width": width, "height": height, "nonwhite": nonwhite, "colors": counts}))
