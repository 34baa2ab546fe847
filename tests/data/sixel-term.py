#!/usr/bin/env python3
"""sixel-term.py [--mute] COLSxROWS WxH OUT CMD...

Runs CMD (through sh -c) on a new pseudo-terminal of COLSxROWS characters
and WxH pixels, as a sixel terminal would: each Primary Device Attributes
query (ESC [ c) is answered "ESC [ ? 62 ; 4 ; 22 c" (a VT220-class
terminal with sixel graphics, 4), or with --mute not at all. Everything
CMD writes goes to OUT; the exit status is CMD's. Gives up after 60 s.
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios
import time

QUERY = (b"\x1b[c", b"\x1b[0c")
ANSWER = b"\x1b[?62;4;22c"


def main(argv):
    mute = argv[:1] == ["--mute"]
    if mute:
        argv = argv[1:]
    cols, rows = (int(v) for v in argv[0].split("x"))
    width, height = (int(v) for v in argv[1].split("x"))
    out_path, cmd = argv[2], " ".join(argv[3:])
    pid, master = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ,
                    struct.pack("HHHH", rows, cols, width, height))
        os.execvp("sh", ["sh", "-c", cmd])
    data = bytearray()
    seen = 0            # bytes of data already searched for queries
    end = time.monotonic() + 60
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:     # EIO: the last writer closed the terminal
            break
        if not chunk:
            break
        data += chunk
        while True:
            hits = [i for i in (data.find(q, seen) for q in QUERY) if i >= 0]
            if not hits:
                seen = max(seen, len(data) - 3)
                break
            seen = min(hits) + 3
            if not mute:
                os.write(master, ANSWER)
    else:
        os.kill(pid, 9)
    with open(out_path, "wb") as f:
        f.write(data)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) if hasattr(
        os, "waitstatus_to_exitcode") else status >> 8


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
