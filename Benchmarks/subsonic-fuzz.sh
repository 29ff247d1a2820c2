#!/usr/bin/env bash
# subsonic-fuzz.sh [STORE] — the full run of the Subsonic request fuzzer (issue 37): every method x every
# parameter with hostile values (negative, huge, 1e300, NaN, 10,000-character strings, invalid UTF-8,
# repeated, empty), pairs of them, form POSTs and hostile authentication parameters, as a user who is not
# an admin (Tests/SubsonicServerTests/Scripts/fuzz_requests.py full), against `mlib serve --http` over the
# fixtures on STORE (sqlite, the default, or a postgres:// locator of an empty database). Then checks that
# the server is still up, stops it, and that the library opens and both servers serve it.
# Prints the request counts by HTTP status; exit status 1 when a request failed (5xx, a dropped
# connection, unparsable JSON) or anything after it did. RequestFuzzTests in `swift test` runs the quick
# share (one hostile value at a time) on both stores. MLIB: the binary (default: a debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${MLIB:-.build/debug/mlib}
[[ -x $MLIB ]] || swift build --product mlib >/dev/null
work=$(mktemp -d "${TMPDIR:-/tmp}/subsonic-fuzz.XXXXXX")
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
library=${1:-sqlite}
[[ $library == sqlite ]] && library=$work/library.sqlite
mkdir -p "$work/music"
cp Fixtures/*.flac Fixtures/*.mp3 Fixtures/*.ogg Fixtures/*.opus Fixtures/*.m4a "$work/music/" 2>/dev/null || true
ffmpeg -v error -f lavfi -i color=c=red:s=32x32 -frames:v 1 "$work/music/cover.jpg"
"$MLIB" scan --library "$library" -q "$work/music"
echo fuzz-pass | "$MLIB" user add fuzz --library "$library" --key-file "$work/key" >/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$MLIB" serve --library "$library" --key-file "$work/key" --http "127.0.0.1:$port" --no-mpd 2>"$work/err" &
pid=$!
for _ in $(seq 50); do grep -q "serving" "$work/err" && break; sleep 0.1; done
status=0
python3 Tests/SubsonicServerTests/Scripts/fuzz_requests.py "$port" fuzz fuzz-pass Sources/SubsonicServer/SubsonicServer.swift full \
  > "$work/summary.json" || status=1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["requests"], "requests over", d["methods"], "methods; by status:", d["status"], "; failures:", len(d["failures"]))
for f in d["failures"][:20]: print("  ", f)' "$work/summary.json"
kill -0 "$pid" 2>/dev/null || { echo "the server is gone"; status=1; }
kill -TERM "$pid"; wait "$pid" || { echo "the server did not exit cleanly"; status=1; }
"$MLIB" ls --library "$library" >/dev/null || { echo "the library does not open"; status=1; }
mpd_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$MLIB" serve --library "$library" --key-file "$work/key" --port "$mpd_port" --sink null --http "127.0.0.1:$port" 2>"$work/err2" &
pid=$!
for _ in $(seq 50); do [[ $(grep -c "serving" "$work/err2") -ge 2 ]] && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$port/rest/ping?u=fuzz&p=fuzz-pass&c=b&v=1.16.1&f=json" | grep -q '"ok"' || { echo "the API does not answer afterwards"; status=1; }
mpc -h 127.0.0.1 -p "$mpd_port" listall >/dev/null || { echo "the MPD port does not answer afterwards"; status=1; }
echo "afterwards: library opens, API and MPD answer: $([[ $status == 0 ]] && echo yes || echo NO)"
exit $status
