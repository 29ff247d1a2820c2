#!/usr/bin/env bash
# info-bench.sh [COPIES] — files/s of `mlib info` (one process, all cores) beside mutagen (one python
# process, as a tagger uses it: mutagen.File on each path, tags and stream info), ffprobe and mediainfo (one
# process per file, as scripts use them) on the same files: COPIES copies of each good media fixture (default
# 770: 10,010 files, the issue's "10,000 files in one process"; target >= 3,000 files/s).
# Warm cache: every tool reads the set once before it is timed.
set -euo pipefail
cd "$(dirname "$0")/.."
COPIES=${1:-770}
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

# One process: the list fits one command line (10,010 paths of ~40 bytes). CPU = user + sys.
/usr/bin/time -f "%e %U %S" -o "$work/time" "$MLIB" info --jsonl $(cat "$work/list") > /dev/null || [[ $? -eq 1 ]]
read -r mlib_s user sys < <(tail -1 "$work/time")
mlib_cpu=$(awk -v u="$user" -v s="$sys" -v n="$n" 'BEGIN { printf "%.0f", (u + s) * 1e6 / n }')
echo "mlib info:  $n files in ${mlib_s}s = $(rate "$n" "$mlib_s") files/s, $(awk -v u="$user" -v s="$sys" -v n="$n" 'BEGIN { printf "%.0f", (u + s) * 1e6 / n }') µs CPU/file (one process)"

if [[ ${PEERS:-1} != 0 ]] && python3 -c 'import mutagen' 2>/dev/null; then
  /usr/bin/time -f "%e %U %S" -o "$work/time" python3 -c '
import sys, mutagen
read = 0
for path in open(sys.argv[1]).read().splitlines():
    try:
        f = mutagen.File(path)
    except Exception:
        continue
    if f is not None:
        read += 1
        dict(f.tags or {}); f.info.length
print(read)' "$work/list" > "$work/mutagen.out"
  read -r mu_s user sys < <(tail -1 "$work/time")
  echo "mutagen:    $n files in ${mu_s}s = $(rate "$n" "$mu_s") files/s, $(awk -v u="$user" -v s="$sys" -v n="$n" 'BEGIN { printf "%.0f", (u + s) * 1e6 / n }') µs CPU/file (one python process; $(cat "$work/mutagen.out") read)"
  awk -v m="$mlib_s" -v f="$mu_s" 'BEGIN { printf "ratio mlib/mutagen: %.1fx\n", f / m }'
fi

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

# The figures README.md quotes, for scripts/update-readme-figures.sh (Benchmarks/results/info-bench.json).
ratio() { awk -v m="$mlib_s" -v n="$n" -v f="$1" -v k="$2" 'BEGIN { printf "%.0f", (n / m) / (k / f) }'; }
python3 Benchmarks/write-result.py info-bench "${0##*/} $COPIES" "$n copies of the media fixtures" \
  files_per_s="$(rate "$n" "$mlib_s")" \
  cpu_us_per_file="$mlib_cpu" \
  ${mu_s:+mutagen_files_per_s="$(rate "$n" "$mu_s")"} ${ff_s:+ffprobe_files_per_s="$(rate "$ns" "$ff_s")"} \
  ${mi_s:+mediainfo_files_per_s="$(rate "$ns" "$mi_s")"} \
  ${mu_s:+peer:mutagen="$(awk -v m="$mlib_s" -v f="$mu_s" 'BEGIN { printf "%.1f", f / m }')"} \
  ${ff_s:+peer:ffprobe_per_file="$(ratio "$ff_s" "$ns")"} ${mi_s:+peer:mediainfo_per_file="$(ratio "$mi_s" "$ns")"}
