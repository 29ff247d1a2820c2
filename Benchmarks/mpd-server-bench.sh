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
    local cpu
    cpu=$(python3 -c "print(f'{$used * 1000 / $hz / max(1, ${count:-0}):.3f}')")
    printf '  %-12s %s; server CPU %s ms/command\n' "$1:" "$out" "$cpu"
    per_s[$5]=$(sed -n 's/.* commands, \([0-9]*\)\/s,.*/\1/p' <<<"$out" | head -1)
    p95[$5]=$(sed -n 's/.* p95 \([0-9.]*\) ms.*/\1/p' <<<"$out" | head -1)
    cpu_ms[$5]=$cpu
    return "$status"
}
declare -A per_s p95 cpu_ms   # by key (mpd_library, library, mpd_polling, polling), for the results file
songs() { mpc -p "$1" stats | awk '/^Songs:/ { print $2 }'; }
echo "corpus: $music; songs: mpd $(songs "$mpd_port"), mlib $(songs "$mlib_port"); $(nproc) cores"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
memory
rss_idle=$(rss "$mlib_pid")
echo "one client, per command (median):"
python3 Benchmarks/view-bench.py times "$mpd_port" "$mlib_port" "$mpd_pid" "$mlib_pid"
python3 Benchmarks/mpd-browse.py "$mpd_port" "$mlib_port" | tail -n +2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "library load ($CLIENTS clients: listallinfo, search any, find, list album group albumartist, lsinfo DIR):"
timed_load "mpd 0.23" "$mpd_pid" "$mpd_port" library mpd_library || true
timed_load "mlib serve" "$mlib_pid" "$mlib_port" library library || status=$?
memory
rss_after_load=$(rss "$mlib_pid")
echo "polling ($CLIENTS clients: status, currentsong, idle/noidle):"
poll=$'status,currentsong,idle\nnoidle'
timed_load "mpd 0.23" "$mpd_pid" "$mpd_port" "$poll" mpd_polling || true
timed_load "mlib serve" "$mlib_pid" "$mlib_port" "$poll" polling || status=$?
memory
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# The figures file README's table is made from (Benchmarks/write-result.py), one per corpus.
ratio() { python3 -c "print(round(${1:-0} / max(${2:-0}, 1e-9), 2))"; }
python3 Benchmarks/write-result.py "mpd-server-bench${MUSIC:+-$(basename "$MUSIC")}" \
  "${MUSIC:+MUSIC=$MUSIC }Benchmarks/mpd-server-bench.sh $MLIB $CLIENTS $DURATION" "$music ($(songs "$mlib_port") songs)" \
  library_load_commands_per_s="${per_s[library]}" library_load_p95_ms="${p95[library]}" cpu_ms_per_command="${cpu_ms[library]}" \
  polling_per_s="${per_s[polling]}" rss_idle_mb="$rss_idle" rss_after_mb="$rss_after_load" \
  mpd_library_load_commands_per_s="${per_s[mpd_library]}" mpd_p95_ms="${p95[mpd_library]}" mpd_cpu_ms_per_command="${cpu_ms[mpd_library]}" \
  mpd_polling_per_s="${per_s[mpd_polling]}" \
  peer:library_load="$(ratio "${per_s[library]}" "${per_s[mpd_library]}")" \
  peer:p95_latency="$(ratio "${p95[mpd_library]}" "${p95[library]}")" \
  peer:polling="$(ratio "${per_s[polling]}" "${per_s[mpd_polling]}")"
exit "${status:-0}"
