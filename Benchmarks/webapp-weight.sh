#!/usr/bin/env bash
# webapp-weight.sh [MLIB] — what the web app (issue 45) weighs: the page's files (uncompressed, gzipped; the
# JavaScript apart: target < 100 KB), and the server's resident memory it adds (target < 20 MB): `mlib serve
# --http --no-mpd --no-web` against the same with the web app, on one library of ITEMS synthetic items
# (default 100,000; synthetic-library beside MLIB), each measured after the same API reads, the web one also
# after a login, the page and every file fetched gzipped, ten /api/query pages, /api/status and an open
# /api/events stream. LIBRARY=PATH reuses a library (no filling), with KEY=PATH its users' key file when it
# has user bench already (web-bench.sh's bench-out/web-N.sqlite and web-N.key).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/release/mlib}
FILLER=${FILLER:-$(dirname "$MLIB")/synthetic-library}
ITEMS=${ITEMS:-100000}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --product mlib)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/webapp-weight.XXXXXX")
trap 'kill "${pid:-}" "${events:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

echo "== the page's files (Sources/WebApp/Assets)"
total=0; js=0; zipped=0
for f in Sources/WebApp/Assets/*; do
  n=$(stat -c %s "$f"); z=$(gzip -9c "$f" | wc -c)
  total=$((total + n)); zipped=$((zipped + z))
  [[ $f == *.js ]] && js=$((js + n))
  printf '  %-28s %7d B  gzip %6d B\n' "${f#Sources/WebApp/Assets/}" "$n" "$z"
done
printf '  all: %d B (gzip %d B); JavaScript: %d B (target < 100 KB = 102400 B: %s)\n' "$total" "$zipped" "$js" \
  "$([[ $js -lt 102400 ]] && echo met || echo MISSED)"

library=${LIBRARY:-$work/library.sqlite}
if [[ -z ${LIBRARY:-} ]]; then
  [[ -x "$FILLER" ]] || { echo "no $FILLER (swift build --product synthetic-library)" >&2; exit 2; }
  "$FILLER" "$library" "$ITEMS" >/dev/null
fi
key=${KEY:-$work/key}
"$MLIB" user add bench --admin --password bench --library "$library" --key-file "$key" >/dev/null 2>&1 || [[ -n ${KEY:-} ]]
echo "== resident memory: $ITEMS items; load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB"

serve() {  # serve EXTRA… : starts the server, sets pid and port
  "$MLIB" serve --library "$library" --key-file "$key" --http 127.0.0.1:0 --no-mpd "$@" 2>"$work/err" &
  pid=$!
  for _ in $(seq 200); do grep -q "serving the Subsonic API" "$work/err" 2>/dev/null && break; sleep 0.05; done
  port=$(grep "serving the Subsonic API" "$work/err" | head -1 | sed -E 's/.*127\.0\.0\.1:([0-9]+).*/\1/')
  base=http://127.0.0.1:$port
  # The same API reads in both runs: the view and its catalog built, a page of albums.
  curl -s "$base/rest/getAlbumList2?type=alphabeticalByName&size=500&u=bench&p=bench&f=json" >/dev/null
  curl -s "$base/rest/getArtists?u=bench&p=bench&f=json" >/dev/null
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

serve --no-web
sleep 1
without=$(rss "$pid")
stop

serve
jar=$work/jar
curl -s -c "$jar" -H 'Content-Type: application/json' --data '{"user":"bench","password":"bench"}' "$base/api/login" \
  >/dev/null
curl -s --compressed "$base/" >/dev/null
for f in Sources/WebApp/Assets/*; do curl -s --compressed "$base/app/${f#Sources/WebApp/Assets/}" >/dev/null; done
for i in $(seq 0 9); do curl -s -b "$jar" "$base/api/query?sort=album,track&offset=$((i * 100))&limit=100" >/dev/null; done
curl -s -b "$jar" "$base/api/query?q=year:1990..1999&limit=100" >/dev/null
curl -s -b "$jar" "$base/api/status" >/dev/null
curl -s -N -b "$jar" "$base/api/events" >/dev/null & events=$!
sleep 1
with=$(rss "$pid")
kill "$events" 2>/dev/null || true
stop
python3 - "$without" "$with" <<'PY'
import sys
without, with_ = float(sys.argv[1]), float(sys.argv[2])
added = with_ - without
print(f"  --no-web: {without:.1f} MB   with the web app, used: {with_:.1f} MB   added: {added:.1f} MB "
      f"(target < 20 MB: {'met' if added < 20 else 'MISSED'})")
PY
