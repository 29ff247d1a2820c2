#!/usr/bin/env bash
# dlna-instructions.sh [MLIB] [FOLDER] — what one Browse call costs `mlib serve --dlna` in instructions, counted by
# callgrind (valgrind), beside the swift-nio floor answering the same walk with mlib's recorded answers
# (Benchmarks/NIOFloor, `nio-floor http`): the lean client's walk (dlna-walk.py, pages of 50) once to warm the
# server, then once counted. Instructions, unlike the walk's time, do not move with the machine's load or its
# minutes: on the 2-core machines here a server's CPU a call drifts by 20–40 % between runs, more than most
# changes to the answering code, which this tells apart (the time still decides: dlna-bench.sh). Prints the
# instructions a call of each, and of the parts of mlib's answer (reading the SOAP envelope, the page, the SOAP
# answer, the HTTP write), and of the floor with NIOHTTP1's codec alone (`nio-floor http-bare`). Needs: valgrind,
# root (network namespaces, as dlna-bench.sh), MLIB built as the README builds it (--static-swift-stdlib), NIO_FLOOR
# (default .build/release/nio-floor: swift build -c release --product nio-floor). Default FOLDER: /work/corpora/c2k.
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/netns-pair.sh
MLIB=${1:-.build/release/mlib}
FOLDER=${2:-/work/corpora/c2k}
NIO_FLOOR=${NIO_FLOOR:-.build/release/nio-floor}
PAGE=${PAGE:-50}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --static-swift-stdlib --product mlib)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install -y valgrind" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "network namespaces need root" >&2; exit 2; }
# valgrind 3.19 died of SIGSEGV inside the toolchain's shared libdispatch as such an `mlib serve` started (session 31;
# nio-floor, which links it too, runs); the README's build links Swift's runtime in and runs under it.
if ldd "$MLIB" 2>/dev/null | grep -q 'libdispatch\.so'; then
    echo "$MLIB links Swift's runtime as shared libraries; valgrind died inside their libdispatch under such an mlib: build it as the README does" \
         "(swift build -c release --static-swift-stdlib --product mlib)" >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dlna-instructions.XXXXXX")
[[ -z "${KEEP:-}" ]] || echo "kept: $work"
S=dlnains$$s C=dlnains$$c
cleanup() {
    netns_remove "$S" "$C"
    sleep 0.5   # the killed servers (callgrind writing its counts) end before their files go
    [[ -n "${KEEP:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT
netns_pair "$S" "$C" 10.46.0

# valgrind's DWARF reader gives up on Swift binaries' debug information ("Possibly corrupted debuginfo file");
# the symbol table, which names every function, is enough.
objcopy --strip-debug "$MLIB" "$work/mlib"
[[ -x "$NIO_FLOOR" ]] && objcopy --strip-debug "$NIO_FLOOR" "$work/nio-floor"
export MLIB_LIBRARY="$work/library.sqlite" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME"
"$MLIB" scan -q "$FOLDER" >/dev/null 2>&1 || true
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $MLIB; $FOLDER ($(find "$FOLDER" -type f | wc -l) files)"

walk() { # CONTROL_URL [--record FILE]: one lean walk, its JSON
    ip netns exec "$C" python3 Benchmarks/dlna-walk.py --control "$1" --page "$PAGE" "${@:2}"
}
counted() { # NAME CONTROL_URL COMMAND...: the command under callgrind, warmed by a walk, one walk counted
    local name=$1 control=$2 pid port
    shift 2
    port=${control#http://*:}; port=${port%%/*}
    ip netns exec "$S" valgrind --tool=callgrind --callgrind-out-file="$work/$name.out" "$@" > "$work/$name.log" 2>&1 &
    pid=$!
    # Listening yet? A connection, no request (the floor answers each request with the next recorded answer).
    for _ in $(seq 600); do ip netns exec "$C" bash -c "echo -n > /dev/tcp/10.46.0.1/$port" 2>/dev/null && break; sleep 0.2; done
    walk "$control" ${record:+--record "$record"} > /dev/null
    callgrind_control -z "$pid" > /dev/null 2>&1
    walk "$control" > "$work/$name.json"
    callgrind_control -d "$pid" > /dev/null 2>&1
    kill "$pid"; wait "$pid" 2>/dev/null || true
}
record="$work/answers" counted mlib http://10.46.0.1:8204/ContentDirectory/control \
    "$work/mlib" serve --no-mpd --dlna --dlna-interface eth0 --dlna-port 8204 --dlna-name instructions
if [[ -x "$NIO_FLOOR" ]]; then
    record="" counted floor http://10.46.0.1:8205/ctl "$work/nio-floor" http "$work/answers" 8205
    # NIOHTTP1's codec alone: what its pipelining assistance, error handler and header validation cost a call.
    record="" counted bare http://10.46.0.1:8206/ctl "$work/nio-floor" http-bare "$work/answers" 8206
fi

python3 - "$work" <<'PYTHON'
import json, os, re, subprocess, sys
work = sys.argv[1]

def profile(name):
    """Inclusive instructions by function of the counted walk's dump (the `.1` part), and the call count."""
    dump = f"{work}/{name}.out.1"
    if not os.path.exists(dump):
        return None, None
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", dump],
                          capture_output=True, text=True).stdout
    inclusive = {}
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+)", line)
        if match:
            inclusive.setdefault(match.group(2), int(match.group(1).replace(",", "")))
    return inclusive, json.load(open(f"{work}/{name}.json"))["browse_calls"]

def per_call(inclusive, calls, pattern):
    found = [v for k, v in inclusive.items() if re.search(pattern, k)]
    return round(max(found) / calls) if found else None

mlib, calls = profile("mlib")
total = mlib.get("PROGRAM", 0) if mlib else 0
print(f"mlib: {round(total / calls):,} instructions a Browse call ({calls} calls, one warm walk)")
parts = [("answering (answerOnLoop)", r"DLNAServerAAC12answerOnLoop"), ("  SOAP envelope read", r"SOAPEnvelopeReaderV8envelope"),
         ("  ContentDirectory.call", r"ContentDirectoryV4call"), ("    DIDL-Lite page", r"DIDLWriterV8document"),
         ("    TreeNodes.children", r"TreeNodesV8children2of"), ("  SOAP answer made", r"SOAPCallV8response"),
         ("HTTP write (HTTPHandler.write)", r"HTTPHandlerC5write33"), ("the handler, all (channelRead)", r"HTTPHandlerC11channelRead7context4datay7NIOCore21ChannelHandlerContextC_AG6NIOAnyVtF$")]
for label, pattern in parts:
    value = per_call(mlib, calls, pattern)
    print(f"  {label}: {value:,}" if value is not None else f"  {label}: not found")
floor, floor_calls = profile("floor")
if floor:
    floor_total = floor.get("PROGRAM", 0)
    print(f"swift-nio floor (the same answers, nio-floor http): {round(floor_total / floor_calls):,} instructions a call; "
          f"mlib: {round(total / calls - floor_total / floor_calls):,} over it ({total / calls / (floor_total / floor_calls):.2f}x)")
bare, bare_calls = profile("bare")
if bare:
    print(f"  NIOHTTP1's codec alone (nio-floor http-bare: no pipelining assistance, error handler, header validation): "
          f"{round(bare.get('PROGRAM', 0) / bare_calls):,} instructions a call")
PYTHON
