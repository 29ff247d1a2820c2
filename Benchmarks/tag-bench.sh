#!/usr/bin/env bash
# tag-bench.sh — mlib tag beside beets' `beet modify -y` (PyPI beets, mediafile/mutagen underneath) and
# beside mutagen alone (one Python process setting the field and saving each file: the floor of a Python
# tagger, with no library, journal or fsync; issue 50: mlib ≥ mutagen's files/s) on the same N files (half FLAC, half MP3, SECONDS of audio each), in two cases:
#   padded:   the files' tags have padding (mutagen's save adds it) and the edit fits (a new title);
#   unpadded: the files as ffmpeg made them and an edit that does not fit (2 KB of lyrics): every file is
#             rewritten (mlib: a copy renamed over the file; mutagen: the audio moved within the file).
# Per tool and case: wall time of the edit alone (the library already built, the page cache warm), edits
# per second, and the bytes the edit wrote to the disk (the process's ru_oublock, which counts what it
# dirtied, journal and fsyncs included; ext4 here counts a dirtied folio, up to 64 KiB, however few bytes
# changed in it: a 12-byte title edit of 1,000 files counts ~64 MB for either tool).
# Usage: Benchmarks/tag-bench.sh [N]   (default 1000). Env: ROUNDS (default 5: each tool and case timed that many
# times, alternated, the median kept), MLIB (the binary; default the release build,
# built when BUILD=1), SECONDS_EACH (default 20), BENCH_DIR (default bench-out/tag), MLIB_BASE (another mlib
# binary, e.g. main's, timed the same way in the same run right after MLIB: an A/B on the same machine load).
# Targets (issue 29): >= 5x beets' edits/s where tags fit in place, never slower where files are rewritten.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
SECS=${SECONDS_EACH:-20}
ROUNDS=${ROUNDS:-5}
OUT=${BENCH_DIR:-bench-out/tag}
if [ "${BUILD:-0}" = 1 ]; then swift build -c release --product mlib >/dev/null; fi
MLIB=${MLIB:-.build/release/mlib}
command -v beet >/dev/null || { echo "beets is not installed (pip install beets)"; exit 1; }
rm -rf "$OUT"; mkdir -p "$OUT/masters"
OUT=$(cd "$OUT" && pwd)

# Two masters, copied N/2 times each (TagLib and mutagen do the same work per copy).
ffmpeg -v error -f lavfi -i "sine=frequency=440:duration=$SECS" -c:a flac -metadata title=Old -metadata artist=Someone "$OUT/masters/m.flac"
ffmpeg -v error -f lavfi -i "sine=frequency=440:duration=$SECS" -c:a libmp3lame -b:a 192k -metadata title=Old -metadata artist=Someone "$OUT/masters/m.mp3"
cp "$OUT/masters/m.flac" "$OUT/masters/padded.flac"; cp "$OUT/masters/m.mp3" "$OUT/masters/padded.mp3"
python3 -c "
import mutagen, sys
for p in sys.argv[1:]:
    f = mutagen.File(p); f.save(padding=lambda info: 8192)
" "$OUT/masters/padded.flac" "$OUT/masters/padded.mp3"

corpus() {   # corpus DIR KIND: N files from the masters of KIND (padded or plain)
  local dir=$1 kind=$2 i
  rm -rf "$dir"; mkdir -p "$dir"
  local flac=$OUT/masters/m.flac mp3=$OUT/masters/m.mp3
  if [ "$kind" = padded ]; then flac=$OUT/masters/padded.flac; mp3=$OUT/masters/padded.mp3; fi
  for ((i = 0; i < N / 2; i++)); do cp "$flac" "$dir/$i.flac"; cp "$mp3" "$dir/$i.mp3"; done
  sync
}

# measure LABEL CMD...: wall seconds and bytes written by CMD (its children included).
measure() {
  local label=$1; shift
  python3 - "$label" "$@" <<'PY'
import os, subprocess, sys, time
label, cmd = sys.argv[1], sys.argv[2:]
start = time.time()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
_, status, usage = os.wait4(p.pid, 0)
wall = time.time() - start
err = p.stderr.read().decode(errors="replace")
if status != 0:
    print(f"{label}: exit status {status >> 8}: {err[-500:]}", file=sys.stderr)
print(f"{label}\t{wall:.3f}\t{usage.ru_oublock * 512}")
PY
}

LYRICS=$(python3 -c "print('la ' * 700)")
results=()
for round in $(seq "$ROUNDS"); do
for case in padded unpadded; do
  kind=plain; [ "$case" = padded ] && kind=padded
  if [ "$case" = padded ]; then edit=("title=New Title"); else edit=("lyrics=$LYRICS"); fi

  # mlib: a library of the corpus, then the edit through it (the items re-read in the same command).
  corpus "$OUT/mlib-$case" "$kind"
  rm -f "$OUT/mlib-$case.sqlite"*
  "$MLIB" scan --library "$OUT/mlib-$case.sqlite" "$OUT/mlib-$case" >/dev/null
  sync   # the scan's own writes flushed now, not by the edit's first journal commit (ext4 data=ordered)
  results+=("$(MLIB_TAG_JOURNAL=$OUT/journal measure "mlib $case" "$MLIB" tag --library "$OUT/mlib-$case.sqlite" --all --yes "${edit[@]}")")
  if [ -n "${MLIB_BASE:-}" ]; then
    corpus "$OUT/base-$case" "$kind"
    rm -f "$OUT/base-$case.sqlite"*
    "$MLIB_BASE" scan --library "$OUT/base-$case.sqlite" "$OUT/base-$case" >/dev/null
    sync
    results+=("$(MLIB_TAG_JOURNAL=$OUT/journal measure "base $case" "$MLIB_BASE" tag --library "$OUT/base-$case.sqlite" --all --yes "${edit[@]}")")
  fi

  # beets: its library of the same corpus (imported as is: no autotagging, no copying), then modify -y.
  corpus "$OUT/beets-$case" "$kind"
  mkdir -p "$OUT/beets-$case-config"
  printf 'directory: %s\nlibrary: %s\nimport:\n  copy: no\n  write: no\n  autotag: no\n  duplicate_action: keep\nplugins: []\n' \
    "$OUT/beets-$case" "$OUT/beets-$case.db" > "$OUT/beets-$case-config/config.yaml"
  rm -f "$OUT/beets-$case.db"
  BEETSDIR=$OUT/beets-$case-config beet import -q -A -C -W -s "$OUT/beets-$case" >/dev/null 2>&1 || true
  sync
  results+=("$(BEETSDIR=$OUT/beets-$case-config measure "beets $case" beet modify -w -y "${edit[@]}")")

  # mutagen alone: the same field set on the same files, each saved in place (its padding, no fsync).
  corpus "$OUT/mutagen-$case" "$kind"
  results+=("$(measure "mutagen $case" python3 -c '
import sys
import mutagen
from mutagen.id3 import ID3, TIT2, USLT
field, value = sys.argv[1].split("=", 1)
for path in sys.argv[2:]:
    if path.endswith(".mp3"):
        tags = ID3(path)
        tags.setall("TIT2" if field == "title" else "USLT",
                    [TIT2(encoding=3, text=value) if field == "title" else USLT(encoding=3, lang="eng", desc="", text=value)])
        tags.save(path)
    else:
        f = mutagen.File(path)
        f[field.upper()] = value
        f.save()
' "${edit[@]}" "$OUT/mutagen-$case"/*)")
done
done
# One line per tool and case: the median of the rounds (the tools alternate within a round, so a slower
# moment of the machine falls on all of them; one round's ratio moved by ±15% between runs).
mapfile -t results < <(printf '%s\n' "${results[@]}" | python3 -c '
import collections, statistics, sys
rows = collections.OrderedDict()
for line in sys.stdin:
    label, wall, written = line.rstrip("\n").split("\t")
    rows.setdefault(label, []).append((float(wall), int(written)))
for label, runs in rows.items():
    print(f"{label}\t{statistics.median(w for w, _ in runs):.3f}\t{int(statistics.median(b for _, b in runs))}")')

echo "N=$N, $SECS s each, median of $ROUNDS rounds; $(BEETSDIR=$OUT/beets-padded-config beet version 2>/dev/null | grep -m1 "^beets version"); $("$MLIB" --version 2>/dev/null | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-16s %8s %10s %14s\n' tool-case seconds edits/s bytes-written
for r in "${results[@]}"; do
  IFS=$'\t' read -r label wall bytes <<<"$r"
  printf '%-16s %8s %10.0f %14s\n' "$label" "$wall" "$(python3 -c "print($N / max($wall, 0.001))")" "$bytes"
done

# The figures file README's table is made from (Benchmarks/write-result.py).
declare -A rate
for r in "${results[@]}"; do
  IFS=$'\t' read -r label wall bytes <<<"$r"
  rate[${label// /_}]=$(python3 -c "print(round($N / max($wall, 0.001)))")
done
ratio() { python3 -c "print(round($1 / max($2, 1), 2))"; }
python3 Benchmarks/write-result.py tag-bench "MLIB=$MLIB SECONDS_EACH=$SECS ROUNDS=$ROUNDS Benchmarks/tag-bench.sh $N" \
  "$N files ($((N / 2)) FLAC, $((N - N / 2)) MP3), $SECS s each; median of $ROUNDS rounds" \
  padded_edits_per_s="${rate[mlib_padded]}" unpadded_edits_per_s="${rate[mlib_unpadded]}" \
  beets_padded_edits_per_s="${rate[beets_padded]}" beets_unpadded_edits_per_s="${rate[beets_unpadded]}" \
  mutagen_padded_edits_per_s="${rate[mutagen_padded]}" mutagen_unpadded_edits_per_s="${rate[mutagen_unpadded]}" \
  peer:mutagen_padded="$(ratio "${rate[mlib_padded]}" "${rate[mutagen_padded]}")" \
  peer:mutagen_unpadded="$(ratio "${rate[mlib_unpadded]}" "${rate[mutagen_unpadded]}")" \
  peer:beets_padded="$(ratio "${rate[mlib_padded]}" "${rate[beets_padded]}")" \
  peer:beets_unpadded="$(ratio "${rate[mlib_unpadded]}" "${rate[beets_unpadded]}")" \
  ${MLIB_BASE:+base_padded_edits_per_s="${rate[base_padded]}" base_unpadded_edits_per_s="${rate[base_unpadded]}"}
