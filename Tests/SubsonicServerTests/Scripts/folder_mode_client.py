#!/usr/bin/env python3
"""Replays what a folder-browsing Subsonic client does against `mlib serve --http`, every JSON answer
validated against the OpenSubsonic OpenAPI description. The calls are DSub's in its default (folder) mode,
from its `RESTMusicService.java` (getIndexes/getMusicDirectory, getAlbumList for the home lists, search2,
getStarred), plus the legacy `search`, `tokenInfo` and the extensions list.

usage: folder_mode_client.py PORT USER PASSWORD OPENAPI_DIR API_KEY
Prints one JSON object (what the Swift test compares with the mlib CLI); exits 1 at the first failed check.
"""
import json, sys

from openapi_check import Caller

port, user, password, openapi, api_key = sys.argv[1:6]
caller = Caller(port, user, password, openapi, client="DSub", version="1.13.0")
call, expect = caller.call, caller.expect


summary = {}

# Start-up: the extensions announced are the ones implemented; an API key names its user.
extensions = {e["name"] for e in call("getOpenSubsonicExtensions")["openSubsonicExtensions"]}
expect({"formPost", "apiKeyAuthentication", "transcodeOffset"} <= extensions, f"extensions {extensions}")
expect(call("tokenInfo", auth={"apiKey": api_key})["tokenInfo"]["username"] == user, "tokenInfo names the key's user")

# Folder browsing: the index says when the library last changed; every folder opens.
indexes = call("getIndexes")["indexes"]
summary["lastModified"] = indexes["lastModified"]
folder_songs = [c["id"] for c in indexes.get("child", [])]
pending = [a["id"] for index in indexes.get("index", []) for a in index["artist"]]
while pending:
    directory = call("getMusicDirectory", id=pending.pop())["directory"]
    for child in directory.get("child", []):
        (pending.append(child["id"]) if child["isDir"] else folder_songs.append(child["id"]))
summary["folderSongs"] = sorted(folder_songs)


def pages(method, key, size, **params):
    seen, offset = [], 0
    while True:
        page = call(method, size=size, offset=offset, **params)[key].get("album", [])
        seen += page
        if len(page) < size:
            return seen
        offset += size


# Home lists: albums as folders that getMusicDirectory opens, pages of any size alike.
albums = pages("getAlbumList", "albumList", 500, type="alphabeticalByName")
expect([a["id"] for a in pages("getAlbumList", "albumList", 2, type="alphabeticalByName")] == [a["id"] for a in albums],
       "getAlbumList pages of 2 and of 500 list the same albums")
expect(all(a["isDir"] for a in albums), "albums in a folder-mode list are directories")
album_songs = []
for album in albums:
    directory = call("getMusicDirectory", id=album["id"])["directory"]
    expect(directory["name"] == album["title"], f"album {album['id']} opens as itself: {directory['name']}")
    album_songs += [c["id"] for c in directory.get("child", []) if not c["isDir"]]
summary["albums"] = len(albums)
summary["albumSongs"] = sorted(album_songs)
for kind in ["random", "newest", "highest", "frequent", "recent", "alphabeticalByArtist", "starred"]:
    call("getAlbumList", type=kind, size=20)
call("getAlbumList", type="byYear", size=20, fromYear=1900, toYear=2100)
for genre in call("getGenres")["genres"].get("genre", []):
    call("getAlbumList", type="byGenre", size=20, genre=genre["value"])

# Search: every song on an empty query; words folded as the CLI folds them (ð is d).
everything = call("search2", query="", artistCount=500, albumCount=500, songCount=500)["searchResult2"]
summary["searchSongs"] = sorted(s["id"] for s in everything.get("song", []))
found = {}
for method, key in [("search2", "searchResult2"), ("search3", "searchResult3")]:
    result = call(method, query="gudnadottir")[key]
    found[method] = {kind: [x.get("name") or x.get("title") for x in result.get(kind, [])] for kind in ("artist", "album", "song")}
summary["folded"] = found
# An artist of search2 opens as a folder of its albums, which open as folders of songs.
artist = next(a for a in everything["artist"] if a["name"] == "Hildur Guðnadóttir")
artist_dir = call("getMusicDirectory", id=artist["id"])["directory"]
expect(artist_dir["name"] == artist["name"] and all(c["isDir"] for c in artist_dir.get("child", [])), f"artist folder {artist_dir}")
summary["artistAlbums"] = [c["title"] for c in artist_dir.get("child", [])]

# The legacy search: `any` over title, artist and album.
legacy = call("search", any="gudnadottir", count=10)["searchResult"]
summary["legacy"] = {"totalHits": legacy["totalHits"], "matches": [m["title"] for m in legacy.get("match", [])]}

# Stars made with `star` show in getStarred (folder mode) as in getStarred2.
song = everything["song"][0]
album = albums[0]
call("star", id=song["id"])
call("star", id=album["id"])
call("star", id=artist["id"])
starred = call("getStarred")["starred"]
summary["starred"] = {"song": [s["id"] for s in starred.get("song", [])], "album": [a["id"] for a in starred.get("album", [])],
                      "artist": [a["id"] for a in starred.get("artist", [])]}
expect(summary["starred"] == {"song": [song["id"]], "album": [album["id"]], "artist": [artist["id"]]}, f"starred {summary['starred']}")
expect(any(a["id"] == album["id"] for a in call("getAlbumList", type="starred", size=20)["albumList"].get("album", [])),
       "a starred album is in the starred list")

print(json.dumps(summary))
