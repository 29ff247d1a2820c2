#!/usr/bin/env bash
# ls-bench.sh [N ...]   (default: 10000 100000) — issue 50: `mlib ls` against its floor, `sqlite3` reading the
# same SQLite library, in one run. On N synthetic items (BenchmarkSupport's SyntheticItems, as scale-bench
# makes them), whole process, median of RUNS (default 5) runs after a warm-up, CPU (user + system) and wall:
#   mlib ls --paths                beside  sqlite3 'SELECT path FROM items … ORDER BY (ls's default order)'
#   mlib ls -f '$artist - $title'  beside  sqlite3 'SELECT artist, title FROM items … ORDER BY …'
#   mlib ls --json                 beside  sqlite3 -json 'SELECT * FROM items … ORDER BY …'
# Targets: the first two ≤ 3× sqlite3's CPU, --json ≤ sqlite3's (a ratio ≥ 1 below means mlib is cheaper).
# Env: MLIB (default .build/release/mlib), FILLER (default: synthetic-library beside MLIB), BENCH_DIR (default
# bench-out: libraries are kept there as scale-N.sqlite and reused, shared with scale-bench.sh), RUNS, RESULT=1
# to write Benchmarks/results/ls-bench.json.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${MLIB:-.build/release/mlib}
FILLER=${FILLER:-$(dirname "$MLIB")/synthetic-library}
RUNS=${RUNS:-5}
[[ -x "$MLIB" && -x "$FILLER" ]] || { echo "need $MLIB and $FILLER (swift build -c release --product mlib; --product synthetic-library)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "need sqlite3 (apt-get install sqlite3)" >&2; exit 2; }
out=$(realpath -m "${BENCH_DIR:-bench-out}")
mkdir -p "$out"
sizes=("$@"); (( ${#sizes[@]} )) || sizes=(10000 100000)

# median CPU (user + system, from wait4: microseconds, where time(1) gives 10 ms) and wall seconds of RUNS
# runs of a command, its output to /dev/null, after one warm-up run
measure() {
  python3 - "$RUNS" "$@" <<'PY'
import os, statistics, subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
def once():
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0: sys.exit(f"{cmd} exited with {status}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start
once()
rows = [once() for _ in range(runs)]
print(f"{statistics.median(c for c, _ in rows):.4f} {statistics.median(w for _, w in rows):.4f}")
PY
}

# mlib ls's default order (artist, album, disc, track, title, path: `PlaylistQuery.defaultSort`) as its SQLite
# query compiles it; the floor selects the same columns in the same order (unordered, shown beside, is a
# different answer: SQLite then skips its sort).
order='ORDER BY "artist" IS NULL, "artist_folded", "albumTitle" IS NULL, "albumTitle_folded", "discNumber" IS NULL, "discNumber", "albumTrackNumber" IS NULL, "albumTrackNumber", "title" IS NULL, "title_folded", path, id'

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB; $RUNS runs each"
printf '%-7s %-7s %10s %10s %10s %10s %9s %9s\n' items what mlib_cpu mlib_wall floor_cpu floor_wall ratio unordered
results=()
for n in "${sizes[@]}"; do
  library=$out/scale-$n.sqlite
  "$FILLER" "$library" "$n" >&2
  for name in paths format json; do
    case $name in
      paths)  args=(--paths); columns=path; json=() ;;
      format) args=(-f '$artist - $title'); columns="artist, title"; json=() ;;
      json)   args=(--json); columns='*'; json=(-json) ;;
    esac
    read -r mcpu mwall < <(measure "$MLIB" ls --library "$library" "${args[@]}")
    read -r scpu swall < <(measure sqlite3 "${json[@]}" "$library" "SELECT $columns FROM items WHERE missing_gen IS NULL $order")
    read -r ucpu _ < <(measure sqlite3 "${json[@]}" "$library" "SELECT $columns FROM items")
    ratio=$(python3 -c "print(f'{$scpu / $mcpu:.2f}')"); unordered=$(python3 -c "print(f'{$ucpu / $mcpu:.2f}')")
    printf '%-7s %-7s %10s %10s %10s %10s %9s %9s\n' "$n" "$name" "$mcpu" "$mwall" "$scpu" "$swall" "$ratio" "$unordered"
    results+=("${name}_${n}_cpu_s=$mcpu" "sqlite3_${name}_${n}_cpu_s=$scpu" "sqlite3_unordered_${name}_${n}_cpu_s=$ucpu"
              "peer:sqlite3_${name}_${n}=$ratio")
  done
done
echo "ratio: the floor's CPU / mlib's (≥ 1: mlib as cheap or cheaper; targets: paths and format ≥ 0.33, json ≥ 1); unordered: against sqlite3 without the ORDER BY"
if [[ ${RESULT:-0} == 1 ]]; then
  python3 Benchmarks/write-result.py ls-bench "Benchmarks/ls-bench.sh ${sizes[*]}" \
    "synthetic libraries of ${sizes[*]} items (SyntheticItems); median CPU of $RUNS whole-process runs; floor: sqlite3 with the same columns and order" "${results[@]}"
fi
