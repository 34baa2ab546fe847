#!/usr/bin/env python3
"""png-curve.py RRGGBB PNG...

Where a curve of colour RRGGBB lies in each 8-bit RGB or RGBA PNG (what
sixel2png writes), written to PNG.curve: the first line is "WIDTH
HEIGHT", then one line "COLUMN ROW" for each column holding the colour
above the plot's bottom border (the lowest row that is more than half
dark), ROW being the mean row of those pixels. Pixel (0, 0) is the top
left.
"""
import struct
import sys
import zlib


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit(f"{path}: not 8-bit RGB or RGBA")
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(
            raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            c = prev[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + (0, a, prev[i], (a + prev[i]) // 2,
                                  paeth(a, prev[i], c))[f]) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def curve(path, want, out):
    w, h, rows = read_png(path)
    dark = [y for y in range(h) if sum(sum(p) < 150 for p in rows[y]) > w // 2]
    bottom = dark[-1] if dark else h
    print(w, h, file=out)
    for x in range(w):
        ys = [y for y in range(bottom) if rows[y][x] == want]
        if ys:
            print(x, sum(ys) / len(ys), file=out)


def main(color, *paths):
    want = tuple(int(color[i:i + 2], 16) for i in (0, 2, 4))
    for path in paths:
        with open(path + ".curve", "w") as out:
            curve(path, want, out)


if __name__ == "__main__":
    main(*sys.argv[1:])
