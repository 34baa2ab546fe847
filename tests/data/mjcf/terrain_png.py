"""terrain_png.py FILE: a 7 x 5 grey PNG for terrain.xml's hfield, its
first row the +y edge: 20 at the -x, +y corner (the lowest), 200 at one
sample (the highest), 110 over x >= 1 (columns 4 to 6) from y = 0 up (rows
0 to 2), 50 elsewhere. Under MuJoCo's rule 110 is (110 - 20) / 180 of
the elevation; under Gazebo's, 110 / 200."""
import struct, sys, zlib
rows = [[20, 50, 50, 50, 110, 110, 110],
        [50, 50, 50, 50, 110, 110, 110],
        [50, 50, 200, 50, 110, 110, 110],
        [50] * 7, [50] * 7]
def chunk(t, d):
    c = t + d
    return struct.pack(">I", len(d)) + c + struct.pack(">I", zlib.crc32(c) & 0xffffffff)
raw = b"".join(b"\0" + bytes(r) for r in rows)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 7, 5, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
open(sys.argv[1], "wb").write(png)
