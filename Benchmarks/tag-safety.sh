#!/usr/bin/env bash
# tag-safety.sh — does a tag write change what was asked and nothing else? (issue 46) mlib beside mutagen
# on copies of the files of DIR: each tool sets title and comment on its own copy of every file it can
# write, and each copy is then compared with the original (Benchmarks/tag-fields.py compare): every field
# mutagen and ffprobe read, other than title and comment, and the decoded audio's md5.
#   written: the tool wrote the file and nothing else changed;
#   refused: the tool did not write it (mlib: refused or failed; mutagen: it raised or cannot open the
#            format) and the file is byte for byte as it was;
#   damaged: anything else — another field changed, a reader still shows the old title or comment (the
#            new one written beside it), the audio's md5 changed or it no longer decodes, or a refused file
#            changed all the same.
# Prints a table per format (by extension) for both tools, and the damaged files with their first
# difference, the files mlib refused with its reason, and writes OUT/result.json (every file: each tool's
# verdict, what it said, the differences). A written file may also grow by no more than the new text and
# padding (budget() below), and must still probe and decode. DIR is only read. Usage:
# Benchmarks/tag-safety.sh DIR. Env: MLIB (the binary; default the debug build), OUT (default
# bench-out/tag-safety), TITLE / COMMENT (the values written), JOBS (files read at once, default 2),
# RESULT_NAME (the counts per format also go to Benchmarks/results/RESULT_NAME.json; CORPUS_NAME describes
# DIR there).
set -euo pipefail
SOURCE=${1:?usage: tag-safety.sh DIR}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
MLIB=${MLIB:-$ROOT/.build/debug/mlib}
OUT=${OUT:-$ROOT/bench-out/tag-safety}
TITLE=${TITLE:-Tag Safety Title}
COMMENT=${COMMENT:-Tag safety comment}
[ -x "$MLIB" ] || { echo "no mlib at $MLIB (swift build, or MLIB=…)"; exit 1; }
python3 -c "import mutagen" 2>/dev/null || { echo "mutagen is not installed (pip install mutagen)"; exit 1; }
rm -rf "$OUT"; mkdir -p "$OUT/original" "$OUT/mlib" "$OUT/mutagen" "$OUT/home"
OUT=$(cd "$OUT" && pwd)

# Copies named by number (the extension kept): what each tool gets.
n=0
while IFS= read -r -d '' file; do
  ext=${file##*.}; ext=${ext,,}
  case $ext in mp3|mp2|flac|ogg|oga|opus|m4a|m4b|mp4|wav|aif|aiff|aifc|wv|ape|wma|asf) ;; *) continue ;; esac
  n=$((n + 1))
  name=$(printf '%05d.%s' "$n" "$ext")
  cp "$file" "$OUT/original/$name"; cp "$file" "$OUT/mlib/$name"; cp "$file" "$OUT/mutagen/$name"
  printf '%s\t%s\n' "$name" "$file" >> "$OUT/names.tsv"
done < <(find "$SOURCE" -type f -print0 | sort -z)
[ "$n" -gt 0 ] || { echo "no audio files mlib can tag under $SOURCE"; exit 1; }

# mlib: one command for every file, its JSON report kept (a HOME of its own: no user config, no journal
# of the user's).
(cd "$OUT/mlib" && HOME=$OUT/home XDG_CONFIG_HOME=$OUT/home/config XDG_DATA_HOME=$OUT/home/data MLIB_TAG_JOURNAL=$OUT/home/journal \
  "$MLIB" tag --files ./* "title=$TITLE" "comments=$COMMENT" --yes --json > "$OUT/mlib.json" 2> "$OUT/mlib.stderr") || true

# mutagen: each file as its own documentation writes it (easy tags where it has them).
python3 - "$OUT/mutagen" "$TITLE" "$COMMENT" > "$OUT/mutagen.json" <<'EOF'
import json, os, sys
import mutagen
from mutagen.id3 import ID3, TIT2, COMM
directory, title, comment = sys.argv[1:4]
outcomes = {}
for name in sorted(os.listdir(directory)):
    path = os.path.join(directory, name)
    try:
        f = mutagen.File(path)
        if f is None:
            outcomes[name] = "refused: not a format mutagen knows"
            continue
        if f.tags is None:
            f.add_tags()
        kind = type(f.tags).__name__
        if isinstance(f.tags, ID3):
            f.tags.setall("TIT2", [TIT2(encoding=3, text=[title])])
            f.tags.setall("COMM", [COMM(encoding=3, lang="eng", desc="", text=[comment])])
        elif kind == "MP4Tags":
            f.tags["\xa9nam"] = [title]; f.tags["\xa9cmt"] = [comment]
        elif kind == "ASFTags":
            f.tags["Title"] = [title]; f.tags["Description"] = [comment]
        elif kind == "APEv2":
            f.tags["Title"] = title; f.tags["Comment"] = comment
        else:                                   # Vorbis comments
            f.tags["title"] = [title]; f.tags["comment"] = [comment]
        f.save()
        outcomes[name] = "written"
    except Exception as error:
        outcomes[name] = "refused: %s: %s" % (type(error).__name__, error)
print(json.dumps(outcomes))
EOF

python3 - "$OUT" "$HERE/tag-fields.py" "$TITLE" "$COMMENT" "${JOBS:-2}" <<'EOF'
import collections, concurrent.futures, importlib.util, json, os, sys
out, script, title, comment, jobs = sys.argv[1:6]
spec = importlib.util.spec_from_file_location("tag_fields", script)
tf = importlib.util.module_from_spec(spec); spec.loader.exec_module(tf)
names = dict(line.rstrip("\n").split("\t", 1) for line in open(os.path.join(out, "names.tsv")))
try:
    mlib_report = {os.path.basename(r["path"]): r for r in json.load(open(os.path.join(out, "mlib.json")))}
except Exception:
    mlib_report = {}
mutagen_report = json.load(open(os.path.join(out, "mutagen.json")))


def budget(size):
    """What a write may add: the new text (UTF-16 at worst, with a BOM and a frame/atom/item header each)
    and the padding a tagger adds when the tag outgrows its room (mutagen's ceiling, 10 KiB + 1 % of the
    file, the larger of the two tools': TagLib adds 1 KiB to an ID3v2 tag, 4 KiB to FLAC's PADDING)."""
    return 2 * (len(title.encode()) + len(comment.encode())) + 2 * 64 + 10240 + size // 100


def judge(name):
    """Each tool's verdict on one file."""
    original_path = os.path.join(out, "original", name)
    before = tf.fields(original_path)
    original = open(original_path, "rb").read()
    rows = []
    for tool in ("mlib", "mutagen"):
        path = os.path.join(out, tool, name)
        if tool == "mlib":
            r = mlib_report.get(name, {})
            wrote = r.get("outcome") in ("in place", "rewritten")
            said = r.get("outcome", "no report") + (": " + r["error"] if r.get("error") else "")
        else:
            wrote = mutagen_report.get(name) == "written"
            said = mutagen_report.get(name, "no report")
        data = open(path, "rb").read()
        identical = data == original
        differences = [] if identical else tf.differences(before, tf.fields(path), ["title", "comment"],
                                                           {"title": title, "comment": comment})
        grown = len(data) - len(original)
        if not identical and grown > budget(len(original)):
            differences.append("grew %d bytes, more than the new text and padding (%d)" % (grown, budget(len(original))))
        if not wrote and identical:
            verdict = "refused"
        elif wrote and not differences and not identical:
            verdict = "written"
        else:
            verdict = "damaged"
            if not differences:
                differences = ["changed although not written" if not wrote else "said written, nothing changed"]
        rows.append({"tool": tool, "verdict": verdict, "said": said, "grown": grown, "differences": differences})
    return name, rows


with concurrent.futures.ThreadPoolExecutor(max(1, int(jobs))) as pool:
    judged = dict(pool.map(judge, sorted(names)))
counts = collections.defaultdict(collections.Counter)
files = []
for name in sorted(judged):
    fmt = name.rsplit(".", 1)[1]
    entry = {"file": names[name], "format": fmt}
    for row in judged[name]:
        counts[fmt][row["tool"] + " " + row["verdict"]] += 1
        counts["all"][row["tool"] + " " + row["verdict"]] += 1
        entry[row["tool"]] = row
    files.append(entry)
print("%-6s %6s | %-30s | %-30s" % ("format", "files", "mlib written/refused/damaged", "mutagen written/refused/damaged"))
table = {}
for fmt in sorted(counts, key=lambda f: (f == "all", f)):
    c = counts[fmt]
    n = sum(v for k, v in c.items() if k.startswith("mlib "))
    table[fmt] = {"files": n}
    for tool in ("mlib", "mutagen"):
        for verdict in ("written", "refused", "damaged"):
            table[fmt][tool + " " + verdict] = c[tool + " " + verdict]
    cell = lambda tool: "%d / %d / %d" % (c[tool + " written"], c[tool + " refused"], c[tool + " damaged"])
    print("%-6s %6d | %-30s | %-30s" % (fmt, n, cell("mlib"), cell("mutagen")))
for entry in files:
    for tool in ("mlib", "mutagen"):
        if entry[tool]["verdict"] == "damaged":
            print("damaged by %s: %s: %s" % (tool, entry["file"], entry[tool]["differences"][0]))
for entry in files:
    if entry["mlib"]["verdict"] == "refused":
        print("refused by mlib: %s: %s" % (entry["file"], entry["mlib"]["said"][:300]))
with open(os.path.join(out, "result.json"), "w") as f:
    json.dump({"formats": table, "files": files}, f, indent=1, ensure_ascii=False)
print("every file: %s" % os.path.join(out, "result.json"))
EOF

# RESULT_NAME=NAME: the counts per format also go to Benchmarks/results/NAME.json (write-result.py).
if [ -n "${RESULT_NAME:-}" ]; then
  args=()
  while IFS= read -r arg; do args+=("$arg"); done < <(python3 -c '
import json, sys
for fmt, c in json.load(open(sys.argv[1]))["formats"].items():
    print("%s.files=%d" % (fmt, c["files"]))
    for tool in ("mlib", "mutagen"):
        print("%s.%s=%s" % (fmt, tool, "written %d / refused %d / damaged %d" % (c[tool + " written"], c[tool + " refused"], c[tool + " damaged"])))
' "$OUT/result.json")
  python3 "$HERE/write-result.py" "$RESULT_NAME" "Benchmarks/tag-safety.sh $SOURCE" "${CORPUS_NAME:-$SOURCE}" "${args[@]}"
fi
