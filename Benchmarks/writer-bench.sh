#!/usr/bin/env bash
# writer-bench.sh LIBRARY [COPIES]   (default COPIES: 1; 10 makes ~100,000 rows of a 10,000-item library)
#
# The scan's SQLite writer alone (issue 50: "measure the writer alone"), without reading a file: the items of
# LIBRARY (a library a full scan made, e.g. scan-bench's bench-out/library-10000.sqlite) written again into an
# empty database of the same schema (its own `.schema`, so every index, the full-text index and the triggers
# are what mlib made), the way a first scan writes them: WAL, 8 KiB pages, synchronous NORMAL, one
# `INSERT … SELECT` per batch of 500 rows in the order they were read (ids), each batch its own transaction.
# COPIES > 1 writes the rows that many times under other paths (ids and paths made unique) for a larger library.
# Variants, each into a fresh database, CPU (user + sys) of the sqlite3 process and µs per row:
#   scan        what a first scan does now (every index and the FTS trigger maintained row by row)
#   floor       no secondary index on items and no FTS trigger (the unique path index and the change log stay):
#               the least the rows cost
#   deferred    `floor`, then the same indexes created and the full-text index filled once at the end
#               (issue 50's "secondary/full-text indexes built after a first scan of an empty library")
#   batch2000   `scan` with batches of 2,000 rows (fewer commits: fewer rewrites of the same index pages)
# The system sqlite3 shell uses the same libsqlite3 as mlib (GRDBSQLite links the system library).
# Env: BENCH_DIR (default bench-out), RESULT=1 writes Benchmarks/results/writer-bench-ROWS.json.
set -euo pipefail
cd "$(dirname "$0")/.."
library=${1:?usage: writer-bench.sh LIBRARY [COPIES]}
copies=${2:-1}
out=${BENCH_DIR:-$PWD/bench-out}/writer-bench
mkdir -p "$out"
command -v sqlite3 >/dev/null || { echo "sqlite3 (the shell) is needed" >&2; exit 1; }
items=$(sqlite3 -readonly "$library" "SELECT count(*) FROM items")
max_id=$(sqlite3 -readonly "$library" "SELECT max(id) FROM items")
rows=$((items * copies))
# The schema as the library has it, less SQLite's own table.
sqlite3 -readonly "$library" .schema | grep -v '^CREATE TABLE sqlite_sequence' >"$out/schema.sql"
# Each statement of the schema on one line, so that the indexes on items can be told apart.
python3 - "$out" <<'PYTHON'
import re, sys
out = sys.argv[1]
text = open(f"{out}/schema.sql", encoding="utf-8").read()
statements, current = [], []
for line in text.splitlines(keepends=True):
    current.append(line)
    joined = "".join(current)
    if joined.rstrip().endswith(";") and (not joined.lstrip().upper().startswith("CREATE TRIGGER") or joined.rstrip().upper().endswith("END;")):
        statements.append(joined.strip()); current = []
on_items = re.compile(r'^CREATE (UNIQUE )?INDEX .* ON "?items"? ?\(', re.S)
with open(f"{out}/schema-floor.sql", "w") as f, open(f"{out}/indexes.sql", "w") as g:
    for s in statements:
        if on_items.match(s) and not s.startswith("CREATE UNIQUE"):
            g.write(s + "\n")
        elif s.startswith("CREATE TRIGGER items_fts_insert"):
            continue
        else:
            f.write(s + "\n")
    g.write("INSERT INTO items_fts(items_fts) VALUES('rebuild');\n")
PYTHON
# rebuild reads the unfolded columns; the triggers write the folded ones: fill it from those instead.
fts_columns=$(sqlite3 -readonly "$library" "SELECT group_concat(name, ', ') FROM pragma_table_info('items_fts')")
folded=$(sqlite3 -readonly "$library" "SELECT group_concat('\"' || name || '_folded\"', ', ') FROM pragma_table_info('items_fts')")
sed -i "s/^INSERT INTO items_fts(items_fts) VALUES('rebuild');/INSERT INTO items_fts(rowid, $fts_columns) SELECT id, $folded FROM items;/" "$out/indexes.sql"

# statements BATCH -> the writes: COPIES rounds of batches of BATCH rows, ids and paths unique per round.
statements() {
  local batch=$1 k i
  echo "ATTACH '$library' AS src;"
  echo "CREATE TEMP TABLE t AS SELECT * FROM src.items;"
  echo "DETACH src;"
  for k in $(seq 1 "$copies"); do
    for i in $(seq 0 $((max_id / batch))); do
      echo "INSERT INTO items SELECT * FROM temp.t WHERE id BETWEEN $((i * batch + 1 + (k - 1) * max_id)) AND $(((i + 1) * batch + (k - 1) * max_id)) ORDER BY id;"
    done
    echo "UPDATE temp.t SET id = id + $max_id, path = path || X'2B', path_text = path_text || '+';"
  done
}
# variant NAME SCHEMA BATCH [AFTER] -> "NAME CPU_SECONDS": a fresh database, the writes, then AFTER.
variant() {
  local name=$1 schema=$2 batch=$3 after=${4:-/dev/null} db="$out/$1.sqlite"
  rm -f "$db" "$db"-wal "$db"-shm
  sqlite3 "$db" "PRAGMA page_size = 8192; PRAGMA journal_mode = WAL;" >/dev/null
  sqlite3 "$db" <"$schema"
  { echo "PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY;"; statements "$batch"; cat "$after"; } >"$out/$name.sql"
  /usr/bin/time -f "%U %S" -o "$out/time" sqlite3 -bail "$db" <"$out/$name.sql" >/dev/null
  local n; n=$(sqlite3 "$db" "SELECT count(*) FROM items")
  [[ $n == "$rows" ]] || { echo "$name wrote $n rows, not $rows" >&2; exit 1; }
  echo "$name $(awk '{ printf "%.2f", $1 + $2 }' "$out/time")"
}
per_row() { awk -v c="$1" -v n="$rows" 'BEGIN { printf "%.1f", c * 1e6 / n }'; }

echo "== the scan's writer alone: $rows rows ($items items of $library × $copies), load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A cpu
for spec in "scan $out/schema.sql 500" "floor $out/schema-floor.sql 500" "deferred $out/schema-floor.sql 500 $out/indexes.sql" \
            "batch2000 $out/schema.sql 2000"; do
  read -r name seconds < <(variant $spec)
  cpu[$name]=$seconds
  printf '%-10s %7s s CPU  %6s µs/row\n' "$name" "$seconds" "$(per_row "$seconds")"
done
echo "(load $(cut -d' ' -f1-3 /proc/loadavg))"
if [[ ${RESULT:-0} == 1 ]]; then
  python3 Benchmarks/write-result.py "writer-bench-$rows" "${0##*/} LIBRARY $copies" "the items of a make-corpus full scan ($items) × $copies" \
    scan_us_per_row="$(per_row "${cpu[scan]}")" floor_us_per_row="$(per_row "${cpu[floor]}")" \
    deferred_us_per_row="$(per_row "${cpu[deferred]}")" batch2000_us_per_row="$(per_row "${cpu[batch2000]}")"
fi
