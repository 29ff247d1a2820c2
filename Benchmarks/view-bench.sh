#!/usr/bin/env bash
# view-bench.sh [MLIB] — `mlib serve`'s in-memory library view beside Debian's mpd 0.23 on the same folder,
# in the same run:
#  - the view's build from the store: `mlib serve` start-up time on the library, minus that on an empty one;
#  - its resident memory: the RSS of `mlib serve` on the library minus that on an empty library (mpd's RSS
#    beside it);
#  - the refresh after a 1 % rescan (touching 1 % of the files): `update` on each server, and `mlib scan`
#    alone on the same files; and the view's own refresh after the update, as the server logs it
#    (MLIB_VIEW_LOG: only the items the change log names are read, the rest derived from memory);
#  - per-command times (median, one client): list artist, list album group albumartist, count group artist,
#    search any "x", lsinfo DIR, stats, listallinfo; for lsinfo DIR and stats also the time per command of
#    20,000 pipelined in one write and each server's CPU per command (one round trip of these times mostly
#    the scheduler's wake-ups: see view-bench.py).
# MUSIC=DIR is the folder (e.g. `../shared/tools/make-corpus.sh /tmp/c10k 10000`); default: the fixtures.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/release/mlib}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --static-swift-stdlib --product mlib)" >&2; exit 2; }
export MLIB_VIEW_LOG=1   # each view refresh says on stderr what it did and how long it took (LiveView)
source Benchmarks/mpd-peers.sh
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
now() { python3 Benchmarks/view-bench.py now; }

items=$("$MLIB" stats --library "$work/library.sqlite" 2>/dev/null | awk '/^ *[Ii]tems/ { print $2; exit }' || true)
echo "corpus: $music (${items:-?} items); load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

# Start-up: a second server on the same library (timed to its "serving" line), and one on an empty library.
start_serve() {   # LIBRARY -> prints "PID SECONDS"
    local err="$work/serve-$RANDOM.err" t0 pid
    t0=$(now)
    "$MLIB" serve --library "$1" --port 0 --sink null --max-output-buffer 524288 2>"$err" &
    pid=$!
    for _ in $(seq 6000); do grep -q "serving" "$err" 2>/dev/null && break; sleep 0.01; done
    echo "$pid $(python3 -c "print(f'{$(now) - $t0:.3f}')")"
}
"$MLIB" scan --library "$work/empty.sqlite" -q "$work/playlists" >/dev/null 2>&1 || true
read -r empty_pid empty_s < <(start_serve "$work/empty.sqlite")
read -r full_pid full_s < <(start_serve "$work/library.sqlite")
sleep 1
view_s=$(python3 -c "print(round($full_s - $empty_s, 3))")
view_mb=$(python3 -c "print(f'{$(rss "$full_pid") - $(rss "$empty_pid"):.1f}')"); mpd_mb=$(rss "$mpd_pid")
printf 'view build (start-up on the library minus on an empty one): %.3f s (%.3f - %.3f)\n' \
    "$(python3 -c "print($full_s - $empty_s)")" "$full_s" "$empty_s"
printf 'resident memory: mlib serve %s MB (empty library %s MB: view %s MB); mpd %s MB\n' \
    "$(rss "$full_pid")" "$(rss "$empty_pid")" "$(python3 -c "print(f'{$(rss "$full_pid") - $(rss "$empty_pid"):.1f}')")" "$(rss "$mpd_pid")"
kill "$full_pid" "$empty_pid"; wait "$full_pid" "$empty_pid" 2>/dev/null || true

# Per-command times.
FIGURES="$work/figures" python3 Benchmarks/view-bench.py times "$mpd_port" "$mlib_port" "$mpd_pid" "$mlib_pid"

# A 1 % rescan: touch 1 % of the files, then `update` on each server (mlib's answers once its scan is done
# and the new view is in); then the same files again for `mlib scan` alone, to tell the scan from the view.
mapfile -t files < <(find "$music" -type f \( -name '*.mp3' -o -name '*.flac' -o -name '*.ogg' -o -name '*.m4a' -o -name '*.opus' \) | sort)
count=$(( ${#files[@]} / 100 )); (( count > 0 )) || count=1
touch_some() { for ((i = 0; i < count; i++)); do touch "${files[$(( i * 100 % ${#files[@]} ))]}"; done; }
touch_some
t0=$(now); mpc -q -p "$mlib_port" -w update; update_s=$(python3 -c "print($(now) - $t0)")
t0=$(now); mpc -q -p "$mpd_port" -w update; mpd_s=$(python3 -c "print($(now) - $t0)")
touch_some
t0=$(now); "$MLIB" scan --library "$work/library.sqlite" -q "$music" || [[ $? -eq 1 ]]; scan_s=$(python3 -c "print($(now) - $t0)")
printf 'after touching %d files: mlib update %.3f s (mlib scan alone %.3f s: the view refresh is about %.3f s); mpd update %.3f s\n' \
    "$count" "$update_s" "$scan_s" "$(python3 -c "print($update_s - $scan_s)")" "$mpd_s"
refresh=$(grep -E 'mlib: view (patched|refreshed|rebuilt):' "$work/serve.err" | tail -1 | sed 's/^mlib: view //')
echo "view refresh after the update of $count touched files (of $items): ${refresh:-not logged}"
mapfile -t figures < "$work/figures"
python3 Benchmarks/write-result.py view-bench "${MUSIC:+MUSIC=$MUSIC }Benchmarks/view-bench.sh $MLIB" \
  "${MUSIC:-songs from Fixtures} (${items:-?} items); median ms per command, one client" \
  view_build_s="$view_s" view_rss_mb="$view_mb" mpd_rss_mb="$mpd_mb" \
  update_1pct_s="$(printf '%.3f' "$update_s")" scan_1pct_s="$(printf '%.3f' "$scan_s")" mpd_update_1pct_s="$(printf '%.3f' "$mpd_s")" \
  "${figures[@]}" peer:update_1pct="$(python3 -c "print(round($mpd_s / $update_s, 2))")"
