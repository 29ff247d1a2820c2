#!/usr/bin/env bash
# reader-survey.sh — per class of odd file (Fixtures/odd, Fixtures/bad), how many each reader reads
# usefully: mlib (`mlib info`), mutagen, ffprobe and TagLib 1.13 (a 30-line reader built here with g++
# against the system libtag, FileRef with the file's own class). "Usefully" means: the reader returns
# something, every tag value expected.json lists for the file that the reader has a field for (title,
# artist, album, compilation, date, track total) is right, and so are the duration (within 1% or 50 ms)
# and the audio bit rate (within 2%) where expected.json states them. A file expected.json calls an error
# counts as read usefully by a reader that refuses it.
#
# CORPUS=DIR (a make-corpus.sh library, its manifest beside it as DIR.manifest.tsv) adds a second table, per
# format class of that library (the manifest's format column), on up to SAMPLE files of each class (default
# 40, the first in manifest order): "useful" = the reader opens the file and its title, artist and album are
# the manifest's; "duration agrees" = the reader gives a duration within 1% or 50 ms of at least half of the
# other readers that give one (there is no written-down length to compare with: the corpus copies short
# encoded sources). A reader that gives no duration does not agree.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${MLIB:-} ]]; then
  swift build --product mlib >/dev/null
  MLIB=$(swift build --show-bin-path)/mlib
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/reader-survey.XXXXXX"); trap 'rm -rf "$work"' EXIT
cat > "$work/tl.cpp" <<'CPP'
#include <taglib/fileref.h>
#include <taglib/tpropertymap.h>
#include <cstdio>
#include <string>
static std::string esc(const std::string &s) {
  std::string o; for (char c : s) { if (c == '"' || c == '\\') o += '\\'; o += c; } return o; }
static std::string esc(const TagLib::String &s) { return esc(s.to8Bit(true)); }
int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    TagLib::FileRef f(argv[i], true, TagLib::AudioProperties::Average);
    if (f.isNull()) { printf("{\"path\":\"%s\",\"ok\":false}\n", esc(std::string(argv[i])).c_str()); continue; }
    printf("{\"path\":\"%s\",\"ok\":true,\"tags\":{", esc(std::string(argv[i])).c_str());
    TagLib::PropertyMap m = f.file()->properties(); bool first = true;
    for (auto &e : m) {
      printf("%s\"%s\":[", first ? "" : ",", esc(e.first).c_str()); first = false;
      bool firstValue = true;
      for (auto &v : e.second) { printf("%s\"%s\"", firstValue ? "" : ",", esc(v).c_str()); firstValue = false; }
      printf("]");
    }
    printf("}");
    if (auto *p = f.audioProperties()) printf(",\"length\":%.3f,\"bitrate\":%d", p->lengthInMilliseconds() / 1000.0, p->bitrate() * 1000);
    printf("}\n");
  }
}
CPP
g++ -O1 -o "$work/tl" "$work/tl.cpp" $(pkg-config --cflags --libs taglib)

python3 - "$MLIB" "$work/tl" <<'PYTHON' | tee "$work/out"
import json, subprocess, sys
mlib, tl = sys.argv[1], sys.argv[2]
import mutagen
files = {k: v for k, v in json.load(open("Fixtures/expected.json"))["files"].items() if k.startswith(("odd/", "bad/"))}
CLASS = {
    "odd/ogg-bad-crc.ogg": "damaged container", "odd/m4a-bad-stsz.m4a": "damaged container",
    "odd/flac-bad-blocksize.flac": "damaged container", "odd/flac-bad-picture.flac": "damaged container",
    "bad/cut-2k.mp3": "truncated", "bad/truncated.flac": "truncated", "odd/mp3-cut-after-tag.mp3": "truncated",
    "bad/header-only.flac": "truncated",
    "odd/mp3-tag-only.mp3": "tag only", "odd/ape-tag-only.mp3": "tag only",
    "odd/mp3-v1-fallback.mp3": "tags", "odd/m4a-alac-96k.m4a": "per-field source", "odd/wavpack-4ch.wv": "per-field source",
    "odd/optimfrog.ofr": "OptimFROG", "odd/optimfrog-dualstream.ofs": "OptimFROG",
    "odd/musepack-sv4.mp+": "Musepack SV4-SV6", "odd/musepack-sv5.mpc": "Musepack SV4-SV6", "odd/musepack-sv6.mpp": "Musepack SV4-SV6",
    "odd/adif.aac": "no library reads it", "odd/midi-format0.mid": "no library reads it", "odd/midi-tempo-map.mid": "no library reads it",
    "odd/m4b-chapters.m4b": "chapters", "odd/mkv-chapters.mkv": "chapters", "odd/mp3-chapters.mp3": "chapters",
    "odd/opus-preskip.opus": "duration", "odd/mp3-mpeg25-lame.mp3": "duration",
    "odd/mp3-cbr128-cover.mp3": "bit rate",
    "odd/mp3-txxx-tcmp.mp3": "tags", "odd/mp3-txxx-compilation.mp3": "tags", "odd/wav-info-date.wav": "tags",
    "bad/ogg-named.mp3": "wrong extension", "bad/empty.mp3": "not media", "bad/random.mp3": "not media",
    "bad/text.m4a": "not media",
    "odd/multi-values.flac": "multi-valued tags", "odd/multi-values-v24.mp3": "multi-valued tags",
    "odd/multi-values.m4a": "multi-valued tags",
    # Judged on title and stream facts only: each peer gives the raw rating on its own scale.
    "odd/rating-ape.wv": "ratings", "odd/rating-fmps.ogg": "ratings", "odd/rating-percent.flac": "ratings",
    "odd/rating-popm.mp3": "ratings", "odd/rating-rate.m4a": "ratings", "odd/rating-stars.opus": "ratings",
    "odd/m4a-advisory-only.m4a": "ratings",
}
FIELDS = {  # expected.json property -> (mlib item key, mutagen easy key, ffprobe tag key, TagLib key)
    "title": ("title", "title", "title", "TITLE"), "artist": ("artist", "artist", "artist", "ARTIST"),
    "albumTitle": ("albumTitle", "album", "album", "ALBUM"), "releaseDate": ("releaseDate", "date", "date", "DATE"),
    "isCompilation": ("isCompilation", "compilation", "compilation", "COMPILATION"),
    "albumTrackCount": ("albumTrackCount", "tracknumber", "track", "TRACKNUMBER"), "genre": ("genre", "genre", "genre", "GENRE"),
}
# A tag of several values (expected.json lists them) is read usefully when the reader gives every value apart:
# a list, or a text joined by ";" (ffprobe's join of repeated fields). A single expected value is compared
# with the first value a reader gives.
def norm(prop, v, want=None):
    if isinstance(want, list):
        values = v if isinstance(v, list) else ([] if v is None else str(v).split(";"))
        return [str(x).strip() for x in values]
    if isinstance(v, list): v = v[0] if v else None
    if v is None: return None
    if prop == "isCompilation": return str(v).lower() in ("1", "true", "yes")
    if prop == "albumTrackCount": return int(str(v).split("/")[1]) if "/" in str(v) else (v if isinstance(v, int) else None)
    return str(v)

def judge(spec, ok, tags, length, bitrate):
    if spec.get("error"): return not ok
    if not ok: return False
    for prop, want in spec.get("tags", {}).items():
        if prop not in FIELDS or want is None: continue
        if norm(prop, tags.get(prop), want) != want: return False
    s = spec.get("stream", {})
    if "playbackDuration" in s:
        want = s["playbackDuration"]
        if want is None:
            if length: return False
        elif length is None or abs(length - want) > max(0.05, want * 0.01): return False
    if "bitRate" in s and (bitrate is None or abs(bitrate - s["bitRate"]) > s["bitRate"] * 0.02): return False
    return True

def read_mlib(path):
    o = json.loads(subprocess.run([mlib, "info", "--jsonl", path], capture_output=True, text=True).stdout)
    if not o["ok"]: return False, {}, None, None
    i = o["item"]
    return True, {p: i.get(k[0]) for p, k in FIELDS.items()}, i.get("playbackDuration"), i.get("bitRate")

def read_mutagen(path):
    try:
        m = mutagen.File(path, easy=True)
    except Exception:
        m = None
    if m is None and path.endswith(".mid"):
        try:
            from mutagen.smf import SMF
            m = SMF(path)
        except Exception:
            m = None
    if m is None:
        try:
            from mutagen.easyid3 import EasyID3
            t = EasyID3(path)
            return True, {p: t.get(k[1]) for p, k in FIELDS.items()}, None, None
        except Exception:
            return False, {}, None, None
    t = m.tags or {}
    get = lambda k: t.get(k) if hasattr(t, "get") else None
    return True, {p: get(k[1]) for p, k in FIELDS.items()}, getattr(m.info, "length", None), getattr(m.info, "bitrate", None)

def read_ffprobe(path):
    r = subprocess.run(["ffprobe", "-v", "error", "-of", "json", "-show_format", "-show_streams", path], capture_output=True, text=True)
    if r.returncode != 0: return False, {}, None, None
    d = json.loads(r.stdout)
    tags = {k.lower(): v for k, v in d["format"].get("tags", {}).items()}
    for s in d.get("streams", []):
        tags.update({k.lower(): v for k, v in s.get("tags", {}).items()})
    audio = next((s for s in d.get("streams", []) if s["codec_type"] == "audio"), {})
    dur = d["format"].get("duration")
    return True, {p: tags.get(k[2]) for p, k in FIELDS.items()}, float(dur) if dur else None, int(audio["bit_rate"]) if audio.get("bit_rate") else None

def read_taglib(path):
    o = json.loads(subprocess.run([tl, path], capture_output=True, text=True).stdout)
    if not o["ok"]: return False, {}, None, None
    return True, {p: o["tags"].get(k[3]) for p, k in FIELDS.items()}, o.get("length") or None, o.get("bitrate") or None

readers = [("mlib", read_mlib), ("mutagen", read_mutagen), ("ffprobe", read_ffprobe), ("TagLib", read_taglib)]
table = {}
for name, spec in sorted(files.items()):
    cls = CLASS.get(name, "other")
    row = table.setdefault(cls, {"files": 0, **{r: 0 for r, _ in readers}})
    row["files"] += 1
    marks = []
    for r, fn in readers:
        good = judge(spec, *fn("Fixtures/" + name))
        row[r] += good
        marks.append(f"{r}:{'yes' if good else 'no'}")
    print(f"  {name:32s} {' '.join(marks)}")
print()
print(f"{'class':20s} {'files':>5s} " + " ".join(f"{r:>8s}" for r, _ in readers))
totals = {r: 0 for r, _ in readers}; n = 0
for cls, row in sorted(table.items()):
    print(f"{cls:20s} {row['files']:5d} " + " ".join(f"{row[r]:8d}" for r, _ in readers))
    n += row["files"]
    for r, _ in readers: totals[r] += row[r]
print(f"{'all':20s} {n:5d} " + " ".join(f"{totals[r]:8d}" for r, _ in readers))

import os, csv
corpus = os.environ.get("CORPUS")
if corpus:
    corpus = corpus.rstrip("/")
    sample = int(os.environ.get("SAMPLE", "40"))
    chosen = {}
    with open(corpus + ".manifest.tsv", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(chosen.setdefault(row["format"], [])) < sample: chosen[row["format"]].append(row)
    def close(a, b): return a is not None and b is not None and abs(a - b) <= max(0.05, 0.01 * max(a, b))
    print()
    print(f"per format class of {corpus} (up to {sample} files each): useful reads / duration agreeing")
    print(f"{'class':8s} {'files':>5s} " + " ".join(f"{r:>13s}" for r, _ in readers))
    sums = {r: [0, 0] for r, _ in readers}; total = 0
    for fmt in sorted(chosen):
        rows = chosen[fmt]; useful = {r: 0 for r, _ in readers}; agree = {r: 0 for r, _ in readers}
        for row in rows:
            path = os.path.join(corpus, row["relpath"])
            got = {r: fn(path) for r, fn in readers}
            for r, _ in readers:
                ok, tags, length, _ = got[r]
                first = lambda v: (v[0] if v else None) if isinstance(v, list) else v
                useful[r] += ok and all(str(first(tags.get(p)) or "") == row[k] for p, k in
                                        (("title", "title"), ("artist", "artist"), ("albumTitle", "album")))
                others = [got[o][2] for o, _ in readers if o != r and got[o][2] is not None]
                agree[r] += bool(others) and 2 * sum(close(length, o) for o in others) >= len(others)
        print(f"{fmt:8s} {len(rows):5d} " + " ".join(f"{useful[r]:6d} / {agree[r]:4d}" for r, _ in readers))
        total += len(rows)
        for r, _ in readers: sums[r][0] += useful[r]; sums[r][1] += agree[r]
    print(f"{'all':8s} {total:5d} " + " ".join(f"{sums[r][0]:6d} / {sums[r][1]:4d}" for r, _ in readers))
PYTHON
# The "all" rows become Benchmarks/results/reader-survey.json: files read usefully per reader (odd and bad
# fixtures; with CORPUS, also the corpus sample's useful reads and agreeing durations).
read -r _ files mlib mutagen ffprobe taglib < <(grep '^all ' "$work/out" | head -1)
corpus_figures=()
if [[ -n ${CORPUS:-} ]]; then
  read -r _ sample m1 _ m2 u1 _ u2 f1 _ f2 t1 _ t2 < <(grep '^all ' "$work/out" | sed -n 2p)
  corpus_figures=(corpus_sample="$sample" corpus_mlib_useful="$m1" corpus_mlib_duration_agrees="$m2"
    corpus_mutagen_useful="$u1" corpus_ffprobe_useful="$f1" corpus_taglib_useful="$t1")
fi
python3 Benchmarks/write-result.py reader-survey "${CORPUS:+CORPUS=$CORPUS }${SAMPLE:+SAMPLE=$SAMPLE }Benchmarks/reader-survey.sh" \
  "Fixtures/odd and Fixtures/bad against expected.json${CORPUS:+; and a sample of each format class of $CORPUS}" \
  files="$files" mlib_useful="$mlib" mutagen_useful="$mutagen" ffprobe_useful="$ffprobe" taglib_useful="$taglib" "${corpus_figures[@]}"
