#!/usr/bin/env bash
# shared-view-bench.sh MLIB LIBRARY — resident memory of `mlib serve` on LIBRARY (an existing library, e.g.
# one scanned from /work/corpora/c100k) as the MPD server alone, the OpenSubsonic API alone (--no-mpd), and
# both in one process (--http beside the MPD port: one in-memory view since issue 27, two before). Each is
# measured once both servers listen and the view and the API's catalog are built (start-up), after 2 s.
set -euo pipefail
MLIB=${1:?usage: shared-view-bench.sh MLIB LIBRARY}
LIBRARY=${2:?usage: shared-view-bench.sh MLIB LIBRARY}
work=$(mktemp -d "${TMPDIR:-/tmp}/shared-view-bench.XXXXXX")
trap 'kill "${pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
"$MLIB" user add bench --password bench --library "$LIBRARY" --key-file "$work/key" >/dev/null 2>&1 || true
items=$("$MLIB" stats --library "$LIBRARY" | awk '/^ *[Ii]tems/ { print $2; exit }')
echo "library: $LIBRARY ($items items); load average: $(cut -d' ' -f1-3 /proc/loadavg); $MLIB"

figures=()
measure() {   # figure key, name, serving lines to wait for, arguments
    local key=$1 name=$2 lines=$3; shift 3
    MLIB_VIEW_LOG=1 "$MLIB" serve --library "$LIBRARY" --key-file "$work/key" "$@" 2>"$work/err" &
    pid=$!
    for _ in $(seq 12000); do [[ $(grep -c "serving" "$work/err" 2>/dev/null) -ge $lines ]] && break; sleep 0.01; done
    sleep 2
    local mb; mb=$(rss $pid)
    printf '%-28s %7s MB   views built: %s\n' "$name" "$mb" "$(grep -c 'view built' "$work/err" || true)"
    figures+=("$key=$mb")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    pid=
}
measure mpd_alone_rss_mb "MPD alone" 1 --port 0 --sink null
measure api_alone_rss_mb "API alone (--no-mpd)" 1 --http 127.0.0.1:0 --no-mpd
measure mpd_and_api_rss_mb "MPD + API (--http)" 2 --port 0 --sink null --http 127.0.0.1:0
python3 "$(dirname "$0")/write-result.py" shared-view-bench "Benchmarks/shared-view-bench.sh MLIB $LIBRARY" \
  "an existing library of $items items" "${figures[@]}"
