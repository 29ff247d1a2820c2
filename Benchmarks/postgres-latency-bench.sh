#!/usr/bin/env bash
# postgres-latency-bench.sh [N]   (default: 3000)
#
# Issue 38's "slow over a real network": mlib on a PostgreSQL library reached directly (TCP on loopback)
# and through delay-relay.py adding DELAY ms each way (default 100: a 200 ms round trip), in one run:
#   an unchanged rescan of a corpus of N files, and whole-process `mlib ls artist:X`;
#   with MLIB_TRACE_POSTGRES, how many connections each opens and how many statements it sends (each a
#   round trip at least), and how many times it asks for the roots;
#   `mlib serve --http` on the library, one server reaching it directly and one through the relay: Subsonic
#   `ping` (median of 20, over one keep-alive connection, after a first one) and a client's full sync
#   (getArtists, search3 in pages of 500 as Symfonium does, getAlbumList2 in pages of 500, getAlbum of the
#   first 20 albums; median of RUNS).
# Targets (issue 38): unchanged rescan of 3,000 files < 3 s at 200 ms RTT; `ls artist:X` < 4 RTT + the query;
# the remote-database server's ping and full sync as fast as the direct one's (±20 %).
# Env: BENCH_DIR (default bench-out), MLIB (default: the debug build's mlib; say which in the figures),
# DELAY (ms each way, default 100), RUNS (default 3), RESULT=1 writes the figures to
# Benchmarks/results/postgres-latency-bench-N.json (write-result.py). Stops the servers and the relay it
# started, only those. Child processes get a temporary XDG_CONFIG_HOME (the users' key file).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tools=${TOOLS:-$repo/../shared/tools}; [[ -d $tools ]] || tools=/work/shared/tools
out=${BENCH_DIR:-$repo/bench-out}
n=${1:-3000}
delay=${DELAY:-100}
runs=${RUNS:-3}
mlib=${MLIB:-$(swift build --show-bin-path)/mlib}
mkdir -p "$out"

corpus=$out/corpus-$n
[[ -d $corpus ]] || { echo "making corpus of $n files…" >&2; "$tools/make-corpus.sh" "$corpus" "$n" >/dev/null; }

pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg=$(mktemp -d "${TMPDIR:-/tmp}/mlib-pg-latency.XXXXXX")
as_server() { if [[ $(id -u) == 0 ]]; then runuser -u nobody -- "$@"; else "$@"; fi; }
[[ $(id -u) == 0 ]] && chown nobody "$pg"
chmod 755 "$pg"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
pgport=$(free_port); relayport=$(free_port)
as_server "$pgbin/initdb" -D "$pg/data" -U mlib --auth=trust -E UTF8 --locale=C >/dev/null
as_server "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w -o "-k $pg -c listen_addresses=127.0.0.1 -p $pgport" start >/dev/null
python3 Benchmarks/delay-relay.py "$relayport" 127.0.0.1 "$pgport" "$delay" & relay=$!
servers=()
cleanup() { for p in "${servers[@]}"; do kill "$p" 2>/dev/null || true; done; kill "$relay" 2>/dev/null || true; as_server "$pgbin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg"; }
trap cleanup EXIT
"$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U mlib latency
direct="postgres://mlib@127.0.0.1:$pgport/latency?sslmode=disable"
delayed="postgres://mlib@127.0.0.1:$relayport/latency?sslmode=disable"
export MLIB_HOST_ID=latency-bench MLIB_HOST=latency-bench XDG_CONFIG_HOME=$pg/config
mkdir -p "$pg/config"

"$mlib" scan --quiet --library "$direct" "$corpus" || [[ $? -eq 1 ]]
artist=$("$mlib" ls --library "$direct" --jsonl | python3 -c '
import collections, json, sys
names = collections.Counter(a for a in (json.loads(l).get("artist") for l in sys.stdin) if a and "; " not in a and any(c.isalpha() for c in a))
print(names.most_common(1)[0][0])')

# median wall seconds of RUNS runs of a command (exit 1: the corpus' planted bad files).
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N); "$@" >/dev/null 2>&1 || [[ $? -eq 1 ]]; end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.3f", a[int((NR + 1) / 2)] }'
}
# connections, statements and roots queries of one run, from MLIB_TRACE_POSTGRES.
# The trace is kept in $out/trace-NAME.
trace() {
  local file=$out/trace-$1; shift
  MLIB_TRACE_POSTGRES=1 "$@" >/dev/null 2>"$file" || [[ $? -eq 1 ]]
  printf '%s %s %s' "$(grep -c ' connect$' "$file")" "$(grep -c 'mlib: postgres .* ms [A-Z(]' "$file")" \
    "$(grep -c 'FROM roots' "$file")"
}

# The servers reach the library directly and through the relay; the same user on both.
"$mlib" user add bench --password bench --library "$direct" >/dev/null
# ping: median ms of 20 over one keep-alive connection; sync: median seconds of RUNS full syncs.
client() {
  python3 - "$1" "$runs" <<'PYTHON'
import hashlib, http.client, json, statistics, sys, time, urllib.parse
port = int(sys.argv[1])
auth = {"u": "bench", "t": hashlib.md5(b"benchbench").hexdigest(), "s": "bench", "v": "1.16.1", "c": "bench", "f": "json"}
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
def get(method, **params):
    connection.request("GET", f"/rest/{method}?" + urllib.parse.urlencode({**auth, **params}))
    answer = json.loads(connection.getresponse().read())["subsonic-response"]
    if answer["status"] != "ok":
        raise SystemExit(f"{method}: {answer}")
    return answer
get("ping")
times = []
for _ in range(20):
    t0 = time.perf_counter(); get("ping"); times.append((time.perf_counter() - t0) * 1000)
def sync():
    requests = 1
    get("getArtists")
    for kind in ("song", "album", "artist"):
        offset = 0
        while True:
            counts = {k + "Count": (500 if k == kind else 0) for k in ("song", "album", "artist")}
            got = get("search3", query='""', **counts, **{kind + "Offset": offset})["searchResult3"].get(kind, [])
            requests += 1; offset += len(got)
            if len(got) < 500: break
    albums, offset = [], 0
    while True:
        page = get("getAlbumList2", type="alphabeticalByName", size=500, offset=offset)["albumList2"].get("album", [])
        requests += 1; albums += page; offset += len(page)
        if len(page) < 500: break
    for album in albums[:20]:
        get("getAlbum", id=album["id"]); requests += 1
    return requests
syncs = []
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter(); requests = sync(); syncs.append(time.perf_counter() - t0)
print(f"{statistics.median(times):.1f} {statistics.median(syncs):.3f} {requests}")
PYTHON
}
declare -A fig
# measure MLIB PREFIX: every figure of one binary, into fig[PREFIX…].
measure() {
printf '%-28s %10s %10s %8s   %s\n' "$2command (N=$n, ${delay} ms each way)" direct delayed ratio "connections statements roots-queries (delayed)"
for which in rescan ls; do
  if [[ $which == rescan ]]; then cmd=(scan --quiet); label="unchanged rescan"; else cmd=(ls "artist:\"$artist\""); label="ls artist:X"; fi
  d=$(median "$1" "${cmd[@]}" --library "$direct")
  r=$(median "$1" "${cmd[@]}" --library "$delayed")
  counts=$(trace "$which" "$1" "${cmd[@]}" --library "$delayed")
  printf '%-28s %9ss %9ss %8s   %s\n' "$label" "$d" "$r" "$(awk -v a="$r" -v b="$d" 'BEGIN { printf "%.1fx", a / b }')" "$counts"
  read -r c s _ <<<"$counts"
  fig[$2${which}_direct_s]=$d; fig[$2${which}_delayed_s]=$r; fig[$2${which}_connections]=$c; fig[$2${which}_statements]=$s
done

serve() {   # serve MLIB LOCATOR NAME PORT: starts `mlib serve --http` on PORT (in this shell: cleanup stops it)
  "$1" serve --library "$2" --http "127.0.0.1:$4" --no-mpd 2>"$out/serve-$3.log" &
  servers+=($!)
  for _ in $(seq 3000); do grep -q "serving" "$out/serve-$3.log" 2>/dev/null && break; sleep 0.02; done
}
direct_port=$(free_port); serve "$1" "$direct" "$2direct" "$direct_port"
delayed_port=$(free_port); serve "$1" "$delayed" "$2delayed" "$delayed_port"
read -r dping dsync requests <<<"$(client "$direct_port")"
read -r rping rsync _ <<<"$(client "$delayed_port")"
printf '%-28s %8sms %8sms %8s\n' "${2}serve: Subsonic ping" "$dping" "$rping" "$(awk -v a="$rping" -v b="$dping" 'BEGIN { printf "%.1fx", a / b }')"
printf '%-28s %9ss %9ss %8s   (%s requests)\n' "${2}serve: full sync" "$dsync" "$rsync" "$(awk -v a="$rsync" -v b="$dsync" 'BEGIN { printf "%.1fx", a / b }')" "$requests"
fig[$2ping_direct_ms]=$dping; fig[$2ping_delayed_ms]=$rping; fig[$2sync_direct_s]=$dsync; fig[$2sync_delayed_s]=$rsync; fig[sync_requests]=$requests
for p in "${servers[@]}"; do kill "$p" 2>/dev/null || true; done; servers=()

}
# BASE_MLIB: the same figures of another build (the one before a change) first, in the same run, as before_….
[[ -n ${BASE_MLIB:-} ]] && measure "$BASE_MLIB" before_
measure "$mlib" ""
if [[ -n ${RESULT:-} ]]; then
  python3 Benchmarks/write-result.py "postgres-latency-bench-$n" "${BASE_MLIB:+BASE_MLIB=(the build before) }RUNS=$runs RESULT=1 Benchmarks/postgres-latency-bench.sh $n" \
    "$n files of make-corpus.sh; PostgreSQL $("$pgbin/postgres" --version | awk '{ print $3 }') on 127.0.0.1, direct and through delay-relay.py ($delay ms each way)" \
    "unchanged_rescan_direct_s=${fig[rescan_direct_s]}" "unchanged_rescan_$((2 * delay))ms_rtt_s=${fig[rescan_delayed_s]}" \
    "rescan_connections=${fig[rescan_connections]}" "rescan_statements=${fig[rescan_statements]}" \
    "ls_artist_direct_s=${fig[ls_direct_s]}" "ls_artist_$((2 * delay))ms_rtt_s=${fig[ls_delayed_s]}" \
    "ls_connections=${fig[ls_connections]}" "ls_statements=${fig[ls_statements]}" \
    "serve_ping_direct_ms=${fig[ping_direct_ms]}" "serve_ping_$((2 * delay))ms_rtt_ms=${fig[ping_delayed_ms]}" \
    "serve_full_sync_direct_s=${fig[sync_direct_s]}" "serve_full_sync_$((2 * delay))ms_rtt_s=${fig[sync_delayed_s]}" \
    "serve_full_sync_requests=${fig[sync_requests]}" \
    ${BASE_MLIB:+"before_unchanged_rescan_direct_s=${fig[before_rescan_direct_s]}" "before_unchanged_rescan_$((2 * delay))ms_rtt_s=${fig[before_rescan_delayed_s]}"} \
    ${BASE_MLIB:+"before_rescan_connections=${fig[before_rescan_connections]}" "before_rescan_statements=${fig[before_rescan_statements]}"} \
    ${BASE_MLIB:+"before_ls_artist_$((2 * delay))ms_rtt_s=${fig[before_ls_delayed_s]}"} \
    ${BASE_MLIB:+"before_serve_ping_direct_ms=${fig[before_ping_direct_ms]}" "before_serve_ping_$((2 * delay))ms_rtt_ms=${fig[before_ping_delayed_ms]}"} \
    ${BASE_MLIB:+"before_serve_full_sync_direct_s=${fig[before_sync_direct_s]}" "before_serve_full_sync_$((2 * delay))ms_rtt_s=${fig[before_sync_delayed_s]}"} \
    >/dev/null
  # The note beside the commit, as the other results files have it.
  python3 - "Benchmarks/results/postgres-latency-bench-$n.json" "${NOTE:-debug build (round trips, not CPU); median of $runs}" <<'PYTHON'
import json, sys
with open(sys.argv[1]) as f: result = json.load(f)
result["note"] = sys.argv[2]
with open(sys.argv[1], "w") as f: json.dump(result, f, indent=2, ensure_ascii=False); f.write("\n")
PYTHON
fi
