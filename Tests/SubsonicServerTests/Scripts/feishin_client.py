#!/usr/bin/env python3
"""Replays a Feishin session (desktop) against `mlib serve --http`, every JSON answer validated against the
OpenSubsonic OpenAPI description. The calls and parameters are Feishin's, from its sources
(github.com/jeffvli/feishin, src/renderer/api/subsonic/subsonic-api.ts: the paths, some without `.view`;
subsonic-controller.ts: the queries, v=1.13.0 and c=Feishin, and its "everything" lists made of search3 with
the query `""` — two double quotes — in pages of 500 songs or albums).

usage: feishin_client.py PORT USER PASSWORD OPENAPI_DIR
Prints one JSON object: the songs and albums the client listed and every call that answered an error.
"""
import hashlib, json, sys, urllib.parse, urllib.request

from openapi_check import Caller

port, user, password, openapi = sys.argv[1:5]
caller = Caller(port, user, password, openapi, client="Feishin", version="1.13.0")
errors = {}


def call(path, **params):
    """`path` as Feishin writes it (`getAlbum.view`, `getSimilarSongs`); an error answer is recorded."""
    salt = "f315"
    query = dict(u=user, t=hashlib.md5((password + salt).encode()).hexdigest(), s=salt, v="1.13.0", c="Feishin", f="json",
                 **{k: v for k, v in params.items() if v is not None})
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rest/{path}?" + urllib.parse.urlencode(query, doseq=True), timeout=20) as r:
        document = json.load(r)
    method = path.removesuffix(".view")
    inside = document["subsonic-response"]
    if inside["status"] != "ok":
        errors[method] = inside.get("error", {}).get("code")
        return {}
    problem = caller.validator.problem(method, document)
    caller.expect(problem is None, problem)
    return inside


summary = {}
call("ping.view")
call("getOpenSubsonicExtensions.view")
folders = call("getMusicFolders.view").get("musicFolders", {}).get("musicFolder", [])
folder = folders[0]["id"] if folders else None
call("getGenres.view")
call("getArtists.view", musicFolderId=folder)
# Every song and every album, as Feishin lists them: search3 of `""`, 500 a page, the other kinds 0.


def everything(kind):
    found, offset = [], 0
    while True:
        counts = {f"{k}Count": 500 if k == kind else 0 for k in ("song", "album", "artist")}
        offsets = {f"{k}Offset": offset if k == kind else 0 for k in ("song", "album", "artist")}
        page = call("search3.view", query='""', **counts, **offsets).get("searchResult3", {}).get(kind, [])
        found += page
        offset += 500
        if len(page) < 500:
            return found


songs = everything("song")
summary["songs"] = sorted(s["path"] for s in songs)
albums = everything("album")
summary["albums"] = len(albums)
summary["albumSongs"] = sum(len(call("getAlbum.view", id=a["id"]).get("album", {}).get("song", [])) for a in albums)
genres = call("getGenres.view").get("genres", {}).get("genre", [])
if genres:
    call("getAlbumList2.view", type="byGenre", genre=genres[0]["value"], musicFolderId=folder, offset=0, size=500)
    call("getSongsByGenre.view", genre=genres[0]["value"], count=500, offset=0, musicFolderId=folder)
    call("getRandomSongs.view", genre=genres[0]["value"], fromYear=1900, toYear=2100, size=50, musicFolderId=folder)
call("getAlbumList2.view", type="newest", musicFolderId=folder, offset=0, size=50)
call("getStarred.view", musicFolderId=folder)
if songs:
    song, album = songs[0], albums[0] if albums else None
    call("getSong.view", id=song["id"])
    call("getSimilarSongs", id=song["id"], count=50)
    call("getTopSongs.view", artist=song.get("artist", ""), count=50)
    call("getLyricsBySongId.view", id=song["id"])
    call("getArtistInfo.view", id=song.get("artistId"), count=10)
    call("getArtist.view", id=song.get("artistId"))
    call("star.view", id=song["id"])
    call("star.view", albumId=song.get("albumId"))
    call("star.view", artistId=song.get("artistId"))
    summary["starred"] = {k: len(v) for k, v in call("getStarred.view").get("starred", {}).items()}
    call("unstar.view", id=song["id"])
    call("unstar.view", albumId=song.get("albumId"))
    call("unstar.view", artistId=song.get("artistId"))
    call("setRating.view", id=song["id"], rating=5)
    call("scrobble.view", id=song["id"], submission="false")
    call("scrobble.view", id=song["id"], submission="true")
    made = call("createPlaylist.view", name="Feishin list").get("playlist", {})
    if made:
        call("updatePlaylist.view", playlistId=made["id"], songIdToAdd=[s["id"] for s in songs[:2]])
        summary["playlistSongs"] = len(call("getPlaylist.view", id=made["id"]).get("playlist", {}).get("entry", []))
        call("getPlaylists.view")
        call("deletePlaylist.view", id=made["id"])
summary["errors"] = errors
print(json.dumps(summary))
