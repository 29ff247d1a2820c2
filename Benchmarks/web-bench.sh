#!/usr/bin/env bash
# web-bench.sh [ITEMS]   (default 100000) — issue 45's web app figures in a real browser (web-bench.py: Playwright
# driving Debian's chromium headless), at ITEMS synthetic items (BenchmarkSupport's SyntheticItems through the
# store: 10 tracks an album; no media files) plus one album of 2,000 tracks (copies of a fixture FLAC, scanned):
# first page interactive, the 2,000-track album's click, a 10,000-song queue's clicks, the albums grid scrolled end
# to end (long tasks), total JS; and the server's resident memory with and without the web app: at start with
# --no-web and with it, and after the browser's session.
# Env: MLIB (default .build/release/mlib), FILLER (default: synthetic-library beside MLIB), BENCH_DIR (default
# bench-out: the library is kept there as web-N.sqlite and reused).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${MLIB:-.build/release/mlib}
FILLER=${FILLER:-$(dirname "$MLIB")/synthetic-library}
[[ -x "$MLIB" && -x "$FILLER" ]] || { echo "need $MLIB and $FILLER (swift build -c release --product mlib; --product synthetic-library)" >&2; exit 2; }
[[ -x /usr/bin/chromium ]] && python3 -c "import playwright" 2>/dev/null || { echo "need chromium and python3's playwright (scripts/install-deps.sh)" >&2; exit 2; }
n=${1:-100000}
out=$(realpath -m "${BENCH_DIR:-bench-out}")
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/web-bench.XXXXXX")
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
library=$out/web-$n.sqlite
key=$out/web-$n.key   # the users' key file stays with the library it was made for (a reused library needs it)
big=$out/web-big-album
if [[ ! -f $library ]]; then
  "$FILLER" "$library" "$n" >&2
  # One album of 2,000 tracks: the fixture FLAC's copies (all tagged album "Test Pressing"), in a root of their own.
  mkdir -p "$big"
  for i in $(seq -w 1 2000); do cp Fixtures/flac-vorbis-cover.flac "$big/$i.flac"; done
  "$MLIB" scan --library "$library" -q "$big" >&2
  "$MLIB" user add bench --admin --password bench --library "$library" --key-file "$key" >/dev/null 2>&1
fi
items=$("$MLIB" ls --library "$library" -f '$persistentID' | wc -l)
echo "web-bench: $items items ($n synthetic + a 2,000-track album); $MLIB; load average $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"

start() {   # start [extra…]: mlib serve --http on port 0; sets pid and port
  "$MLIB" serve --library "$library" --http 127.0.0.1:0 --no-mpd --key-file "$key" "$@" 2>"$work/err" &
  pid=$!
  for _ in $(seq 6000); do grep -q "serving" "$work/err" 2>/dev/null && break; sleep 0.01; done
  port=$(grep -o '127.0.0.1:[0-9]*' "$work/err" | head -1 | cut -d: -f2)
  # The view and catalog are built once the API answers a catalog call (getScanStatus answers while they build).
  curl -s "http://127.0.0.1:$port/rest/getArtists?u=bench&p=bench&c=b&v=1.16.1&f=json" >/dev/null
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

start --no-web
echo "RSS at start, --no-web: $(rss $pid) MB"
stop
start
echo "RSS at start, with the web app: $(rss $pid) MB"
album=$(curl -s "http://127.0.0.1:$port/rest/search3?query=Test%20Pressing&albumCount=1&songCount=0&artistCount=0&u=bench&p=bench&c=b&v=1.16.1&f=json" \
  | python3 -c "import json,sys; print(json.load(sys.stdin)['subsonic-response']['searchResult3']['album'][0]['id'])")
python3 Benchmarks/web-bench.py "http://127.0.0.1:$port" bench bench "$album" | tee "$work/out"
after=$(rss $pid)
echo "RSS after the browser's session: $after MB (what the web app adds: Benchmarks/webapp-weight.sh, target < 20 MB)"
stop
# The figures of Benchmarks/results/web-bench.json, from web-bench.py's lines.
grab() { sed -n "s/$1/\1/p" "$work/out" | head -1; }
python3 Benchmarks/write-result.py web-bench "Benchmarks/web-bench.sh $n" \
  "$items items ($n synthetic + a 2,000-track album); Playwright driving Debian's chromium headless" \
  first_page_median_ms="$(grab '^first page interactive.*: median \([0-9.]*\) ms.*')" \
  first_page_worst_ms="$(grab '^first page interactive.*worst \([0-9.]*\) ms.*')" \
  javascript_kb="$(grab '^JavaScript: \([0-9.]*\) KB.*')" \
  grid_longest_task_ms="$(grab '^albums grid.*longest task \([0-9.]*\) ms.*')" \
  grid_tasks_over_50ms="$(grab '^albums grid.*ms, \([0-9]*\) tasks > 50 ms.*')" \
  album_open_ms="$(grab '^album of.*drawn median \([0-9.]*\) ms.*')" \
  album_add_to_queue_ms="$(grab '^album of.*Add to the queue \([0-9.]*\) ms.*')" \
  queue_move_ms="$(grab '^queue of.*Move down \([0-9.]*\) ms.*')" queue_remove_ms="$(grab '^queue of.*Remove \([0-9.]*\) ms.*')" \
  queue_play_ms="$(grab '^queue of.*Play \([0-9.]*\) ms.*')" rss_after_session_mb="$after"
