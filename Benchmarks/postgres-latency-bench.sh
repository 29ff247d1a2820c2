#!/usr/bin/env bash
# postgres-latency-bench.sh [N]   (default: 300)
#
# Issue 38's "slow over a real network": mlib on a PostgreSQL library reached directly (TCP on loopback)
# and through delay-relay.py adding DELAY ms each way (default 100: a 200 ms round trip), in one run:
#   an unchanged rescan of a corpus of N files, and whole-process `mlib ls artist:X`;
#   with MLIB_TRACE_POSTGRES, how many connections each opens and how many statements it sends (each a
#   round trip at least), and how many times it asks for the roots.
# Targets (issue 38): unchanged rescan of 3,000 files < 3 s at 200 ms RTT; `ls artist:X` < 4 RTT + the query.
# Env: BENCH_DIR (default bench-out), MLIB (default: the debug build's mlib; say which in the figures),
# DELAY (ms each way, default 100), RUNS (default 3). Stops the server and the relay it started, only those.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tools=${TOOLS:-$repo/../shared/tools}; [[ -d $tools ]] || tools=/work/shared/tools
out=${BENCH_DIR:-$repo/bench-out}
n=${1:-300}
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
cleanup() { kill "$relay" 2>/dev/null || true; as_server "$pgbin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg"; }
trap cleanup EXIT
"$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U mlib latency
direct="postgres://mlib@127.0.0.1:$pgport/latency?sslmode=disable"
delayed="postgres://mlib@127.0.0.1:$relayport/latency?sslmode=disable"
export MLIB_HOST_ID=latency-bench MLIB_HOST=latency-bench

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
    "$(grep -c 'FROM roots WHERE' "$file")"
}

printf '%-28s %10s %10s %8s   %s\n' "command (N=$n, ${delay} ms each way)" direct delayed ratio "connections statements roots-queries (delayed)"
for which in rescan ls; do
  if [[ $which == rescan ]]; then cmd=(scan --quiet); label="unchanged rescan"; else cmd=(ls "artist:\"$artist\""); label="ls artist:X"; fi
  d=$(median "$mlib" "${cmd[@]}" --library "$direct")
  r=$(median "$mlib" "${cmd[@]}" --library "$delayed")
  counts=$(trace "$which" "$mlib" "${cmd[@]}" --library "$delayed")
  printf '%-28s %9ss %9ss %8s   %s\n' "$label" "$d" "$r" "$(awk -v a="$r" -v b="$d" 'BEGIN { printf "%.1fx", a / b }')" "$counts"
done
