#!/usr/bin/env bash
# floor-bench.sh [MLIB] — issue 50's figures in one run, each beside its floor or peer on the same files and the
# same machine load, one benchmark after the other:
#   scan-bench.sh N        scan CPU per item against a TagLib-only loop over the same files   target ≤ 1.8×
#   ls-bench.sh            `mlib ls --paths` and `-f '$artist - $title'` at 10k and 100k      ≤ 3× sqlite3's CPU
#                          against sqlite3 selecting the same columns; `ls --json` against
#                          `sqlite3 -json 'SELECT *'`                                         ≤ 1×
#   analysis-bench.sh      `analyze --true-peak` per core against loudgain's                 ≥ 3×
#   mpd-browse.sh          MPD `lsinfo DIR` p50 against mpd's on the same folder (pinned)     ≤ 1×
#   tag-bench.sh 1000      `mlib tag` edits/s against mutagen's, tags that fit and not        ≥ 1×
# Each writes its own Benchmarks/results/*.json as it always does; this script then writes
# Benchmarks/results/floor-bench.json (every figure above with its floor, the ratio, met or not, and the load
# at each step) and prints the table. The machine must be otherwise quiet: the run took 14 minutes here.
# MLIB: a release build (default .build/release/mlib; README's static build is the one to measure), with
# synthetic-library beside it (ls-bench). Env: N (default 10000: the scan's and MPD's corpus, make-corpus),
# ROUNDS (tag-bench, default 5), RUNS (scan-bench, default 3). Needs what each benchmark needs (mpd, mpc,
# loudgain, beets, mutagen, sqlite3, a C++ compiler for the TagLib loop: scripts/install-deps.sh).
# SUMMARY_ONLY=1: no benchmark run, only the table and floor-bench.json from the results there (LOADS="scan=L ..."
# gives the steps' loads).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=$(realpath "${1:-.build/release/mlib}")
N=${N:-10000}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --static-swift-stdlib --product mlib)" >&2; exit 2; }
loads=()
step() { loads+=("$1=$(cut -d' ' -f1 /proc/loadavg)"); echo "== $1 (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2; }
export BENCH_NOTE=${BENCH_NOTE:-"floor-bench.sh: one run of issue 50's benchmarks, $MLIB"}

if [[ -z ${SUMMARY_ONLY:-} ]]; then   # SUMMARY_ONLY=1: only the table and floor-bench.json, from the results there
step scan
MLIB=$MLIB BUILD=0 BEETS=0 RUNS=${RUNS:-3} Benchmarks/scan-bench.sh "$N"
step ls
MLIB=$MLIB RESULT=1 Benchmarks/ls-bench.sh 10000 100000
step analysis
Benchmarks/analysis-bench.sh "$MLIB"
step mpd
MUSIC=$(realpath "${BENCH_DIR:-bench-out}/corpus-$N") Benchmarks/mpd-browse.sh "$MLIB"
step tag
MLIB=$MLIB ROUNDS=${ROUNDS:-5} Benchmarks/tag-bench.sh 1000
fi

python3 - "$N" ${LOADS:-"${loads[@]}"} <<'PYTHON'
import json, subprocess, sys
n, loads = sys.argv[1], dict(item.split("=") for item in sys.argv[2:])
def result(name):
    with open(f"Benchmarks/results/{name}.json") as f:
        return json.load(f)["figures"]
scan, ls, analysis, mpd, tag = (result(f"scan-bench-{n}"), result("ls-bench"), result("analysis-bench"),
                                result("mpd-browse"), result("tag-bench"))
# (key, what, mlib's figure, the floor's or peer's, how the ratio is read: "at most" mlib/floor, "at least" mlib/peer)
rows = [("scan_cpu", f"scan CPU per item at {n} files (µs) / TagLib-only loop", scan["cpu_us_per_item"], scan["taglib_only_us_per_file"], "at most", 1.8)]
for size in ("10000", "100000"):
    rows += [(f"ls_paths_{size}", f"ls --paths at {size} (CPU s) / sqlite3", ls[f"paths_{size}_cpu_s"], ls[f"sqlite3_paths_{size}_cpu_s"], "at most", 3),
             (f"ls_format_{size}", f"ls -f '$artist - $title' at {size} / sqlite3", ls[f"format_{size}_cpu_s"], ls[f"sqlite3_format_{size}_cpu_s"], "at most", 3),
             (f"ls_json_{size}", f"ls --json at {size} / sqlite3 -json", ls[f"json_{size}_cpu_s"], ls[f"sqlite3_json_{size}_cpu_s"], "at most", 1)]
rows += [("true_peak", "analyze --true-peak per core (x real time) / loudgain's", analysis["true_peak_per_core"],
          analysis["true_peak_per_core"] / json.load(open("Benchmarks/results/analysis-bench.json"))["peers"]["loudgain_true_peak"], "at least", 3),
         # mpd-browse's peer ratio is mpd's time over mlib's (> 1: mlib faster).
         ("mpd_lsinfo", "MPD lsinfo DIR p50 (ms) / mpd's", mpd["lsinfo_DIR_ms"], mpd["lsinfo_DIR_ms"] * json.load(open("Benchmarks/results/mpd-browse.json"))["peers"]["lsinfo_DIR"], "at most", 1),
         ("tag_padded", "mlib tag edits/s, tags that fit / mutagen's", tag["padded_edits_per_s"], tag["mutagen_padded_edits_per_s"], "at least", 1),
         ("tag_rewritten", "mlib tag edits/s, files rewritten / mutagen's", tag["unpadded_edits_per_s"], tag["mutagen_unpadded_edits_per_s"], "at least", 1)]
figures, peers = [], []
print(f"{'':58} {'mlib':>10} {'floor/peer':>10} {'ratio':>6}  target")
for key, what, mine, other, sense, target in rows:
    ratio = mine / other
    met = ratio <= target if sense == "at most" else ratio >= target
    print(f"{what:58} {mine:>10.4g} {other:>10.4g} {ratio:>6.2f}  {sense} {target} {'met' if met else 'NOT met'}")
    figures += [f"{key}={mine:.4g}", f"{key}_floor={other:.4g}", f"{key}_ratio={ratio:.2f}", f"{key}_met={'yes' if met else 'no'}"]
figures += [f"load_{step}={load}" for step, load in loads.items()]
subprocess.run([sys.executable, "Benchmarks/write-result.py", "floor-bench", f"Benchmarks/floor-bench.sh (N={n})",
                f"the five benchmarks' own corpora (make-corpus {n}; synthetic 10k and 100k; a generated album; 1,000 tagged copies)"]
               + figures, check=True)
PYTHON
