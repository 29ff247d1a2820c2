#!/usr/bin/env bash
# mpd-order.sh [path/to/mlib] — database order against Debian's mpd on one folder (MUSIC=DIR, else the
# conformance fixtures): `listall` and the queue after `add /` (`playlist`), position by position; prints
# how many positions differ (issue 26, 7: 1,086 of 2,019 on c2k when mlib sorted bytes). Exit 1 when any do.
#   MUSIC=/work/corpora/c2k Benchmarks/mpd-order.sh .build/release/mlib
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/debug/mlib}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build --product mlib)" >&2; exit 2; }
source Benchmarks/mpd-peers.sh
python3 - "$mpd_port" "$mlib_port" <<'PY'
import socket, sys

def ask(port, commands):
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    f = s.makefile("rb")
    f.readline()
    answers = []
    for command in commands:
        s.sendall(command.encode() + b"\n")
        lines = []
        while True:
            line = f.readline().decode("utf-8", "replace").rstrip("\n")
            if line == "OK" or line.startswith("ACK"):
                break
            lines.append(line)
        answers.append(lines)
    return answers

commands = ["listall", "clear", "add /", "playlist", "clear"]
mpd, mlib = (ask(int(port), commands) for port in sys.argv[1:3])
failed = False
for name, index in (("listall", 0), ("add / + playlist", 3)):
    a = [l for l in mpd[index] if l.startswith("file: ") or ":file: " in l]
    b = [l for l in mlib[index] if l.startswith("file: ") or ":file: " in l]
    differing = sum(1 for x, y in zip(a, b) if x != y) + abs(len(a) - len(b))
    failed |= differing > 0
    print(f"{name}: {differing} of {len(a)} positions differ (mlib lists {len(b)})")
    for x, y in [(x, y) for x, y in zip(a, b) if x != y][:5]:
        print(f"  mpd {x!r} / mlib {y!r}")
sys.exit(1 if failed else 0)
PY
