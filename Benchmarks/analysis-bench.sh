#!/usr/bin/env bash
# analysis-bench.sh — `mlib analyze` (decode + loudness + fingerprint in one pass) beside its peers on the
# same files: loudgain (ReplayGain 2.0, one process for the album), ffmpeg's ebur128 filter and fpcalc (one
# process per file). Prints each as × real time (seconds of audio per second of wall clock), and mlib's
# speed-up from 1 to 2 jobs on one album.
#
#   Benchmarks/analysis-bench.sh [MLIB] [TRACKS] [SECONDS]
#
# MLIB defaults to .build/release/mlib (build it with `swift build -c release --product mlib`); a debug
# binary runs, but its figure is not mlib's. The album: TRACKS (12) FLAC tracks of SECONDS (180) of
# generated stereo audio at 44.1 kHz (pink noise and a tone, each track another seed and pitch).
set -euo pipefail
mlib=${1:-.build/release/mlib}
tracks=${2:-12}
seconds=${3:-180}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/album"
for i in $(seq 1 "$tracks"); do
  ffmpeg -v error -f lavfi -i "anoisesrc=color=pink:amplitude=0.25:duration=$seconds:seed=$i" \
    -f lavfi -i "sine=frequency=$((200 + 37 * i)):duration=$seconds" -filter_complex "[0][1]amerge=inputs=2" \
    -ar 44100 -metadata album=Bench -metadata artist=Bench -metadata track="$i" "$work/album/$(printf %02d "$i").flac"
done
audio=$((tracks * seconds))
library="$work/library.sqlite"
"$mlib" scan --quiet --library "$library" "$work/album"

# Wall-clock seconds of a command, to the millisecond.
wall() { local start end; start=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s.%N); echo "$end - $start" | bc -l; }
rate() { printf '%8.0f× real time' "$(echo "$audio / $1" | bc -l)"; }

echo "album: $tracks tracks × $seconds s ($audio s of audio), $(nproc) cores"
one=$(wall "$mlib" analyze --force --quiet --jobs 1 --library "$library")
echo "mlib analyze, 1 job     $(rate "$one")   (${one} s)"
two=$(wall "$mlib" analyze --force --quiet --jobs 2 --library "$library")
echo "mlib analyze, 2 jobs    $(rate "$two")   (${two} s; speed-up $(printf %.2f "$(echo "$one / $two" | bc -l)"))"
t=$(wall loudgain -q -a "$work"/album/*.flac)
echo "loudgain -a (1 process) $(rate "$t")   (${t} s)"
t=$(wall sh -c "for f in '$work'/album/*.flac; do ffmpeg -nostats -i \"\$f\" -af ebur128 -f null - 2>/dev/null; done")
echo "ffmpeg ebur128          $(rate "$t")   (${t} s)"
t=$(wall sh -c "for f in '$work'/album/*.flac; do fpcalc -raw \"\$f\"; done")
echo "fpcalc (first 120 s)    $(rate "$t")   (${t} s, of which 120 s per file fingerprinted)"
