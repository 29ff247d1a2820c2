#!/usr/bin/env bash
# history-bench.sh MLIB [ROWS] [ITEMS]  — `mlib history`'s first page on a big listening history (issue 40:
# < 50 ms at 1,000,000 plays). Makes an SQLite library (schema by `mlib scan` of an empty folder), fills it
# with ITEMS items (default 100,000) and ROWS history rows (default 1,000,000: plays and skips spread over
# five years, four fronts, three users) with sqlite3, then times, each the median of 7 runs, whole process:
# `mlib history --limit 50`, `--json --limit 50`, `--since 7d --limit 50`, `--user bob --limit 50`, and
# beside them `mlib history --limit 0` (opens the library, reads nothing: the process floor); and the
# first page's statement alone in sqlite3 (with its query plan: the index on the time, no sort).
# Prints the command line, the binary's commit, the load and the cores.
set -euo pipefail
mlib=$(realpath "${1:?usage: history-bench.sh MLIB [ROWS] [ITEMS]}")
rows=${2:-1000000}
items=${3:-100000}
work=$(mktemp -d "${TMPDIR:-/tmp}/mlib-history-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty"
library=$work/library.sqlite
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data

echo "history-bench.sh $*"
echo "binary: $mlib ($(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?') in this tree)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$mlib" scan --quiet --library "$library" "$work/empty" >/dev/null
start=$(date +%s.%N)
sqlite3 "$library" <<SQL
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $items)
INSERT INTO items (path, path_text, dir, "title", "artist", "albumTitle", "mediaType")
SELECT CAST('/music/a' || (i % 500) || '/t' || i || '.flac' AS BLOB), '/music/a' || (i % 500) || '/t' || i || '.flac',
       CAST('/music/a' || (i % 500) AS BLOB), 'Track ' || i, 'Artist ' || (i % 500), 'Album ' || (i % 5000), 1 FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO history (item_id, kind, played_at, heard, front, user_name)
SELECT 1 + abs(random()) % $items, CASE WHEN i % 7 = 0 THEN 'skip' ELSE 'play' END,
       strftime('%s', 'now') - 5 * 365 * 86400.0 * (($rows - i) / CAST($rows AS REAL)), 30 + i % 300,
       CASE i % 4 WHEN 0 THEN 'play' WHEN 1 THEN 'mpd' WHEN 2 THEN 'subsonic' ELSE 'jukebox' END,
       CASE i % 3 WHEN 0 THEN NULL WHEN 1 THEN 'alice' ELSE 'bob' END FROM n;
-- The history's users are the library's accounts (--user names one): alice the owner, bob another.
INSERT INTO users (name, password, admin, created, is_owner) VALUES ('alice', '', 1, 0, 1), ('bob', '', 0, 0, 0);
COMMIT;
ANALYZE;
SQL
printf 'filled %s items and %s history rows in %.1f s\n' "$items" "$rows" "$(echo "$(date +%s.%N) - $start" | bc)"

median_ms() {   # COMMAND... -> the median wall time of 7 runs, in ms
    python3 - "$@" <<'PY'
import statistics, subprocess, sys, time
times = []
for _ in range(7):
    t = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
    times.append((time.perf_counter() - t) * 1000)
print(f"{statistics.median(times):.1f}")
PY
}
printf '%-44s %8s %s\n' "command" "median ms" "(target: first page < 50 ms)"
floor=$(median_ms "$mlib" history --limit 0 --library "$library")
page_ms=$(median_ms "$mlib" history --limit 50 --library "$library")
json=$(median_ms "$mlib" history --json --limit 50 --library "$library")
since=$(median_ms "$mlib" history --since 7d --limit 50 --library "$library")
bob=$(median_ms "$mlib" history --user bob --limit 50 --library "$library")
printf '%-44s %8s\n' "mlib history --limit 0 (process floor)" "$floor"
printf '%-44s %8s   < 50\n' "mlib history --limit 50" "$page_ms"
printf '%-44s %8s   < 50\n' "mlib history --json --limit 50" "$json"
printf '%-44s %8s   < 50\n' "mlib history --since 7d --limit 50" "$since"
printf '%-44s %8s   < 50\n' "mlib history --user bob --limit 50" "$bob"
page="SELECT h.id, h.item_id, h.kind, h.played_at, h.heard, h.front, h.user_name, i.\"title\", i.\"artist\", i.\"albumTitle\", i.path FROM history h LEFT JOIN items i ON i.id = h.item_id ORDER BY h.played_at DESC, h.id DESC LIMIT 50"
echo "the first page's statement in sqlite3:"
sqlite3 "$library" "EXPLAIN QUERY PLAN $page" | sed 's/^/  plan: /'
python3 - "$library" "$page" <<'PY' | tee "$work/statement"
import sqlite3, statistics, sys, time
db = sqlite3.connect(sys.argv[1])
times = []
for _ in range(20):
    t = time.perf_counter()
    db.execute(sys.argv[2]).fetchall()
    times.append((time.perf_counter() - t) * 1000)
print(f"  statement alone (python sqlite3, median of 20): {statistics.median(times):.2f} ms")
PY
statement=$(sed -n 's/.*median of 20): \([0-9.]*\) ms/\1/p' "$work/statement")
python3 "$(dirname "$0")/write-result.py" history-bench "Benchmarks/history-bench.sh $mlib $rows $items" \
  "synthetic: $items items, $rows history rows (five years, four fronts, three users)" \
  first_page_ms="$page_ms" first_page_json_ms="$json" since_7d_ms="$since" user_bob_ms="$bob" process_floor_ms="$floor" \
  statement_ms="$statement" target_ms=50
