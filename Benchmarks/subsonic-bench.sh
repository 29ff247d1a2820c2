#!/usr/bin/env bash
# subsonic-bench.sh [MLIB] — `mlib serve --http` (the OpenSubsonic API) on a library of MUSIC=DIR
# (e.g. `../shared/tools/make-corpus.sh /tmp/c10k 10000`; default: the fixtures): start-up to the first
# request, resident memory after start and after a full sync, and the client-side figures of
# subsonic-bench.py (Symfonium's search3 full sync in pages of 500, getArtists, getAlbumList2, getAlbum, and
# transcoding: time to first byte, speed × real time), with issue 42's p95 figures (getAlbumList2, getArtists,
# getAlbum, getSimilarSongs2, getTopSongs) and a star's time until getStarred2 shows it. 100,000 items:
# MUSIC=/work/corpora/c100k (the 10,004-file make-corpus copied ten times).
# LIBRARY=PATH reuses a library already scanned from MUSIC (no scan, no transcoding figures).
# With SUPYSONIC=1, the results file is written only for mlib; the peer's lines are printed.
# SUPYSONIC=1: the same client against supysonic (PyPI; `pip install supysonic waitress`; its commands on PATH or
# in SUPYSONIC_BIN) serving the same MUSIC in the same run, after mlib: its scan time (or SUPYSONIC_DIR=DIR, a
# folder holding a supysonic.conf whose database already holds MUSIC, and user bench/bench), RSS and figures.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/release/mlib}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --product mlib)" >&2; exit 2; }
music=${MUSIC:-$PWD/Fixtures}
work=$(mktemp -d "${TMPDIR:-/tmp}/subsonic-bench.XXXXXX")
trap 'kill "${pid:-}" "${peer:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# A 5-minute stereo 44.1 kHz FLAC (pink noise under a tone: no encoder's easy case) for the transcoding figures,
# in a root of its own beside the corpus.
if [[ -n ${LIBRARY:-} ]]; then
  library=$LIBRARY
else
library=$work/library.sqlite
mkdir -p "$work/long"
ffmpeg -v error -f lavfi -i "anoisesrc=color=pink:amplitude=0.3:duration=300:sample_rate=44100" -f lavfi -i "sine=f=440:duration=300:sample_rate=44100" \
  -filter_complex "[0][1]amix=inputs=2,aformat=channel_layouts=stereo" -metadata title="Transcode bench" -metadata artist="Bench" \
  -c:a flac "$work/long/transcode-bench.flac"
t0=$(date +%s.%N)
"$MLIB" scan --library "$library" -q "$music" "$work/long" >/dev/null 2>&1 || true
echo "mlib scan: $(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')") s"
fi
items=$("$MLIB" stats --library "$library" | awk '/^ *[Ii]tems/ { print $2; exit }')
"$MLIB" user add bench --password bench --library "$library" >/dev/null 2>&1 || true
echo "corpus: $music ($items items); load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB"

t0=$(date +%s.%N)
"$MLIB" serve --library "$library" --http 127.0.0.1:0 --no-mpd 2>"$work/err" &
pid=$!
for _ in $(seq 6000); do grep -q "serving" "$work/err" 2>/dev/null && break; sleep 0.01; done
port=$(grep -o '127.0.0.1:[0-9]*' "$work/err" | head -1 | cut -d: -f2)
listening=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')")
# The server listens at once and builds its view behind; a catalog call waits for it.
curl -s "http://127.0.0.1:$port/rest/getArtists?u=bench&p=bench&c=bench&v=1.16.1&f=json" >/dev/null
startup=$(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')")
echo "start-up to listening: $listening s; to the first catalog answer (view and catalog built): $startup s"
echo "resident memory after start: $(rss $pid) MB"
python3 Benchmarks/subsonic-bench.py "$port" bench bench | tee "$work/out"
after=$(rss $pid)
echo "resident memory after the sync: $after MB"
# The figures of Benchmarks/results/subsonic-bench.json, from subsonic-bench.py's lines.
ms() { sed -n "s/^$1: \([0-9.]*\) ms.*/\1/p" "$work/out" | head -1; }
p95() { sed -n "s/^$1 p95: \([0-9.]*\) ms.*/\1/p" "$work/out" | head -1; }
python3 Benchmarks/write-result.py subsonic-bench "${MUSIC:+MUSIC=$MUSIC }Benchmarks/subsonic-bench.sh $MLIB" \
  "${MUSIC:-Fixtures} ($items items)$([[ -n ${LIBRARY:-} ]] && echo ", its library reused (no transcoding figures)" || echo " and a 5-minute FLAC")" startup_s="$startup" \
  full_sync_s="$(sed -n 's/^full sync[^:]*: \([0-9.]*\) s.*/\1/p' "$work/out")" \
  full_sync_waiting_s="$(sed -n 's/^full sync.*; \([0-9.]*\) s of it waiting.*/\1/p' "$work/out")" getArtists_ms="$(ms getArtists)" \
  getAlbumList2_500_ms="$(ms 'getAlbumList2 alphabeticalByName size=500')" getAlbum_ms="$(ms getAlbum)" \
  search3_ms="$(ms 'search3 "love" (20 of each)')" rss_after_sync_mb="$after" \
  getAlbumList2_p95_ms="$(p95 'getAlbumList2 newest size=50')" getArtists_p95_ms="$(p95 getArtists)" getAlbum_p95_ms="$(p95 getAlbum)" \
  getSimilarSongs2_p95_ms="$(p95 'getSimilarSongs2 count=50')" getTopSongs_p95_ms="$(p95 'getTopSongs count=50')" \
  star_visible_ms="$(sed -n 's/^star visible in getStarred2: \([0-9.]*\) ms.*/\1/p' "$work/out")"

[[ ${SUPYSONIC:-0} == 1 ]] || exit 0
kill "$pid"; wait "$pid" 2>/dev/null || true
bin=${SUPYSONIC_BIN:-$(dirname "$(command -v supysonic-server || echo /nonexistent/x)")}
[[ -x $bin/supysonic-server ]] || { echo "supysonic not installed (pip install supysonic waitress; or SUPYSONIC_BIN=DIR)" >&2; exit 2; }
if [[ -n ${SUPYSONIC_DIR:-} ]]; then
  supy=$SUPYSONIC_DIR
else
  supy=$work/supysonic; mkdir -p "$supy"
  printf '[base]\ndatabase_uri = sqlite:///%s/supysonic.db\n[webapp]\ncache_dir = %s/cache\n[daemon]\nsocket = %s/supysonic.sock\nrun_watcher = no\n' \
    "$supy" "$supy" "$supy" > "$supy/supysonic.conf"
  (cd "$supy" && "$bin/supysonic-cli" user add bench -p bench && "$bin/supysonic-cli" folder add music "$music") >/dev/null
  t0=$(date +%s.%N)
  (cd "$supy" && "$bin/supysonic-cli" folder scan music) >/dev/null 2>&1
  echo "supysonic scan: $(python3 -c "print(f'{$(date +%s.%N) - $t0:.1f}')") s"
fi
port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
t0=$(date +%s.%N)
(cd "$supy" && exec "$bin/supysonic-server" -S waitress -h 127.0.0.1 -p "$port" 2>"$work/peer-err") &
peer=$!
until curl -fs "http://127.0.0.1:$port/rest/ping.view?u=bench&p=bench&v=1.16.1&c=b&f=json" >/dev/null 2>&1; do sleep 0.05; done
echo "supysonic $("$bin/python3" -c "import importlib.metadata as m; print(m.version('supysonic'))" 2>/dev/null) (waitress) on the same folder: start-up to the first answer $(python3 -c "print(f'{$(date +%s.%N) - $t0:.2f}')") s"
peer_pid=$( (pgrep -P "$peer" || true) | head -1); peer_pid=${peer_pid:-$peer}
echo "supysonic resident memory after start: $(rss "$peer_pid") MB"
python3 Benchmarks/subsonic-bench.py "$port" bench bench --peer | sed 's/^/supysonic /'
echo "supysonic resident memory after the sync: $(rss "$peer_pid") MB"
