#!/usr/bin/env bash
# recommend-bench.sh MLIB [PLAYS] [ITEMS] — similar songs and similar artists served from the library itself
# (issue 40: similar songs for a seed at 100,000 items and 1,000,000 plays < 50 ms). Makes an SQLite library
# (schema by `mlib scan` of an empty folder) with ITEMS items (default 100,000: 2,000 album artists, 40
# genres, some songs in two, years 1950–2025) and PLAYS history rows (default 1,000,000 over five years,
# three listeners) with sqlite3, serves it (`mlib serve --http`), and times with a Python client, each the
# median of 25 requests over different seeds, whole request: `getSimilarSongs2` of a song (as the owner and
# as another user), of an artist (its songs are the seeds), `getArtistInfo2`, and `ping` beside them (the
# request floor). Prints the command line, the binary's commit, the load and the cores, and writes
# Benchmarks/results/recommend-bench.json. ARTISTS=N: N album artists instead of 2,000 (ARTISTS=44: some
# 2,300 songs an artist, as /work/corpora/c100k has; issue 42's getSimilarSongs2 case).
# NO_RESULT=1: the results file is not written (a debug build, an A/B).
set -euo pipefail
cd "$(dirname "$0")/.."
mlib=$(realpath "${1:?usage: recommend-bench.sh MLIB [PLAYS] [ITEMS]}")
plays=${2:-1000000}
items=${3:-100000}
artists=${ARTISTS:-2000}
work=$(mktemp -d "${TMPDIR:-/tmp}/mlib-recommend-bench.XXXXXX")
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/empty"
library=$work/library.sqlite
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data

echo "recommend-bench.sh $*"
echo "binary: $mlib ($(git rev-parse --short HEAD 2>/dev/null || echo '?') in this tree)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$mlib" scan --quiet --library "$library" "$work/empty" >/dev/null
"$mlib" user add alice --admin --password alice --library "$library" >/dev/null
"$mlib" user add bob --password bob --library "$library" >/dev/null
start=$(date +%s.%N)
sqlite3 "$library" <<SQL
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $items)
INSERT INTO items (path, path_text, dir, "title", "artist", "albumArtist", "albumTitle", "genre", "year", "mediaType", "playbackDuration")
SELECT CAST('/music/a' || (i % $artists) || '/t' || i || '.flac' AS BLOB), '/music/a' || (i % $artists) || '/t' || i || '.flac',
       CAST('/music/a' || (i % $artists) AS BLOB), 'Track ' || i, 'Artist ' || (i % $artists), 'Artist ' || (i % $artists),
       'Album ' || (i % 10000), CASE WHEN i % 5 = 0 THEN 'Genre ' || (i % $artists % 40) || '; Genre ' || ((i % $artists + 7) % 40)
                                    ELSE 'Genre ' || (i % $artists % 40) END,
       1950 + (i % $artists) % 76, 1, 180 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $plays)
INSERT INTO history (item_id, kind, played_at, heard, front, user_name)
SELECT 1 + abs(random()) % $items, 'play', strftime('%s', 'now') - 5 * 365 * 86400.0 * (($plays - i) / CAST($plays AS REAL)), 180,
       'subsonic', CASE i % 3 WHEN 0 THEN NULL WHEN 1 THEN 'alice' ELSE 'bob' END FROM n;
COMMIT;
ANALYZE;
SQL
printf 'filled %s items and %s plays in %.1f s\n' "$items" "$plays" "$(echo "$(date +%s.%N) - $start" | bc)"

t0=$(date +%s.%N)
"$mlib" serve --library "$library" --http 127.0.0.1:0 --no-mpd 2>"$work/err" &
pid=$!
for _ in $(seq 12000); do grep -q "serving" "$work/err" 2>/dev/null && break; sleep 0.01; done
port=$(grep -o '127.0.0.1:[0-9]*' "$work/err" | cut -d: -f2)
printf 'start-up to listening: %.2f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)"
python3 - "$port" "$items" > "$work/out" <<'PY'
import json, random, statistics, sys, time, urllib.request
port, items = sys.argv[1], int(sys.argv[2])
random.seed(40)
def call(method, user, **query):
    query.update(u=user, p=user, c="bench", v="1.16.1", f="json")
    url = f"http://127.0.0.1:{port}/rest/{method}?" + "&".join(f"{k}={v}" for k, v in query.items())
    t = time.perf_counter()
    body = json.load(urllib.request.urlopen(url))
    elapsed = (time.perf_counter() - t) * 1000
    assert body["subsonic-response"]["status"] == "ok", body
    return elapsed, body["subsonic-response"]
def median(label, method, user, make):
    times, sizes = [], []
    for _ in range(25):
        elapsed, answer = call(method, user, **make())
        times.append(elapsed)
        key = next((k for k in answer if k not in ("status", "version", "type", "serverVersion", "openSubsonic")), None)
        sizes.append(len(answer.get(key, {}).get("song", answer.get(key, {}).get("similarArtist", []))) if key else 0)
    p95 = sorted(times)[23]   # the nearest rank of 25
    print(f"{label}: {statistics.median(times):.1f} ms (median of 25; p95 {p95:.1f} ms; {statistics.median(sizes):.0f} results)")
artists = [a["id"] for index in call("getArtists", "alice")[1]["artists"]["index"] for a in index["artist"]]
song = lambda: {"id": random.randint(1, items), "count": 50}
median("ping", "ping", "alice", dict)
median("getSimilarSongs2 of a song, owner", "getSimilarSongs2", "alice", song)
median("getSimilarSongs2 of a song, other user", "getSimilarSongs2", "bob", song)
median("getSimilarSongs2 of an artist", "getSimilarSongs2", "alice", lambda: {"id": random.choice(artists), "count": 50})
median("getArtistInfo2", "getArtistInfo2", "alice", lambda: {"id": random.choice(artists), "count": 20})
PY
cat "$work/out"
ms() { sed -n "s/^$1: \([0-9.]*\) ms.*/\1/p" "$work/out" | head -1; }
printf 'target: similar songs for a seed < 50 ms: a song %s ms (owner), %s ms (other user); an artist (its songs as seeds) %s ms\n' \
  "$(ms 'getSimilarSongs2 of a song, owner')" "$(ms 'getSimilarSongs2 of a song, other user')" "$(ms 'getSimilarSongs2 of an artist')"
[[ -n ${NO_RESULT:-} ]] || python3 Benchmarks/write-result.py recommend-bench "Benchmarks/recommend-bench.sh $mlib $plays $items" \
  "synthetic: $items items, $plays plays (three listeners)" ping_ms="$(ms ping)" \
  similar_song_owner_ms="$(ms 'getSimilarSongs2 of a song, owner')" similar_song_other_ms="$(ms 'getSimilarSongs2 of a song, other user')" \
  similar_artist_seed_ms="$(ms 'getSimilarSongs2 of an artist')" artist_info_ms="$(ms getArtistInfo2)" target_ms=50
