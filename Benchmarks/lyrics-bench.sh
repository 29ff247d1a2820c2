#!/usr/bin/env bash
# lyrics-bench.sh [ITEMS] [RUNS] — whole-process time of `mlib lyrics` for one library item (issue 41: < 20 ms),
# by a title query and by --json on its path, in a library of ITEMS items (default 1,000 copies of the media
# fixtures plus the song with lyrics: a tag's LRC and a sidecar .lrc), the median and the worst of RUNS runs
# (default 30). The floor in the same run: sqlite3 selecting the stored set's text (a process that opens the
# same file and reads the same row).
# Env: MLIB (default .build/debug/mlib: a debug build, as the brief allows; a release build is faster).
# AGAINST=PATH (another mlib, e.g. an older build): at the end, `lyrics title:X` and `--version` of MLIB and of
# AGAINST run interleaved (MLIB, AGAINST, MLIB, …: RUNS each), each binary on a library it scanned itself, so the
# two are compared at the same load; their medians and MLIB's over AGAINST's.
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

# RUNS whole-process runs of "$@" after one warm-up; prints "median worst cpu": wall times in ms (median,
# worst) and the median CPU (user + sys of the process, from wait4) in ms. The machine is often loaded: CPU
# is the figure that load does not inflate.
time_runs() {
  python3 - "$RUNS" "$@" <<'PYTHON'
import os, statistics, subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
def once():
    start = time.monotonic()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return (time.monotonic() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000
once()
walls, cpus = zip(*(once() for _ in range(runs)))
print(f"{statistics.median(walls):.1f} {max(walls):.1f} {statistics.median(cpus):.1f}")
PYTHON
}
read -r by_title worst_title cpu_title < <(time_runs "$MLIB" lyrics title:Benchmarked)
read -r by_json worst_json cpu_json < <(time_runs "$MLIB" lyrics --json "path == \"$work/music/sung/song.flac\"")
read -r by_file worst_file cpu_file < <(time_runs "$MLIB" lyrics "$work/music/sung/song.flac")
echo "mlib lyrics title:Benchmarked:       median ${by_title} ms, worst ${worst_title} ms, CPU ${cpu_title} ms ($RUNS runs, whole process)"
echo "mlib lyrics --json 'path == …':      median ${by_json} ms, worst ${worst_json} ms, CPU ${cpu_json} ms"
echo "mlib lyrics FILE (read now):         median ${by_file} ms, worst ${worst_file} ms, CPU ${cpu_file} ms"
# What any mlib command pays in the same run: the process, the library's open, the same query.
read -r by_ls worst_ls cpu_ls < <(time_runs "$MLIB" ls -f '$title' title:Benchmarked)
echo "mlib ls -f '\$title' title:Benchmarked: median ${by_ls} ms, worst ${worst_ls} ms, CPU ${cpu_ls} ms (the same query, no lyrics)"
read -r by_version worst_version cpu_version < <(time_runs "$MLIB" --version)
echo "mlib --version:                      median ${by_version} ms, worst ${worst_version} ms, CPU ${cpu_version} ms (the process alone)"
if [[ -n ${AGAINST:-} ]]; then
  case $AGAINST in /*) ;; *) AGAINST=$(pwd)/$AGAINST ;; esac
  mkdir -p "$work/against"
  MLIB_LIBRARY=$work/against/library.sqlite "$AGAINST" scan -q "$work/music"
  python3 - "$RUNS" "$MLIB" "$AGAINST" "$work" <<'PYTHON'
import os, statistics, subprocess, sys
runs, mine, other, work = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def once(binary, library, args):
    env = dict(os.environ, MLIB_LIBRARY=library)
    child = subprocess.Popen([binary] + args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    return (usage.ru_utime + usage.ru_stime) * 1000
for args in (["lyrics", "title:Benchmarked"], ["--version"]):
    a, b = [], []
    once(mine, f"{work}/library.sqlite", args); once(other, f"{work}/against/library.sqlite", args)
    for _ in range(runs):
        a.append(once(mine, f"{work}/library.sqlite", args))
        b.append(once(other, f"{work}/against/library.sqlite", args))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"interleaved {' '.join(args)}: MLIB CPU median {ma:.1f} ms ({min(a):.1f}-{max(a):.1f}), AGAINST {mb:.1f} ms ({min(b):.1f}-{max(b):.1f}): {100 * (ma - mb) / mb:+.1f}%")
PYTHON
fi
if command -v sqlite3 > /dev/null; then
  read -r floor worst_floor cpu_floor < <(time_runs sqlite3 "$MLIB_LIBRARY" "SELECT text FROM lyrics JOIN items ON items.id = lyrics.item_id WHERE items.title = 'Benchmarked'")
  echo "sqlite3 SELECT text FROM lyrics …:  median ${floor} ms, worst ${worst_floor} ms, CPU ${cpu_floor} ms (the floor)"
  awk -v m="$by_title" -v f="$floor" 'BEGIN { printf "ratio mlib/sqlite3: %.1fx\n", m / f }'
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v m="$by_title" 'BEGIN { exit !(m < 20) }' && echo "PASS: under 20 ms" || { echo "FAIL: 20 ms or more"; exit 1; }
