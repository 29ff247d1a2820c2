#!/usr/bin/env bash
# mpd-conformance.sh [--quick] [path/to/mlib] — the same raw MPD protocol command sequences sent to
# Debian's real mpd (null output, loopback, a temporary config) and to `mlib serve`, both over one music
# folder made from Fixtures/ (plus two 30 s tones and a cover.jpg), compared field by field by
# mpd-conformance.py. Prints each difference (known ones with their reason) and a summary line; exits 1
# on a difference not known. --quick runs the sequences without playback (the `swift test` subset).
set -euo pipefail
cd "$(dirname "$0")/.."
QUICK=""
if [[ "${1:-}" == "--quick" ]]; then QUICK="--quick"; shift; fi
MLIB=${1:-.build/debug/mlib}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build --product mlib)" >&2; exit 2; }
source Benchmarks/mpd-peers.sh

python3 Benchmarks/mpd-conformance.py "$mpd_port" "$mlib_port" $QUICK
