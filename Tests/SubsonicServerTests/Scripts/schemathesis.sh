#!/usr/bin/env bash
# schemathesis.sh [MLIB] [EXAMPLES] — fuzzes `mlib serve --http` with schemathesis (`pip install schemathesis`,
# 4.x) against the vendored OpenSubsonic OpenAPI description, for the methods mlib serves, authenticated with
# a user's API key: every answer must be other than 5xx, and the server must be alive at the end.
# Not run by CI (minutes, and a large PyPI install); issue 27's fuzz run. Seen 2026-11-25: 2,321 cases, no issue.
set -euo pipefail
cd "$(dirname "$0")/../../.."
MLIB=${1:-.build/debug/mlib}
EXAMPLES=${2:-25}
work=$(mktemp -d "${TMPDIR:-/tmp}/subsonic-fuzz.XXXXXX")
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
"$MLIB" scan --library "$work/library.sqlite" -q Fixtures >/dev/null 2>&1 || true
"$MLIB" user add fuzz --password fuzz --library "$work/library.sqlite" >/dev/null
key=$("$MLIB" user key fuzz --reset --library "$work/library.sqlite" | sed "s/^apiKey=//")
"$MLIB" serve --library "$work/library.sqlite" --http 127.0.0.1:0 --no-mpd 2>"$work/err" &
pid=$!
for _ in $(seq 500); do grep -q serving "$work/err" 2>/dev/null && break; sleep 0.01; done
port=$(grep -o '127.0.0.1:[0-9]*' "$work/err" | cut -d: -f2)
printf '[parameters]\n"query.apiKey" = "%s"\n' "$key" > "$work/schemathesis.toml"
methods='ping|getLicense|getOpenSubsonicExtensions|getMusicFolders|getIndexes|getMusicDirectory|getArtists|getArtist|getAlbum'
methods+='|getSong|getAlbumList2|getRandomSongs|getGenres|getSongsByGenre|search3|stream|download|getCoverArt|scrobble|star'
methods+='|unstar|getStarred2|setRating|getPlaylists|getPlaylist|createPlaylist|updatePlaylist|deletePlaylist|getScanStatus'
methods+='|getUser|getPlayQueue|savePlayQueue'
(cd "$work" && schemathesis run "$OLDPWD/Tests/SubsonicServerTests/Fixtures/openapi/openapi.json" -u "http://127.0.0.1:$port" \
    --include-operation-id-regex "^($methods)\$" -c not_a_server_error -n "$EXAMPLES" --request-timeout 10 -w 1)
kill -0 "$pid" && echo "the server is alive after the run"
