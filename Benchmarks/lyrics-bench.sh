#!/usr/bin/env bash
# lyrics-bench.sh [ITEMS] [RUNS] — whole-process time of `mlib lyrics` for one library item (issue 41: < 20 ms),
# by a title query and by --json on its path, in a library of ITEMS items (default 1,000 copies of the media
# fixtures plus the song with lyrics: a tag's LRC and a sidecar .lrc), the median and the worst of RUNS runs
# (default 30). The floor in the same run: sqlite3 selecting the stored set's text (a process that opens the
# same file and reads the same row).
# Env: MLIB (default .build/debug/mlib: a debug build, as the brief allows; a release build is faster).
set -euo pipefail
cd "$(dirname "$0")/.."
ITEMS=${1:-1000}
RUNS=${2:-30}
MLIB=${MLIB:-.build/debug/mlib}
case $MLIB in /*) ;; *) MLIB=$(pwd)/$MLIB ;; esac
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); mlib: $MLIB"
work=$(mktemp -d "${TMPDIR:-/tmp}/lyrics-bench.XXXXXX"); trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_CONFIG_HOME=$work/.config MLIB_LIBRARY=$work/library.sqlite
audio=(Fixtures/*.mp3 Fixtures/*.flac Fixtures/*.ogg Fixtures/*.opus Fixtures/*.m4a)
mkdir -p "$work/music/sung"
i=0
while ((i < ITEMS)); do
  mkdir -p "$work/music/$((i / 100))"
  for f in "${audio[@]}"; do ((i < ITEMS)) || break; cp "$f" "$work/music/$((i / 100))/$i.${f##*.}"; i=$((i + 1)); done
done
ffmpeg -v error -f lavfi -i sine=d=30 -metadata title=Benchmarked -metadata "LYRICS=[00:01.00]Tag line" "$work/music/sung/song.flac"
for n in $(seq 1 40); do printf '[00:%02d.50]Line %d of the sidecar\n' "$((n % 60))" "$n"; done > "$work/music/sung/song.lrc"
"$MLIB" scan -q "$work/music"
echo "library: $("$MLIB" ls --count 2>/dev/null || "$MLIB" ls --paths | wc -l) items"

now() { date +%s%N; }
# RUNS whole-process timings (ms) of "$@"; prints "median worst".
time_runs() {
  local t=() a b
  for ((r = 0; r < RUNS; r++)); do a=$(now); "$@" > /dev/null; b=$(now); t+=($(( (b - a) / 1000 ))); done
  printf '%s\n' "${t[@]}" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f %.1f\n", v[int((NR + 1) / 2)] / 1000, v[NR] / 1000 }'
}
read -r by_title worst_title < <(time_runs "$MLIB" lyrics title:Benchmarked)
read -r by_json worst_json < <(time_runs "$MLIB" lyrics --json "path == \"$work/music/sung/song.flac\"")
echo "mlib lyrics title:Benchmarked:       median ${by_title} ms, worst ${worst_title} ms ($RUNS runs, whole process)"
echo "mlib lyrics --json 'path == …':      median ${by_json} ms, worst ${worst_json} ms"
# What any mlib command pays in the same run: the process, the library's open, the same query.
read -r by_ls worst_ls < <(time_runs "$MLIB" ls -f '$title' title:Benchmarked)
echo "mlib ls -f '\$title' title:Benchmarked: median ${by_ls} ms, worst ${worst_ls} ms (the same query, no lyrics)"
if command -v sqlite3 > /dev/null; then
  read -r floor worst_floor < <(time_runs sqlite3 "$MLIB_LIBRARY" "SELECT text FROM lyrics JOIN items ON items.id = lyrics.item_id WHERE items.title = 'Benchmarked'")
  echo "sqlite3 SELECT text FROM lyrics …:  median ${floor} ms, worst ${worst_floor} ms (the floor)"
  awk -v m="$by_title" -v f="$floor" 'BEGIN { printf "ratio mlib/sqlite3: %.1fx\n", m / f }'
fi
awk -v m="$by_title" 'BEGIN { exit !(m < 20) }' && echo "PASS: under 20 ms" || { echo "FAIL: 20 ms or more"; exit 1; }
