#!/usr/bin/env bash
# scan-bench.sh [N ...]   (default: 2000 10000)
#
# Times `mlib scan` on a synthetic library of N files (../shared/tools/make-corpus.sh) and, on the same
# files, MPD's and beets' full indexing (../shared/tools/peers.sh), then prints the ratios. Per N:
#   full scan · unchanged rescan · rescan after touching 1% of the files · peak RSS of each (KB) · CPU
#   seconds (user + sys) of each and per item (target on 10,000 files: <= 90 µs per item for the full scan)
# and, in the same run, the CPU floor to compare it with: MPD's update (the mpd process's user + sys ticks
# across `mpc -w update`, from /proc) and a TagLib-only loop (a small C++ program built here against the
# system libtag: FileRef with average audio properties plus the property map, the least a tag reader does
# per file) over the same files, each as CPU seconds and µs per file.
# Warm page cache (the corpus is read once first). Corpora and libraries live in bench-out/ (kept between
# runs: delete it to rebuild). Env: SCRATCH_PATH (swift build scratch dir, default .build),
# BENCH_DIR (default bench-out), PEERS=0 to skip MPD, beets and the TagLib loop, BEETS=0 to skip only beets
# (its import takes minutes), BUILD=0 to reuse the last release build,
# RUNS (timed runs of each mlib figure, default 3; the median is used, after one untimed warm-up run:
# on these VMs the first run after a pause often pays major page faults for the binary and libraries).
#
# Targets (2 cores, 10,000 files): full scan >= 1.5x faster than MPD's update and >= 20x faster than beets
# import; unchanged rescan no slower than MPD's; peak RSS < 100 MB and flat in N.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tools=${TOOLS:-$repo/../shared/tools}   # make-corpus.sh, peers.sh (worktrees: TOOLS=/work/shared/tools)
out=${BENCH_DIR:-$repo/bench-out}
scratch=${SCRATCH_PATH:-.build}
sizes=("$@"); [[ ${#sizes[@]} -gt 0 ]] || sizes=(2000 10000)
runs=${RUNS:-3}
mkdir -p "$out"

if [[ ${BUILD:-1} != 0 ]]; then
  echo "building release…" >&2
  swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product mlib >&2
fi
mlib=${MLIB:-$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/mlib}   # MLIB: a built binary

# timed NAME cmd... -> prints "NAME WALL_SECONDS PEAK_RSS_KB CPU_SECONDS" (CPU: user + sys of the process
# and its children); mlib exits 1 on the corpus' planted bad files.
timed() {
  local name=$1; shift
  /usr/bin/time -f "%e %M %U %S" -o "$out/time" "$@" >/dev/null 2>"$out/stderr" || [[ $? -eq 1 ]] \
    || { echo "$name failed: $(tail -3 "$out/stderr")" >&2; exit 1; }
  read -r wall rss user sys < <(tail -1 "$out/time")          # the first line may be "Command exited with…"
  echo "$name $wall $rss $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
}
# percent CPU WALL -> the share of one core the process had (200 = both cores busy all the time).
percent() { awk -v c="$1" -v w="$2" 'BEGIN { if (w > 0) printf "%.0f", 100 * c / w; else print "?" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "inf" }'; }

# mpd_update DIR -> "FULL_WALL FULL_CPU UNCHANGED_WALL FILES": MPD's full update and unchanged rescan of DIR
# in a private mpd (loopback port, own state dir). CPU is the mpd process's utime + stime (/proc/PID/stat
# fields 14 and 15, in clock ticks) across the full update: the work is done in mpd, mpc only waits.
mpd_update() {
  local dir=$1 work port pid tick before after t0 t1 t2 files
  work=$(mktemp -d "${TMPDIR:-/tmp}/scan-bench-mpd.XXXXXX"); port=$(( 20000 + RANDOM % 20000 ))
  cat >"$work/mpd.conf" <<CONF
music_directory "$dir"
db_file "$work/db"
state_file "$work/state"
log_file "$work/log"
bind_to_address "127.0.0.1"
port "$port"
follow_outside_symlinks "no"
follow_inside_symlinks "yes"
auto_update "no"
audio_output {
  type "null"
  name "null"
}
CONF
  mpd --no-daemon "$work/mpd.conf" >"$work/mpd.out" 2>&1 & pid=$!
  for _ in $(seq 100); do mpc -p "$port" status >/dev/null 2>&1 && break; sleep 0.1; done
  ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
  tick=$(getconf CLK_TCK)
  before=$(ticks); t0=$(date +%s.%N)
  mpc -p "$port" -w update >/dev/null
  t1=$(date +%s.%N); after=$(ticks)
  mpc -p "$port" -w update >/dev/null
  t2=$(date +%s.%N)
  files=$(mpc -p "$port" listall | wc -l)
  kill "$pid"; wait "$pid" 2>/dev/null || true; rm -rf "$work"
  awk -v t0="$t0" -v t1="$t1" -v t2="$t2" -v c=$(( after - before )) -v hz="$tick" -v n="$files" \
    'BEGIN { printf "%.2f %.2f %.2f %d\n", t1 - t0, c / hz, t2 - t1, n }'
}

# taglib_loop FILE_LIST -> "WALL CPU FILES_READ": the TagLib-only floor over the files listed (NUL-separated).
taglib_loop() {
  local list=$1
  if [[ ! -x $out/taglib-loop || $out/taglib-loop.cpp -nt $out/taglib-loop ]]; then
    cat >"$out/taglib-loop.cpp" <<'CPP'
// What any TagLib-based indexer does per file at least: open it, read the tags as a property map and the
// average audio properties. Paths come NUL-separated on stdin; prints how many files TagLib read.
#include <taglib/fileref.h>
#include <taglib/tpropertymap.h>
#include <cstdio>
#include <iostream>
#include <string>
int main() {
  std::string path; unsigned long read = 0, fields = 0;
  while (std::getline(std::cin, path, '\0')) {
    TagLib::FileRef f(path.c_str(), true, TagLib::AudioProperties::Average);
    if (f.isNull()) continue;
    read++;
    fields += f.file()->properties().size();   // used, so the compiler keeps the read
    if (auto *p = f.audioProperties()) fields += p->lengthInMilliseconds() > 0;
  }
  printf("%lu %lu\n", read, fields);
}
CPP
    g++ -O2 -o "$out/taglib-loop" "$out/taglib-loop.cpp" $(pkg-config --cflags --libs taglib)
  fi
  /usr/bin/time -f "%e %U %S" -o "$out/time" "$out/taglib-loop" <"$list" >"$out/taglib-loop.out"
  read -r wall user sys < <(tail -1 "$out/time")
  echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') $(awk '{ print $1 }' "$out/taglib-loop.out")"
}

for n in "${sizes[@]}"; do
  corpus=$out/corpus-$n
  [[ -d $corpus ]] || { echo "making corpus of $n files (takes a while)…" >&2; "$tools/make-corpus.sh" "$corpus" "$n"; }
  library=$out/library-$n.sqlite
  rm -f "$library" "$library"-wal "$library"-shm "$library".lock
  # "$corpus/": a corpus that is a symbolic link to a folder (another checkout's bench-out) is walked too.
  find "$corpus/" -type f -readable -exec cat {} + >/dev/null           # warm the page cache

  # The load before mlib's runs as well as after the peers' (the ratios line): both describe the run.
  echo "== mlib, N=$n (median of $runs runs after a warm-up run; all runs in brackets; load $(cut -d' ' -f1-3 /proc/loadavg))"
  fresh() { rm -f "$library" "$library"-wal "$library"-shm "$library".lock; }
  touch_1pct() {
    find "$corpus/" -type f \( -name '*.mp3' -o -name '*.flac' -o -name '*.ogg' -o -name '*.opus' -o -name '*.m4a' \
          -o -name '*.wav' -o -name '*.mp4' -o -name '*.mkv' \) -readable | sort | awk 'NR % 100 == 0' | xargs -d '\n' touch
  }
  # measure NAME SETUP cmd...: runs SETUP then cmd, 1 + $runs times; the first run is not counted.
  # Prints "MEDIAN_WALL MAX_RSS_KB MEDIAN_CPU ALL_WALLS".
  measure() {
    local name=$1 setup=$2; shift 2
    local walls=() cpus=() rss=0 r w m c
    for r in $(seq 0 "$runs"); do
      $setup
      read -r _ w m c < <(timed "$name" "$@")
      [[ $r -eq 0 ]] && continue
      walls+=("$w"); cpus+=("$c"); (( m > rss )) && rss=$m
    done
    median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
    echo "$(median "${walls[@]}") $rss $(median "${cpus[@]}") ${walls[*]}"
  }
  # CPU per item in µs (user + sys over the items in the library).
  per_item() { awk -v c="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.0f", c * 1e6 / n; else print "?" }'; }
  read -r full full_rss full_cpu full_all < <(measure full-scan fresh "$mlib" scan --quiet --library "$library" "$corpus")
  read -r same same_rss same_cpu same_all < <(measure rescan-unchanged : "$mlib" scan --quiet --library "$library")
  read -r touched touched_rss touched_cpu touched_all < <(measure rescan-touched-1% touch_1pct "$mlib" scan --quiet --library "$library")
  items=$("$mlib" stats --json --library "$library" | awk -F'[:,]' '/"items"/ { gsub(/ /, "", $2); print $2 }')
  printf '%-22s %8s s  %8s KB  %7s s CPU  %5s µs CPU/item   (%s items, %s files/s, %s%% CPU) [%s]\n' "full scan" "$full" "$full_rss" \
    "$full_cpu" "$(per_item "$full_cpu" "$items")" "$items" "$(ratio "$items" "$full")" "$(percent "$full_cpu" "$full")" "$full_all"
  printf '%-22s %8s s  %8s KB  %7s s CPU  %5s µs CPU/item   [%s]\n' "unchanged rescan" "$same" "$same_rss" "$same_cpu" \
    "$(per_item "$same_cpu" "$items")" "$same_all" \
    "rescan, 1% touched" "$touched" "$touched_rss" "$touched_cpu" "$(per_item "$touched_cpu" "$items")" "$touched_all"

  [[ ${PEERS:-1} == 0 ]] && continue
  read -r mpd_full mpd_cpu mpd_same mpd_files < <(mpd_update "$corpus")
  printf '%-22s %8s s  %8s    %7s s CPU  %5s µs CPU/file   (%s files, %s%% CPU)\n' "mpd full update" "$mpd_full" "" "$mpd_cpu" \
    "$(per_item "$mpd_cpu" "$mpd_files")" "$mpd_files" "$(percent "$mpd_cpu" "$mpd_full")"
  printf '%-22s %8s s\n' "mpd unchanged update" "$mpd_same"
  find "$corpus/" -type f -readable -print0 | sort -z >"$out/files-$n"
  read -r tl_wall tl_cpu tl_files < <(taglib_loop "$out/files-$n")
  printf '%-22s %8s s  %8s    %7s s CPU  %5s µs CPU/file   (%s files read)\n' "TagLib-only loop" "$tl_wall" "" "$tl_cpu" \
    "$(per_item "$tl_cpu" "$tl_files")" "$tl_files"
  beets_full=""
  if [[ ${BEETS:-1} != 0 ]]; then
    while read -r peer op files wall rss; do
      printf '%-22s %8s s  %8s KB   (%s files)\n' "$peer $op" "$wall" "$rss" "$files"
      [[ "$peer $op" == "beets full-scan" ]] && beets_full=$wall
    done < <("$tools/peers.sh" beets "$corpus")
  fi
  echo "-- ratios, N=$n (>1 means mlib is faster or cheaper)"
  echo "full scan vs MPD update:        $(ratio "$mpd_full" "$full")x wall   (target >= 3x on 2 cores)"
  # The best wall this CPU allows: both cores busy all the time. 3x MPD needs it at or under MPD's wall / 3.
  echo "wall floor at 200% CPU:         $(awk -v c="$full_cpu" 'BEGIN { printf "%.2f", c / 2 }') s   (3x MPD needs <= $(awk -v m="$mpd_full" 'BEGIN { printf "%.2f", m / 3 }') s; load $(cut -d' ' -f1-3 /proc/loadavg))"
  echo "CPU per item vs MPD update:     $(ratio "$(per_item "$mpd_cpu" "$mpd_files")" "$(per_item "$full_cpu" "$items")")x"
  echo "CPU per item vs TagLib alone:   $(ratio "$(per_item "$tl_cpu" "$tl_files")" "$(per_item "$full_cpu" "$items")")x   (mlib reads more: tags, hashes, the index)"
  [[ -n $beets_full ]] && echo "full scan vs beets import:      $(ratio "$beets_full" "$full")x   (target >= 20x)"
  echo "unchanged rescan vs MPD update: $(ratio "$mpd_same" "$same")x   (target >= 1x)"
  # The figures README.md quotes, for scripts/update-readme-figures.sh (Benchmarks/results/scan-bench-N.json).
  python3 Benchmarks/write-result.py "scan-bench-$n" "${0##*/} $n (RUNS=$runs)" "make-corpus, $items items" \
    full_scan_s="$full" cpu_us_per_item="$(per_item "$full_cpu" "$items")" core_percent="$(percent "$full_cpu" "$full")" \
    peak_rss_mb="$(awk -v k="$full_rss" 'BEGIN { printf "%.0f", k / 1024 }')" unchanged_rescan_s="$same" \
    mpd_update_s="$mpd_full" mpd_unchanged_s="$mpd_same" taglib_only_us_per_file="$(per_item "$tl_cpu" "$tl_files")" \
    ${beets_full:+beets_import_s="$beets_full"} \
    peer:mpd_update_wall="$(ratio "$mpd_full" "$full")" peer:mpd_unchanged_wall="$(ratio "$mpd_same" "$same")" \
    ${beets_full:+peer:beets_import_wall="$(ratio "$beets_full" "$full")"}
done
