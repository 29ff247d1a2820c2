#!/usr/bin/env python3
"""Many clients at once: N connections (default 20) each issue a mix of reads and queue edits in a loop
for SECONDS (default 30), on loopback, against one server; then one more client must be answered at once.
Prints commands per second, latency percentiles and the late client's ping time.

Usage: mpd-load.py PORT [CLIENTS] [SECONDS] [COMMANDS]
COMMANDS: a comma-separated list to loop over instead of the mix below (e.g. status,currentsong,playlistinfo:
the calls a client makes all the time, where the protocol layer's own cost shows), or `library`: issue 26's
library work on any folder (a `listallinfo`, then `search any`, `find`, `list album group albumartist` and
`lsinfo` of a directory and an artist read from the server), each client starting at another command."""
import socket
import sys
import threading
import time

port = int(sys.argv[1])
clients = int(sys.argv[2]) if len(sys.argv) > 2 else 20
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 30
COMMANDS = ["status", "currentsong", "lsinfo Album1", "search any fix", "add Album1/flac-vorbis-cover.flac",
            "playlistinfo", "plchanges 0", "list album group artist", "stats", "delete 0", "listallinfo",
            "find \"(artist == 'Sine Wave')\"", "count group artist", "idle\nnoidle"]


def library_mix(port):
    """The library commands of issue 26's load, with a directory and an artist the server has."""
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    f = s.makefile("rb")
    f.readline()

    def ask(command):
        s.sendall(command.encode() + b"\n")
        lines = []
        while (line := f.readline()) and line != b"OK\n" and not line.startswith(b"ACK "):
            lines.append(line.decode().rstrip("\n"))
        return lines
    first_dir = next(l.split(": ", 1)[1] for l in ask('lsinfo ""') if l.startswith("directory: "))
    artists = [l.split(": ", 1)[1] for l in ask("list artist") if l.startswith("Artist: ")]
    artist = artists[len(artists) // 2].replace('"', '\\"')
    s.close()
    return ["listallinfo", 'search any "the"', f'find artist "{artist}"', "list album group albumartist",
            f'lsinfo "{first_dir}"']


if len(sys.argv) > 4:
    COMMANDS = library_mix(port) if sys.argv[4] == "library" else sys.argv[4].split(",")


def worker(n, stop_at, latencies, errors):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        # Read in 1 MiB gulps: each read lets go of python's GIL, and with the default 8 KiB a thread reading
        # a long answer waited for the others' switch interval every 8 KiB (the GIL's convoy effect), so the
        # figures followed how the clients' threads took turns more than the server (issue 26, session 10:
        # the same two mlib binaries at 2,004 songs, 951-969 vs 1,093-1,109/s with 8 KiB, 1,322 vs 1,207/s with 1 MiB).
        f = s.makefile("rb", buffering=1 << 20)
        f.readline()
        i = n
        while time.monotonic() < stop_at:
            command = COMMANDS[i % len(COMMANDS)]
            i += 1
            start = time.monotonic()
            s.sendall(command.encode() + b"\n")
            while True:
                line = f.readline()
                if not line:
                    errors.append("closed")
                    return
                if line == b"OK\n" or line.startswith(b"ACK "):
                    break
            latencies.append(time.monotonic() - start)
        s.close()
    except Exception as e:  # noqa: BLE001 - any failure is reported, not raised
        errors.append(f"{command!r}: {e!r}")


latencies, errors = [], []
stop_at = time.monotonic() + seconds
threads = [threading.Thread(target=worker, args=(n, stop_at, latencies, errors)) for n in range(clients)]
for t in threads:
    t.start()
for t in threads:
    t.join(seconds + 30)
start = time.monotonic()
late = socket.create_connection(("127.0.0.1", port), timeout=10)
late.recv(100)
late.sendall(b"ping\n")
late.recv(100)
ping = time.monotonic() - start
latencies.sort()
p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000 if latencies else float("nan")
print(f"{clients} clients x {seconds:.0f} s: {len(latencies)} commands, {len(latencies) / seconds:.0f}/s, "
      f"latency p50 {p(0.5):.1f} ms, p95 {p(0.95):.1f} ms, p99 {p(0.99):.1f} ms, max {p(1.0):.1f} ms; errors {len(errors)}; "
      f"a new client's ping after: {ping * 1000:.1f} ms")
for error in sorted(set(errors))[:5]:
    print("  error:", error)
sys.exit(1 if errors else 0)
