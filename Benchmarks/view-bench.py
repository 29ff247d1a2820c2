#!/usr/bin/env python3
"""The library commands the in-memory view answers, timed on two servers over the same folder (median of
several runs, one client): prints one line per command with both times and the ratio.

Usage: view-bench.py times MPD_PORT MLIB_PORT
       view-bench.py now           (prints the monotonic time: CLOCK_MONOTONIC, shared by processes)"""
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from importlib import import_module

browse = import_module("mpd-browse")


def main():
    if sys.argv[1] == "now":
        print(f"{time.monotonic():.6f}")
        return
    mpd, mlib = browse.Client(int(sys.argv[2])), browse.Client(int(sys.argv[3]))
    lines, _ = mpd.command('lsinfo ""')
    first_dir = next(l.decode().split(": ", 1)[1].strip() for l in lines if l.startswith(b"directory: "))
    commands = [("list artist", 10), ("list album group albumartist", 10), ("count group artist", 10),
                ('search any "x"', 10), (f'lsinfo "{first_dir}"', 200), ("stats", 200), ("listallinfo", 3)]
    # Answers of tens of microseconds get 200 runs: with 10, one scheduler hiccup on 2 shared cores moved
    # a median by 2-3x (stats read 0.06 ms here and 0.05 ms from 2,000 runs of another client).
    print(f"{'command':40s} {'mpd ms':>10s} {'mlib ms':>10s} {'ratio':>7s}  lines")
    for command, runs in commands:
        browse.timed(mpd, command, 1)   # warm both
        browse.timed(mlib, command, 1)
        a, na, _ = browse.timed(mpd, command, runs)
        b, nb, _ = browse.timed(mlib, command, runs)
        note = "" if na == nb else f"  (line counts differ: mpd {na}, mlib {nb})"
        print(f"{command[:40]:40s} {a:10.2f} {b:10.2f} {b / a if a else float('nan'):7.2f}x  {nb}{note}", flush=True)


if __name__ == "__main__":
    main()
