#!/usr/bin/env bash
# agreement-corpus.sh [N] [SEED] — the scan/info agreement of CLITests/ScanInfoAgreementTests over a generated
# library: builds N files with make-corpus.sh (MAKE_CORPUS, default /work/shared/tools/make-corpus.sh; its
# planted bad files included), scans them, and compares every file-derived property of each stored item
# (`ls --jsonl`) with `info --jsonl`'s item for the same file; a file info refuses must be in `failures` with
# the same code, a partial read must be stored partial. Prints the number of files and of disagreements,
# with the first few; exit status 1 on any.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-300}
SEED=${2:-7}
MAKE_CORPUS=${MAKE_CORPUS:-/work/shared/tools/make-corpus.sh}
if [[ -z ${MLIB:-} ]]; then
  swift build --product mlib >/dev/null
  MLIB=$(swift build --show-bin-path)/mlib
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/agreement.XXXXXX"); trap 'chmod -R u+rwX "$work"; rm -rf "$work"' EXIT
"$MAKE_CORPUS" "$work/lib" "$N" "$SEED" 2>/dev/null
"$MLIB" scan --quiet --library "$work/db.sqlite" "$work/lib" > /dev/null 2>&1 || true
"$MLIB" ls --jsonl --library "$work/db.sqlite" > "$work/stored.jsonl"
"$MLIB" failures --json --library "$work/db.sqlite" > "$work/failures.json"
# Cover images beside the music are not media files to the scanner (MediaFileFilter); info reads any file.
find "$work/lib" -type f -not -iname "*.jpg" -not -iname "*.png" -print0 | xargs -0 "$MLIB" info --jsonl > "$work/info.jsonl" 2>/dev/null || true
python3 - "$work" <<'PYTHON'
import json, sys
w = sys.argv[1]
library = {"persistentID", "playCount", "skipCount", "lastPlayedDate", "rating", "dateAdded"}
stored = {o["path"]: o for o in map(json.loads, open(f"{w}/stored.jsonl"))}
failures = {o["path"]: o for o in json.load(open(f"{w}/failures.json"))}
info = [json.loads(l) for l in open(f"{w}/info.jsonl") if l.strip()]
bad = []
for o in info:
    p = o["path"]
    if not o["ok"]:
        if p in stored: bad.append(f"{p}: info refuses it ({o['error']['code']}), the scan stored it")
        elif failures.get(p, {}).get("code") != o["error"]["code"]: bad.append(f"{p}: failures says {failures.get(p, {}).get('code')}, info {o['error']['code']}")
        continue
    s = stored.get(p)
    if s is None: bad.append(f"{p}: read by info, not stored"); continue
    i = o["item"]
    for k in (set(i) | set(s)) - library:
        a, b = i.get(k), s.get(k)
        if k in ("modificationDate", "playbackDuration") and a is not None and b is not None:
            if abs(a - b) >= 0.001: bad.append(f"{p}: {k} {a} vs {b}")
        elif a != b: bad.append(f"{p}: {k} info {a!r} vs stored {b!r}")
    if o["partial"] and failures.get(p, {}).get("code") != "partial": bad.append(f"{p}: partial, not in failures")
print(f"agreement: {len(info)} files ({sum(1 for o in info if o['ok'])} read, {sum(1 for o in info if o['ok'] and o['partial'])} partial), {len(bad)} disagreements")
for line in bad[:20]: print("  " + line)
sys.exit(1 if bad else 0)
PYTHON
