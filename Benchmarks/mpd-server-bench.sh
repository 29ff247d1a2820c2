#!/usr/bin/env bash
# mpd-server-bench.sh [MLIB] [CLIENTS] [SECONDS] — issue 26's speed figures of `mlib serve` beside Debian's
# mpd 0.23 on the same folder, in one run (both servers up at once, measured one after the other):
#  - each library command from one client (median; view-bench.py's list and the browsing ones of
#    mpd-browse.py): target within 1.5x of mpd's time;
#  - the mixed library load: CLIENTS clients (default 10) for SECONDS (default 15) each looping over a
#    `listallinfo`, `search any`, `find`, `list album group albumartist` and `lsinfo DIR` (mpd-load.py
#    `library`): commands/s (target >= 1x mpd's) and p95 latency (no worse than mpd's);
#  - polling: the same clients looping over status, currentsong and idle/noidle (target >= 1x mpd);
#  - resident memory of both servers before and after.
# MUSIC=DIR is the folder (e.g. /work/corpora/c2k, or c100k: the 10,004-file make-corpus folder ten times);
# default: the fixtures. Prints the command line and the load average so another run can be set beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/release/mlib}
CLIENTS=${2:-10}
DURATION=${3:-15}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --product mlib)" >&2; exit 2; }
echo "command: MUSIC=${MUSIC:-} $0 $MLIB $CLIENTS $DURATION ($(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
source Benchmarks/mpd-peers.sh
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
memory() { echo "resident memory: mpd $(rss "$mpd_pid") MB, mlib serve $(rss "$mlib_pid") MB"; }
# Server CPU per command (user + system, from /proc/PID/stat, in ms): what each server spends, apart from the
# clients and the scheduler that share the 2 cores (commands/s is also the Python clients' own speed).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
timed_load() {   # NAME PID PORT COMMANDS: one mpd-load.py run, with the server's CPU per command after it
    local before out status=0
    before=$(ticks "$2")
    out=$(python3 Benchmarks/mpd-load.py "$3" "$CLIENTS" "$DURATION" "$4") || status=$?
    local used=$(( $(ticks "$2") - before )) count
    count=$(sed -n 's/.*: \([0-9]*\) commands,.*/\1/p' <<<"$out" | head -1)
    printf '  %-12s %s; server CPU %s ms/command\n' "$1:" "$out" \
        "$(python3 -c "print(f'{$used * 1000 / $hz / max(1, ${count:-0}):.3f}')")"
    return "$status"
}
songs() { mpc -p "$1" stats | awk '/^Songs:/ { print $2 }'; }
echo "corpus: $music; songs: mpd $(songs "$mpd_port"), mlib $(songs "$mlib_port"); $(nproc) cores"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
memory
echo "one client, per command (median):"
python3 Benchmarks/view-bench.py times "$mpd_port" "$mlib_port" "$mpd_pid" "$mlib_pid"
python3 Benchmarks/mpd-browse.py "$mpd_port" "$mlib_port" | tail -n +2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "library load ($CLIENTS clients: listallinfo, search any, find, list album group albumartist, lsinfo DIR):"
timed_load "mpd 0.23" "$mpd_pid" "$mpd_port" library || true
timed_load "mlib serve" "$mlib_pid" "$mlib_port" library || status=$?
memory
echo "polling ($CLIENTS clients: status, currentsong, idle/noidle):"
poll=$'status,currentsong,idle\nnoidle'
timed_load "mpd 0.23" "$mpd_pid" "$mpd_port" "$poll" || true
timed_load "mlib serve" "$mlib_pid" "$mlib_port" "$poll" || status=$?
memory
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "${status:-0}"
