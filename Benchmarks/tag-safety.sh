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
# difference. DIR is only read. Usage: Benchmarks/tag-safety.sh DIR. Env: MLIB (the binary; default the
# debug build), OUT (default bench-out/tag-safety), TITLE / COMMENT (the values written).
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

python3 - "$OUT" "$HERE/tag-fields.py" "$TITLE" "$COMMENT" <<'EOF'
import collections, importlib.util, json, os, sys
out, script, title, comment = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("tag_fields", script)
tf = importlib.util.module_from_spec(spec); spec.loader.exec_module(tf)
names = dict(line.rstrip("\n").split("\t", 1) for line in open(os.path.join(out, "names.tsv")))
try:
    mlib_report = {os.path.basename(r["path"]): r for r in json.load(open(os.path.join(out, "mlib.json")))}
except Exception:
    mlib_report = {}
mutagen_report = json.load(open(os.path.join(out, "mutagen.json")))
counts = collections.defaultdict(lambda: collections.Counter())
damaged = []
for name in sorted(names):
    fmt = name.rsplit(".", 1)[1]
    before = tf.fields(os.path.join(out, "original", name))
    original = open(os.path.join(out, "original", name), "rb").read()
    for tool in ("mlib", "mutagen"):
        path = os.path.join(out, tool, name)
        if tool == "mlib":
            r = mlib_report.get(name, {})
            wrote = r.get("outcome") in ("in place", "rewritten")
        else:
            wrote = mutagen_report.get(name) == "written"
        identical = open(path, "rb").read() == original
        differences = [] if identical else tf.differences(before, tf.fields(path), ["title", "comment"], {"title": title, "comment": comment})
        if not wrote and identical:
            verdict = "refused"
        elif wrote and not differences and not identical:
            verdict = "written"
        else:
            verdict = "damaged"
            damaged.append((tool, names[name], (differences or ["changed although not written"])[0]))
        counts[fmt][tool + " " + verdict] += 1
        counts["all"][tool + " " + verdict] += 1
print("%-6s %6s | %-26s | %-26s" % ("format", "files", "mlib written/refused/damaged", "mutagen written/refused/damaged"))
for fmt in sorted(counts, key=lambda f: (f == "all", f)):
    c = counts[fmt]
    files = sum(v for k, v in c.items() if k.startswith("mlib "))
    cell = lambda tool: "%d / %d / %d" % (c[tool + " written"], c[tool + " refused"], c[tool + " damaged"])
    print("%-6s %6d | %-26s | %-26s" % (fmt, files, cell("mlib"), cell("mutagen")))
for tool, source, first in damaged:
    print("damaged by %s: %s: %s" % (tool, source, first))
EOF
