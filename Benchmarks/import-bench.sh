#!/usr/bin/env bash
# import-bench.sh MLIB [TRACKS]  — `mlib import-userdata itunes` of a big Library.xml (issue 40: a
# 100,000-track Library.xml in < 10 s). Makes an SQLite library (schema by `mlib scan` of an empty folder)
# with TRACKS items (default 100,000) filled by sqlite3, and a Library.xml of the same tracks as Music.app
# writes it (Location file:// URLs under /Users/me/Music, Play Count, Skip Count, Rating, Play Date UTC,
# Loved on one in ten; one track in a hundred under a folder the library does not have, matched by tags). Then times,
# whole process, once each: the dry run, the import, and the same import again (which changes nothing),
# each with its CPU time (user + system: the figure to read on a loaded machine) and its peak resident
# memory (GNU time's maximum RSS). Prints the command line, the binary's
# commit, the load and the cores.
set -euo pipefail
mlib=$(realpath "${1:?usage: import-bench.sh MLIB [TRACKS]}")
tracks=${2:-100000}
work=$(mktemp -d "${TMPDIR:-/tmp}/mlib-import-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/empty"
library=$work/library.sqlite
export HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data

echo "import-bench.sh $*"
echo "binary: $mlib ($(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?') in this tree)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
"$mlib" scan --quiet --library "$library" "$work/empty" >/dev/null
sqlite3 "$library" <<SQL
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $tracks)
INSERT INTO items (path, path_text, dir, "title", "artist", "albumTitle", "mediaType")
SELECT CAST('/music/a' || (i % 500) || '/t' || i || '.flac' AS BLOB), '/music/a' || (i % 500) || '/t' || i || '.flac',
       CAST('/music/a' || (i % 500) AS BLOB), 'Track ' || i, 'Artist ' || (i % 500), 'Album ' || (i % 5000), 1 FROM n;
COMMIT;
SQL
python3 - "$tracks" "$work/Library.xml" <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
            '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n'
            '\t<key>Major Version</key><integer>1</integer>\n\t<key>Tracks</key>\n\t<dict>\n')
    for i in range(1, n + 1):
        folder = f"a{i % 500}" if i % 100 else "elsewhere"
        f.write(f'\t\t<key>{i}</key>\n\t\t<dict>\n\t\t\t<key>Track ID</key><integer>{i}</integer>\n'
                f'\t\t\t<key>Name</key><string>Track {i}</string>\n\t\t\t<key>Artist</key><string>Artist {i % 500}</string>\n'
                f'\t\t\t<key>Album</key><string>Album {i % 5000}</string>\n\t\t\t<key>Total Time</key><integer>{180000 + i % 60000}</integer>\n'
                f'\t\t\t<key>Play Count</key><integer>{i % 40}</integer>\n\t\t\t<key>Skip Count</key><integer>{i % 3}</integer>\n'
                f'\t\t\t<key>Rating</key><integer>{(i % 6) * 20}</integer>\n'
                f'\t\t\t<key>Play Date UTC</key><date>20{10 + i % 15}-0{1 + i % 9}-1{i % 10}T12:00:00Z</date>\n'
                + ('\t\t\t<key>Loved</key><true/>\n' if i % 10 == 0 else '')
                + f'\t\t\t<key>Location</key><string>file:///Users/me/Music/{folder}/t{i}.flac</string>\n\t\t</dict>\n')
    f.write('\t</dict>\n\t<key>Playlists</key>\n\t<array>\n\t</array>\n</dict>\n</plist>\n')
PY
printf 'Library.xml: %s tracks, %s MB\n' "$tracks" "$(( $(stat -c %s "$work/Library.xml") / 1000000 ))"
run() {   # LABEL ARGS... -> wall seconds and peak RSS of one mlib run
    local label=$1; shift
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f '%M %U %S' -o "$work/rss" "$mlib" import-userdata itunes "$work/Library.xml" --library "$library" \
        --map /Users/me/Music=/music "$@" > "$work/out"
    end=$(date +%s.%N)
    read -r rss user sys < "$work/rss"
    wall=$(echo "$end - $start" | bc); cpu=$(echo "$user + $sys" | bc); rss_mb=$(( rss / 1024 ))
    printf '%-24s %8.2f s %8.2f s %6d MB   %s\n' "$label" "$wall" "$cpu" "$rss_mb" "$(head -1 "$work/out")"
}
printf '%-24s %10s %10s %9s\n' "run" "wall" "CPU" "peak RSS"
run "dry run" --dry-run
dry_wall=$wall dry_cpu=$cpu
run "import"
import_wall=$wall import_cpu=$cpu import_rss=$rss_mb
run "the same import again"
again_wall=$wall
printf 'target: import of %s tracks < 10 s: %.2f s wall (%.2f s CPU)\n' "$tracks" "$import_wall" "$import_cpu"
python3 "$(dirname "$0")/write-result.py" import-bench "Benchmarks/import-bench.sh $mlib $tracks" \
  "a $tracks-track Library.xml as Music.app writes it, into a library of $tracks synthetic items" \
  import_s="$import_wall" import_cpu_s="$import_cpu" import_target_s=10 dry_run_s="$dry_wall" dry_run_cpu_s="$dry_cpu" \
  again_s="$again_wall" peak_rss_mb="$import_rss"
sqlite3 "$library" 'SELECT "playCount dist: " || count(*) || " items with plays, sum " || sum("playCount") FROM items WHERE "playCount" > 0'
