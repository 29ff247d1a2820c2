#!/usr/bin/env bash
# dlna-bench.sh [MLIB] [FOLDER ...] — `mlib serve --dlna` beside Debian's minidlna (ReadyMedia) on the same folder,
# timed by the same clients in the same run — async-upnp-client (Benchmarks/dlna-bench.py, Home Assistant's library)
# and a lean client that parses next to nothing (Benchmarks/dlna-walk.py: the walk and Search, the servers' own
# time; async-upnp-client's parsing outweighs either server's answering) — the scan, the whole tree
# walked with BrowseDirectChildren in pages of PAGE (50), Search from the root (median of 11), the first byte of a
# stream (median of 11, a new connection each), a video's JPEG_TN thumbnail the first time and cached, and each
# server's resident memory after the walks. The servers run in a network namespace of their own (mlib scanned and
# walked by async-upnp-client first, minidlna next, then LEAN_ROUNDS (5) rounds of one lean walk on each and one on
# the floor, alternated, the medians kept), the client in a second one, joined by a veth pair (as DLNAClientTests does; root needed; nothing touches the
# machine's network). minidlna runs from a config of its own (its db, log and port in a temporary directory), never
# the system service. Default FOLDER: /work/corpora/c2k; 20,000 files: two copies of make-corpus 10,000
# (e.g. `cp -al /work/corpora/c100k/copy-{0,1} /tmp/c20k/`). RESULT=1 writes Benchmarks/results/dlna-bench-NAME.json
# (NAME: the folder's base name). The walk's floor in the same rounds: the lean client against dlna-floor.c (mlib's
# answers of a recorded walk replayed at once; built with cc), and, where NIO_FLOOR (default .build/release/nio-floor) is built, the same
# answers through swift-nio's HTTP server (what the framework alone costs a call). Needs: minidlna (`apt-get install minidlna`), python3 with async-upnp-client
# (scripts/install-deps.sh), ip(8).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/netns-pair.sh
MLIB=${1:-.build/release/mlib}
shift || true
folders=("$@")
[[ ${#folders[@]} -gt 0 ]] || folders=(/work/corpora/c2k)
PAGE=${PAGE:-50}
NIO_FLOOR=${NIO_FLOOR:-.build/release/nio-floor}   # optional: the swift-nio floor (swift build -c release --product nio-floor)
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --product mlib)" >&2; exit 2; }
command -v minidlnad >/dev/null || { echo "minidlnad is missing: apt-get install -y --no-install-recommends minidlna" >&2; exit 2; }
python3 -c 'import async_upnp_client' 2>/dev/null || { echo "async-upnp-client is missing (scripts/install-deps.sh)" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "network namespaces need root" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dlna-bench.XXXXXX")
S=dlnabench$$s C=dlnabench$$c
pid=""
cleanup() {
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    netns_remove "$S" "$C"
    rm -rf "$work"
}
trap cleanup EXIT
netns_pair "$S" "$C" 10.44.0

# CPU time the hypervisor gave other guests while this one wanted it (/proc/stat's steal, in seconds): on a
# shared VM a walk's time can move with it (session 32's host lent 2.2 s to others over one run, 0.03 s over another).
steal() { awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f", $9 / hz }' /proc/stat; }
rss() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
hwm() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
now() { date +%s.%N; }
since() { python3 -c "print(f'{$(now) - $1:.2f}')"; }
wait_for() { # URL: until the client's namespace gets an answer (60 s)
    for _ in $(seq 600); do ip netns exec "$C" curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done
    echo "no answer from $1" >&2; return 1
}
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {\"d\": d}, d))" "$@"; }
client() { # LOCATION OUT PID
    ip netns exec "$C" python3 Benchmarks/dlna-bench.py --location "$1" --page "$PAGE" --server-pid "$3" \
        --search 'dc:title contains "neon"' \
        --search 'upnp:class derivedfrom "object.item.audioItem" and upnp:artist = "Björk"' \
        --search 'dc:title = "Burning Machine"' > "$2"
}
lean() { # DESCRIPTION_URL OUT PID: the lean client (dlna-walk.py) on the ContentDirectory the description names
    local control
    control=$(ip netns exec "$C" python3 -c '
import re, sys, urllib.parse, urllib.request
url = sys.argv[1]; text = urllib.request.urlopen(url).read().decode()
at = text.find("ContentDirectory:1")
print(urllib.parse.urljoin(url, re.search(r"<controlURL>([^<]*)", text[at:]).group(1)))' "$1")
    ip netns exec "$C" python3 Benchmarks/dlna-walk.py --control "$control" --page "$PAGE" --server-pid "$3" \
        --search 'dc:title contains "neon"' \
        --search 'upnp:class derivedfrom "object.item.audioItem" and upnp:artist = "Björk"' > "$2"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB; minidlnad $(minidlnad -V 2>&1 | head -1)"

for folder in "${folders[@]}"; do
    folder=$(cd "$folder" && pwd)
    name=$(basename "$folder")
    files=$(find "$folder" -type f | wc -l)
    echo "== $folder ($files files)"

    # mlib: a scan into a new library, then serve --dlna on the server's namespace.
    home="$work/home-$name"; mkdir -p "$home"
    export MLIB_LIBRARY="$work/$name.sqlite" HOME="$home" XDG_CONFIG_HOME="$home/.config"
    t0=$(now); "$MLIB" scan -q "$folder" >/dev/null 2>&1 || true; mlib_scan=$(since "$t0")
    t0=$(now)
    ip netns exec "$S" "$MLIB" serve --no-mpd --dlna --dlna-interface eth0 --dlna-port 8200 --dlna-name bench 2>"$work/mlib.err" &
    pid=$!
    wait_for http://10.44.0.1:8200/description.xml; mlib_start=$(since "$t0")
    client http://10.44.0.1:8200/description.xml "$work/mlib-$name.json" "$pid"
    mlib_pid=$pid; pid=""   # kept serving: the lean walks alternate the two servers (below)
    cat "$work/mlib-$name.json"; echo

    # minidlna: its own config, database and port; -R: a full scan; -S: stay in the foreground.
    db="$work/minidlna-$name"; mkdir -p "$db"
    cat > "$db/minidlna.conf" <<CONF
media_dir=$folder
db_dir=$db
log_dir=$db
port=8201
network_interface=eth0
friendly_name=minidlna bench
inotify=no
notify_interval=895
log_level=general,artwork,database,inotify,metadata,http,ssdp,tivo=warn,scanner=info
CONF
    t0=$(now)
    ip netns exec "$S" minidlnad -f "$db/minidlna.conf" -P "$db/pid" -R -S >"$db/out" 2>&1 &
    pid=$!
    for _ in $(seq 36000); do grep -q "Scanning .* finished" "$db/minidlna.log" "$db/out" 2>/dev/null && break; sleep 0.1; done
    minidlna_scan=$(since "$t0")
    wait_for http://10.44.0.1:8201/rootDesc.xml
    client http://10.44.0.1:8201/rootDesc.xml "$work/minidlna-$name.json" "$pid"
    minidlna_pid=$pid
    cat "$work/minidlna-$name.json"; echo
    m="$work/mlib-$name.json" d="$work/minidlna-$name.json"
    ratio() { python3 -c "print(round($1 / $2, 2))"; }

    # The lean walks: LEAN_ROUNDS (5) rounds of one walk on each server and one on the floor (dlna-floor.c: the
    # answers of one recorded walk of mlib's, replayed at once in the same order, so that the client parses the
    # same bytes and follows the same containers: what the client and the network cost alone; no server's walk
    # takes less), alternated, the median of each kept. (The floor used to answer one made-up page, padded to
    # mlib's mean size, to every call: the client then had no container to unescape and queue.) One walk of each,
    # one after the other, moved by a fifth between runs (minidlna 0.52-0.70 s).
    floor_pid="" nio_floor_pid=""
    if cc -O2 -o "$work/dlna-floor" Benchmarks/dlna-floor.c 2>/dev/null; then
        lean_control=$(ip netns exec "$C" python3 -c '
import re, sys, urllib.parse, urllib.request
url = sys.argv[1]; text = urllib.request.urlopen(url).read().decode()
at = text.find("ContentDirectory:1")
print(urllib.parse.urljoin(url, re.search(r"<controlURL>([^<]*)", text[at:]).group(1)))' http://10.44.0.1:8200/description.xml)
        ip netns exec "$C" python3 Benchmarks/dlna-walk.py --control "$lean_control" --page "$PAGE" \
            --record "$work/floor-answers-$name" > /dev/null
        ip netns exec "$S" "$work/dlna-floor" "$work/floor-answers-$name" 8202 & floor_pid=$!
        # The same answers through swift-nio's HTTP server (NIO_FLOOR, Benchmarks/NIOFloor): what the framework
        # mlib's server is built on costs a call, before mlib does anything.
        if [[ -x "$NIO_FLOOR" ]]; then
            ip netns exec "$S" "$NIO_FLOOR" http "$work/floor-answers-$name" 8203 & nio_floor_pid=$!
        fi
        sleep 0.3
    fi
    rounds=${LEAN_ROUNDS:-5}
    steal_before=$(steal) rounds_began=$(now)
    for round in $(seq "$rounds"); do
        lean http://10.44.0.1:8200/description.xml "$work/mlib-lean-$name-$round.json" "$mlib_pid"
        lean http://10.44.0.1:8201/rootDesc.xml "$work/minidlna-lean-$name-$round.json" "$minidlna_pid"
        if [[ -n $floor_pid ]]; then
            ip netns exec "$C" python3 Benchmarks/dlna-walk.py --control http://10.44.0.1:8202/ctl --page "$PAGE" \
                > "$work/floor-$name-$round.json"
        fi
        if [[ -n $nio_floor_pid ]]; then
            ip netns exec "$C" python3 Benchmarks/dlna-walk.py --control http://10.44.0.1:8203/ctl --page "$PAGE" \
                --server-pid "$nio_floor_pid" > "$work/nio-floor-$name-$round.json"
        fi
    done
    lean_steal=$(python3 -c "print(round($(steal) - $steal_before, 2))") lean_rounds_s=$(since "$rounds_began")
    median() { # OUT FILE...: the first file with each number the median of the files' (searches included)
        python3 - "$@" <<'PYTHON'
import json, statistics, sys
runs = [json.load(open(f)) for f in sys.argv[2:]]
def merge(values):
    if all(isinstance(v, dict) for v in values):
        return {k: merge([v[k] for v in values]) for k in values[0]}
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return statistics.median(values)
    return values[0]
out = merge(runs)
out["walks_s"] = [r["walk_s"] for r in runs]
json.dump(out, open(sys.argv[1], "w"))
PYTHON
    }
    median "$work/mlib-lean-$name.json" "$work"/mlib-lean-"$name"-*.json
    median "$work/minidlna-lean-$name.json" "$work"/minidlna-lean-"$name"-*.json
    floor_s=none
    if [[ -n $floor_pid ]]; then
        median "$work/floor-$name.json" "$work"/floor-"$name"-*.json
        floor_s=$(field "$work/floor-$name.json" walk_s)
        kill "$floor_pid"; wait "$floor_pid" 2>/dev/null || true
    fi
    nio_floor_s=none
    if [[ -n $nio_floor_pid ]]; then
        median "$work/nio-floor-$name.json" "$work"/nio-floor-"$name"-*.json
        nio_floor_s=$(field "$work/nio-floor-$name.json" walk_s)
        kill "$nio_floor_pid"; wait "$nio_floor_pid" 2>/dev/null || true
    fi
    mlib_rss=$(rss "$mlib_pid"); mlib_hwm=$(hwm "$mlib_pid")
    minidlna_rss=$(rss "$minidlna_pid"); minidlna_hwm=$(hwm "$minidlna_pid")
    for p in "$mlib_pid" "$minidlna_pid"; do kill "$p"; wait "$p" 2>/dev/null || true; done
    pid=""
    echo "mlib:     scan ${mlib_scan} s, start ${mlib_start} s, RSS after the walks ${mlib_rss} MB (peak ${mlib_hwm})"
    cat "$work/mlib-lean-$name.json"; echo
    echo "minidlna: scan ${minidlna_scan} s, RSS after the walks ${minidlna_rss} MB (peak ${minidlna_hwm})"
    cat "$work/minidlna-lean-$name.json"; echo
    walk_ratio=$(ratio "$(field "$d" walk_s)" "$(field "$m" walk_s)")
    calls_ratio=$(ratio "$(field "$d" 'walk_s/browse_calls')" "$(field "$m" 'walk_s/browse_calls')")
    echo "server CPU during the walk: mlib $(field "$m" walk_server_cpu_s) s, minidlna $(field "$d" walk_server_cpu_s) s; the client's: $(field "$m" walk_client_cpu_s) s and $(field "$d" walk_client_cpu_s) s"
    echo "answers during the walk: mlib $(field "$m" walk_answer_bytes) bytes ($(field "$m" walk_bytes_per_item) a listed item, $(field "$m" walk_res_per_item) res an item), $(field "$m" walk_http_s) s waiting for them; minidlna $(field "$d" walk_answer_bytes) bytes ($(field "$d" walk_bytes_per_item), $(field "$d" walk_res_per_item) res), $(field "$d" walk_http_s) s"
    ml="$work/mlib-lean-$name.json" dl="$work/minidlna-lean-$name.json"
    lean_ratio=$(ratio "$(field "$ml" walk_s)" "$(field "$dl" walk_s)")
    lq1='dc:title contains "neon"' lq2='upnp:class derivedfrom "object.item.audioItem" and upnp:artist = "Björk"'
    echo "lean client (dlna-walk.py, median of $rounds alternated walks): walk mlib $(field "$ml" walk_s) s $(field "$ml" walks_s), minidlna $(field "$dl" walk_s) s $(field "$dl" walks_s): ${lean_ratio}x minidlna's time (target < 0.5); Search title mlib $(field "$ml" "search['$lq1']['median_ms']") ms, minidlna $(field "$dl" "search['$lq1']['median_ms']") ms; artist mlib $(field "$ml" "search['$lq2']['median_ms']") ms, minidlna $(field "$dl" "search['$lq2']['median_ms']") ms (target < 10 ms)"
    echo "the host's steal during the lean rounds: ${lean_steal} s of CPU in ${lean_rounds_s} s (another guest's; above a few tenths the walks' times are the host's, not the servers')"
    if [[ $floor_s != none ]]; then
        echo "the walk's floor (the lean client's walk of mlib's recorded answers, $(field "$work/floor-$name.json" browse_calls) calls answered at once by dlna-floor.c): ${floor_s} s = $(ratio "$floor_s" "$(field "$dl" walk_s)")x minidlna's walk; mlib's walk is $(ratio "$(field "$ml" walk_s)" "$floor_s")x the floor, $(python3 -c "print(round(($(field "$ml" walk_s) - $floor_s) / $(field "$ml" browse_calls) * 1e6))") µs a call over it"
    fi
    if [[ $nio_floor_s != none ]]; then
        echo "the walk's swift-nio floor (the same answers through NIOHTTP1's server pipeline, nio-floor http): ${nio_floor_s} s = $(ratio "$nio_floor_s" "$(field "$dl" walk_s)")x minidlna's walk, server CPU $(python3 -c "print(round($(field "$work/nio-floor-$name.json" walk_server_cpu_s) / $(field "$ml" browse_calls) * 1e6))") µs a call (mlib's $(python3 -c "print(round($(field "$ml" walk_server_cpu_s) / $(field "$ml" browse_calls) * 1e6))")); mlib's walk is $(python3 -c "print(round(($(field "$ml" walk_s) - $nio_floor_s) / $(field "$ml" browse_calls) * 1e6))") µs a call over it"
    fi
    echo "walk: mlib $(field "$m" walk_s) s ($(field "$m" browse_calls) calls, $(field "$m" containers) containers), minidlna $(field "$d" walk_s) s ($(field "$d" browse_calls) calls, $(field "$d" containers) containers): ${walk_ratio}x, per call ${calls_ratio}x"
    if [[ -n "${RESULT:-}" ]]; then
        search() { field "$1" "search['$2'].get('median_ms', 'none')"; }
        matches() { field "$1" "search['$2'].get('matches', 'none')"; }
        q1='dc:title contains "neon"' q2='upnp:class derivedfrom "object.item.audioItem" and upnp:artist = "Björk"'
        python3 Benchmarks/write-result.py "dlna-bench-$name${SUFFIX:-}" "Benchmarks/dlna-bench.sh $MLIB $folder" \
          "$folder ($files files); pages of $PAGE" \
          mlib_lean_walk_s="$(field "$ml" walk_s)" minidlna_lean_walk_s="$(field "$dl" walk_s)" \
          mlib_lean_walk_server_cpu_s="$(field "$ml" walk_server_cpu_s)" minidlna_lean_walk_server_cpu_s="$(field "$dl" walk_server_cpu_s)" \
          mlib_lean_search_title_ms="$(field "$ml" "search['$lq1']['median_ms']")" minidlna_lean_search_title_ms="$(field "$dl" "search['$lq1']['median_ms']")" \
          mlib_lean_search_artist_ms="$(field "$ml" "search['$lq2']['median_ms']")" minidlna_lean_search_artist_ms="$(field "$dl" "search['$lq2']['median_ms']")" \
          mlib_walk_s="$(field "$m" walk_s)" mlib_browse_calls="$(field "$m" browse_calls)" mlib_containers="$(field "$m" containers)" \
          mlib_item_listings="$(field "$m" item_listings)" mlib_walk_server_cpu_s="$(field "$m" walk_server_cpu_s)" \
          minidlna_walk_s="$(field "$d" walk_s)" minidlna_browse_calls="$(field "$d" browse_calls)" minidlna_containers="$(field "$d" containers)" \
          minidlna_item_listings="$(field "$d" item_listings)" minidlna_walk_server_cpu_s="$(field "$d" walk_server_cpu_s)" \
          client_walk_cpu_s_mlib="$(field "$m" walk_client_cpu_s)" client_walk_cpu_s_minidlna="$(field "$d" walk_client_cpu_s)" \
          mlib_search_title_ms="$(search "$m" "$q1")" mlib_search_title_matches="$(matches "$m" "$q1")" \
          minidlna_search_title_ms="$(search "$d" "$q1")" minidlna_search_title_matches="$(matches "$d" "$q1")" \
          mlib_search_artist_ms="$(search "$m" "$q2")" minidlna_search_artist_ms="$(search "$d" "$q2")" \
          mlib_first_byte_ms="$(field "$m" first_byte_ms)" minidlna_first_byte_ms="$(field "$d" first_byte_ms)" \
          mlib_thumbnail_first_ms="$(field "$m" "d.get('thumbnail_first_ms', 'none')")" \
          mlib_thumbnail_cached_ms="$(field "$m" "d.get('thumbnail_cached_ms', 'none')")" \
          minidlna_thumbnails="$(field "$d" thumbnails)" \
          lean_walk_floor_s="$floor_s" lean_walk_nio_floor_s="$nio_floor_s" lean_rounds_steal_s="$lean_steal" mlib_rss_mb="$mlib_rss" minidlna_rss_mb="$minidlna_rss" mlib_scan_s="$mlib_scan" minidlna_scan_s="$minidlna_scan" \
          peer:minidlna_lean_walk="$(ratio "$(field "$dl" walk_s)" "$(field "$ml" walk_s)")" peer:minidlna_walk="$walk_ratio" peer:minidlna_walk_server_cpu="$(ratio "$(field "$d" walk_server_cpu_s)" "$(field "$m" walk_server_cpu_s)")" peer:minidlna_per_browse_call="$calls_ratio" \
          peer:minidlna_search_title="$(ratio "$(search "$d" "$q1")" "$(search "$m" "$q1")" 2>/dev/null || echo none)" \
          peer:minidlna_first_byte="$(ratio "$(field "$d" first_byte_ms)" "$(field "$m" first_byte_ms)")" \
          peer:minidlna_rss="$(ratio "$minidlna_rss" "$mlib_rss")" peer:minidlna_scan="$(ratio "$minidlna_scan" "$mlib_scan")"
    fi
done
