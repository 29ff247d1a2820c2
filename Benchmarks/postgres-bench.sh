#!/usr/bin/env bash
# postgres-bench.sh [N]   (default: 10000)
#
# The same library on SQLite and on PostgreSQL (a private server on a Unix socket, started here), on one
# corpus of N files (../shared/tools/make-corpus.sh), beside MPD's update of the same files:
#   full scan · unchanged rescan · whole-process `mlib ls artist:X` (median of RUNS, Benchmarks/process-time.py)
#   on each store, and where the PostgreSQL query's time goes (connect, each statement, the rest);
#   two concurrent scans of two roots (the corpus' artists split in two) into one PostgreSQL library;
#   `ls --group artists` and `ls` of every item (time and peak RSS) on each store;
#   `ls` of SYNTHETIC (default 100,000) synthetic items on each store, inserted through the store by
#   synthetic-library (BenchmarkSupport's items, query-bench's: no media files), time and peak RSS.
# Targets (2 cores, 20,000 files): PostgreSQL full scan within 1.3x of SQLite's and faster than MPD's
# update; queries < 50 ms whole-process; `ls --group artists` within 1.5x of SQLite's time and memory;
# `ls` of every item in bounded memory (< 60 MB) on both.
# Env: BENCH_DIR (default bench-out), SCRATCH_PATH (default .build), BUILD=0 to reuse the last release
# build, MLIB=/path/to/mlib to time that binary (an earlier build, beside this one), PEERS=0 to skip MPD,
# RUNS (default 11), SYNTHETIC=0 to skip the synthetic library. Stops the server it started, and only that.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tools=${TOOLS:-$repo/../shared/tools}; [[ -d $tools ]] || tools=/work/shared/tools
out=${BENCH_DIR:-$repo/bench-out}
scratch=${SCRATCH_PATH:-.build}
n=${1:-10000}
runs=${RUNS:-11}
mkdir -p "$out"

if [[ ${BUILD:-1} != 0 ]]; then
  echo "building release…" >&2
  swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product mlib >&2
  swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product synthetic-library >&2
fi
mlib=${MLIB:-$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/mlib}

corpus=$out/corpus-$n
[[ -d $corpus ]] || { echo "making corpus of $n files (takes a while)…" >&2; "$tools/make-corpus.sh" "$corpus" "$n"; }
find "$corpus" -type f -readable -exec cat {} + >/dev/null            # warm the page cache

# A private PostgreSQL server (as nobody when root: initdb refuses root), Unix socket only.
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg=$(mktemp -d "${TMPDIR:-/tmp}/mlib-pg-bench.XXXXXX")
as_server() { if [[ $(id -u) == 0 ]]; then runuser -u nobody -- "$@"; else "$@"; fi; }
[[ $(id -u) == 0 ]] && chown nobody "$pg"
chmod 755 "$pg"
as_server "$pgbin/initdb" -D "$pg/data" -U mlib --auth=trust -E UTF8 --locale=C >/dev/null
as_server "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w -o "-k $pg -c listen_addresses=''" start >/dev/null
cleanup() { as_server "$pgbin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg"; }
trap cleanup EXIT
socket=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$pg")
newdb() { "$pgbin/createdb" -h "$pg" -U mlib "$1"; echo "postgres://mlib@$socket/$1"; }

# timed NAME cmd... -> "WALL RSS_KB"; mlib exits 1 on the corpus' planted bad files.
timed() {
  /usr/bin/time -f "%e %M" -o "$out/time" "$@" >/dev/null 2>"$out/stderr" || [[ $? -eq 1 ]] \
    || { echo "$* failed: $(tail -3 "$out/stderr")" >&2; exit 1; }
  tail -1 "$out/time"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }

sqlite=$out/pg-bench-$n.sqlite
rm -f "$sqlite" "$sqlite"-wal "$sqlite"-shm "$sqlite".lock
postgres=$(newdb "bench_$n")
artist=""

declare -A full rescan query artists artists_rss all all_rss
for store in sqlite postgres; do
  library=$([[ $store == sqlite ]] && echo "$sqlite" || echo "$postgres")
  read -r full[$store] rss < <(timed "$mlib" scan --quiet --library "$library" "$corpus")
  read -r rescan[$store] _ < <(timed "$mlib" scan --quiet --library "$library")
  # The most common single artist with a letter in its name (the first in byte order, "!!!", has no
  # trigram: no index can find it, which is not what most queries look like).
  [[ -n $artist ]] || artist=$("$mlib" ls --library "$library" --jsonl | python3 -c '
import collections, json, sys
names = collections.Counter(a for a in (json.loads(l).get("artist") for l in sys.stdin) if a and "; " not in a and any(c.isalpha() for c in a))
print(names.most_common(1)[0][0])' || true)
  query[$store]=$(python3 Benchmarks/process-time.py "$runs" "$mlib" ls --library "$library" "artist:\"$artist\"")
  # Time as a median of RUNS (0.1 ms): /usr/bin/time's 10 ms steps cannot judge a 1.5x goal on 20-40 ms.
  read -r _ artists_rss[$store] < <(timed "$mlib" ls --library "$library" --group artists)
  artists[$store]=$(python3 Benchmarks/process-time.py "$runs" "$mlib" ls --library "$library" --group artists)
  read -r all[$store] all_rss[$store] < <(timed "$mlib" ls --library "$library" --paths)
  echo "$store: full scan ${full[$store]} s (peak RSS ${rss} KB), unchanged rescan ${rescan[$store]} s, ls artist:\"$artist\" ${query[$store]} ms (median of $runs)"
  echo "$store: ls --group artists ${artists[$store]} ms (median of $runs; peak RSS ${artists_rss[$store]} KB), ls --paths of every item ${all[$store]} s (peak RSS ${all_rss[$store]} KB)"
done
# Where a PostgreSQL query's time goes (MLIB_TRACE_POSTGRES: each connection and statement timed), beside
# a process that opens no library at all.
version=$(python3 Benchmarks/process-time.py "$runs" "$mlib" --version)
echo "mlib --version (no library): $version ms; postgres ls artist:\"$artist\", median of $runs runs per phase:"
MLIB_TRACE_POSTGRES=1 python3 Benchmarks/process-time.py "$runs" "$mlib" ls --library "$postgres" "artist:\"$artist\"" 2>&1 >/dev/null

# Two roots (the artists split in two, by symlinks to the corpus' directories), scanned at once.
halves=$out/pg-bench-halves-$n
rm -rf "$halves"; mkdir -p "$halves/a" "$halves/b"
i=0
for d in "$corpus"/*/; do
  half=$([[ $((i % 2)) == 0 ]] && echo a || echo b); i=$((i + 1))
  ln -s "${d%/}" "$halves/$half/$(basename "$d")"
done
two=$(newdb "bench_two_$n")
start=$(date +%s.%N)
( timed "$mlib" scan --quiet --no-wait --library "$two" "$halves/a" > "$out/two-a" ) &
a=$!
( timed "$mlib" scan --quiet --no-wait --library "$two" "$halves/b" > "$out/two-b" ) &
b=$!
wait $a; wait $b
both=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.2f", e - s }')
items=$("$mlib" ls --library "$two" --count)
echo "postgres, two roots scanned at once: root a $(cut -d' ' -f1 "$out/two-a") s, root b $(cut -d' ' -f1 "$out/two-b") s, both done in $both s ($items items)"

# `ls` of many items (more than a media corpus here holds): synthetic items written through each store's scan
# writer, then every item listed in the default order (artist, album, title, path), streamed.
synthetic=${SYNTHETIC:-100000}
declare -A big big_rss
if [[ $synthetic != 0 ]]; then
  filler=${MLIB:+$(dirname "$MLIB")/synthetic-library}; [[ -n $filler ]] || filler=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/synthetic-library
  big_sqlite=$out/pg-bench-synthetic-$synthetic.sqlite
  rm -f "$big_sqlite" "$big_sqlite"-wal "$big_sqlite"-shm
  big_postgres=$(newdb "bench_synthetic_$synthetic")
  for store in sqlite postgres; do
    library=$([[ $store == sqlite ]] && echo "$big_sqlite" || echo "$big_postgres")
    "$filler" "$library" "$synthetic" >&2
    read -r big[$store] big_rss[$store] < <(timed "$mlib" ls --library "$library")
    echo "$store: ls of $synthetic synthetic items ${big[$store]} s (peak RSS ${big_rss[$store]} KB)"
  done
fi

mpd=""
if [[ ${PEERS:-1} != 0 ]]; then
  mpd=$("$tools/peers.sh" mpd "$corpus" | awk '$2 == "full-scan" { print $4 }' | head -1)
  echo "mpd: update ${mpd:-?} s"
fi

echo "== N=$n (timings on a shared 2-core machine: noisy)"
echo "postgres/sqlite full scan: $(ratio "${full[postgres]}" "${full[sqlite]}")x (target <= 1.3)"
echo "postgres/sqlite unchanged rescan: $(ratio "${rescan[postgres]}" "${rescan[sqlite]}")x"
[[ -n $mpd ]] && echo "postgres full scan / mpd update: $(ratio "${full[postgres]}" "$mpd")x (target < 1)"
echo "ls artist:X whole-process: sqlite ${query[sqlite]} ms, postgres ${query[postgres]} ms (target < 50), mlib --version $version ms"
echo "ls --group artists postgres/sqlite: time $(ratio "${artists[postgres]}" "${artists[sqlite]}")x, memory $(ratio "${artists_rss[postgres]}" "${artists_rss[sqlite]}")x (target <= 1.5)"
echo "ls of every item, peak RSS: sqlite ${all_rss[sqlite]} KB, postgres ${all_rss[postgres]} KB (target < 60 MB)"
if [[ $synthetic != 0 ]]; then
  echo "ls of $synthetic synthetic items, peak RSS: sqlite ${big_rss[sqlite]} KB, postgres ${big_rss[postgres]} KB (target < 60 MB)"
fi
files=$(find "$corpus" -type f | wc -l)
python3 Benchmarks/write-result.py "postgres-bench-$n" "BUILD=${BUILD:-1} RUNS=$runs Benchmarks/postgres-bench.sh $n" \
  "$files files of make-corpus.sh ($corpus); PostgreSQL $("$pgbin/postgres" --version | awk '{ print $3 }') on a local socket" \
  sqlite_full_scan_s="${full[sqlite]}" postgres_full_scan_s="${full[postgres]}" \
  sqlite_unchanged_rescan_s="${rescan[sqlite]}" postgres_unchanged_rescan_s="${rescan[postgres]}" \
  sqlite_ls_artist_ms="${query[sqlite]}" postgres_ls_artist_ms="${query[postgres]}" \
  sqlite_group_artists_ms="${artists[sqlite]}" postgres_group_artists_ms="${artists[postgres]}" \
  ${mpd:+mpd_update_s="$mpd"} postgres_over_sqlite_full_scan="$(ratio "${full[postgres]}" "${full[sqlite]}")" \
  ${mpd:+peer:mpd_update_vs_postgres_full_scan_wall="$(awk -v a="$mpd" -v b="${full[postgres]}" 'BEGIN { printf "%.1f", a / b }')"}
