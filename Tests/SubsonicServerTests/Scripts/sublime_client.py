#!/usr/bin/env python3
"""Replays a Sublime Music session (Linux desktop, GTK) against `mlib serve --http`, every JSON answer
validated against the OpenSubsonic OpenAPI description. The calls and their parameters are Sublime Music's,
from its sources (github.com/sublime-music/sublime-music, commit 96c9a44,
sublime_music/adapters/subsonic/adapter.py): `_get_params` (u, token with s/t, c="Sublime Music", f=json,
v "1.8.0" until the server's version is known, then that), the ping at start, the library's sync
(getPlaylists/getPlaylist, getArtists, getArtist + getArtistInfo2, `get_albums`: getAlbumList2 in pages of
500 — 50 for random — until an empty page, for each album type it supports, byYear with this decade,
byGenre per genre; getAlbum, getGenres), browsing (`get_directory`: getIndexes, then getMusicDirectory),
getPlayQueue, search3 with the query alone, getSong, the cover (getCoverArt id, size), the song's file
(`download`) and stream, scrobble with the id alone, setRating, savePlayQueue (id, current, position), and
the playlist editor (createPlaylist name + songId; updatePlaylist playlistId, name, comment, public as
Python's True, songIdToAdd; createPlaylist playlistId + songId to replace the songs; deletePlaylist).

usage: sublime_client.py PORT USER PASSWORD OPENAPI_DIR
Prints one JSON object: the songs the sync saw and every call that answered an error (with its code).
"""
import datetime, hashlib, json, random, string, sys, urllib.error, urllib.parse, urllib.request

from openapi_check import Validator

port, user, password, openapi = sys.argv[1:5]
validator = Validator(openapi)
errors = {}
version = ""


def url(endpoint):
    return f"http://127.0.0.1:{port}/rest/{endpoint}.view"


def params():
    """`_get_params`: a new salt for every request, as `_generate_auth_token` makes."""
    salt = "".join(random.choices(string.ascii_letters + string.digits, k=16))
    return {"u": user, "c": "Sublime Music", "f": "json", "v": version or "1.8.0",
            "s": salt, "t": hashlib.md5((password + salt).encode()).hexdigest()}


def encode(values):
    """As `requests` encodes them: None dropped, lists repeated, True as "True"."""
    pairs = []
    for key, value in values.items():
        if value is None:
            continue
        for one in value if isinstance(value, list) else [value]:
            pairs.append((key, str(one)))
    return urllib.parse.urlencode(pairs)


def get_json(endpoint, **extra):
    """`_get_json`: the answer validated, an error recorded (Sublime raises ServerError), the version kept."""
    global version
    with urllib.request.urlopen(url(endpoint) + "?" + encode({**params(), **extra}), timeout=20) as r:
        document = json.load(r)
    inside = document["subsonic-response"]
    if inside["status"] != "ok":
        errors[endpoint] = inside.get("error", {}).get("code")
        return None
    version = inside["version"]
    problem = validator.problem(endpoint, document)
    if problem:
        print(f"FAILED: {problem}", file=sys.stderr)
        sys.exit(1)
    return inside


def get_bytes(endpoint, **extra):
    """A URI Sublime hands to its player or image loader (get_cover_art_uri, get_song_file_uri…)."""
    with urllib.request.urlopen(url(endpoint) + "?" + encode({**params(), **extra}), timeout=20) as r:
        return r.headers.get("Content-Type", ""), r.read()


summary = {}
get_json("ping")
summary["version"] = version
# Playlists.
for playlist in (get_json("getPlaylists") or {}).get("playlists", {}).get("playlist", []):
    get_json("getPlaylist", id=playlist["id"])
# Artists (get_artists, get_artist with its info).
artists = [a for index in (get_json("getArtists") or {}).get("artists", {}).get("index", []) for a in index.get("artist", [])]
for artist in artists:
    get_json("getArtist", id=artist["id"])
    get_json("getArtistInfo2", id=artist["id"])
# Albums (get_albums), every type Sublime supports at this version; pages until an empty one.
genres = [g["value"] for g in (get_json("getGenres") or {}).get("genres", {}).get("genre", [])]
decade = datetime.date.today().year // 10 * 10


def get_albums(kind, **extra):
    albums, offset = [], 0
    size = 50 if kind == "random" else 500
    while True:
        page = (get_json("getAlbumList2", type=kind, size=size, offset=offset, **extra) or {}).get("albumList2", {}).get("album", [])
        if not page:
            return albums
        albums += page
        if kind == "random":
            return albums
        offset += size


every = get_albums("alphabeticalByName")
for kind in ["random", "newest", "frequent", "recent", "starred", "alphabeticalByArtist"]:
    get_albums(kind)
get_albums("byYear", fromYear=decade, toYear=decade + 10)
for genre in genres:
    get_albums("byGenre", genre=genre)
songs = []
for album in every:
    songs += (get_json("getAlbum", id=album["id"]) or {}).get("album", {}).get("song", [])
summary["albums"] = len(every)
summary["songs"] = sorted(s["path"] for s in songs if "path" in s)
# Browsing by folder (get_directory "root" → getIndexes, then each directory).
pending = [a["id"] for index in (get_json("getIndexes") or {}).get("indexes", {}).get("index", []) for a in index.get("artist", [])]
folder_songs = 0
while pending:
    for child in (get_json("getMusicDirectory", id=pending.pop()) or {}).get("directory", {}).get("child", []):
        if child.get("isDir"):
            pending.append(child["id"])
        else:
            folder_songs += 1
summary["folderSongs"] = folder_songs
get_json("getPlayQueue")
get_json("search3", query="Café")
if songs:
    first = songs[0]
    get_json("getSong", id=first["id"])
    kind, cover = get_bytes("getCoverArt", id=first.get("coverArt", first["id"]), size=600)
    summary["cover"] = kind
    kind, body = get_bytes("download", id=first["id"])
    summary["downloaded"] = len(body) == first.get("size")
    kind, body = get_bytes("stream", id=first["id"])
    summary["streamed"] = len(body)
    get_bytes("scrobble", id=first["id"])   # `_get`, the answer not read
    get_json("setRating", id=first["id"], rating=5)
    get_json("setRating", id=first["id"], rating=0)
    ids = [s["id"] for s in songs[:4]]
    get_bytes("savePlayQueue", id=ids, current=ids[2], position=75500)
    queue = (get_json("getPlayQueue") or {}).get("playQueue", {})
    summary["queue"] = {"count": len(queue.get("entry", [])), "currentMatches": queue.get("current") == ids[2], "position": queue.get("position")}
    # The playlist editor.
    made = (get_json("createPlaylist", name="Sublime", songId=ids[:2]) or {}).get("playlist", {})
    if made:
        get_json("updatePlaylist", playlistId=made["id"], name="Sublime 2", comment="from Sublime Music", public=True,
                 songIdToAdd=[ids[3]])
        get_json("createPlaylist", playlistId=made["id"], songId=[ids[3], ids[0], ids[1]])
        replaced = (get_json("getPlaylist", id=made["id"]) or {}).get("playlist", {})
        summary["playlist"] = {"name": replaced.get("name"), "songsMatch": [e["id"] for e in replaced.get("entry", [])] == [ids[3], ids[0], ids[1]]}
        get_json("deletePlaylist", id=made["id"])
summary["errors"] = errors
print(json.dumps(summary))
