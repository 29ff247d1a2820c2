#!/usr/bin/env bash
# scan-bench.sh [N ...]   (default: 2000 10000)
#
# Times `mlib scan` on a synthetic library of N files (../shared/tools/make-corpus.sh) and, on the same
# files, MPD's and beets' full indexing (../shared/tools/peers.sh), then prints the ratios. Per N:
#   full scan · unchanged rescan · rescan after touching 1% of the files · peak RSS of each (KB)
# Warm page cache (the corpus is read once first). Corpora and libraries live in bench-out/ (kept between
# runs: delete it to rebuild). Env: SCRATCH_PATH (swift build scratch dir, default .build),
# BENCH_DIR (default bench-out), PEERS=0 to skip MPD and beets, BUILD=0 to reuse the last release build.
#
# Targets (2 cores, 10,000 files): full scan >= 1.5x faster than MPD's update and >= 20x faster than beets
# import; unchanged rescan no slower than MPD's; peak RSS < 100 MB and flat in N.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tools=$repo/../shared/tools
out=${BENCH_DIR:-$repo/bench-out}
scratch=${SCRATCH_PATH:-.build}
sizes=("$@"); [[ ${#sizes[@]} -gt 0 ]] || sizes=(2000 10000)
mkdir -p "$out"

if [[ ${BUILD:-1} != 0 ]]; then
  echo "building release…" >&2
  swift build -c release --scratch-path "$scratch" --product mlib >&2
fi
mlib=$(swift build -c release --scratch-path "$scratch" --show-bin-path)/mlib

# timed NAME cmd... -> prints "NAME WALL_SECONDS PEAK_RSS_KB"; mlib exits 1 on the corpus' planted bad files.
timed() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null 2>"$out/stderr" || [[ $? -eq 1 ]] \
    || { echo "$name failed: $(tail -3 "$out/stderr")" >&2; exit 1; }
  read -r wall rss < <(tail -1 "$out/time")          # the first line may be "Command exited with…"
  echo "$name $wall $rss"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "inf" }'; }

for n in "${sizes[@]}"; do
  corpus=$out/corpus-$n
  [[ -d $corpus ]] || { echo "making corpus of $n files (takes a while)…" >&2; "$tools/make-corpus.sh" "$corpus" "$n"; }
  library=$out/library-$n.sqlite
  rm -f "$library" "$library"-wal "$library"-shm "$library".lock
  find "$corpus" -type f -readable -exec cat {} + >/dev/null            # warm the page cache

  echo "== mlib, N=$n"
  read -r _ full full_rss < <(timed full-scan "$mlib" scan --quiet --library "$library" "$corpus")
  read -r _ same same_rss < <(timed rescan-unchanged "$mlib" scan --quiet --library "$library")
  find "$corpus" -type f \( -name '*.mp3' -o -name '*.flac' -o -name '*.ogg' -o -name '*.opus' -o -name '*.m4a' \
        -o -name '*.wav' -o -name '*.mp4' -o -name '*.mkv' \) -readable | sort | awk 'NR % 100 == 0' | xargs -d '\n' touch
  read -r _ touched touched_rss < <(timed rescan-touched-1% "$mlib" scan --quiet --library "$library")
  items=$("$mlib" stats --json --library "$library" | awk -F'[:,]' '/"items"/ { gsub(/ /, "", $2); print $2 }')
  printf '%-22s %8s s  %8s KB   (%s items, %s files/s)\n' "full scan" "$full" "$full_rss" "$items" "$(ratio "$items" "$full")"
  printf '%-22s %8s s  %8s KB\n' "unchanged rescan" "$same" "$same_rss" "rescan, 1% touched" "$touched" "$touched_rss"

  [[ ${PEERS:-1} == 0 ]] && continue
  mpd_full=""; mpd_same=""; beets_full=""
  while read -r peer op files wall rss; do
    printf '%-22s %8s s  %8s KB   (%s files)\n' "$peer $op" "$wall" "$rss" "$files"
    case "$peer $op" in
      "mpd full-scan") mpd_full=$wall ;; "mpd rescan-unchanged") mpd_same=$wall ;; "beets full-scan") beets_full=$wall ;;
    esac
  done < <("$tools/peers.sh" mpd "$corpus"; "$tools/peers.sh" beets "$corpus")
  echo "-- ratios, N=$n (>1 means mlib is faster)"
  echo "full scan vs MPD update:        $(ratio "$mpd_full" "$full")x   (target >= 1.5x)"
  echo "full scan vs beets import:      $(ratio "$beets_full" "$full")x   (target >= 20x)"
  echo "unchanged rescan vs MPD update: $(ratio "$mpd_same" "$same")x   (target >= 1x)"
done
