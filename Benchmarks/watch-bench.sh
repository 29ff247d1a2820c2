#!/usr/bin/env bash
# watch-bench.sh [FILES] [CHANGES]   (default: 100000 files in 10,000 directories, 200 changes)
#
# `mlib watch` on a tree of FILES tiny, distinct MP3 files (10 per directory; made in seconds from one
# template), printing
#   how long setting up the watches takes (directories watched, seconds, as mlib reports it) ·
#   RSS of the watcher after its initial scan, and after the changes ·
#   idle CPU: the watcher's user+system time over 10 s with nothing changing (target ~0) ·
#   latency from a change to its visibility (a read-only query of the library, what `mlib ls` reads), over
#   CHANGES changes in turn: a new file, a rename within its directory, a file moved to another directory,
#   a deletion; median, p95 and max, with the debounce time (1 s, the default) included.
# Targets (issue #12): RSS under 100 MB for 100,000 files; idle CPU ~0; latency ≈ debounce + well under 1 s.
# MPD's auto_update (inotify, like mlib watch) has no query that says "now visible", so no peer column.
# Env: BENCH_DIR (default bench-out), BUILD=0 to reuse the last release build, SCRATCH_PATH, DEBOUNCE.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
out=${BENCH_DIR:-$repo/bench-out}/watch
scratch=${SCRATCH_PATH:-.build}
files=${1:-100000}; changes=${2:-200}; debounce=${DEBOUNCE:-1}
mkdir -p "$out"
if [[ ${BUILD:-1} != 0 ]]; then
  echo "building release…" >&2
  swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product mlib >&2
fi
mlib=${MLIB:-$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/mlib}   # MLIB: a built binary
template=$out/template.mp3
[[ -f $template ]] || ffmpeg -v error -nostdin -y -f lavfi -i sine=f=440:d=0.2 -metadata title=Alpha00000 \
  -metadata artist="Bench Artist" "$template"
tree=$out/tree-$files; library=$out/library-$files.sqlite
rm -rf "$tree" "$library" "$library"-wal "$library"-shm "$library".lock
echo "making $files files…" >&2
python3 - "$template" "$tree" "$files" <<'PY'
import os, sys
template, tree, n = open(sys.argv[1], 'rb').read(), sys.argv[2], int(sys.argv[3])
at = template.index(b'Alpha00000')
for i in range(n):
    d = os.path.join(tree, 'artist%04d' % (i // 1000), 'album%05d' % (i // 10))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'track%06d.mp3' % i), 'wb') as f:
        f.write(template[:at] + b'A%09d' % i + template[at + 10:])
PY

"$mlib" watch --library "$library" --json --debounce "$debounce" "$tree" >"$out/scans.jsonl" 2>"$out/stderr" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
python3 - "$pid" "$out" "$library" "$tree" "$template" "$changes" "$debounce" "$files" <<'PY'
import os, sys, time, sqlite3, statistics
pid, out, library, tree, template, changes, debounce = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], open(sys.argv[5], 'rb').read(), int(sys.argv[6]), float(sys.argv[7])
nfiles = int(sys.argv[8])
scans = os.path.join(out, 'scans.jsonl')
def lines(): return open(scans).read().splitlines() if os.path.exists(scans) else []
def rss_mb(): return int([l for l in open('/proc/%d/status' % pid) if l.startswith('VmRSS')][0].split()[1]) / 1024
def cpu_s():
    f = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
start = time.time()
while not lines():
    time.sleep(0.1)
    if time.time() - start > 3600: sys.exit('no initial scan')
import json
first = json.loads(lines()[0])['summary']
print('initial scan: %d files added in %.1f s' % (first['added'], first['elapsed']))
setup = [l for l in open(os.path.join(out, 'stderr')) if 'watching' in l][0].strip().replace('mlib: ', '')
print('watch setup: ' + setup)
import re
figures = {'initial_scan_s': round(first['elapsed'], 1)}
seconds = re.search(r'([0-9.]+) ?s\b', setup)
if seconds: figures['watch_setup_s'] = float(seconds.group(1))
time.sleep(2)
figures['rss_after_scan_mb'] = round(rss_mb(), 1)
print('RSS after the initial scan: %.1f MB' % rss_mb())
c0 = cpu_s(); time.sleep(10); c1 = cpu_s()
figures['idle_cpu_s_per_10s'] = round(c1 - c0, 3)
print('idle CPU over 10 s: %.3f s (%.2f%%)' % (c1 - c0, (c1 - c0) / 10 * 100))

db = sqlite3.connect('file:%s?mode=ro' % library, uri=True)
def visible(path):
    return db.execute('SELECT 1 FROM items WHERE path = ? AND missing_gen IS NULL', (path.encode(),)).fetchone() is not None
at = template.index(b'Alpha00000')
latencies = []
os.makedirs(os.path.join(tree, 'new'), exist_ok=True)
time.sleep(debounce + 0.5)
for k in range(changes):
    kind = k % 4
    i = (k * 7919) % nfiles
    d = os.path.join(tree, 'artist%04d' % (i // 1000), 'album%05d' % (i // 10))
    if kind == 0:     # a new file
        path = os.path.join(tree, 'new', 'new%06d.mp3' % k)
        t = time.time()
        with open(path, 'wb') as f: f.write(template[:at] + b'N%09d' % k + template[at + 10:])
        check = lambda: visible(path)
    elif kind == 1:   # renamed within its directory
        old = path; path = old[:-4] + '-renamed.mp3'
        t = time.time(); os.rename(old, path)
        check = lambda: visible(path) and not visible(old)
    elif kind == 2:   # moved to another directory
        old = path; path = os.path.join(d, os.path.basename(old))
        t = time.time(); os.rename(old, path)
        check = lambda: visible(path) and not visible(old)
    else:             # deleted
        old = path
        t = time.time(); os.remove(old)
        check = lambda: not visible(old)
    while not check():
        time.sleep(0.005)
        if time.time() - t > 60: sys.exit('change %d (%d) not visible after 60 s' % (k, kind))
    latencies.append(time.time() - t)
latencies.sort()
p95 = latencies[int(len(latencies) * 0.95) - 1]
print('latency over %d changes (debounce %.1f s): median %.2f s, p95 %.2f s, max %.2f s' % (len(latencies), debounce, statistics.median(latencies), p95, latencies[-1]))
print('RSS after the changes: %.1f MB' % rss_mb())
figures.update(latency_median_s=round(statistics.median(latencies), 2), latency_p95_s=round(p95, 2),
               latency_max_s=round(latencies[-1], 2), rss_after_changes_mb=round(rss_mb(), 1))
with open(os.path.join(out, 'figures'), 'w') as f:
    f.write(''.join('%s=%s\n' % kv for kv in figures.items()))
PY
kill -TERM $pid; wait $pid || true
mapfile -t figures < "$out/figures"
python3 Benchmarks/write-result.py watch-bench "BUILD=${BUILD:-1} Benchmarks/watch-bench.sh $files $changes" \
  "$files tiny distinct MP3s in $((files / 10)) directories; $changes changes (add, rename, move, delete), debounce $debounce s" "${figures[@]}"
