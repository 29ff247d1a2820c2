#!/usr/bin/env python3
"""Per-command times of the browsing and search commands clients send (ncmpcpp's browser, mpc search),
median of several runs, for two servers over the same folder: prints one line per command with both.

Usage: mpd-browse.py MPD_PORT MLIB_PORT
Env FIGURES=FILE: also appends each command's figures there as KEY=VALUE lines (for write-result.py);
MPD_PID, MLIB_PID: the servers' pids, for their CPU per command of the short commands."""
import os
import re
import socket
import statistics
import sys
import time

from proc_cpu import cpu_seconds


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


def round_trips(client, command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        lines, end = client.command(command)
        times.append(time.perf_counter() - start)
    return times, lines, end


def timed(client, command, runs):
    times, lines, end = round_trips(client, command, runs)
    return statistics.median(times) * 1000, len(lines), end


def pin(pids, server_cpu, client_cpu):
    """Every thread of each server on `server_cpu`, this client on `client_cpu` (None: all CPUs again). A round
    trip of a tenth of a millisecond is mostly the wake-ups between the two processes, and those differ by
    2–3× between the client and the server sharing a core or not: left to the scheduler, one run measured mpd
    at 0.105 ms and mlib at 0.047, the next mpd at 0.032 and mlib at 0.100, on the same build."""
    every = set(range(os.cpu_count() or 1))
    for pid in pids:
        if not pid:
            continue
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                os.sched_setaffinity(int(tid), every if server_cpu is None else {server_cpu})
            except OSError:
                pass  # a thread that ended meanwhile
    os.sched_setaffinity(0, every if client_cpu is None else {client_cpu})


def timed_alternately(clients, pids, command, runs, blocks=10):
    """The round trips of a short command, the servers taking turns in `blocks` blocks (a drift of the
    machine's speed over the run falls on both alike), and each server's CPU per command over them."""
    times = [[] for _ in clients]
    cpu = [0.0 for _ in clients]
    for _ in range(blocks):
        for i, client in enumerate(clients):
            before = cpu_seconds(pids[i])
            t, lines, end = round_trips(client, command, runs // blocks)
            after = cpu_seconds(pids[i])
            times[i] += t
            if before is not None:
                cpu[i] += after - before
    counts = [len(t) for t in times]
    return ([statistics.median(t) * 1000 for t in times], [c / n * 1e6 if pids[i] else None for i, (c, n) in enumerate(zip(cpu, counts))],
            len(lines), end)


def record(command, mpd_ms, mlib_ms, suffix="", unit="_ms"):
    """Appends `COMMAND_ms=MLIB` and `peer:COMMAND=MPD/MLIB` (> 1: mlib faster) to $FIGURES, if set; the key is
    the command's words without its arguments' values (lsinfo DIR, find artist X), then `suffix`."""
    path = os.environ.get("FIGURES")
    if not path:
        return
    words = re.sub(r'"[^"]+"', "DIR" if command.startswith("lsinfo") else "X", command)
    key = re.sub(r"[^A-Za-z0-9]+", "_", words.replace('""', "root")).strip("_") + suffix
    with open(path, "a") as f:
        f.write(f"{key}{unit}={mlib_ms:.3g}\n")
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
    pids = [int(os.environ.get("MPD_PID", "0")), int(os.environ.get("MLIB_PID", "0"))]
    for command, runs in commands:
        cpu = None
        if runs >= 1000 and (os.cpu_count() or 1) >= 2:
            # A round trip this short times the two processes' wake-ups: the servers alternate, with their CPU,
            # each on the second CPU and the client on the first; then all three on one CPU (the work alone).
            na = len(mpd.command(command)[0])
            pin(pids, 1, 0)
            (a, b), cpu, nb, end = timed_alternately([mpd, mlib], pids, command, runs)
            pin(pids, 1, 1)
            (sa, sb), scpu, _, _ = timed_alternately([mpd, mlib], pids, command, runs)
            pin(pids, None, None)
            record(command, sa, sb, suffix="_one_cpu")
            if scpu[0] is not None:
                record(command, scpu[0], scpu[1], suffix="_one_cpu_cpu_us", unit="")
                print(f"{command[:40]:40s} {sa:10.3f} {sb:10.3f} {sb / sa if sa else float('nan'):7.2f}x  (on one CPU; "
                      f"server CPU a command: mpd {scpu[0]:.1f} µs, mlib {scpu[1]:.1f} µs)")
        else:
            a, na, _ = timed(mpd, command, runs)
            b, nb, end = timed(mlib, command, runs)
        note = "" if na == nb else f"  (line counts differ: mpd {na}, mlib {nb})"
        if cpu and cpu[0] is not None:
            note += f"  (server CPU a command: mpd {cpu[0]:.1f} µs, mlib {cpu[1]:.1f} µs)"
        print(f"{command[:40]:40s} {a:10.3f} {b:10.3f} {b / a if a else float('nan'):7.2f}x  {nb}{note}")
        record(command, a, b)
        if cpu and cpu[0] is not None:
            record(command, cpu[0], cpu[1], suffix="_cpu_us", unit="")


if __name__ == "__main__":
    main()
