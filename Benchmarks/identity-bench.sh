#!/usr/bin/env bash
# identity-bench.sh [N ...]   (default: 10000 50000)
#
# How the scan's identity work scales: on a library of N tiny, distinct MP3 files (made in seconds from one
# template by rewriting a few bytes of its title, in 100-file folders of 1,000-file artists), times
#   full scan · unchanged rescan ·
#   rescan after renaming every artist folder (N files renamed: each claimed by inode while walking) ·
#   rescan after copying a tenth of the folders elsewhere and deleting the originals (new inodes: paired
#   by content at the end of the scan) ·
#   a scan of one root after moving files to it from another, then a scan of all roots
# and prints each one's wall time and peak RSS, and checks that every item kept its id (exit 1 if not).
# MPD's update of the same tree after the renames is printed beside it when PEERS=1 (default 0: MPD
# re-reads every moved file, which is what the figures are compared with).
# Targets: linear in N; the 50,000-file move rescan under 5 s; peak RSS flat (< 150 MB at 1,000,000).
# Env: BENCH_DIR (default bench-out), BUILD=0 to reuse the last release build, SCRATCH_PATH, FULL_ONLY=1
# for the full scan and the unchanged rescan alone (the 1,000,000-file memory figure: FULL_ONLY=1 ... 1000000).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=${BENCH_DIR:-$repo/bench-out}/identity
scratch=${SCRATCH_PATH:-.build}
sizes=("$@"); [[ ${#sizes[@]} -gt 0 ]] || sizes=(10000 50000)
mkdir -p "$out"

if [[ ${BUILD:-1} != 0 ]]; then
  echo "building release…" >&2
  swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product mlib >&2
fi
mlib=${MLIB:-$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/mlib}   # MLIB: a built binary
template=$out/template.mp3
[[ -f $template ]] || ffmpeg -v error -nostdin -y -f lavfi -i sine=f=440:d=0.2 -metadata title=Alpha00000 \
  -metadata artist="Bench Artist" "$template"

timed() {   # timed NAME cmd... -> "NAME WALL RSS"
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null 2>"$out/stderr" \
    || { echo "$name failed ($?): $(tail -3 "$out/stderr")" >&2; exit 1; }
  read -r wall rss < <(tail -1 "$out/time")
  printf '%-34s %8s s %9s KB\n' "$name" "$wall" "$rss"
  local key=${name//[^a-z0-9]/_}; key=${key//__/_}
  figures+=("${key}_s=$wall" "${key}_rss_mb=$((rss / 1024))")
}
# The figures file README's table is made from (Benchmarks/write-result.py), one per N.
result() {
  python3 "$repo/Benchmarks/write-result.py" "identity-bench-$1" "${FULL_ONLY:+FULL_ONLY=$FULL_ONLY }Benchmarks/identity-bench.sh $1" \
    "$1 tiny distinct files" "${figures[@]}"
}
ids() { sqlite3 -readonly "$1" "SELECT id || ' ' || hex(fingerprint) FROM items WHERE missing_gen IS NULL ORDER BY fingerprint, id"; }

for n in "${sizes[@]}"; do
  figures=()
  tree=$out/tree-$n; library=$out/library-$n.sqlite
  rm -rf "$tree" "$library" "$library"-wal "$library"-shm "$library".lock
  echo "making $n files…" >&2
  python3 - "$template" "$tree" "$n" <<'PY'
import os, sys
template, tree, n = open(sys.argv[1], 'rb').read(), sys.argv[2], int(sys.argv[3])
at = template.index(b'Alpha00000')
for i in range(n):
    d = os.path.join(tree, 'r1' if i % 10 else 'r2', 'artist%04d' % (i // 1000), 'album%03d' % (i // 100 % 10))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'track%06d.mp3' % i), 'wb') as f:
        f.write(template[:at] + b'A%09d' % i + template[at + 10:])
PY
  echo "== N=$n"
  timed "full scan" "$mlib" scan --quiet --library "$library" "$tree/r1" "$tree/r2"
  before=$(ids "$library" | md5sum)
  timed "unchanged rescan" "$mlib" scan --quiet --library "$library"
  [[ ${FULL_ONLY:-0} != 0 ]] && { result "$n"; continue; }

  for d in "$tree"/r1/artist* "$tree"/r2/artist*; do mv "$d" "${d/artist/moved}"; done
  timed "rescan, every file renamed" "$mlib" scan --quiet --library "$library"
  [[ $(ids "$library" | md5sum) == "$before" ]] || { echo "FAIL: ids changed after the renames" >&2; exit 1; }

  find "$tree/r1" -mindepth 1 -maxdepth 1 -name 'moved*' | sort | awk 'NR % 10 == 1' | while read -r d; do
    cp -r "$d" "$tree/r2/copied-$(basename "$d")" && rm -rf "$d"
  done
  timed "rescan, 10% copied then deleted" "$mlib" scan --quiet --library "$library"
  [[ $(ids "$library" | md5sum) == "$before" ]] || { echo "FAIL: ids changed after copy+delete" >&2; exit 1; }

  mkdir -p "$tree/r2/from-r1"
  find "$tree/r1" -mindepth 1 -maxdepth 1 -name 'moved*' | sort | awk 'NR % 10 == 2' | while read -r d; do
    mv "$d" "$tree/r2/from-r1/"
  done
  timed "scan of the destination root" "$mlib" scan --quiet --library "$library" "$tree/r2"
  timed "then a scan of every root" "$mlib" scan --quiet --library "$library"
  [[ $(ids "$library" | md5sum) == "$before" ]] || { echo "FAIL: ids changed after a move between roots" >&2; exit 1; }
  echo "every item kept its id ($(sqlite3 -readonly "$library" 'SELECT COUNT(*) FROM items') items)"
  result "$n"

  if [[ ${PEERS:-0} != 0 ]]; then
    "$repo/../shared/tools/peers.sh" mpd "$tree" | sed 's/^/peer: /'
  fi
done
