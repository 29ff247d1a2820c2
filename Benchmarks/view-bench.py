#!/usr/bin/env python3
"""The library commands the in-memory view answers, timed on two servers over the same folder (median of
several runs, one client): prints one line per command with both times and the ratio.

For the answers of tens of microseconds (`lsinfo DIR`, `stats`) one round trip mostly times the kernel's
wake-ups of the two processes (16-76 us between runs on an idle machine), so these are also timed as N
commands pipelined in one write, to the last OK (the server's own time per command, both servers alike),
and, given the servers' PIDs, as the server's CPU per command over those N (its threads' schedstat: proc_cpu.py).

Usage: view-bench.py times MPD_PORT MLIB_PORT [MPD_PID MLIB_PID]
       view-bench.py now           (prints the monotonic time: CLOCK_MONOTONIC, shared by processes)"""
import socket
import sys
import threading
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from importlib import import_module

from proc_cpu import cpu_seconds

browse = import_module("mpd-browse")


PIPELINED = 20000


def pipelined(port, command, count, pid=None):
    """`count` × `command` written at once (from a thread, so neither side blocks on a full socket), timed
    to the last OK: (ms per command, server CPU ms per command or None)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=120)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    reader = sock.makefile("rb", buffering=1 << 20)
    reader.readline()
    payload = (command + "\n").encode() * count
    cpu0 = cpu_seconds(pid)
    start = time.monotonic()
    writer = threading.Thread(target=sock.sendall, args=(payload,))
    writer.start()
    done = 0
    while done < count:
        line = reader.readline()
        if not line:
            raise RuntimeError(f"{command}: connection closed after {done} answers")
        if line == b"OK\n" or line.startswith(b"ACK "):
            done += 1
    elapsed = time.monotonic() - start
    cpu1 = cpu_seconds(pid)
    writer.join()
    sock.close()
    cpu = None if cpu0 is None else (cpu1 - cpu0) * 1000 / count
    return elapsed * 1000 / count, cpu


def main():
    if sys.argv[1] == "now":
        print(f"{time.monotonic():.6f}")
        return
    mpd_port, mlib_port = int(sys.argv[2]), int(sys.argv[3])
    mpd, mlib = browse.Client(mpd_port), browse.Client(mlib_port)
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
        browse.record(command, a, b)
        if runs >= 200:
            # The same command N times in one write: what each server takes per command, the wake-ups aside.
            pids = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (None, None)
            pipelined(mpd_port, command, 200)   # warm both
            pipelined(mlib_port, command, 200)
            (a, cpu_a), (b, cpu_b) = pipelined(mpd_port, command, PIPELINED, pids[0]), pipelined(mlib_port, command, PIPELINED, pids[1])
            label = f"  {PIPELINED} pipelined, per command"
            print(f"{label:40s} {a:10.3f} {b:10.3f} {b / a if a else float('nan'):7.2f}x", flush=True)
            browse.record(command, a, b, "_pipelined")
            if cpu_a is not None:
                label = "  server CPU per command"
                print(f"{label:40s} {cpu_a:10.3f} {cpu_b:10.3f} {cpu_b / cpu_a if cpu_a else float('nan'):7.2f}x", flush=True)


if __name__ == "__main__":
    main()
