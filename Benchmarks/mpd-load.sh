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
# load KEY PORT [COMMANDS]: one run of mpd-load.py, its line printed; commands/s and p95 kept as figures.
declare -A per_s p95
load() {
    local key=$1 line; shift
    line=$(python3 Benchmarks/mpd-load.py "$1" "$CLIENTS" "$DURATION" ${2:+"$2"}) || { [[ $key == mpd* ]] || status=1; }
    echo "$line"
    per_s[$key]=$(sed -n 's/.* commands, \([0-9]*\)\/s,.*/\1/p' <<<"$line" | head -1)
    p95[$key]=$(sed -n 's/.* p95 \([0-9.]*\) ms.*/\1/p' <<<"$line" | head -1)
}
echo "mix of reads, searches and queue edits:"
printf '  mpd 0.23:    '; load mpd_mix "$mpd_port"   # errors are in its line
printf '  mlib serve:  '; load mix "$mlib_port"
rss
echo "status, currentsong, playlistinfo (what clients poll):"
loop=status,currentsong,playlistinfo
printf '  mpd 0.23:    '; load mpd_polling "$mpd_port" "$loop"
printf '  mlib serve:  '; load polling "$mlib_port" "$loop"
rss
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
python3 Benchmarks/write-result.py mpd-load "${MUSIC:+MUSIC=$MUSIC }Benchmarks/mpd-load.sh $MLIB $CLIENTS $DURATION" \
  "${MUSIC:-songs from Fixtures}; $CLIENTS clients x $DURATION s on loopback" \
  mix_commands_per_s="${per_s[mix]}" mix_p95_ms="${p95[mix]}" polling_commands_per_s="${per_s[polling]}" polling_p95_ms="${p95[polling]}" \
  mpd_mix_commands_per_s="${per_s[mpd_mix]}" mpd_polling_commands_per_s="${per_s[mpd_polling]}" \
  rss_mb="$(($(ps -o rss= -p "$mlib_pid") / 1024))" mpd_rss_mb="$(($(ps -o rss= -p "$mpd_pid") / 1024))" \
  peer:mix="$(ratio "${per_s[mix]}" "${per_s[mpd_mix]}")" peer:polling="$(ratio "${per_s[polling]}" "${per_s[mpd_polling]}")"
exit "${status:-0}"
