#!/bin/sh
# Decoding speed of the player: `mlib play --sink null:fast` (decode + resample + volume, output
# discarded as fast as it comes) over 10 minutes of MP3 and of FLAC, as a multiple of real time.
# The goal (issue 6) is at least 100× real time.
#
# Usage: Benchmarks/decode-bench.sh [path/to/mlib] [minutes]
#   default binary: .build/release/mlib (swift build -c release --static-swift-stdlib --product mlib); default 10 minutes.
set -eu
MLIB=${1:-.build/release/mlib}
MINUTES=${2:-10}
[ -x "$MLIB" ] || { echo "no mlib binary at $MLIB (swift build -c release --static-swift-stdlib --product mlib)" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
SECONDS_OF_AUDIO=$((MINUTES * 60))
# A chirp-ish tone with noise: something a codec has to work for, not digital silence.
SOURCE="aevalsrc=exprs=0.3*sin(2*PI*(200+100*sin(t))*t)+0.05*(random(0)-0.5)|0.3*sin(2*PI*(300+50*sin(t/3))*t):s=44100:d=$SECONDS_OF_AUDIO"
ffmpeg -v error -f lavfi -i "$SOURCE" -c:a libmp3lame -b:a 192k "$WORK/bench.mp3"
ffmpeg -v error -f lavfi -i "$SOURCE" -sample_fmt s16 "$WORK/bench.flac"

for f in bench.mp3 bench.flac; do
    cat "$WORK/$f" >/dev/null    # warm the page cache: measure decoding, not the disk
    best=""
    for run in 1 2 3; do
        start=$(date +%s.%N)
        MLIB_LIBRARY="$WORK/none.sqlite" "$MLIB" play --files "$WORK/$f" --sink null:fast >/dev/null
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc -l)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
    done
    x=$(printf '%.0f' "$(echo "$SECONDS_OF_AUDIO / $best" | bc -l)")
    printf '%-10s %d s of audio decoded in %.3f s (best of 3): %s× real time\n' "$f" "$SECONDS_OF_AUDIO" "$best" "$x"
    case $f in *.mp3) mp3=$x ;; *) flac=$x ;; esac
done
python3 "$(dirname "$0")/write-result.py" decode-bench "decode-bench.sh $MLIB $MINUTES" \
    "$MINUTES min of a noisy chirp as MP3 (LAME 192k) and FLAC, page cache warm, best of 3" \
    mp3_x_realtime="$mp3" flac_x_realtime="$flac"
