#!/usr/bin/env bash
# Regenerates every fixture in this directory and writes expected.json.
#
# Needs only ffmpeg/ffprobe and python3 (standard library). Deterministic for a given ffmpeg build:
# synthetic sources, bitexact muxing, single-threaded encoders, fixed seeds. See README.md.
#
# The table below is the single source of truth: each fixture's tag values are written into the file
# through ffmpeg AND emitted as the "tags" expectation, so the two cannot drift. The "stream"
# expectation is ffprobe's own reading of the finished file.
set -euo pipefail
cd "$(dirname "$0")"
for tool in ffmpeg ffprobe python3; do
    command -v "$tool" >/dev/null || { echo "make-fixtures: '$tool' is required" >&2; exit 1; }
done
exec python3 - "$@" <<'PYTHON'
import json, os, random, shutil, subprocess, sys, tempfile

FFMPEG = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
# Output options that make a run reproducible: no version strings or random UIDs from the muxers,
# no metadata inherited from the synthetic inputs, one encoder thread.
BITEXACT = ["-fflags", "+bitexact", "-flags:a", "+bitexact", "-flags:v", "+bitexact",
            "-map_metadata", "-1", "-threads", "1"]

# ---------------------------------------------------------------------------------------------------
# Sources: everything is synthesised, nothing is downloaded.

def tone(rate, channels=1):
    """One second of sine (a second, different tone on the right channel for stereo)."""
    if channels == 1:
        return ["-f", "lavfi", "-i", f"sine=frequency=440:sample_rate={rate}:duration=1"]
    return ["-f", "lavfi", "-i", f"aevalsrc=0.5*sin(2*PI*440*t)|0.5*sin(2*PI*554.37*t):s={rate}:d=1"]

def testcard():
    """One second of 64x36 test pattern at 5 fps."""
    return ["-f", "lavfi", "-i", "testsrc=size=64x36:rate=5:duration=1"]

def make_covers(directory):
    """16x16 cover pictures, a PNG and a JPEG, embedded as attached pictures."""
    run(FFMPEG + ["-f", "lavfi", "-i", "color=c=red:s=16x16:d=1", "-frames:v", "1"] + BITEXACT
        + [f"{directory}/cover.png"])
    run(FFMPEG + ["-f", "lavfi", "-i", "color=c=blue:s=16x16:d=1", "-frames:v", "1", "-pix_fmt", "yuvj420p"]
        + BITEXACT + [f"{directory}/cover.jpg"])

# ---------------------------------------------------------------------------------------------------
# How each MediaProperty is spelled for ffmpeg, per tag family. A property missing from a family's
# table cannot be written by ffmpeg in a form readers recognise (see README.md, "What ffmpeg cannot
# write"), so no fixture of that family claims it. Two properties on one key are joined "3/12".

ID3V2 = {  # ID3v2.4 (mp3, and the ID3 chunk of aiff)
    "title": "title", "artist": "artist", "albumTitle": "album", "albumArtist": "album_artist",
    "genre": "genre", "composer": "composer",
    "albumTrackNumber": "track", "albumTrackCount": "track", "discNumber": "disc", "discCount": "disc",
    "releaseDate": "date", "beatsPerMinute": "TBPM",
    "comments": "comment",  # lands as TXXX:comment; TagLib reports it as COMMENT, ffprobe as comment
    "musicBrainzAlbumID": "MusicBrainz Album Id", "musicBrainzArtistID": "MusicBrainz Artist Id",
    "musicBrainzAlbumArtistID": "MusicBrainz Album Artist Id",
    "musicBrainzReleaseGroupID": "MusicBrainz Release Group Id",
    "replayGainTrackGain": "REPLAYGAIN_TRACK_GAIN", "replayGainTrackPeak": "REPLAYGAIN_TRACK_PEAK",
    "replayGainAlbumGain": "REPLAYGAIN_ALBUM_GAIN", "replayGainAlbumPeak": "REPLAYGAIN_ALBUM_PEAK",
}
# In v2.3 ffmpeg writes "compilation" as TXXX:compilation (TagLib: COMPILATION); in v2.4 it renames it
# to TXXX:TCMP, which no reader maps. Dates in v2.3 become TYER (+TDAT).
ID3V23 = {**ID3V2, "isCompilation": "compilation"}
# ffmpeg's ID3v1 writer looks the values up under ID3v2 frame names.
ID3V1 = {"title": "TIT2", "artist": "TPE1", "albumTitle": "TALB", "releaseDate": "TDRC",
         "comments": "comment", "albumTrackNumber": "TRCK", "genre": "TCON"}
VORBIS = {  # FLAC, Ogg Vorbis, Opus: Vorbis comments, the keys as Picard writes them
    "title": "TITLE", "artist": "ARTIST", "albumTitle": "ALBUM", "albumArtist": "ALBUMARTIST",
    "genre": "GENRE", "composer": "COMPOSER",
    "albumTrackNumber": "TRACKNUMBER", "albumTrackCount": "TRACKTOTAL",
    "discNumber": "DISCNUMBER", "discCount": "DISCTOTAL",
    "releaseDate": "DATE", "beatsPerMinute": "BPM", "lyrics": "LYRICS", "isCompilation": "COMPILATION",
    "comments": "COMMENT",  # ffmpeg renames it DESCRIPTION (TagLib's comment() reads DESCRIPTION first)
    "musicBrainzTrackID": "MUSICBRAINZ_TRACKID", "musicBrainzAlbumID": "MUSICBRAINZ_ALBUMID",
    "musicBrainzArtistID": "MUSICBRAINZ_ARTISTID", "musicBrainzAlbumArtistID": "MUSICBRAINZ_ALBUMARTISTID",
    "musicBrainzReleaseGroupID": "MUSICBRAINZ_RELEASEGROUPID",
    "replayGainTrackGain": "REPLAYGAIN_TRACK_GAIN", "replayGainTrackPeak": "REPLAYGAIN_TRACK_PEAK",
    "replayGainAlbumGain": "REPLAYGAIN_ALBUM_GAIN", "replayGainAlbumPeak": "REPLAYGAIN_ALBUM_PEAK",
}
# The other common Vorbis spelling: TRACKNUMBER=3/12, DISCNUMBER=2/3.
VORBIS_SLASHED = {**VORBIS, "albumTrackCount": "TRACKNUMBER", "discCount": "DISCNUMBER"}
MP4 = {  # iTunes atoms; ffmpeg cannot write freeform ----:com.apple.iTunes atoms (MusicBrainz, ReplayGain)
    "title": "title", "artist": "artist", "albumTitle": "album", "albumArtist": "album_artist",
    "genre": "genre", "composer": "composer",
    "albumTrackNumber": "track", "albumTrackCount": "track", "discNumber": "disc", "discCount": "disc",
    "releaseDate": "date", "beatsPerMinute": "tmpo", "comments": "comment", "lyrics": "lyrics",
    "isCompilation": "compilation",
}
# RIFF INFO has no album artist, composer, disc, count fields. ICRD holds a date but TagLib reads only
# its year, so fixtures give it a year; IPRT holds the track number alone.
RIFF = {"title": "title", "artist": "artist", "albumTitle": "album", "genre": "genre",
        "comments": "comment", "releaseDate": "date", "albumTrackNumber": "track"}
APE = {  # APEv2 (WavPack): ffmpeg writes keys verbatim, so use the spellings readers map
    "title": "Title", "artist": "Artist", "albumTitle": "Album", "albumArtist": "Album Artist",
    "genre": "Genre", "composer": "Composer",
    "albumTrackNumber": "Track", "albumTrackCount": "Track", "discNumber": "Disc", "discCount": "Disc",
    "releaseDate": "Year", "beatsPerMinute": "BPM", "comments": "Comment", "lyrics": "Lyrics",
    "isCompilation": "Compilation",
    "musicBrainzTrackID": "MUSICBRAINZ_TRACKID", "musicBrainzAlbumID": "MUSICBRAINZ_ALBUMID",
    "musicBrainzArtistID": "MUSICBRAINZ_ARTISTID", "musicBrainzAlbumArtistID": "MUSICBRAINZ_ALBUMARTISTID",
    "musicBrainzReleaseGroupID": "MUSICBRAINZ_RELEASEGROUPID",
    "replayGainTrackGain": "REPLAYGAIN_TRACK_GAIN", "replayGainTrackPeak": "REPLAYGAIN_TRACK_PEAK",
    "replayGainAlbumGain": "REPLAYGAIN_ALBUM_GAIN", "replayGainAlbumPeak": "REPLAYGAIN_ALBUM_PEAK",
}
MATROSKA = {  # read back through FFmpeg only (TagLib 1.13 has no Matroska)
    "title": "title", "artist": "artist", "albumTitle": "album", "albumArtist": "album_artist",
    "genre": "genre", "composer": "composer", "releaseDate": "date", "comments": "comment",
}

def tag_text(prop, value):
    """The string written for a property value."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if prop.startswith("replayGain"):
        return f"{value:.2f} dB" if prop.endswith("Gain") else f"{value:.6f}"
    return str(value)

def written_texts(song, family):
    """{ffmpeg key: text} for the song's properties the family can hold ("3/12" for a shared key)."""
    keys = {}
    for prop, value in song.items():
        if prop in family:
            keys.setdefault(family[prop], []).append(tag_text(prop, value))
    return {key: "/".join(texts) for key, texts in keys.items()}

def metadata_args(song, family):
    return [a for key, text in written_texts(song, family).items() for a in ("-metadata", f"{key}={text}")]

# ---------------------------------------------------------------------------------------------------
# The songs. `song(...)` starts from the full set and drops or replaces values.

MB = {
    "musicBrainzTrackID": "9a1c0a1e-4b1f-4c52-9d0e-6e1f2a3b4c5d",
    "musicBrainzAlbumID": "0e5b2a8c-2f2d-4a53-a8c5-8f1e7d6c5b4a",
    "musicBrainzArtistID": "5b11f4ce-a62d-471e-81fc-a69a8278c7da",
    "musicBrainzAlbumArtistID": "89ad4ac3-39f7-470e-963a-56509c546377",
    "musicBrainzReleaseGroupID": "1f6e5d4c-3b2a-4190-8e7d-6c5b4a392817",
}
REPLAYGAIN = {"replayGainTrackGain": -6.5, "replayGainTrackPeak": 0.988831,
              "replayGainAlbumGain": -7.25, "replayGainAlbumPeak": 0.999969}
FULL = {
    "title": "Fixture Song", "artist": "The Fixtures", "albumTitle": "Test Pressing",
    "albumArtist": "The Fixtures", "genre": "Rock", "composer": "Ada Composer",
    "albumTrackNumber": 3, "albumTrackCount": 12, "discNumber": 2, "discCount": 3,
    "releaseDate": "2003-05-17", "beatsPerMinute": 128,
    "comments": "Made by make-fixtures.sh", "lyrics": "La la la, a fixture sings",
    **MB, **REPLAYGAIN,
}

def song(*drop, **replace):
    d = {k: v for k, v in FULL.items() if k not in drop}
    d.update(replace)
    return d

COMPILATION = dict(albumArtist="Various Artists", isCompilation=True)
NON_ASCII = dict(title="Café Smørrebrød 日本語", artist="Кино", albumTitle="Группа крови — Déjà vu",
                 albumArtist="Кино", composer="Виктор Цой")

# ---------------------------------------------------------------------------------------------------
# The good fixtures: path, sources, codec/muxer options, tag family, song (only the properties its family
# can hold are written and expected), optional cover picture, optional kind (mediaType, default music).

AUDIO = "music"
FIXTURES = [
    dict(path="mp3-id3v23.mp3", inputs=tone(22050), codec=["-c:a", "libmp3lame", "-b:a", "32k",
         "-id3v2_version", "3"], family=ID3V23, cover="png",
         song=song(releaseDate="1999", **COMPILATION)),
    dict(path="mp3-id3v24.mp3", inputs=tone(44100, 2), codec=["-c:a", "libmp3lame", "-b:a", "48k",
         "-id3v2_version", "4"], family=ID3V2, song=song(**NON_ASCII)),
    dict(path="mp3-id3v1.mp3", inputs=tone(22050), codec=["-c:a", "libmp3lame", "-b:a", "32k",
         "-id3v2_version", "0", "-write_id3v1", "1"], family=ID3V1,
         song=dict(title="Old School", artist="ID3v1 Band", albumTitle="Version One", releaseDate="1999",
                   comments="only ID3v1 here", albumTrackNumber=7, genre="Rock")),
    dict(path="mp3-notags.mp3", inputs=tone(22050), codec=["-c:a", "libmp3lame", "-b:a", "32k",
         "-id3v2_version", "0"], family={}, song={}),
    dict(path="flac-vorbis-cover.flac", inputs=tone(22050),  # no 8 KiB padding block: keeps it small
         codec=["-c:a", "flac", "-metadata_header_padding", "0"], family=VORBIS, cover="png", song=song()),
    dict(path="ogg-vorbis.ogg", inputs=tone(44100, 2), codec=["-c:a", "libvorbis", "-q:a", "0"],
         family=VORBIS_SLASHED, song=song(releaseDate="2011", **NON_ASCII)),
    dict(path="opus.opus", inputs=tone(48000, 2), codec=["-c:a", "libopus", "-b:a", "16k"],
         family=VORBIS_SLASHED, song=song(*REPLAYGAIN, title="Opus Song")),  # Opus uses R128 gains instead
    dict(path="m4a-aac-cover.m4a", inputs=tone(44100, 2), codec=["-c:a", "aac", "-b:a", "32k"],
         family=MP4, cover="jpg", song=song(title="Compilation Track 日本語", **COMPILATION)),
    dict(path="m4a-aac-mono.m4a", inputs=tone(22050), codec=["-c:a", "aac", "-b:a", "16k"],
         family=MP4, song=dict(title="Mono AAC", artist="The Fixtures", releaseDate="2003")),
    dict(path="m4a-alac.m4a", inputs=tone(8000), codec=["-c:a", "alac"], family=MP4,
         song=song(title="Lossless Apple")),
    dict(path="wav-riff-info.wav", inputs=tone(8000), codec=["-c:a", "pcm_s16le"], family=RIFF,
         song=song(title="Wave Info", releaseDate="1999", albumTrackNumber=5)),
    dict(path="aiff-id3.aiff", inputs=tone(8000), codec=["-c:a", "pcm_s16be", "-write_id3v2", "1"],
         family=ID3V2, song=dict(title="AIFF Song", artist="The Fixtures", albumTitle="Test Pressing",
                                 releaseDate="2003-05-17", genre="Electronic")),
    dict(path="wavpack-ape.wv", inputs=tone(8000), codec=["-c:a", "wavpack"], family=APE,
         song=song(title="WavPack Song", releaseDate="2003")),
    dict(path="video-h264-aac.mp4", inputs=testcard() + tone(22050, 2), kind="movie",
         codec=["-c:v", "libx264", "-preset", "ultrafast", "-crf", "35", "-pix_fmt", "yuv420p",
                "-c:a", "aac", "-b:a", "24k"], family=MP4,
         song=dict(title="Test Card", artist="The Fixtures", genre="Documentary", releaseDate="2011",
                   comments="64x36 at 5 fps")),
    dict(path="video-mpeg4-opus.mkv", inputs=testcard() + tone(48000), kind="movie",
         codec=["-c:v", "mpeg4", "-q:v", "20", "-c:a", "libopus", "-b:a", "16k"], family=MATROSKA,
         song=dict(title="Видео ø é", artist="The Fixtures", albumTitle="Test Pressing", albumArtist="Кино",
                   genre="Documentary", composer="Ada Composer", releaseDate="2011-02-03",
                   comments="Matroska tags")),
]
MISLABELLED = "bad/ogg-named.mp3"   # a copy of ogg-vorbis.ogg
TRUNCATED_FLAC = "bad/truncated.flac"  # first third of flac-vorbis-cover.flac
CUT_MP3 = "bad/cut-2k.mp3"            # first 2048 bytes of mp3-id3v24.mp3
HEADER_ONLY_FLAC = "bad/header-only.flac"  # first 24 bytes: "fLaC", a block header, half a STREAMINFO

# ---------------------------------------------------------------------------------------------------

# Written and read by TagLib, but FFmpeg's demuxer does not export them, so the ffprobe check skips them.
FFPROBE_BLIND = {"tmpo"}

def run(cmd):
    subprocess.run(cmd, check=True, stdin=subprocess.DEVNULL)

def ffprobe(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-of", "json", "-show_format", "-show_streams", path],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)
    return json.loads(out.stdout) if out.returncode == 0 else None

def stream_facts(probe, with_duration=True):
    """ffprobe's reading, in MediaProperty names."""
    facts = {"container": probe["format"]["format_name"]}
    streams = probe.get("streams", [])
    audio = next((s for s in streams if s["codec_type"] == "audio"), None)
    video = next((s for s in streams if s["codec_type"] == "video"
                  and not s.get("disposition", {}).get("attached_pic")), None)
    if audio:
        facts["audioCodec"] = audio["codec_name"]
        facts["sampleRate"] = int(audio["sample_rate"])
        facts["channels"] = audio["channels"]
        bits = int(audio.get("bits_per_raw_sample") or 0) or audio.get("bits_per_sample", 0)
        if bits:  # lossless and PCM only; lossy codecs have no bit depth
            facts["bitDepth"] = bits
    if video:
        facts["videoCodec"] = video["codec_name"]
        facts["width"], facts["height"] = video["width"], video["height"]
        num, den = map(int, video["avg_frame_rate"].split("/"))
        if den:
            facts["frameRate"] = round(num / den, 3)
    if with_duration and "duration" in probe["format"]:
        facts["playbackDuration"] = float(probe["format"]["duration"])
        if audio and audio["codec_name"] == "mp3" and not video:
            # ffprobe counts LAME's encoder delay and padding (Xing/LAME header) as audio; the reference is
            # what an ffmpeg decode yields, which drops them (as mutagen's Opus length drops the pre-skip).
            facts["playbackDuration"] = decoded_seconds(probe["format"]["filename"], int(audio["sample_rate"]))
    return facts

def decoded_seconds(path, rate):
    out = subprocess.run(FFMPEG[:-1] + ["-i", path, "-map", "0:a:0", "-f", "s16le", "-ac", "1", "-"],
                         capture_output=True, stdin=subprocess.DEVNULL, check=True)
    return round(len(out.stdout) / 2 / rate, 6)

def visible_tag_values(probe):
    """Every tag value ffprobe sees, format- or stream-level (Ogg keeps its tags on the stream)."""
    values = set(probe["format"].get("tags", {}).values())
    for s in probe.get("streams", []):
        values |= set(s.get("tags", {}).values())
    return values

def has_cover(probe):
    return any(s.get("disposition", {}).get("attached_pic") for s in probe.get("streams", []))

def expected_tags(song, family):
    """What a reader must report: the song's values that the family could write, plus the derived year."""
    tags = {prop: value for prop, value in song.items() if prop in family}
    if "releaseDate" in tags:
        tags["year"] = int(tags["releaseDate"][:4])
    return tags

def make(fx, covers):
    path, song, family = fx["path"], fx["song"], fx["family"]
    written = written_texts(song, family)
    cmd = FFMPEG + fx["inputs"]
    maps = []
    if fx.get("cover"):
        n_inputs = sum(1 for a in fx["inputs"] if a == "-i")
        cmd += ["-i", f"{covers}/cover.{fx['cover']}"]
        maps = ["-map", "0", "-map", str(n_inputs), "-c:v", "copy", "-disposition:v:0", "attached_pic",
                "-metadata:s:v:0", "comment=Cover (front)"]
    elif "kind" in fx:  # video: the picture source and the tone
        maps = ["-map", "0", "-map", "1"]
    cmd += maps + fx["codec"] + BITEXACT + metadata_args(song, family) + [path]
    run(cmd)
    probe = ffprobe(path)
    if probe is None:
        sys.exit(f"make-fixtures: ffprobe cannot read {path}")
    seen = visible_tag_values(probe)
    missing = [f"{k}={t}" for k, t in written.items() if t not in seen and k not in FFPROBE_BLIND]
    if missing:
        sys.exit(f"make-fixtures: {path}: ffprobe does not see {sorted(missing)}")
    tags = expected_tags(song, family)
    tags["mediaType"] = fx.get("kind", AUDIO)
    tags["hasArtwork"] = has_cover(probe)
    if fx.get("cover") and not tags["hasArtwork"]:
        sys.exit(f"make-fixtures: {path}: cover did not land")
    if not song:  # an untagged file must not grow tags
        tags.update(title=None, artist=None, albumTitle=None, releaseDate=None)
    return {"tags": tags, "stream": stream_facts(probe), "error": None}

def damaged(path, source):
    """A cut-off copy of the `source` fixture: if ffprobe still opens it, it is a partial read (with the
    tags that survived the cut), else a corrupt file."""
    probe = ffprobe(path)
    if probe is None:
        return {"error": "corrupt"}
    seen = visible_tag_values(probe)
    survived = {key for key, text in written_texts(source["song"], source["family"]).items() if text in seen}
    song = {prop: v for prop, v in source["song"].items() if source["family"].get(prop) in survived}
    tags = expected_tags(song, source["family"])
    tags["mediaType"] = source.get("kind", AUDIO)
    tags["hasArtwork"] = has_cover(probe)
    # No duration: the header still promises the whole file's length, which the data no longer has.
    return {"tags": tags, "stream": stream_facts(probe, with_duration=False), "error": None, "partial": True}

def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)

def main():
    os.makedirs("bad", exist_ok=True)
    covers = tempfile.mkdtemp(prefix="mlib-fixtures-")
    try:
        make_covers(covers)
        files = {fx["path"]: make(fx, covers) for fx in FIXTURES}
    finally:
        shutil.rmtree(covers)
    source = {fx["path"]: fx for fx in FIXTURES}

    write_bytes("bad/empty.mp3", b"")
    files["bad/empty.mp3"] = {"error": "empty"}

    write_bytes("bad/random.mp3", random.Random(20030517).randbytes(4096))
    write_bytes("bad/text.m4a", b"This is a plain text file that only pretends to be an MPEG-4 audio file.\n")
    for p in ("bad/random.mp3", "bad/text.m4a"):
        if ffprobe(p) is not None:
            sys.exit(f"make-fixtures: ffprobe reads {p}; pick another seed/text")
        files[p] = {"error": "not-media"}

    with open("ogg-vorbis.ogg", "rb") as f:
        write_bytes(MISLABELLED, f.read())
    files[MISLABELLED] = files["ogg-vorbis.ogg"]  # readable: the content, not the name, decides

    with open("flac-vorbis-cover.flac", "rb") as f:
        flac = f.read()
    write_bytes(TRUNCATED_FLAC, flac[: len(flac) // 3])
    files[TRUNCATED_FLAC] = damaged(TRUNCATED_FLAC, source["flac-vorbis-cover.flac"])
    write_bytes(HEADER_ONLY_FLAC, flac[:24])
    files[HEADER_ONLY_FLAC] = damaged(HEADER_ONLY_FLAC, source["flac-vorbis-cover.flac"])
    with open("mp3-id3v24.mp3", "rb") as f:
        write_bytes(CUT_MP3, f.read(2048))
    files[CUT_MP3] = damaged(CUT_MP3, source["mp3-id3v24.mp3"])

    with open("expected.json", "w", encoding="utf-8") as f:
        json.dump({"files": dict(sorted(files.items()))}, f, ensure_ascii=False, indent=2, sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(p) for p in files)
    print(f"make-fixtures: {len(files)} fixtures, {total} bytes, expected.json written")
    # The odd and damaged files of issue 10 (checked against mutagen/ffprobe), merged into expected.json.
    subprocess.run(["./make-odd-fixtures.sh"], check=True)

main()
PYTHON
