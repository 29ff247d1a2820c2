#!/usr/bin/env python3
"""Drives `mlib serve --http` as Subsonic clients do, with py-sonic (a real client library from PyPI) and
raw HTTP, and validates every JSON answer against the OpenSubsonic OpenAPI description.

usage: subsonic_client.py PORT USER PASSWORD MUSIC_DIR OPENAPI_DIR SMART_PLAYLIST
Prints one JSON object (what the Swift test compares with the mlib CLI); exits 1 at the first failed check.
"""
import hashlib, json, os, pathlib, subprocess, sys, tempfile, urllib.parse, urllib.request, urllib.error
import xml.etree.ElementTree as ET

import libsonic
from openapi_check import Validator
from xsd_check import XSDValidator

port, user, password, music, openapi, smart_name = sys.argv[1:7]
port = int(port)
base = f"http://127.0.0.1:{port}/rest"
openapi = pathlib.Path(openapi).resolve()
checked = []


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


# --- OpenAPI validation -------------------------------------------------------------------------------------

validator = Validator(openapi)


def validate(method, document):
    """Validates a whole JSON answer ({"subsonic-response": …}) against the method's 200 response schema."""
    problem = validator.problem(method, document)
    if problem:
        fail(problem)
    checked.append(method)
    return document["subsonic-response"]


def auth_query(**extra):
    salt = "c0ffee"
    token = hashlib.md5((password + salt).encode()).hexdigest()
    q = {"u": user, "t": token, "s": salt, "v": "1.16.1", "c": "test", "f": "json"}
    q.update({k: v for k, v in extra.items() if v is not None})
    return q


def raw(method, query=None, headers=None, data=None, parse=True, view=False):
    """One request by hand; returns (status, headers, body or parsed JSON)."""
    url = f"{base}/{method}{'.view' if view else ''}"
    if query is not None:
        url += "?" + urllib.parse.urlencode(query, doseq=True)
    request = urllib.request.Request(url, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            body = response.read()
            status, head = response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        body, status, head = error.read(), error.code, dict(error.headers)
    if parse:
        return status, head, json.loads(body)
    return status, head, body


def call(method, **params):
    """A JSON call by hand, validated; returns the inside of subsonic-response."""
    status, _, document = raw(method, auth_query(**params))
    expect(status == 200, f"{method}: HTTP {status}")
    inside = validate(method, document)
    expect(inside["status"] == "ok", f"{method}: {inside.get('error')}")
    return inside


def failure(method, query, code):
    status, _, document = raw(method, query)
    inside = validate(method, document)
    expect(inside["status"] == "failed" and inside["error"]["code"] == code,
           f"{method} {query}: expected error {code}, got {inside}")


# --- py-sonic ------------------------------------------------------------------------------------------------

conn = libsonic.Connection("http://127.0.0.1", user, password, port=port, appName="mlib-test")


def sonic(method, *args, **kwargs):
    """A py-sonic call (form POST, token auth), its answer validated as the whole document."""
    inside = getattr(conn, method)(*args, **kwargs)
    validate(method, {"subsonic-response": inside})
    return inside


expect(conn.ping(), "ping")
expect(sonic("getLicense")["license"]["valid"], "license")
extensions = call("getOpenSubsonicExtensions")["openSubsonicExtensions"]
expect({e["name"] for e in extensions} >= {"formPost", "apiKeyAuthentication"}, f"extensions {extensions}")
# /rest/x.view answers as /rest/x does; XML is the default format.
status, _, body = raw("ping", {k: v for k, v in auth_query().items() if k != "f"}, parse=False, view=True)
root = ET.fromstring(body)
xsd = XSDValidator()
expect(xsd.problem("ping", body) is None, xsd.problem("ping", body))
expect(root.tag.endswith("subsonic-response") and root.get("status") == "ok" and root.get("openSubsonic") == "true"
       and root.get("type") == "mlib", f"XML ping: {body[:300]}")

# --- Auth and errors --------------------------------------------------------------------------------------------
failure("ping", {"u": user, "p": "wrong", "f": "json"}, 40)
failure("ping", {"u": "nobody", "p": password, "f": "json"}, 40)
expect(raw("ping", {"u": user, "p": password, "f": "json"})[2]["subsonic-response"]["status"] == "ok", "plain p=")
expect(raw("ping", {"u": user, "p": "enc:" + password.encode().hex(), "f": "json"})[2]["subsonic-response"]["status"] == "ok", "enc:")
failure("ping", {"f": "json"}, 10)
failure("ping", {"apiKey": "0" * 64, "f": "json"}, 44)
failure("getAlbum", auth_query(id="al-0000000000000000"), 70)
failure("getAlbum", auth_query(), 10)
api_key = os.environ.get("MLIB_TEST_API_KEY")
if api_key:
    expect(raw("ping", {"apiKey": api_key, "f": "json"})[2]["subsonic-response"]["status"] == "ok", "apiKey")
    failure("ping", {"apiKey": api_key, "u": user, "f": "json"}, 43)

# --- A full sync as Symfonium does it ---------------------------------------------------------------------------
artists = sonic("getArtists")["artists"]
artist_ids = [a["id"] for index in artists.get("index", []) for a in index["artist"]]
expect(len(artist_ids) == len(set(artist_ids)) and artist_ids, f"artists {artist_ids}")


def pages(fetch, key, size):
    seen, offset = [], 0
    while True:
        page = fetch(size, offset)
        seen += page
        if len(page) < size:
            return seen
        offset += size


album_pages = {}
for size in (500, 2):
    album_pages[size] = pages(lambda n, o: sonic("getAlbumList2", "alphabeticalByName", size=n, offset=o)["albumList2"].get("album", []),
                              "album", size)
album_ids = [a["id"] for a in album_pages[500]]
expect([a["id"] for a in album_pages[2]] == album_ids, "getAlbumList2 pages of 2 and of 500 list the same albums")
expect(len(album_ids) == len(set(album_ids)), "no album twice")

song_pages = {}
for size in (500, 3):
    song_pages[size] = pages(lambda n, o: sonic("search3", "", artistCount=0, albumCount=0, songCount=n, songOffset=o)
                             ["searchResult3"].get("song", []), "song", size)
song_ids = [s["id"] for s in song_pages[500]]
expect([s["id"] for s in song_pages[3]] == song_ids, "search3 pages of 3 and of 500 list the same songs")
expect(len(song_ids) == len(set(song_ids)), "no song twice in the full sync")
# Symfonium sends the empty query as "" (two quotes).
quoted = call("search3", query='""', songCount=500, artistCount=500, albumCount=500)["searchResult3"]
expect(len(quoted.get("song", [])) == len(song_ids), 'query="" is the empty query')

album_songs = []
for album_id in album_ids:
    album = sonic("getAlbum", album_id)["album"]
    expect(album["songCount"] == len(album.get("song", [])), f"album {album_id} song count")
    album_songs += [s["id"] for s in album.get("song", [])]
expect(sorted(album_songs) == sorted(song_ids), "the albums hold every song once")
for artist_id in artist_ids:
    artist = sonic("getArtist", artist_id)["artist"]
    expect(artist["albumCount"] == len(artist.get("album", [])), f"artist {artist_id} album count")
for kind in ["random", "newest", "highest", "frequent", "recent", "alphabeticalByName", "alphabeticalByArtist", "starred"]:
    sonic("getAlbumList2", kind, size=500)
sonic("getAlbumList2", "byYear", size=500, fromYear=1900, toYear=2100)
genres = sonic("getGenres")["genres"].get("genre", [])
for genre in genres:
    songs = sonic("getSongsByGenre", genre["value"], count=500)["songsByGenre"].get("song", [])
    expect(len(songs) == genre["songCount"], f"genre {genre['value']}: {len(songs)} songs, said {genre['songCount']}")
    sonic("getAlbumList2", "byGenre", size=500, genre=genre["value"])
expect(len(sonic("getRandomSongs", size=3)["randomSongs"].get("song", [])) == min(3, len(song_ids)), "random songs")
# OpenSubsonic's lists beside the single strings: genres, artists, albumArtists (validated by the schema above).
for song in song_pages[500]:
    expect([g["name"] for g in song.get("genres", [])] == ([x for x in song["genre"].split("; ") if x] if song.get("genre") else []),
           f"genres of {song['title']}: {song.get('genres')} for {song.get('genre')}")
    expect([a["name"] for a in song.get("artists", [])] == [song["artist"]] and song.get("displayArtist") == song["artist"],
           f"artists of {song['title']}: {song.get('artists')}")
first = song_pages[500][0]
word = first["title"].split()[0]
found = call("search3", query=word.upper(), songCount=500)["searchResult3"].get("song", [])
expect(first["id"] in [s["id"] for s in found], f"search3 {word.upper()} finds {first['title']}")

# --- Folder browsing as DSub does it -----------------------------------------------------------------------------
folders = sonic("getMusicFolders")["musicFolders"]["musicFolder"]
expect(len(folders) == 1, f"one root: {folders}")
conn.getIndexes()   # py-sonic turns lastModified into seconds: validated by hand below
indexes = call("getIndexes")["indexes"]
browsed, dirs = [s for s in indexes.get("child", [])], [a["id"] for i in indexes.get("index", []) for a in i["artist"]]
while dirs:
    directory = sonic("getMusicDirectory", dirs.pop())["directory"]
    for child in directory.get("child", []):
        (dirs.append(child["id"]) if child["isDir"] else browsed.append(child))
expect(sorted(s["id"] for s in browsed) == sorted(song_ids), "browsing folders reaches every song once")
for song in browsed:
    expect((pathlib.Path(music) / song["path"]).is_file(), f"song path {song['path']} is relative to the root")

# --- Playback with Range ----------------------------------------------------------------------------------------
largest = max(browsed, key=lambda s: s["size"])
data = (pathlib.Path(music) / largest["path"]).read_bytes()
status, head, body = raw("stream", auth_query(id=largest["id"]), parse=False)
expect(status == 200 and body == data and head.get("Accept-Ranges") == "bytes", f"stream: {status} {head}")
status, head, body = raw("stream", auth_query(id=largest["id"]), headers={"Range": "bytes=100-1099"}, parse=False)
expect(status == 206 and body == data[100:1100] and head.get("Content-Range") == f"bytes 100-1099/{len(data)}",
       f"ranged stream: {status} {head}")
status, head, body = raw("download", auth_query(id=largest["id"]), headers={"Range": "bytes=-500"}, parse=False)
expect(status == 206 and body == data[-500:], f"suffix range: {status} {head}")
status, head, body = raw("stream", auth_query(id=largest["id"]), headers={"Range": f"bytes={len(data)}-"}, parse=False)
expect(status == 416, f"a range past the end is 416, got {status}")
def head(method, query):
    request = urllib.request.Request(f"{base}/{method}?" + urllib.parse.urlencode(query), method="HEAD")
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.status, dict(response.headers), response.read()


status, head_fields, body = head("stream", auth_query(id=largest["id"]))
expect(status == 200 and body == b"" and head_fields.get("Content-Length") == str(len(data))
       and head_fields.get("Accept-Ranges") == "bytes", f"HEAD stream: {status} {head_fields} {len(body)} bytes")
status, head_fields, body = head("stream", auth_query(id=largest["id"], format="mp3", maxBitRate=128))
expect(status == 200 and body == b"" and head_fields.get("Content-Type") == "audio/mpeg", f"HEAD of a transcode: {status} {head_fields}")
streamed = conn.stream(largest["id"]).read()
expect(streamed == data, "py-sonic's stream reads the file's bytes")

# --- Transcoding ---------------------------------------------------------------------------------------------------
def probe(path):
    """ffprobe's codec and duration of a file."""
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name:format=duration",
                          "-of", "json", str(path)], capture_output=True, text=True)
    expect(out.returncode == 0, f"ffprobe {path}: {out.stderr}")
    info = json.loads(out.stdout)
    return info["streams"][0]["codec_name"], float(info["format"]["duration"])


def transcoded(song, **params):
    """A transcoded stream saved to a file (ffprobe reads an Ogg's duration from its last page, which a pipe lacks)."""
    status, head, body = raw("stream", auth_query(id=song["id"], **params), parse=False)
    expect(status == 200, f"stream {params} of {song['path']}: {status} {body[:200]}")
    if not song["path"].endswith("." + params.get("format", "opus")):   # else sent as it is (no needless re-encode)
        expect("Accept-Ranges" not in head and "Content-Length" not in head, f"no ranges or length on a transcoded stream: {head}")
    with tempfile.NamedTemporaryFile(suffix=".out", delete=False) as out:
        out.write(body)
    try:
        return head, probe(out.name)
    finally:
        os.unlink(out.name)


for song in browsed:
    _, original = probe(pathlib.Path(music) / song["path"])
    head, (codec, duration) = transcoded(song, format="opus", maxBitRate=96)
    expect(codec == "opus" and abs(duration - original) <= 0.1 and head.get("Content-Type") == "audio/ogg",
           f"{song['path']} as Opus: {codec} {duration} s (original {original} s), {head}")
flac = next(s for s in browsed if s["path"].endswith(".flac"))
_, flac_duration = probe(pathlib.Path(music) / flac["path"])
head, (codec, duration) = transcoded(flac, format="mp3", maxBitRate=128)
expect(codec == "mp3" and abs(duration - flac_duration) <= 0.1 and head.get("Content-Type") == "audio/mpeg",
       f"FLAC as MP3: {codec} {duration} s (original {flac_duration} s)")
for song in browsed:   # the highest rate asked of a mono or a stereo file: clamped to what the encoder takes
    expect(transcoded(song, format="opus", maxBitRate=999999)[1][0] == "opus", f"{song['path']} as Opus at 999999 kb/s")
head, (codec, duration) = transcoded(flac, maxBitRate=8)   # a bit rate under the file's and no format: Opus
expect(codec == "opus", f"maxBitRate alone transcodes to Opus: {codec}")
if flac_duration > 0.6:   # the fixtures last 1 s: half a second in (mlib takes fractions)
    head, (codec, duration) = transcoded(flac, format="opus", timeOffset=0.5)
    expect(abs(duration - (flac_duration - 0.5)) <= 0.1, f"timeOffset=0.5: {duration} s of {flac_duration} s")
status, head, body = raw("stream", auth_query(id=largest["id"], format="raw"), parse=False)
expect(status == 200 and body == data, "format=raw sends the file unchanged")
# estimateContentLength=true: a Content-Length from bit rate x duration, and exactly that many bytes, still
# read by ffprobe as the asked codec of the right duration (a short stream is padded, never cut short).
for fmt, rate in [("opus", 128), ("mp3", 192)]:
    status, head, body = raw("stream", auth_query(id=flac["id"], format=fmt, maxBitRate=rate, estimateContentLength="true"),
                             parse=False)
    length = int(head.get("Content-Length", "-1"))
    expect(status == 200 and length == len(body) and length >= rate * 1000 * flac_duration / 8,
           f"estimateContentLength {fmt}: {status} {head} {len(body)} bytes")
    with tempfile.NamedTemporaryFile(suffix="." + fmt, delete=False) as out:
        out.write(body)
    try:
        codec, _ = probe(out.name)
        # The decoded length (ffprobe guesses an MP3's duration from its size, padding included, when the
        # stream has no Xing header: a stream muxed on the fly has none).
        pcm = subprocess.run(["ffmpeg", "-v", "error", "-i", out.name, "-f", "s16le", "-ac", "1", "-ar", "8000", "-"],
                             capture_output=True)
        duration = len(pcm.stdout) / 16000
    finally:
        os.unlink(out.name)
    expect(codec == fmt and abs(duration - flac_duration) <= 0.1, f"estimateContentLength {fmt}: {codec} {duration} s of {flac_duration} s")

def image_size(data):
    """ffprobe's width and height of a picture."""
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "json", "-i", "pipe:0"],
                         input=data, capture_output=True)
    expect(out.returncode == 0, f"ffprobe reads the picture: {out.stderr}")
    stream = json.loads(out.stdout)["streams"][0]
    return stream["width"], stream["height"]


# --- Cover art ---------------------------------------------------------------------------------------------------
covers = {}
for song in browsed:
    status, head, body = raw("getCoverArt", auth_query(id=song["coverArt"]), parse=False)
    if status == 200 and head.get("Content-Type", "").startswith("image/"):
        covers[song["path"]] = body[:4].hex()
        original = image_size(body)
        status, head, scaled = raw("getCoverArt", auth_query(id=song["coverArt"], size=8), parse=False)
        width, height = image_size(scaled)
        expect(status == 200 and head.get("Content-Type", "").startswith("image/"), f"scaled cover: {status} {head}")
        if max(original) > 8:   # scaled down, aspect kept (never enlarged)
            expected = (8, max(1, round(original[1] * 8 / original[0]))) if original[0] >= original[1] \
                else (max(1, round(original[0] * 8 / original[1])), 8)
            expect((width, height) == expected, f"cover of {song['path']} at size=8: {width}x{height}, from {original}")
        else:
            expect((width, height) == original, f"a small cover is not enlarged: {width}x{height}")
        again = raw("getCoverArt", auth_query(id=song["coverArt"], size=8), parse=False)[2]
        expect(again == scaled, "the cached scaled cover is the same picture")

# --- Scrobble, star, rating --------------------------------------------------------------------------------------
target = song_ids[0]
before = sonic("getSong", target)["song"].get("playCount", 0)
sonic("scrobble", target)
sonic("scrobble", target, submission=False)   # now playing: not a play
after = sonic("getSong", target)["song"].get("playCount", 0)
expect(after == before + 1, f"scrobble raised the play count {before} -> {after}")

sonic("star", sids=[target], albumIds=[album_ids[0]], artistIds=[artist_ids[0]])
starred = sonic("getStarred2")["starred2"]
expect([s["id"] for s in starred.get("song", [])] == [target] and [a["id"] for a in starred.get("album", [])] == [album_ids[0]]
       and [a["id"] for a in starred.get("artist", [])] == [artist_ids[0]], f"starred {starred}")
expect("starred" in sonic("getSong", target)["song"], "a starred song says so")
expect([a["id"] for a in sonic("getAlbumList2", "starred")["albumList2"].get("album", [])] == [album_ids[0]], "starred albums")
sonic("unstar", sids=[target])
expect(not sonic("getStarred2")["starred2"].get("song"), "unstarred")

rated = song_ids[1]
sonic("setRating", rated, 4)
expect(sonic("getSong", rated)["song"].get("userRating") == 4, "setRating 4")

# --- Playlists ---------------------------------------------------------------------------------------------------
made = sonic("createPlaylist", name="Phone mix", songIds=song_ids[:3])["playlist"]
expect([e["id"] for e in made.get("entry", [])] == song_ids[:3], f"created playlist {made}")
conn.updatePlaylist(made["id"], songIndexesToRemove=[0], songIdsToAdd=[song_ids[3]])
entries = [e["id"] for e in sonic("getPlaylist", made["id"])["playlist"].get("entry", [])]
expect(entries == song_ids[1:4], f"updated playlist {entries}")
listed = sonic("getPlaylists")["playlists"].get("playlist", [])
smart = [p for p in listed if p["name"] == smart_name]
expect(len(smart) == 1 and smart[0]["readonly"], f"the smart playlist is listed read-only: {listed}")
smart_entries = [e["id"] for e in sonic("getPlaylist", smart[0]["id"])["playlist"].get("entry", [])]
failure("updatePlaylist", auth_query(playlistId=smart[0]["id"], songIdToAdd=song_ids[0]), 50)

# --- Play queue, scan, user --------------------------------------------------------------------------------------
call("savePlayQueue", id=song_ids[:2], current=song_ids[1], position=1500)
queue = call("getPlayQueue")["playQueue"]
expect([e["id"] for e in queue["entry"]] == song_ids[:2] and queue["current"] == song_ids[1] and queue["position"] == 1500,
       f"play queue {queue}")
expect(sonic("getUser", user)["user"]["username"] == user, "getUser")
call("getScanStatus")

# --- XML carries the same data as JSON ---------------------------------------------------------------------------
query = {k: v for k, v in auth_query(id=album_ids[0]).items() if k != "f"}
status, head, body = raw("getAlbum", query, parse=False)
xml_songs = [e.get("id") for e in ET.fromstring(body).iter() if e.tag.endswith("song")]
expect(xsd.problem("getAlbum", body) is None, xsd.problem("getAlbum", body))
expect(xml_songs == [s["id"] for s in call("getAlbum", id=album_ids[0])["album"]["song"]], "XML and JSON agree on getAlbum")
expect(head.get("Content-Type", "").startswith("application/xml"), f"XML content type {head}")

print(json.dumps({"songs": song_ids, "albums": album_ids, "artists": artist_ids, "scrobbled": target, "rated": rated,
                  "smartEntries": smart_entries, "covers": covers, "validated": sorted(set(checked)),
                  "phonePlaylist": entries}))
