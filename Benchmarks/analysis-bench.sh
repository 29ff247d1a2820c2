#!/usr/bin/env bash
# analysis-bench.sh — `mlib analyze` (decode + loudness + fingerprint in one pass) beside its peers on the
# same files: loudgain (ReplayGain 2.0, one process for the album), ffmpeg's ebur128 filter and fpcalc (one
# process per file). Prints each as × real time (seconds of audio per second of wall clock), and mlib's
# speed-up from 1 to 2 jobs on one album, and `--loudness-only` (no Chromaprint) beside the loudness peers;
# with `--true-peak` too (`--loudness-only --true-peak` is loudgain's work, like for like: loudgain always
# measures true peaks).
# Each line gives × real time by the wall clock and per core (audio seconds per CPU second).
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

# Each command's wall-clock seconds and CPU seconds (user + system, its children included: the peers that
# run one process per file are timed as the whole loop), from GNU time.
measure() {
  /usr/bin/time -o "$work/time" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
  wall_s=$(tail -1 "$work/time" | cut -d' ' -f1)
  cpu_s=$(tail -1 "$work/time" | awk '{ print $2 + $3 }')
}
# One line: × real time by the wall clock, and per core (seconds of audio per CPU second): on a machine
# other work shares, the per-core figure is the one that compares programs.
declare -A per_core   # report's per-core figures, by key, for the results file
report() {
  [[ -n ${key:-} ]] && per_core[$key]=$(printf %.0f "$(echo "$audio / $cpu_s" | bc -l)")
  printf '%-29s %6.0f× real time   %6.0f× per core   (%s s wall, %s s CPU%s)\n' "$1" \
    "$(echo "$audio / $wall_s" | bc -l)" "$(echo "$audio / $cpu_s" | bc -l)" "$wall_s" "$cpu_s" "${2:-}"
}

echo "album: $tracks tracks × $seconds s ($audio s of audio), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
measure "$mlib" analyze --force --quiet --jobs 1 --library "$library"; one=$wall_s
key=analyze report "mlib analyze, 1 job"
measure "$mlib" analyze --force --quiet --jobs 2 --library "$library"
key=analyze_2_jobs report "mlib analyze, 2 jobs" "; speed-up $(printf %.2f "$(echo "$one / $wall_s" | bc -l)")"
measure "$mlib" analyze --force --quiet --jobs 1 --loudness-only --library "$library"
key=loudness_only report "mlib analyze --loudness-only"
measure "$mlib" analyze --force --quiet --jobs 1 --true-peak --library "$library"
key=true_peak report "mlib analyze --true-peak"
measure "$mlib" analyze --force --quiet --jobs 1 --loudness-only --true-peak --library "$library"
key=true_peak_loudness_only report "mlib analyze --loudness-only --true-peak"
# The true peaks themselves: mlib's (this run's) beside loudgain's, track by track, the largest difference in dB.
"$mlib" ls --library "$library" -f '$path	$trackPeak' | sort > "$work/mlib-peaks"
loudgain -O -a "$work"/album/*.flac 2>/dev/null | awk -F'\t' 'NR > 1 && $1 != "Album" { print $1 "\t" $4 }' | sort > "$work/loudgain-peaks"
peak_difference=$(join -t$'\t' "$work/mlib-peaks" "$work/loudgain-peaks" | awk -F'\t' '
  { d = 20 * log($2 / $3) / log(10); if (d < 0) d = -d; if (d > m) m = d; n++ } END { printf "%.4f", m }')
echo "true peaks: $(wc -l < "$work/mlib-peaks") tracks, largest |mlib - loudgain| ${peak_difference} dB (loudgain prints 6 digits)"
measure loudgain -q -a "$work"/album/*.flac
key=loudgain report "loudgain -a (1 process)"
measure sh -c "for f in '$work'/album/*.flac; do ffmpeg -nostats -i \"\$f\" -af ebur128 -f null - 2>/dev/null; done"
key=ffmpeg_ebur128 report "ffmpeg ebur128"
measure sh -c "for f in '$work'/album/*.flac; do ffmpeg -nostats -i \"\$f\" -f null - 2>/dev/null; done"
key=ffmpeg_decode report "ffmpeg decode alone"
measure sh -c "for f in '$work'/album/*.flac; do fpcalc -raw \"\$f\"; done"
key=fpcalc report "fpcalc (first 120 s)" "; 120 s per file fingerprinted"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# The figures file README's table is made from (Benchmarks/write-result.py): seconds of audio per CPU second.
ratio() { python3 -c "print(round($1 / max($2, 1), 2))"; }
python3 "$(dirname "$0")/write-result.py" analysis-bench "Benchmarks/analysis-bench.sh $mlib $tracks $seconds" \
  "$tracks generated FLAC tracks × $seconds s ($audio s of audio)" \
  analyze_per_core="${per_core[analyze]}" analyze_2_jobs_per_core="${per_core[analyze_2_jobs]}" \
  loudness_only_per_core="${per_core[loudness_only]}" true_peak_per_core="${per_core[true_peak]}" \
  true_peak_loudness_only_per_core="${per_core[true_peak_loudness_only]}" loudgain_per_core="${per_core[loudgain]}" \
  ffmpeg_ebur128_per_core="${per_core[ffmpeg_ebur128]}" fpcalc_per_core="${per_core[fpcalc]}" \
  true_peak_largest_difference_db="$peak_difference" \
  peer:loudgain="$(ratio "${per_core[analyze]}" "${per_core[loudgain]}")" \
  peer:loudgain_true_peak="$(ratio "${per_core[true_peak_loudness_only]}" "${per_core[loudgain]}")" \
  peer:ffmpeg_ebur128="$(ratio "${per_core[analyze]}" "${per_core[ffmpeg_ebur128]}")"
