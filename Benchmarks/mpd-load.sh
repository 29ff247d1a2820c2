#!/usr/bin/env bash
# mpd-load.sh [path/to/mlib] [CLIENTS] [SECONDS] — many MPD clients at once (default 20 for 30 s, loopback
# only, bounded), against Debian's mpd and `mlib serve` on the same folder, one after the other: commands
# per second, latency percentiles, errors, and how fast a new client is answered afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/debug/mlib}
CLIENTS=${2:-20}
DURATION=${3:-30}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build --product mlib)" >&2; exit 2; }
source Benchmarks/mpd-peers.sh
printf 'mpd 0.23:    '; python3 Benchmarks/mpd-load.py "$mpd_port" "$CLIENTS" "$DURATION" || true   # errors are in its line
printf 'mlib serve:  '; python3 Benchmarks/mpd-load.py "$mlib_port" "$CLIENTS" "$DURATION" || status=$?
exit "${status:-0}"
