#!/usr/bin/env bash
# tag-safety-corpus.sh OUTDIR — makes the files of issue 46's damage cases (ffmpeg, mutagen and a few bytes
# of Python; nothing downloaded) for Benchmarks/tag-safety.sh: ordinary files of every writable format
# beside the shapes mlib's writes damaged (ID3v1-only values, TIPL, an APEv2 tag behind ID3v2 and ID3v1,
# a Shift-JIS ID3v1, ID3v2.2, extended headers (v2.3, v2.4), unsynchronisation (v2.2, v2.3, v2.4), junk before the first MP3 frame, a comment in DESCRIPTION, a legacy Ogg COVERART,
# a 7 MiB Vorbis cover, MP4 freeform items and media kind, freeform items with moov after mdat, a
# fragmented MP4, WAV with INFO, with ID3 and with both,
# a truncated AIFF, a WMA with a flipped header bit, WavPack/APE with APEv2).
set -euo pipefail
OUT=${1:?usage: tag-safety-corpus.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"; cd "$OUT"
tone() { ffmpeg -v error -y -f lavfi -i "sine=frequency=${3:-440}:duration=${2:-3}" "${@:4}" "$1"; }
py() { python3 -c "import sys; p = sys.argv[1]
$2" "$1"; }
tags=(-metadata title=Old -metadata artist=Someone -metadata album=Album -metadata date=2001 -metadata track=1 -metadata genre=Rock)

tone plain-v24.mp3 3 440 -c:a libmp3lame -id3v2_version 4 "${tags[@]}"
tone plain-v23.mp3 3 450 -c:a libmp3lame -id3v2_version 3 "${tags[@]}"
tone v1-only.mp3 3 460 -c:a libmp3lame -id3v2_version 3 -metadata title=Old
py v1-only.mp3 '
def f(s, n): return s.encode("latin-1")[:n].ljust(n, b"\0")
open(p, "ab").write(b"TAG" + f("V1 Title", 30) + f("V1 Artist", 30) + f("V1 Album", 30) + b"1999" + f("V1 comment", 28) + b"\0\x05" + bytes([17]))'
tone sjis-v1.mp3 3 470 -c:a libmp3lame -id3v2_version 3 -metadata title=Old
py sjis-v1.mp3 '
def f(b, n): return b[:n].ljust(n, b"\0")
open(p, "ab").write(b"TAG" + f("Old".encode(), 30) + f("歌手".encode("cp932"), 30) + f("アルバム".encode("cp932"), 30) + b"2003" + f("コメント".encode("cp932"), 30) + bytes([12]))'
tone tipl.mp3 3 480 -c:a libmp3lame -id3v2_version 4 "${tags[@]}"
py tipl.mp3 '
from mutagen.id3 import ID3, TIPL, PRIV, TXXX
t = ID3(p); t.add(TIPL(encoding=3, people=[["producer", "P. Roducer"], ["arranger", "A. Rranger"], ["mix", "M. Ixer"]]))
t.add(PRIV(owner="tag-safety", data=b"\x01\x02")); t.add(TXXX(encoding=3, desc="CUSTOM", text=["kept"])); t.save(p)'
tone three-tags.mp3 3 490 -c:a libmp3lame -id3v2_version 3 "${tags[@]}"
py three-tags.mp3 '
from mutagen.id3 import ID3
from mutagen.apev2 import APEv2
t = ID3(p); t.save(p, v1=2, v2_version=3)
a = APEv2(); a["Title"] = "Old"; a["Track"] = "1/99"; a["Catalog"] = "CAT-1"; a.save(p)'
tone junk.mp3 3 500 -c:a libmp3lame -id3v2_version 3 "${tags[@]}"
py junk.mp3 '
import os
from mutagen.id3 import ID3
d = open(p, "rb").read(); size = 10 + int.from_bytes(bytes(b & 0x7f for b in d[6:10]), "big") * 0
import struct
s = d[6:10]; tag = 10 + ((s[0] << 21) | (s[1] << 14) | (s[2] << 7) | s[3])
junk = bytes((i * 7 + 3) % 251 for i in range(100000)).replace(b"\xff", b"\x00")
open(p, "wb").write(d[:tag] + junk + d[tag:])'

# ID3v2 shapes mutagen does not write (made byte by byte): an ID3v2.2 tag; an ID3v2.3 tag with an extended
# header, behind which an ID3v1 tag holds other values; an ID3v2.3 tag unsynchronised as a whole (a
# picture with 0xFF bytes in it); an ID3v2.4 tag whose frames are unsynchronised each.
for shape in v22 v22unsync exthdr exthdr24 unsync unsync24; do
  tone "id3-$shape.mp3" 3 505 -c:a libmp3lame -id3v2_version 0 -write_xing 1
done
py id3-v22.mp3 '
def frame(i, body): return i.encode() + len(body).to_bytes(3, "big") + body
def text(s): return b"\0" + s.encode("latin-1") + b"\0"
frames = frame("TT2", text("Old")) + frame("TP1", text("Someone")) + frame("TAL", text("Album")) + frame("TYE", text("2001")) \
    + frame("TRK", text("1")) + frame("COM", b"\0eng\0" + b"Old comment") + frame("TCO", text("Rock")) \
    + frame("PIC", b"\0PNG\x03\0" + bytes.fromhex("89504e470d0a1a0a") + bytes(range(256)))
body = frames + bytes(512)
size = len(body); ss = bytes([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
d = open(p, "rb").read(); open(p, "wb").write(b"ID3\x02\x00\x00" + ss + body + d)'
py id3-exthdr.mp3 '
def frame(i, body): return i.encode() + len(body).to_bytes(4, "big") + b"\0\0" + body
def text(s): return b"\0" + s.encode("latin-1")
frames = frame("TIT2", text("Old")) + frame("TPE1", text("Interpret v2")) + frame("TALB", text("Album v2")) + frame("TYER", text("2002")) \
    + frame("TRCK", text("2")) + frame("TPOS", text("1/2"))
ext = (6).to_bytes(4, "big") + b"\0\0" + (512).to_bytes(4, "big")
body = ext + frames + bytes(512)
size = len(body); ss = bytes([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
def f(s, n): return s.encode("latin-1")[:n].ljust(n, b"\0")
d = open(p, "rb").read()
open(p, "wb").write(b"ID3\x03\x00\x40" + ss + body + d + b"TAG" + f("Old", 30) + f("Interpret v1", 30) + f("Album v1", 30) + b"1999" + f("", 28) + b"\0\x07" + bytes([17]))'
py id3-v22unsync.mp3 '
def frame(i, body): return i.encode() + len(body).to_bytes(3, "big") + body
def text(s): return b"\0" + s.encode("latin-1") + b"\0"
frames = frame("TT2", text("Old")) + frame("TP1", text("Someone")) + frame("TAL", text("Album")) \
    + frame("PIC", b"\0JPG\x03\0" + b"\xff\xd8\xff\xe0" + bytes((i * 37) % 256 for i in range(3000)))
body = frames.replace(b"\xff", b"\xff\x00") + bytes(512)
size = len(body); ss = bytes([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
d = open(p, "rb").read(); open(p, "wb").write(b"ID3\x02\x00\x80" + ss + body + d)'
py id3-exthdr24.mp3 '
def syncsafe(n): return bytes([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f])
def frame(i, body): return i.encode() + syncsafe(len(body)) + b"\0\0" + body
def text(s): return b"\3" + s.encode()
frames = frame("TIT2", text("Old")) + frame("TPE1", text("Interpret v2")) + frame("TALB", text("Album v2")) + frame("TDRC", text("2002")) \
    + frame("TRCK", text("2")) + frame("TPOS", text("1/2"))
body = syncsafe(6) + b"\x01\x00" + frames + bytes(512)
def f(s, n): return s.encode("latin-1")[:n].ljust(n, b"\0")
d = open(p, "rb").read()
open(p, "wb").write(b"ID3\x04\x00\x40" + syncsafe(len(body)) + body + d + b"TAG" + f("Old", 30) + f("Interpret v1", 30) + f("Album v1", 30) + b"1999" + f("", 28) + b"\0\x07" + bytes([17]))'
py id3-unsync.mp3 '
def frame(i, body): return i.encode() + len(body).to_bytes(4, "big") + b"\0\0" + body
def text(s): return b"\0" + s.encode("latin-1")
pic = b"\0image/jpeg\0\x03\0" + b"\xff\xd8\xff\xe0" + bytes((i * 37) % 256 for i in range(3000))
frames = frame("TIT2", text("Old")) + frame("TPE1", text("Someone")) + frame("TALB", text("Album")) + frame("APIC", pic)
unsync = frames.replace(b"\xff", b"\xff\x00") + bytes(512)
size = len(unsync); ss = bytes([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f])
d = open(p, "rb").read(); open(p, "wb").write(b"ID3\x03\x00\x80" + ss + unsync + d)'
py id3-unsync24.mp3 '
def syncsafe(n): return bytes([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f])
def frame(i, body, unsync=False):
    if unsync: body = body.replace(b"\xff", b"\xff\x00")
    return i.encode() + syncsafe(len(body)) + (b"\0\x02" if unsync else b"\0\0") + body
def text(s): return b"\3" + s.encode()
pic = b"\0image/jpeg\0\x03\0" + b"\xff\xd8\xff\xe0" + bytes((i * 37) % 256 for i in range(3000))
frames = frame("TIT2", text("Old")) + frame("TPE1", text("Someone")) + frame("TALB", text("Album")) + frame("APIC", pic, True)
body = frames + bytes(512)
d = open(p, "rb").read(); open(p, "wb").write(b"ID3\x04\x00\x00" + syncsafe(len(body)) + body + d)'

tone desc.flac 3 510 -c:a flac "${tags[@]}"
py desc.flac 'import mutagen
f = mutagen.File(p); f["DESCRIPTION"] = ["Old comment"]; f.save()'
tone desc.ogg 3 520 -c:a libvorbis "${tags[@]}"
py desc.ogg 'import mutagen
f = mutagen.File(p); f["DESCRIPTION"] = ["Old comment"]; f.save()'
tone desc.opus 3 530 -c:a libopus "${tags[@]}"
py desc.opus 'import mutagen
f = mutagen.File(p); f["DESCRIPTION"] = ["Old comment"]; f.save()'
tone coverart.ogg 3 540 -c:a libvorbis "${tags[@]}"
py coverart.ogg 'import mutagen, base64
png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000" "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082")
f = mutagen.File(p); f["COVERART"] = [base64.b64encode(png).decode()]; f["COVERARTMIME"] = ["image/png"]; f.save()'
tone bigcover.ogg 3 550 -c:a libvorbis "${tags[@]}"
py bigcover.ogg 'import mutagen, base64
from mutagen.flac import Picture
pic = Picture(); pic.type = 3; pic.mime = "image/jpeg"; pic.data = b"\xff\xd8\xff\xe0" + bytes((i * 13 + i // 4099) % 256 for i in range(7 * 1024 * 1024))
f = mutagen.File(p); f["METADATA_BLOCK_PICTURE"] = [base64.b64encode(pic.write()).decode()]; f.save()'
tone plain.flac 3 560 -c:a flac "${tags[@]}"

tone plain.m4a 3 570 -c:a aac "${tags[@]}"
tone freeform.m4a 3 580 -c:a aac -movflags +faststart "${tags[@]}"
py freeform.m4a 'from mutagen.mp4 import MP4, MP4FreeForm
f = MP4(p); f["----:com.apple.iTunes:tool"] = [MP4FreeForm(b"mlib tag-safety tool")]; f["----:com.apple.iTunes:MOOD"] = [MP4FreeForm(b"calm")]
f["stik"] = [1]; f["hdvd"] = [2]; f["\xa9too"] = ["Encoder X"]; f.save()'
tone freeform-tail.m4a 3 585 -c:a aac "${tags[@]}"
py freeform-tail.m4a 'from mutagen.mp4 import MP4, MP4FreeForm
d = open(p, "rb").read(); assert d.index(b"mdat") < d.index(b"moov"), "moov is not after mdat"
f = MP4(p); f["----:com.apple.iTunes:tool"] = [MP4FreeForm(b"mlib tag-safety tool")]; f["----:com.apple.iTunes:MOOD"] = [MP4FreeForm(b"calm")]; f.save()
d = open(p, "rb").read(); assert d.index(b"mdat") < d.index(b"moov"), "mutagen moved moov"'
tone fragmented.m4a 3 590 -c:a aac -movflags frag_keyframe+empty_moov "${tags[@]}"

tone info.wav 3 600 -c:a pcm_s16le "${tags[@]}"
tone id3.wav 3 610 -c:a pcm_s16le -fflags +bitexact
py id3.wav 'from mutagen.wave import WAVE
from mutagen.id3 import TIT2, TPE1, TDRC
f = WAVE(p); f.add_tags(); f.tags.add(TIT2(text=["Old"])); f.tags.add(TPE1(text=["Someone"])); f.tags.add(TDRC(text=["2001-02-21"])); f.save()'
tone info-id3.wav 3 615 -c:a pcm_s16le "${tags[@]}"
py info-id3.wav 'from mutagen.wave import WAVE
from mutagen.id3 import TIT2, TPE1, TDRC
f = WAVE(p); f.add_tags(); f.tags.add(TIT2(text=["Old"])); f.tags.add(TPE1(text=["Someone ID3"])); f.tags.add(TDRC(text=["2001-02-21"])); f.save()
assert b"LIST" in open(p, "rb").read() and b"INFO" in open(p, "rb").read(), "the INFO chunk is gone"'
tone plain.aiff 3 620 -c:a pcm_s16be -write_id3v2 1 "${tags[@]}"
tone truncated.aiff 3 630 -c:a pcm_s16be -write_id3v2 1 "${tags[@]}"
py truncated.aiff 'import struct
d = open(p, "rb").read(); pos = 12; chunks = []
while pos + 8 <= len(d):
    size = struct.unpack(">I", d[pos + 4:pos + 8])[0]
    chunks.append((d[pos:pos + 4], d[pos:pos + 8 + size + (size & 1)])); pos += 8 + size + (size & 1)
body = b"AIFF" + b"".join(c for i, c in chunks if i != b"SSND") + b"".join(c for i, c in chunks if i == b"SSND")
whole = b"FORM" + struct.pack(">I", len(body)) + body
open(p, "wb").write(whole[:len(whole) * 2 // 3])'

tone plain.wv 3 640 -c:a wavpack "${tags[@]}"
py plain.wv 'from mutagen.apev2 import APEv2
a = APEv2(p); a["Date"] = "2001-02-21"; a["Catalog"] = "CAT-2"; a.save(p)'
cp "$HERE/../Tests/TagWritingTests/Fixtures/mac-399.ape" plain.ape
py plain.ape 'from mutagen.apev2 import APEv2
t = APEv2(); t["Title"] = "Old"; t["Artist"] = "Someone"; t["Track"] = "1"; t["Catalog"] = "CAT-3"; t.save(p)'

tone ffmpeg.wma 3 650 -c:a wmav2 "${tags[@]}"
tone flipped.wma 3 660 -c:a wmav2 "${tags[@]}"
py flipped.wma 'd = bytearray(open(p, "rb").read()); d[40] ^= 0x10; open(p, "wb").write(d)'
ls -1 | wc -l
