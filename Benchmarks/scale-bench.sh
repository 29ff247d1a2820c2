#!/usr/bin/env bash
# scale-bench.sh [N ...]   (default: 100000 1000000) — issue 44: `mlib serve` (the MPD port and --http over
# one in-memory view) on N synthetic items (BenchmarkSupport's SyntheticItems through the store: 10 tracks an
# album, 5 albums an artist, guest artists and two-genre albums; no media files), on SQLite, and on PostgreSQL
# with PG=1 (a private server, as postgres-bench.sh starts it). Per size and store, in one run:
#   start to first answer (first_ping_s: MPD `ping` and the API's `ping` both answering, before the view is
#   built) and to the full view (first_answer_s, its name from when the two came together: MPD `stats`, which
#   waits for the view, and the API's getScanStatus saying `scanning: false`, once the catalog is in), RSS after start, a rating set by
#   one client seen by another (p95) and the server CPU it costs, a full Subsonic sync (search3 "" in pages
#   of 500) and RSS after it, search3 of a word (p95), MPD `list artist`, `find`, `search any`, `listallinfo`
#   and RSS after it, whole-process `mlib ls artist:X` (median of 5); then, the server stopped, `mlib scan`
#   of a folder of 1,000 real files (make-corpus.sh, a new root) added to the N items, and its unchanged rescan;
# then each figure's cost exponent between the first two sizes (log(t2/t1)/log(N2/N1): 0 flat, 1 linear).
# Env: MLIB (default .build/release/mlib), FILLER (default: synthetic-library beside MLIB), BENCH_DIR (default
# bench-out: libraries are kept there as scale-N.sqlite and reused), PG=1, TOOLS (make-corpus.sh's folder,
# default ../shared/tools: from a worktree, TOOLS=/work/shared/tools), RESULT=1: the last size's figures of each
# store and the exponents written to Benchmarks/results/scale-bench.json (README's large-library sentence).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${MLIB:-.build/release/mlib}
FILLER=${FILLER:-$(dirname "$MLIB")/synthetic-library}
[[ -x "$MLIB" && -x "$FILLER" ]] || { echo "need $MLIB and $FILLER (swift build -c release --product mlib; --product synthetic-library)" >&2; exit 2; }
out=$(realpath -m "${BENCH_DIR:-bench-out}")
mkdir -p "$out"
sizes=("$@"); (( ${#sizes[@]} )) || sizes=(100000 1000000)
work=$(mktemp -d "${TMPDIR:-/tmp}/scale-bench.XXXXXX")
pid=
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; [[ -n ${pg:-} ]] && as_server "$pgbin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.3f}')"; }

stores=(sqlite)
if [[ ${PG:-0} == 1 ]]; then
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  pg=$(mktemp -d /tmp/scale-bench-pg.XXXXXX); chmod 777 "$pg"
  as_server() { if [[ $(id -u) == 0 ]]; then runuser -u nobody -- "$@"; else "$@"; fi; }
  as_server "$pgbin/initdb" -D "$pg/data" -U mlib --auth=trust -E UTF8 --locale=C >/dev/null
  as_server "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w -o "-k $pg -c listen_addresses=''" start >/dev/null
  stores+=(postgres)
fi

# The 1,000 files added to each library (made once, kept in BENCH_DIR): TOOLS' make-corpus.sh.
adds=$out/add-1000
tools=${TOOLS:-$PWD/../shared/tools}
[[ -d $adds ]] || "$tools/make-corpus.sh" "$adds" 1000 >&2

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB"
declare -A fig
for n in "${sizes[@]}"; do
  for store in "${stores[@]}"; do
    if [[ $store == sqlite ]]; then
      locator=$out/scale-$n.sqlite
    else
      db=scale$n; "$pgbin/createdb" -h "$pg" -U mlib "$db" 2>/dev/null || true
      locator="postgres://mlib@$(python3 -c "import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1], safe=''))" "$pg")/$db"
    fi
    t0=$(now); "$FILLER" "$locator" "$n" >&2; echo "[$store $n] library ready in $(since "$t0") s" >&2
    "$MLIB" user add bench --password bench --library "$locator" >/dev/null 2>&1 || true
    t0=$(now)
    # listallinfo of a large library is hundreds of MB: mpd and mlib close a client past 8 MiB of unsent output
    # by default (max_output_buffer_size), so the bench raises the limit to time the whole answer.
    MLIB_VIEW_LOG=1 "$MLIB" serve --library "$locator" --port 0 --sink null --http 127.0.0.1:0 --max-output-buffer 4194304 2>"$work/err" &
    pid=$!
    for _ in $(seq 60000); do (( $(grep -c '^mlib: serving' "$work/err" || true) >= 2 )) && break; sleep 0.01; done
    mpd_port=$(grep -o 'serving MPD.*127.0.0.1:[0-9]*' "$work/err" | grep -o '[0-9]*$' | head -1)
    http_port=$(grep -o 'serving the Subsonic API.*127.0.0.1:[0-9]*' "$work/err" | grep -o '[0-9]*$' | head -1)
    until python3 -c "import socket,sys; s=socket.create_connection(('127.0.0.1',$mpd_port)); s.recv(64); s.sendall(b'ping\n'); assert s.recv(64) == b'OK\n'" 2>/dev/null \
          && curl -fs "http://127.0.0.1:$http_port/rest/ping?u=bench&p=bench&v=1.16.1&c=b&f=json" >/dev/null; do sleep 0.01; done
    key="$store $n"
    # The server listens before its view is built (issue 44): the first answer is both fronts' `ping`; the
    # full view is the first answer that needs the library on both (MPD `stats`, the API's getScanStatus,
    # each waiting for the view and the API's catalog). `first_answer_s` keeps its old meaning (until
    # session 17 the first ping came with the full view) so that figures compare.
    fig["$key first_ping_s"]=$(since "$t0")
    python3 -c "
import socket
s = socket.create_connection(('127.0.0.1', $mpd_port)); s.recv(64); s.sendall(b'stats\n'); got = b''
while not got.endswith(b'OK\n'): got += s.recv(65536)"
    # getScanStatus answers at once while the library loads (scanning: true): polled until it is loaded.
    until curl -fs "http://127.0.0.1:$http_port/rest/getScanStatus?u=bench&p=bench&v=1.16.1&c=b&f=json" | grep -q '"scanning":false'; do
      sleep 0.02
    done
    fig["$key first_answer_s"]=$(since "$t0")
    while read -r name value; do fig["$key $name"]=$value; done \
      < <(python3 Benchmarks/scale-bench.py "$mpd_port" "$http_port" "$pid" bench bench)
    artist=$("$MLIB" ls --library "$locator" -f '$artist' 'title:"Song 12345"' 2>/dev/null | head -1 | cut -d';' -f1)
    fig["$key ls_artist_ms"]=$(python3 Benchmarks/process-time.py 5 "$MLIB" ls --library "$locator" "artist:\"${artist:-x}\"" | awk '{ print $1 }')
    # Start-up's parts: the first view read from the store, then the API's catalog derived from it.
    fig["$key view_built_s"]=$(grep -m1 -o 'view built: [0-9]* items in [0-9.]* ms' "$work/err" | awk '{ printf "%.1f", $(NF-1) / 1000 }')
    fig["$key catalog_derived_s"]=$(grep -m1 -o 'view catalog derived: [0-9]* items in [0-9.]* ms' "$work/err" | awk '{ printf "%.1f", $(NF-1) / 1000 }')
    fig["$key view_log"]=$(grep -E 'mlib: view (built|patched|refreshed|rebuilt|catalog)' "$work/err" | sed -e 's/^mlib: view //' -e 's/ in [0-9.]* ms//' | sort | uniq -c | awk '{ $1 = $1 "x"; print }' | paste -sd, -)
    kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
    # 1,000 real files added beside the N synthetic rows (a root of their own: the synthetic rows have no
    # files, so a rescan of every root would remove them), then that root rescanned unchanged; the root
    # is forgotten after, so that the library holds N items again for the next run. Exit 1: the corpus'
    # planted damaged files.
    "$MLIB" root forget --library "$locator" "$adds" >/dev/null 2>&1 || true
    t0=$(now); "$MLIB" scan -q --library "$locator" "$adds" 2>/dev/null || (( $? == 1 )); fig["$key add_1000_scan_s"]=$(since "$t0")
    t0=$(now); "$MLIB" scan -q --library "$locator" "$adds" 2>/dev/null || (( $? == 1 )); fig["$key rescan_added_root_s"]=$(since "$t0")
    fig["$key items_after_add"]=$("$MLIB" ls --library "$locator" --count 2>/dev/null || echo "?")
    "$MLIB" root forget --library "$locator" "$adds" >/dev/null
  done
done

names=(first_ping_s first_answer_s view_built_s catalog_derived_s rss_start_mb rating_visible_p95_ms rating_cpu_ms sync_s sync_songs rss_sync_mb search_p95_ms
       mpd_list_artist_ms mpd_find_ms mpd_search_any_ms mpd_listallinfo_s mpd_listallinfo_mb rss_listallinfo_mb ls_artist_ms
       add_1000_scan_s rescan_added_root_s items_after_add)
for store in "${stores[@]}"; do
  printf '\n%-24s' "$store"; for n in "${sizes[@]}"; do printf '%14s' "$n"; done
  (( ${#sizes[@]} >= 2 )) && printf '%10s' "exponent"; echo
  for name in "${names[@]}"; do
    printf '%-24s' "$name"
    for n in "${sizes[@]}"; do printf '%14s' "${fig["$store $n $name"]:-?}"; done
    if (( ${#sizes[@]} >= 2 )); then
      a=${fig["$store ${sizes[0]} $name"]:-}; b=${fig["$store ${sizes[1]} $name"]:-}
      python3 -c "import math,sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{math.log(b/a)/math.log($((sizes[1]))/$((sizes[0]))):10.2f}' if a>0 and b>0 else '         ?')" "${a:-0}" "${b:-0}"
    else echo; fi
  done
  for n in "${sizes[@]}"; do echo "view log at $n: ${fig["$store $n view_log"]:-}"; done
done

# Benchmarks/results/scale-bench.json: each store's figures at the largest size, and the exponents between
# the first two sizes of those that should not grow with the library (a rating's cost and visibility).
if [[ -n ${RESULT:-} ]]; then
  last=${sizes[-1]}
  args=()
  for store in "${stores[@]}"; do
    for name in first_ping_s first_answer_s view_built_s catalog_derived_s rss_start_mb rss_listallinfo_mb rating_visible_p95_ms \
                rating_cpu_ms sync_s search_p95_ms mpd_list_artist_ms mpd_find_ms mpd_search_any_ms mpd_listallinfo_s ls_artist_ms \
                add_1000_scan_s rescan_added_root_s; do
      # Three significant figures: the run's spread is wider than that.
      args+=("${store}_$name=$(python3 -c "import sys; v = sys.argv[1]; r = float('%.3g' % float(v)) if v.replace('.', '', 1).isdigit() else v; print(int(r) if isinstance(r, float) and r == int(r) else r)" "${fig["$store $last $name"]:-?}")")
    done
    if (( ${#sizes[@]} >= 2 )); then
      for name in rating_cpu_ms rating_visible_p95_ms; do
        a=${fig["$store ${sizes[0]} $name"]:-0}; b=${fig["$store ${sizes[1]} $name"]:-0}
        args+=("${store}_${name}_exponent=$(python3 -c "import math,sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print(f'{math.log(b/a)/math.log($((sizes[1]))/$((sizes[0]))):.2f}' if a>0 and b>0 else '?')" "$a" "$b")")
      done
    fi
  done
  python3 Benchmarks/write-result.py scale-bench "PG=${PG:-0} Benchmarks/scale-bench.sh ${sizes[*]}" \
    "synthetic rows through the store (SyntheticItems), ${sizes[*]} items; figures at $last (${stores[*]})" "${args[@]}"
fi
