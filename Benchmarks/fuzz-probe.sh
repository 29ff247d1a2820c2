#!/usr/bin/env bash
# fuzz-probe.sh [MUTATIONS] [SEED] — damages every readable fixture (Fixtures/ and Fixtures/odd/) MUTATIONS
# times (default 300; flipped bytes, cuts, zeroed runs, inserted junk, duplicated runs, mostly in the first
# KiB where the headers and tags are), then reads every mutant with `mlib info` (FFmpeg + TagLib + native
# readers) and `mlib scan` (the fast path without FFmpeg), and prints:
#   crashes and hangs (a process killed by a signal, or over 60 s for a batch; each file of such a batch is
#   then read alone to name it), how many mutants were read whole / partial / refused, and how many the
#   scan stored differently from `info` (partial flag, or stored vs refused).
# Exit status 1 when anything crashed or hung. MutationTests in `swift test` runs a small seeded share.
set -euo pipefail
cd "$(dirname "$0")/.."
MUTATIONS=${1:-300}
SEED=${2:-1}
if [[ -z ${MLIB:-} ]]; then
  swift build -c release --static-swift-stdlib --product mlib >/dev/null
  MLIB=$(swift build -c release --static-swift-stdlib --show-bin-path)/mlib
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-probe.XXXXXX"); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/m"

python3 - "$work/m" "$MUTATIONS" "$SEED" <<'PYTHON'
import json, os, random, sys
out, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
files = json.load(open("Fixtures/expected.json"))["files"]
for name, spec in sorted(files.items()):
    if spec.get("error"):
        continue
    data = open(os.path.join("Fixtures", name), "rb").read()
    rng = random.Random(f"{seed}:{name}")
    stem = name.replace("/", "-")
    for k in range(n):
        b = bytearray(data)
        spot = lambda: rng.randrange(min(len(b), 1024)) if rng.random() < 0.5 else rng.randrange(len(b))
        kind = rng.randrange(5)
        if kind == 0:
            for _ in range(rng.randint(1, 8)): b[spot()] ^= rng.randint(1, 255)
        elif kind == 1:
            b = b[:spot()]
        elif kind == 2:
            at = spot(); b[at:at + rng.randint(1, 256)] = bytes(len(b[at:at + rng.randint(1, 256)]))
        elif kind == 3:
            at = spot(); b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
        else:
            at = spot(); run = b[at:at + rng.randint(1, 512)]; at2 = spot(); b[at2:at2] = run
        d = os.path.join(out, f"{k // 100:03d}")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"{k:04d}-{stem}"), "wb") as f:
            f.write(b)
PYTHON
find "$work/m" -type f | sort > "$work/list"
total=$(wc -l < "$work/list")
echo "fuzz-probe: $total mutants of $(ls "$work/m"/000 | sed 's/^[0-9]*-//' | sort -u | wc -l) fixtures (seed $SEED)"

crashes=0; hangs=0
split -l 200 "$work/list" "$work/batch."
: > "$work/info.jsonl"
for batch in "$work"/batch.*; do
  set +e
  timeout 60 xargs -d '\n' "$MLIB" info --jsonl < "$batch" > "$work/out" 2>/dev/null; status=$?
  set -e
  # xargs: 0 all read, 123 some file failed (mlib's status 1). Anything else is a crash (125: killed by a
  # signal) or a hang (124 from timeout): read each file of the batch alone to name it.
  if (( status == 0 || status == 123 )); then cat "$work/out" >> "$work/info.jsonl"; continue; fi
  while IFS= read -r f; do
    set +e; timeout 10 "$MLIB" info --jsonl "$f" > "$work/one" 2>/dev/null; s=$?; set -e
    if (( s == 124 )); then hangs=$((hangs + 1)); echo "HANG  $f"; cp "$f" "${TMPDIR:-/tmp}/" || true
    elif (( s > 1 )); then crashes=$((crashes + 1)); echo "CRASH $f (status $s)"; cp "$f" "${TMPDIR:-/tmp}/" || true
    else cat "$work/one" >> "$work/info.jsonl"; fi
  done < "$batch"
done

set +e
timeout 600 "$MLIB" scan --quiet --library "$work/lib.sqlite" "$work/m" > /dev/null 2>&1; scan_status=$?
set -e
if (( scan_status > 1 )); then echo "SCAN exited with $scan_status (crash or hang)"; crashes=$((crashes + 1)); fi
"$MLIB" ls --jsonl --library "$work/lib.sqlite" > "$work/stored.jsonl"

python3 - "$work/info.jsonl" "$work/stored.jsonl" <<'PYTHON'
import json, sys
info = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
stored = {o["path"]: o for o in (json.loads(l) for l in open(sys.argv[2]) if l.strip())}
whole = sum(1 for o in info if o["ok"] and not o["partial"])
partial = sum(1 for o in info if o["ok"] and o["partial"])
refused = sum(1 for o in info if not o["ok"])
disagree_partial = sum(1 for o in info if o["ok"] and o["path"] in stored and bool(stored[o["path"]].get("isPartial")) != o["partial"])
disagree_presence = sum(1 for o in info if o["ok"] != (o["path"] in stored))
print(f"info: {whole} whole, {partial} partial, {refused} refused")
open(sys.argv[1] + ".figures", "w").write(f"whole={whole} partial={partial} refused={refused} disagreements={disagree_presence + disagree_partial}")
print(f"scan vs info: {disagree_presence} stored/refused differently, {disagree_partial} partial flag differs")
# The first disagreements by name, with what each side said, to tell what to fix.
shown = 0
for o in info:
    s = stored.get(o["path"])
    if shown < 10 and ((o["ok"] != (s is not None)) or (o["ok"] and s is not None and bool(s.get("isPartial")) != o["partial"])):
        shown += 1
        print("  differs:", o["path"].rsplit("/", 1)[-1], "| info:", o.get("warnings") or o.get("error"),
              "| scan:", s and s.get("partialReason"))
PYTHON
echo "crashes: $crashes, hangs: $hangs"
# The figures file README's table is made from (Benchmarks/write-result.py).
python3 Benchmarks/write-result.py fuzz-probe "MLIB=<release> Benchmarks/fuzz-probe.sh $MUTATIONS $SEED" \
  "$(find "$work/m" -type f | wc -l) mutants of the readable fixtures ($MUTATIONS mutations each, seed $SEED); not speed" \
  $(cat "$work/info.jsonl.figures") crashes=$crashes hangs=$hangs
(( crashes == 0 && hangs == 0 ))
