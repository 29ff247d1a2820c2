"""Every field two reference readers see in a file, and its decoded audio: mlib's tag tests and
Benchmarks/tag-safety.sh compare a file before and after a tag write with it.

Usage: tag-fields.py FILE...  → JSON {path: {"mutagen": {key: value}, "ffprobe": {key: value},
"md5": decoded-audio md5 or null, "error": why mutagen could not read it or null}} on stdout.

mutagen: every key of the file's tags (ID3 frames by their hash key, ID3v1 values mutagen merges into
an ID3v2 tag included; MP4 atoms; Vorbis comments; APEv2 items; ASF attributes), binary values as their
length and hash. ffprobe: the container's and every stream's tags ("format:KEY", "stream#N:KEY") and
each stream's codec, rate and channels. md5: ffmpeg's md5 of the decoded audio (null when it decodes
nothing).

tag-fields.py compare ORIGINAL WRITTEN [title,comment] → {"differences": [...], "identical": bytes equal}:
what differs outside the fields asked (a reader's keys for them: TIT2/TITLE/©nam/INAM, COMM*/COMMENT/
DESCRIPTION/©cmt/ICMT)."""
import hashlib
import json
import subprocess
import sys

import mutagen


def shown(value):
    data = getattr(value, "data", None)
    if isinstance(value, (bytes, bytearray)):
        data = value
    if isinstance(data, (bytes, bytearray)):
        extra = ""
        for attribute in ("mime", "type", "desc", "imageformat"):
            if hasattr(value, attribute):
                extra += " %s=%r" % (attribute, getattr(value, attribute))
        return "bytes:%d:%s%s" % (len(data), hashlib.md5(data).hexdigest()[:12], extra)
    if isinstance(value, list):
        return [shown(v) for v in value]
    text = getattr(value, "text", None)
    if isinstance(text, list):
        return [str(t) for t in text]
    if hasattr(value, "value") and not isinstance(value, (str, int, float)):
        return shown(value.value)
    return str(value)


def mutagen_fields(path):
    try:
        f = mutagen.File(path)
    except Exception as error:  # a file mutagen refuses is a fact to compare too
        return {}, "%s: %s" % (type(error).__name__, error)
    if f is None or f.tags is None:
        return {}, None
    out = {}
    try:
        items = list(f.tags.items())
    except Exception:
        items = []
    for key, value in items:
        out[str(key)] = shown(value)
    pictures = getattr(f, "pictures", None)
    if pictures:
        out["(flac pictures)"] = [shown(p) for p in pictures]
    return out, None


def ffprobe_fields(path):
    r = subprocess.run(["ffprobe", "-v", "error", "-of", "json", "-show_format", "-show_streams", path],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return {"(ffprobe)": "error: " + r.stderr.strip()[:200]}
    data = json.loads(r.stdout or "{}")
    out = {}
    for key, value in data.get("format", {}).get("tags", {}).items():
        out["format:" + key.lower()] = value
    for stream in data.get("streams", []):
        n = stream.get("index")
        out["stream#%s" % n] = "%s %s %s" % (stream.get("codec_name"), stream.get("sample_rate"), stream.get("channels"))
        for key, value in stream.get("tags", {}).items():
            out["stream#%s:%s" % (n, key.lower())] = value
    return out


def decoded_md5(path):
    r = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-map", "0:a", "-f", "md5", "-"], capture_output=True, text=True)
    md5 = r.stdout.strip()
    # An empty decode's md5 is d41d8cd9…: nothing decoded.
    if r.returncode != 0 or not md5 or md5.endswith("d41d8cd98f00b204e9800998ecf8427e"):
        return None
    return md5


def fields(path):
    tags, error = mutagen_fields(path)
    return {"mutagen": tags, "ffprobe": ffprobe_fields(path), "md5": decoded_md5(path), "error": error}


# The keys a write of title and comment may change, by reader (lower case).
ASKED = {
    "title": lambda k: k in ("tit2", "title", "\xa9nam", "inam", "format:title", "wm/title") or (k.startswith("stream#") and k.endswith(":title")),
    "comment": lambda k: k.startswith("comm") or k in ("comment", "description", "\xa9cmt", "icmt", "format:comment",
                                                       "format:description", "----:com.apple.itunes:comment")
                         or (k.startswith("stream#") and (k.endswith(":comment") or k.endswith(":description"))),
}


def differences(before, after, asked, values=None):
    """What differs between two `fields` results outside the asked fields, one line each; with `values`
    (asked field → the value written), also a key of an asked field that a reader still shows with its old
    value (a second comment added beside the one the file had)."""
    out = []
    for reader in ("mutagen", "ffprobe"):
        a, b = before[reader], after[reader]
        for key in sorted(set(a) | set(b)):
            fields = [name for name in asked if ASKED[name](key.lower())]
            if fields:
                for name in fields:
                    new = (values or {}).get(name)
                    # (A picture stream's "comment" is its picture type, "Cover (front)": not the comment.)
                    picture = key.startswith("stream#") and "None None" in str(b.get(key.split(":")[0], ""))
                    if new is not None and not picture and key in a and a.get(key) == b.get(key) \
                            and new not in json.dumps(b.get(key), ensure_ascii=False):
                        out.append("%s %s: still %s (the %s written went elsewhere)" % (reader, key, json.dumps(b.get(key), ensure_ascii=False)[:80], name))
                continue
            if a.get(key) != b.get(key):
                out.append("%s %s: %s -> %s" % (reader, key, json.dumps(a.get(key), ensure_ascii=False)[:80],
                                                json.dumps(b.get(key), ensure_ascii=False)[:80]))
    if before["md5"] != after["md5"]:
        out.append("decoded audio: %s -> %s" % (before["md5"], after["md5"]))
    if before["error"] != after["error"]:
        out.append("mutagen: %s -> %s" % (before["error"], after["error"]))
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["compare"]:
        # compare ORIGINAL WRITTEN [FIELD,FIELD]: the differences outside the fields asked (title,comment).
        # With FIELD=VALUE items after the fields (title="New Title"), a reader still showing the old value of
        # a field asked is a difference too.
        asked = (sys.argv[4] if len(sys.argv) > 4 else "title,comment").split(",")
        values = dict(v.split("=", 1) for v in sys.argv[5:])
        print(json.dumps({"differences": differences(fields(sys.argv[2]), fields(sys.argv[3]), asked, values),
                          "identical": open(sys.argv[2], "rb").read() == open(sys.argv[3], "rb").read()},
                         ensure_ascii=False))
    else:
        print(json.dumps({p: fields(p) for p in sys.argv[1:]}, ensure_ascii=False, sort_keys=True))
