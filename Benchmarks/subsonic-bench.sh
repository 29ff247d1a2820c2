#!/usr/bin/env bash
# subsonic-bench.sh [MLIB] — `mlib serve --http` (the OpenSubsonic API) on a library of MUSIC=DIR
# (e.g. `../shared/tools/make-corpus.sh /tmp/c10k 10000`; default: the fixtures): start-up to the first
# request, resident memory after start and after a full sync, and the client-side figures of
# subsonic-bench.py (Symfonium's search3 full sync in pages of 500, getArtists, getAlbumList2, getAlbum, and
# transcoding: time to first byte, speed × real time). 100,000 items: MUSIC=/work/corpora/c100k (the 10,004-file
# make-corpus copied ten times).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/release/mlib}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --product mlib)" >&2; exit 2; }
music=${MUSIC:-$PWD/Fixtures}
work=$(mktemp -d "${TMPDIR:-/tmp}/subsonic-bench.XXXXXX")
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# A 5-minute stereo 44.1 kHz FLAC (pink noise under a tone: no encoder's easy case) for the transcoding figures,
# in a root of its own beside the corpus.
mkdir -p "$work/long"
ffmpeg -v error -f lavfi -i "anoisesrc=color=pink:amplitude=0.3:duration=300:sample_rate=44100" -f lavfi -i "sine=f=440:duration=300:sample_rate=44100" \
  -filter_complex "[0][1]amix=inputs=2,aformat=channel_layouts=stereo" -metadata title="Transcode bench" -metadata artist="Bench" \
  -c:a flac "$work/long/transcode-bench.flac"
"$MLIB" scan --library "$work/library.sqlite" -q "$music" "$work/long" >/dev/null 2>&1 || true
items=$("$MLIB" stats --library "$work/library.sqlite" | awk '/^ *[Ii]tems/ { print $2; exit }')
"$MLIB" user add bench --password bench --library "$work/library.sqlite" >/dev/null
echo "corpus: $music ($items items); load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB"

t0=$(date +%s.%N)
"$MLIB" serve --library "$work/library.sqlite" --http 127.0.0.1:0 --no-mpd 2>"$work/err" &
pid=$!
for _ in $(seq 6000); do grep -q "serving" "$work/err" 2>/dev/null && break; sleep 0.01; done
port=$(grep -o '127.0.0.1:[0-9]*' "$work/err" | cut -d: -f2)
startup=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')")
echo "start-up to listening (view and catalog built): $startup s"
echo "resident memory after start: $(rss $pid) MB"
python3 Benchmarks/subsonic-bench.py "$port" bench bench | tee "$work/out"
after=$(rss $pid)
echo "resident memory after the sync: $after MB"
# The figures of Benchmarks/results/subsonic-bench.json, from subsonic-bench.py's lines.
ms() { sed -n "s/^$1: \([0-9.]*\) ms.*/\1/p" "$work/out" | head -1; }
python3 Benchmarks/write-result.py subsonic-bench "${MUSIC:+MUSIC=$MUSIC }Benchmarks/subsonic-bench.sh $MLIB" \
  "${MUSIC:-Fixtures} ($items items) and a 5-minute FLAC" startup_s="$startup" \
  full_sync_s="$(sed -n 's/^full sync[^:]*: \([0-9.]*\) s.*/\1/p' "$work/out")" getArtists_ms="$(ms getArtists)" \
  getAlbumList2_500_ms="$(ms 'getAlbumList2 alphabeticalByName size=500')" getAlbum_ms="$(ms getAlbum)" \
  search3_ms="$(ms 'search3 "love" (20 of each)')" rss_after_sync_mb="$after"
