#!/usr/bin/env bash
# update-readme-figures.sh [--check]
#
# Copies the benchmarks' latest figures (Benchmarks/results/*.json, written by the benchmarks through
# Benchmarks/write-result.py) into README.md's speed paragraph and Benchmarks/README.md's table of current
# figures: no figure in either is typed by hand, so none can drift from what was measured. Each file's
# generated part sits between "<!-- figures: begin … -->" and "<!-- figures: end -->".
#
# --check: change nothing; exit 1, showing the difference, when either file is not what the results make
# (PackageManifestTests' documentation check runs this).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import difflib
import glob
import json
import os
import re
import sys

check = "--check" in sys.argv[1:]
results = {}
for path in sorted(glob.glob("Benchmarks/results/*.json")):
    with open(path, encoding="utf-8") as f:
        results[os.path.basename(path)[:-5]] = json.load(f)


def number(value):
    """A figure as the READMEs print it: thousands grouped with commas, reals as recorded."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) or value == int(value) and abs(value) >= 1000:
        return f"{int(value):,}"
    return repr(value)


def lookup(name):
    """{result.figures.key} or {result.peers.key} or {result.field}; a peer ratio with ":than" is words that
    stay true whichever way a run went ("4.2× faster than", "1.3× slower than")."""
    if name.endswith(":than"):
        ratio = float(lookup(name[:-len(":than")]).replace(",", ""))
        if round(ratio, 1) == 1 or round(1 / ratio, 1) == 1:
            return "as fast as"
        return f"{ratio:.1f}× faster than" if ratio > 1 else f"{1 / ratio:.1f}× slower than"
    parts = name.split(".")
    value = results[parts[0]]
    for part in parts[1:]:
        value = value[part]
    return number(value)


def render(template):
    return re.sub(r"\{([^{}]+)\}", lambda m: lookup(m.group(1)), template)


# README.md's speed paragraph. Every figure comes from a results file; the sentence says which run.
README_TEMPLATE = """\
Speed, measured on 2 shared cores (`Benchmarks/`; these figures are copied from `Benchmarks/results/` by
`scripts/update-readme-figures.sh`): a 10,000-file library is indexed in {scan-bench-10000.figures.full_scan_s} s \
({scan-bench-10000.figures.cpu_us_per_item} µs of CPU per item, load {scan-bench-10000.load}),
{scan-bench-10000.peers.mpd_update_wall:than} MPD's update of the same files in the same run; a rescan that finds nothing changed takes
{scan-bench-10000.figures.unchanged_rescan_s} s ({scan-bench-10000.peers.mpd_unchanged_wall:than} MPD's). On PostgreSQL a full scan of 20,000 files takes \
{postgres-bench-20000.figures.postgres_over_sqlite_full_scan}× SQLite's time, and
`mlib ls artist:X` is a {postgres-bench-20000.figures.sqlite_ls_artist_ms} ms process ({postgres-bench-20000.figures.postgres_ls_artist_ms} ms on PostgreSQL). \
`mlib info` reads {info-bench.figures.files_per_s} files a second in one process ({info-bench.figures.cpu_us_per_file} µs of CPU
per file, load {info-bench.load}; in the same run mutagen {info-bench.figures.mutagen_files_per_s}/s in one python process, ffprobe
{info-bench.figures.ffprobe_files_per_s}/s run once per file).
Against the floors, in one run of `Benchmarks/floor-bench.sh` ({floor-bench.date}): the scan's CPU is {floor-bench.figures.scan_cpu_ratio}× a loop that
only reads the same files' tags with TagLib; `mlib ls --paths` at 100,000 items {floor-bench.figures.ls_paths_100000_ratio}× the CPU of `sqlite3`
selecting the same column, `ls --json` {floor-bench.figures.ls_json_100000_ratio}× `sqlite3 -json`; `analyze --true-peak` {floor-bench.figures.true_peak_ratio}× loudgain's speed
per core; an MPD `lsinfo` of a folder {floor-bench.figures.mpd_lsinfo_ratio}× mpd's time (p50); `mlib tag` {floor-bench.figures.tag_padded_ratio}× mutagen's files a second
where the tags fit, {floor-bench.figures.tag_rewritten_ratio}× where every file is rewritten (mlib syncs each copy to disk; mutagen does not).
At 1,000,000 items (`Benchmarks/scale-bench.sh`, synthetic rows, load {scale-bench.load}) `mlib serve` answers its first request
{scale-bench.figures.sqlite_first_ping_s} s after it starts and holds the whole view after {scale-bench.figures.sqlite_first_answer_s} s ({scale-bench.figures.postgres_first_answer_s} s on PostgreSQL), in {scale-bench.figures.sqlite_rss_listallinfo_mb} MB
with every cache warm; a rating set by one client is seen by another within {scale-bench.figures.sqlite_rating_visible_p95_ms} ms (p95) for {scale-bench.figures.sqlite_rating_cpu_ms} ms of the server's CPU;
a Subsonic client syncs every song in {scale-bench.figures.sqlite_sync_s} s; `mlib ls artist:X` is a {scale-bench.figures.sqlite_ls_artist_ms} ms process, and adding 1,000 files takes {scale-bench.figures.sqlite_add_1000_scan_s} s.
"""


def benchmarks_table():
    rows = ["| benchmark | command | corpus | commit, date | load | figures | against the peers (> 1: mlib faster) |",
            "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        figures = ", ".join(f"{k} {number(v)}" for k, v in r.get("figures", {}).items())
        peers = ", ".join(f"{k} {number(v)}×" for k, v in r.get("peers", {}).items()) or "—"
        note = f" ({r['note']})" if r.get("note") else ""
        rows.append(f"| `{name}` | `{r['command']}` | {r['corpus']} | {r['commit']}, {r['date']}{note} | {r['load']} "
                    f"| {figures} | {peers} |")
    return "\n".join(rows) + "\n"


def replace(path, body):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    pattern = re.compile(r"(<!-- figures: begin[^\n]*-->\n)(.*?)(<!-- figures: end -->)", re.S)
    if not pattern.search(text):
        sys.exit(f"{path}: no <!-- figures: begin … --> … <!-- figures: end --> block")
    new = pattern.sub(lambda m: m.group(1) + body + m.group(3), text, count=1)
    if new == text:
        return True
    if check:
        sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True), path, path + " (from the results)"))
        return False
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    print(f"{path}: figures updated")
    return True


ok = replace("README.md", render(README_TEMPLATE))
ok = replace("Benchmarks/README.md", benchmarks_table()) and ok
sys.exit(0 if ok else 1)
PYTHON
