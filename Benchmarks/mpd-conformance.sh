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
# Beside the fixtures: directories whose names collate differently from their bytes, a folder of songs
# mpd orders by album, disc and track (issue 26, 7), and a song with tags mlib keeps only raw (issue 26, 9).
peers_extra_music() {
    local music=$1 name
    mkdir -p "$music/Order/Songs" "$music/Classical"
    for name in b B a A é e _x 1 " z" Zebra ábc abd "a b" a-b a_b ab; do
        mkdir -p "$music/Order/$name"
        cp Fixtures/opus.opus "$music/Order/$name/s.opus"
    done
    song() { ffmpeg -v error -f lavfi -i sine=duration=1 "${@:2}" "$music/$1"; }
    song Order/Songs/b.flac -metadata album=Beta -metadata track=2
    song Order/Songs/a.flac -metadata album=Beta -metadata track=10
    song Order/Songs/c.flac -metadata album=alpha -metadata track=1
    song Order/Songs/d.flac
    song Order/Songs/e.flac -metadata album=Beta -metadata disc=2 -metadata track=1
    song Order/Songs/f.flac -metadata album=Beta
    song Classical/symphony.flac -metadata title=Symphony -metadata "performer=Jane Doe" \
        -metadata "conductor=Herbert Karajan" -metadata "work=Symphony No. 5" -metadata "label=Deutsche Grammophon"
}
source Benchmarks/mpd-peers.sh

status=0
python3 Benchmarks/mpd-conformance.py "$mpd_port" "$mlib_port" $QUICK | tee "$work/out" || status=$?
# The full run's summary becomes Benchmarks/results/mpd-conformance.json (--quick is ConformanceTests' subset).
if [[ -z $QUICK ]]; then
  read -r compared unexpected known reasons < <(sed -n 's/^\([0-9]*\) commands compared: \([0-9]*\) unexpected differences, \([0-9]*\) known, for \([0-9]*\) reasons.*/\1 \2 \3 \4/p' "$work/out")
  python3 Benchmarks/write-result.py mpd-conformance "Benchmarks/mpd-conformance.sh $MLIB" \
    "a folder made from Fixtures (plus tones, a cover, names that collate differently, raw tags); mpd 0.23 beside mlib serve" \
    commands_compared="$compared" unexpected_differences="$unexpected" known_differences="$known" known_reasons="$reasons"
fi
exit "$status"
