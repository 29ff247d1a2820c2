#!/usr/bin/env bash
# scan-ab.sh MODE CORPUS [RUNS] — the scan's CPU per item with and without one feature's scan work, in ONE
# binary, the two arms interleaved (A B A B …, RUNS each, default 7, after one untimed warm-up of each), each
# run a first scan of CORPUS into a new library. Prints every run, each arm's median, min–max and quartiles,
# and B's median over A's. The machine is shared: CPU (user + sys of the process, from wait4) is the figure;
# interleaving spreads the load's drift over both arms alike.
#
# MODE (what B leaves out; A is the binary as it ships):
#   lyrics   issue 41's "within 5%": B runs with MLIB_SCAN_WITHOUT_LYRICS=1 (no lyrics from the probe's tags,
#            no sidecar names kept from the folder listing, no stat of sidecars, no stored-sidecar read).
#   history  issue 40's "unchanged (±3%)": issue 40 added no code to a first scan (the scan writes no history
#            row and no per-user value; its one statement, folding user_item_data on a move, runs only when a
#            move folds two items). What it added that a scan can meet is the schema: the history and
#            user_item_data tables and user_item_data's foreign key to items (ON DELETE CASCADE). B scans into
#            a library whose history and user_item_data tables were dropped before the scan; A into one that
#            has them. Both libraries are made the same way first (an empty scan), then filled by the scan.
# Why an ablation, not release builds of the commits before and after: between 647ce83^ (before the history)
# or dcc5dc1^ (before lyrics) and today, other work changed the scan (deferred indexes, one stat per file,
# identity rules), so a before/after pair measures all of it; the ablation keeps everything else the same,
# down to the code's layout. (Each release build also costs 15–30 minutes on this 2-core machine.)
#
# Env: MLIB (default .build/release/mlib: use a release build, e.g. swift build -c release --static-swift-stdlib
# --product mlib). Corpus: ../shared/tools/make-corpus.sh (scan-bench.sh makes bench-out/corpus-N).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:?usage: scan-ab.sh lyrics|history CORPUS [RUNS]}
CORPUS=${2:?usage: scan-ab.sh lyrics|history CORPUS [RUNS]}
RUNS=${3:-7}
MLIB=${MLIB:-.build/release/mlib}
case $MLIB in /*) ;; *) MLIB=$(pwd)/$MLIB ;; esac
case $MODE in lyrics|history) ;; *) echo "scan-ab.sh: MODE is lyrics or history" >&2; exit 2 ;; esac
command -v sqlite3 > /dev/null || { echo "scan-ab.sh: needs sqlite3 (apt-get install sqlite3)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/scan-ab.XXXXXX"); trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_CONFIG_HOME=$work/.config XDG_DATA_HOME=$work/.data
mkdir -p "$work/empty"
echo "scan-ab $MODE: $MLIB on $CORPUS, $RUNS runs per arm, interleaved; load before: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$MODE" "$MLIB" "$CORPUS" "$RUNS" "$work" <<'PYTHON'
import os, statistics, subprocess, sys
mode, mlib, corpus, runs, work = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]

def run(cmd, env=None, timed=False):
    child = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    err = child.stderr.read().decode(errors="replace"); child.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):       # 1: the corpus' planted bad files
        sys.exit(f"scan-ab: {' '.join(cmd)} exited {code}: {err[-2000:]}")
    return usage.ru_utime + usage.ru_stime

def one(arm, n):
    library = f"{work}/{arm}-{n}.sqlite"
    for suffix in ("", "-wal", "-shm", ".lock"):
        try: os.unlink(library + suffix)
        except FileNotFoundError: pass
    env = dict(os.environ)
    # Both arms make their library alike (an empty scan), so B differs from A only in what MODE names.
    run([mlib, "scan", "--quiet", "--library", library, f"{work}/empty"], env)
    if mode == "history" and arm == "B":
        subprocess.run(["sqlite3", library, "DROP TABLE history; DROP TABLE user_item_data;"], check=True)
    if mode == "lyrics" and arm == "B":
        env["MLIB_SCAN_WITHOUT_LYRICS"] = "1"
    cpu = run([mlib, "scan", "--quiet", "--library", library, corpus], env)
    items = int(subprocess.run(["sqlite3", library, "SELECT count(*) FROM items"], capture_output=True, text=True, check=True).stdout)
    for suffix in ("", "-wal", "-shm", ".lock"):
        try: os.unlink(library + suffix)
        except FileNotFoundError: pass
    return cpu * 1e6 / items, items

one("A", 0); one("B", 0)                       # warm-up: the page cache, not counted
per = {"A": [], "B": []}
for n in range(1, runs + 1):
    for arm in ("A", "B"):
        us, items = one(arm, n)
        per[arm].append(us)
        print(f"run {n} {arm}: {us:.1f} µs CPU/item ({items} items)", flush=True)
for arm, label in (("A", "A (as shipped)"), ("B", "B (" + ("no lyrics work" if mode == "lyrics" else "no history/user_item_data tables") + ")")):
    v = sorted(per[arm]); q = statistics.quantiles(v, n=4) if len(v) >= 2 else [v[0]] * 3
    print(f"{label}: median {statistics.median(v):.1f} µs CPU/item, min {v[0]:.1f}, max {v[-1]:.1f}, quartiles {q[0]:.1f}–{q[2]:.1f} ({len(v)} runs)")
a, b = statistics.median(per["A"]), statistics.median(per["B"])
print(f"A over B (the feature's cost): {100 * (a - b) / b:+.1f}% of B's median")
PYTHON
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
