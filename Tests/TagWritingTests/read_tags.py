"""Reads the tags mlib's tag tests check with mutagen, the reference reader: JSON on stdout."""
import json
import sys

import mutagen
from mutagen.apev2 import APEv2
from mutagen.asf import ASFTags
from mutagen.id3 import ID3
from mutagen.mp4 import MP4Tags


def read(path):
    f = mutagen.File(path)
    t = f.tags if f is not None else None
    out = {}

    def put(key, values):
        values = [str(v) for v in values if str(v) != ""]
        if values:
            out[key] = values

    if isinstance(t, ID3):
        for key, frame in [("title", "TIT2"), ("artist", "TPE1"), ("album", "TALB"), ("genre", "TCON"),
                           ("track", "TRCK")]:
            if frame in t:
                put(key, t[frame].text)
        for txxx in t.getall("TXXX"):
            put(txxx.desc.lower(), txxx.text)
        out["pictures"] = len(t.getall("APIC"))
        out["priv"] = len(t.getall("PRIV"))
        out["chap"] = len(t.getall("CHAP"))
        out["id3"] = "2.%d" % t.version[1]
        put("rating", ["%s:%d:%d" % (p.email, p.rating, getattr(p, "count", 0)) for p in t.getall("POPM")])
    elif isinstance(t, MP4Tags):
        for key, atom in [("title", "\xa9nam"), ("artist", "\xa9ART"), ("album", "\xa9alb"), ("genre", "\xa9gen")]:
            if atom in t:
                put(key, t[atom])
        if "trkn" in t:
            n, total = t["trkn"][0]
            put("track", ["%d/%d" % (n, total) if total else str(n)])
        for k, v in t.items():
            if k.startswith("----:com.apple.iTunes:"):
                put(k.split(":", 2)[2].lower(), [x.decode("utf-8") for x in v])
        out["pictures"] = len(t.get("covr", []))
        put("rating", t.get("rate", []))
    elif isinstance(t, ASFTags):
        for key, attr in [("title", "Title"), ("artist", "Author"), ("album", "WM/AlbumTitle"), ("genre", "WM/Genre"),
                          ("track", "WM/TrackNumber")]:
            if attr in t:
                put(key, [a.value for a in t[attr]])
        out["pictures"] = len(t.get("WM/Picture", []))
        put("rating", [a.value for a in t.get("WM/SharedUserRating", [])])
    elif isinstance(t, APEv2):
        for key in ["title", "artist", "album", "genre", "track"]:
            if key in t:
                put(key, str(t[key]).split("\x00"))
        out["pictures"] = len([k for k in t.keys() if k.lower().startswith("cover art")])
        if "fmps_rating" in t:
            put("rating", [str(t["fmps_rating"])])
    elif t is not None:                                     # Vorbis comments (FLAC, Ogg Vorbis, Opus)
        for key in ["title", "artist", "album", "genre", "tracknumber", "mood"]:
            if key in t:
                put("track" if key == "tracknumber" else key, t[key])
        if "fmps_rating" in t:
            put("rating", t["fmps_rating"])
        pictures = getattr(f, "pictures", None)
        out["pictures"] = len(pictures) if pictures is not None else len(t.get("metadata_block_picture", []))
    return out


print(json.dumps({p: read(p) for p in sys.argv[1:]}, ensure_ascii=False, sort_keys=True))
