#!/usr/bin/env bash
# dupes-bench.sh — `mlib dupes` end to end (store → index → candidates → clusters) on N synthetic items
# with synthetic fingerprints, time and peak RSS, at several sizes for the growth to 1,000,000.
#
#   Benchmarks/dupes-bench.sh [MLIB] [SYNTHETIC-LIBRARY] [N...]     (default N: 100000)
#
# Each library: N synthetic items (synthetic-library: BenchmarkSupport's items, no media files); 90 % get
# a random fingerprint of 950 values (what Chromaprint gives for 120 s), 10 % are copies of one of them with
# the first 0–16 values cut (a trim of up to 2 s) and each bit flipped with probability 1/16 (a lossy
# re-encoding flips fewer). Prints the seconds, peak RSS (GNU time's %M), clusters and copies found (a
# copy is found when its original is in its cluster) and false members.
set -euo pipefail
mlib=${1:-.build/release/mlib}
synthetic=${2:-.build/release/synthetic-library}
shift 2 || true
sizes=("${@:-100000}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for n in "${sizes[@]}"; do
  library="$work/dupes-$n.sqlite"
  "$synthetic" "$library" "$n" >/dev/null
  python3 - "$library" > "$work/truth" <<'PY'
import random, sqlite3, sys
random.seed(20261125)
db = sqlite3.connect(sys.argv[1])
ids = [row[0] for row in db.execute("SELECT id FROM items ORDER BY id")]
originals = len(ids) * 9 // 10
prints = {}
for i in ids[:originals]:
    prints[i] = random.randbytes(950 * 4)
    db.execute("UPDATE items SET chromaprint = ? WHERE id = ?", (prints[i], i))
for i in ids[originals:]:
    source = ids[random.randrange(originals)]
    shift = random.randint(0, 16)
    data = prints[source][shift * 4:]
    mask = random.getrandbits(len(data) * 8) & random.getrandbits(len(data) * 8) & random.getrandbits(len(data) * 8) & random.getrandbits(len(data) * 8)
    flipped = (int.from_bytes(data, "little") ^ mask).to_bytes(len(data), "little")
    db.execute("UPDATE items SET chromaprint = ? WHERE id = ?", (flipped, i))
    print(i, source)
db.commit()
PY
  /usr/bin/time -o "$work/time" -f '%e %M' "$mlib" dupes --json --library "$library" > "$work/clusters.json"
  read -r seconds rss < "$work/time"
  python3 - "$work/clusters.json" "$work/truth" "$n" "$seconds" "$rss" "$work/figures" <<'PY'
import json, sys
clusters = json.load(open(sys.argv[1]))
copy_of = dict(tuple(map(int, line.split())) for line in open(sys.argv[2]))
cluster_of = {m["id"]: k for k, c in enumerate(clusters) for m in c["members"]}
found = sum(1 for c, o in copy_of.items() if c in cluster_of and cluster_of.get(o) == cluster_of[c])
origin = lambda i: copy_of.get(i, i)
false = sum(len(c["members"]) - max([sum(1 for m in c["members"] if origin(m["id"]) == o) for o in {origin(m["id"]) for m in c["members"]}]) for c in clusters)
n, seconds, rss = sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
print(f"{int(n):>9,} items: {seconds:6.2f} s, peak RSS {rss / 1024:7.1f} MB, {len(clusters):,} clusters, "
      f"{found:,} of {len(copy_of):,} copies found, {false} false members")
print(f"s_{n}={seconds:.2f} rss_mb_{n}={rss / 1024:.1f} copies_found_{n}={found}/{len(copy_of)} false_members_{n}={false}",
      file=open(sys.argv[6], "a"))
PY
  rm -f "$library"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# The figures file README's table is made from (Benchmarks/write-result.py).
python3 "$(dirname "$0")/write-result.py" dupes-bench "Benchmarks/dupes-bench.sh $mlib $synthetic ${sizes[*]}" \
  "synthetic fingerprints, 10 % trimmed bit-flipped copies" $(cat "$work/figures")
