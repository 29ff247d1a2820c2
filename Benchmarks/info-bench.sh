#!/usr/bin/env bash
# info-bench.sh [COPIES] — files/s of `mlib info` (one process, all cores) beside ffprobe and mediainfo
# (one process per file, as scripts use them) on the same files: COPIES copies of each good audio fixture.
# Warm cache: every tool reads the set once before it is timed.
set -euo pipefail
cd "$(dirname "$0")/.."
COPIES=${1:-200}
# Env: MLIB (a built mlib; else a release build in SCRATCH_PATH, default .build); PEERS=0 skips ffprobe and mediainfo.
if [[ -z ${MLIB:-} ]]; then
  scratch=${SCRATCH_PATH:-.build}
  swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product mlib >/dev/null
  MLIB=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/mlib
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
work=$(mktemp -d "${TMPDIR:-/tmp}/info-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
audio=(Fixtures/*.mp3 Fixtures/*.flac Fixtures/*.ogg Fixtures/*.opus Fixtures/*.m4a Fixtures/*.wav Fixtures/*.aiff Fixtures/*.wv)
for ((i = 0; i < COPIES; i++)); do
  mkdir -p "$work/$i"; cp "${audio[@]}" "$work/$i/"
done
find "$work" -type f -not -name list > "$work/list"
n=$(wc -l < "$work/list")
cat $(cat "$work/list") > /dev/null   # warm the page cache

now() { date +%s.%N; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / t }'; }

t0=$(now); xargs -d '\n' "$MLIB" info --jsonl < "$work/list" > /dev/null; t1=$(now)
mlib_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
echo "mlib info:  $n files in ${mlib_s}s = $(rate "$n" "$mlib_s") files/s"

# Peers run per file (their normal use); a sample of 300 files keeps this quick.
sample=$(head -300 "$work/list")
ns=$(echo "$sample" | wc -l)
if [[ ${PEERS:-1} != 0 ]] && command -v ffprobe >/dev/null; then
  t0=$(now); while IFS= read -r f; do ffprobe -v error -show_format -show_streams -of json "$f" > /dev/null; done <<< "$sample"; t1=$(now)
  ff_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  echo "ffprobe:    $ns files in ${ff_s}s = $(rate "$ns" "$ff_s") files/s (one process per file)"
  awk -v m="$mlib_s" -v n="$n" -v f="$ff_s" -v k="$ns" 'BEGIN { printf "ratio mlib/ffprobe: %.0fx\n", (n / m) / (k / f) }'
fi
if [[ ${PEERS:-1} != 0 ]] && command -v mediainfo >/dev/null; then
  t0=$(now); while IFS= read -r f; do mediainfo --Output=JSON "$f" > /dev/null; done <<< "$sample"; t1=$(now)
  mi_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  echo "mediainfo:  $ns files in ${mi_s}s = $(rate "$ns" "$mi_s") files/s (one process per file)"
  awk -v m="$mlib_s" -v n="$n" -v f="$mi_s" -v k="$ns" 'BEGIN { printf "ratio mlib/mediainfo: %.0fx\n", (n / m) / (k / f) }'
fi
