#!/usr/bin/env python3
"""Per-command times of the browsing and search commands clients send (ncmpcpp's browser, mpc search),
median of several runs, for two servers over the same folder: prints one line per command with both.

Usage: mpd-browse.py MPD_PORT MLIB_PORT
Env FIGURES=FILE: also appends each command's figures there as KEY=VALUE lines (for write-result.py)."""
import os
import re
import socket
import statistics
import sys
import time


class Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=120)
        self.file = self.sock.makefile("rb")
        self.file.readline()

    def command(self, text):
        self.sock.sendall(text.encode() + b"\n")
        lines = []
        while True:
            line = self.file.readline()
            if not line or line == b"OK\n" or line.startswith(b"ACK "):
                return lines, line
            lines.append(line)


def timed(client, command, runs):
    times = []
    for _ in range(runs):
        start = time.monotonic()
        lines, end = client.command(command)
        times.append(time.monotonic() - start)
    return statistics.median(times) * 1000, len(lines), end


def record(command, mpd_ms, mlib_ms, suffix=""):
    """Appends `COMMAND_ms=MLIB` and `peer:COMMAND=MPD/MLIB` (> 1: mlib faster) to $FIGURES, if set; the key is
    the command's words without its arguments' values (lsinfo DIR, find artist X)."""
    path = os.environ.get("FIGURES")
    if not path:
        return
    words = re.sub(r'"[^"]+"', "DIR" if command.startswith("lsinfo") else "X", command)
    key = re.sub(r"[^A-Za-z0-9]+", "_", words.replace('""', "root")).strip("_") + suffix
    with open(path, "a") as f:
        f.write(f"{key}_ms={mlib_ms:.3g}\n")
        if mlib_ms > 0:
            f.write(f"peer:{key}={mpd_ms / mlib_ms:.2f}\n")


def main():
    mpd, mlib = Client(int(sys.argv[1])), Client(int(sys.argv[2]))
    lines, _ = mpd.command('lsinfo ""')
    first_dir = next(l.decode().split(": ", 1)[1].strip() for l in lines if l.startswith(b"directory: "))
    lines, _ = mpd.command("list artist")
    artist = lines[len(lines) // 2].decode().split(": ", 1)[1].strip()
    # Commands of a tenth of a millisecond are timed 2,000 times: with 10, one run's median moved between
    # 0.03 and 0.08 ms for mpd itself (a round trip that short times the two processes' wake-ups).
    commands = [('lsinfo ""', 2000), (f'lsinfo "{first_dir}"', 2000), ('search any "the"', 10),
                (f'find artist "{artist}"', 10), ("list album group albumartist", 5), ("count group artist", 20),
                ("stats", 2000), ("listall", 9), ("listallinfo", 5)]
    print(f"{'command':40s} {'mpd ms':>10s} {'mlib ms':>10s} {'ratio':>7s}  lines")
    for command, runs in commands:
        a, na, _ = timed(mpd, command, runs)
        b, nb, end = timed(mlib, command, runs)
        note = "" if na == nb else f"  (line counts differ: mpd {na}, mlib {nb})"
        print(f"{command[:40]:40s} {a:10.2f} {b:10.2f} {b / a if a else float('nan'):7.1f}x  {nb}{note}")
        record(command, a, b)


if __name__ == "__main__":
    main()
