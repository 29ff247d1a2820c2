#!/usr/bin/env bash
# mpd-load.sh [path/to/mlib] [CLIENTS] [SECONDS] — many MPD clients at once (default 20 for 30 s, loopback
# only, bounded), against Debian's mpd and `mlib serve` on the same folder, one after the other: commands
# per second, latency percentiles, errors, how fast a new client is answered afterwards, and resident
# memory before and after; first the mixed workload, then a status/currentsong/playlistinfo loop.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/debug/mlib}
CLIENTS=${2:-20}
DURATION=${3:-30}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build --product mlib)" >&2; exit 2; }
source Benchmarks/mpd-peers.sh
# Both servers get a queue to read back (the mix adds and deletes its own entries).
for port in "$mpd_port" "$mlib_port"; do mpc -q -p "$port" add Album1 Other; done
rss() { echo "resident memory: mpd $(($(ps -o rss= -p "$mpd_pid") / 1024)) MiB, mlib serve $(($(ps -o rss= -p "$mlib_pid") / 1024)) MiB"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
rss
echo "mix of reads, searches and queue edits:"
printf '  mpd 0.23:    '; python3 Benchmarks/mpd-load.py "$mpd_port" "$CLIENTS" "$DURATION" || true   # errors are in its line
printf '  mlib serve:  '; python3 Benchmarks/mpd-load.py "$mlib_port" "$CLIENTS" "$DURATION" || status=$?
rss
echo "status, currentsong, playlistinfo (what clients poll):"
loop=status,currentsong,playlistinfo
printf '  mpd 0.23:    '; python3 Benchmarks/mpd-load.py "$mpd_port" "$CLIENTS" "$DURATION" "$loop" || true
printf '  mlib serve:  '; python3 Benchmarks/mpd-load.py "$mlib_port" "$CLIENTS" "$DURATION" "$loop" || status=$?
rss
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "${status:-0}"
