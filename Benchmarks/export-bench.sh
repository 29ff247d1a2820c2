#!/usr/bin/env bash
# export-bench.sh [ITEMS] — seconds for `mlib export` of ITEMS (default 100,000) library items in every
# format, end to end (process start, SQLite read, formatting, atomic write). The goal is under 2 s.
# The library is synthesised with sqlite3 into the schema mlib itself creates (a scan of 100,000 real
# files would measure the scanner, not export). SCRATCH=dir picks the build directory (default .build);
# MLIB=path times that binary instead (no build).
set -euo pipefail
cd "$(dirname "$0")/.."
ITEMS=${1:-100000}
SCRATCH=${SCRATCH:-.build}
if [[ -z ${MLIB:-} ]]; then
  swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product mlib >/dev/null
  MLIB=$(swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --show-bin-path)/mlib
fi
[[ -x /usr/bin/time ]] || { echo "export-bench: /usr/bin/time is needed (apt install time)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "export-bench: sqlite3 is needed (apt install sqlite3)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/export-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
lib="$work/library.sqlite"

# Creates and migrates the schema (a command that only reads no longer makes a library: issue 39).
"$MLIB" playlist create bench --library "$lib" >/dev/null
sqlite3 "$lib" >/dev/null <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $ITEMS)
INSERT INTO items (path, path_text, dir, title, artist, albumTitle, genre, year, albumTrackNumber,
                   playbackDuration, mediaType, fileSize, container, audioCodec,
                   title_folded, artist_folded, albumTitle_folded, genre_folded, tags, dateAdded)
SELECT CAST(p AS BLOB), p, CAST(d AS BLOB), t, a, al, 'Rock', 1970 + i % 50, i % 14 + 1,
       120 + i % 300 + 0.25, 1, 4000000 + i, 'flac', 'flac', lower(t), lower(a), lower(al), 'rock',
       '{"ARTIST":"' || a || '"}', 1700000000 + i
FROM (SELECT i,
             '/srv/music/Artist ' || (i % 700) || ' & Co/Album #' || (i % 9000) AS d,
             '/srv/music/Artist ' || (i % 700) || ' & Co/Album #' || (i % 9000) || '/' || (i % 14 + 1)
               || ' Tïtle "' || i || '" 100%.flac' AS p,
             'Tïtle "' || i || '" & more' AS t, 'Artist ' || (i % 700) || ' & Co' AS a,
             'Album #' || (i % 9000) AS al
      FROM n);
COMMIT;
SQL
echo "library: $(sqlite3 "$lib" 'SELECT COUNT(*) FROM items') items"

# Wall time is what the goal is about; CPU time (user + sys) is also shown because on a shared machine
# the wall clock includes waiting for a core.
timed() { /usr/bin/time -f "%e %U %S" -o "$work/time" "$@"; read -r wall user sys < "$work/time"; }
echo "format sort           items    wall     cpu    size"
figures=()
for format in m3u8 m3u pls xspf jspf json; do
  for sort in "" "-year,title"; do
    args=(export --library "$lib" --format "$format" -o "$work/out.$format")
    [[ -n $sort ]] && args+=(--sort "$sort")
    timed "$MLIB" "${args[@]}"
    awk -v f="$format" -v s="${sort:-default}" -v n="$ITEMS" -v w="$wall" -v c="$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
        -v bytes="$(wc -c < "$work/out.$format")" \
      'BEGIN { printf "%-6s %-12s %7d %6.2f s %5.2f s %5.1f MB%s\n", f, s, n, w, c, bytes / 1e6, (w < 2 ? "" : "  (over 2 s)") }'
    [[ -z $sort ]] && figures+=("${format}_s=$wall")
  done
done
"$MLIB" export --library "$lib" --format xspf -o "$work/check.xspf" --limit 2000
command -v xmllint >/dev/null && xmllint --noout "$work/check.xspf" && echo "xspf sample well-formed (xmllint)"
python3 Benchmarks/write-result.py export-bench "MLIB=${MLIB} Benchmarks/export-bench.sh $ITEMS" \
  "$ITEMS synthetic items written with sqlite3 into mlib's schema; wall seconds per format, default order" "${figures[@]}"
