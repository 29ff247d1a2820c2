#!/usr/bin/env bash
# nio-floor.sh [MLIB] — issue 50's MPD line against its floors: the round trip of `lsinfo DIR` (a directory of the
# top, as mpd-browse.sh picks it) on Debian's mpd, on `mlib serve`, and on `nio-floor lines` (Benchmarks/NIOFloor:
# swift-nio answering every line with mlib's recorded answer to the same command, nothing computed: what the
# framework alone costs a command). The three take turns in ten blocks of 200 round trips, pinned as mpd-browse.sh
# pins them (the servers on the second CPU, the client on the first; then all on one CPU), with each server's CPU
# a command. MUSIC=DIR as for mpd-browse.sh (default: the fixtures' songs). NIO_FLOOR: the nio-floor binary
# (default .build/release/nio-floor; `swift build -c release --product nio-floor`).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/release/mlib}
NIO_FLOOR=${NIO_FLOOR:-.build/release/nio-floor}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --static-swift-stdlib --product mlib)" >&2; exit 2; }
[[ -x "$NIO_FLOOR" ]] || { echo "no nio-floor binary at $NIO_FLOOR (swift build -c release --static-swift-stdlib --product nio-floor)" >&2; exit 2; }
source Benchmarks/mpd-peers.sh
floor_port=$(free_port)
floor_pid=""
trap '[[ -n "$floor_pid" ]] && kill "$floor_pid" 2>/dev/null; cleanup' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB; $("$MLIB" --version 2>/dev/null | head -1); $(mpd --version | head -1)"
python3 - "$mpd_port" "$mlib_port" "$floor_port" "$work/answer" "$NIO_FLOOR" "$mpd_pid" "$mlib_pid" <<'PYTHON'
import importlib.util, os, socket, subprocess, sys, time
spec = importlib.util.spec_from_file_location("browse", "Benchmarks/mpd-browse.py")
browse = importlib.util.module_from_spec(spec); spec.loader.exec_module(browse)
mpd_port, mlib_port, floor_port, answer, floor_binary, mpd_pid, mlib_pid = sys.argv[1:]
mpd, mlib = browse.Client(int(mpd_port)), browse.Client(int(mlib_port))
lines, _ = mpd.command('lsinfo ""')
first_dir = next(l.decode().split(": ", 1)[1].strip() for l in lines if l.startswith(b"directory: "))
command = f'lsinfo "{first_dir}"'
lines, end = mlib.command(command)
with open(answer, "wb") as f:
    f.write(b"".join(lines) + end)
floor = subprocess.Popen([floor_binary, "lines", answer, floor_port])
for _ in range(100):
    try:
        client = browse.Client(int(floor_port)); break
    except OSError:
        time.sleep(0.05)
try:
    pids = [int(mpd_pid), int(mlib_pid), floor.pid]
    clients = [mpd, mlib, client]
    names = ["mpd", "mlib", "nio-floor"]
    for label, server_cpu, client_cpu in [("servers on CPU 1, client on CPU 0", 1, 0), ("all on CPU 1", 1, 1)]:
        browse.pin(pids, server_cpu, client_cpu)
        times, cpu, count, _ = browse.timed_alternately(clients, pids, command, 2000)
        browse.pin(pids, None, None)
        print(f"{command} ({count} lines), {label}: " + ", ".join(
            f"{n} {t:.4f} ms ({c:.1f} µs server CPU)" for n, t, c in zip(names, times, cpu)))
        print(f"  mlib {times[1] / times[0]:.2f}x mpd's p50, nio-floor {times[2] / times[0]:.2f}x mpd's; "
              f"mlib's own work over the framework's: {cpu[1] - cpu[2]:.1f} µs a command")
finally:
    floor.kill()
PYTHON
