#!/usr/bin/env python3
"""Replays a Symfonium library sync and a play (Android; closed source) against `mlib serve --http`, every
JSON answer validated against the OpenSubsonic OpenAPI description. Symfonium's sources are not public: the
calls and parameters are those its requests show in servers' logs posted by its users, and what its author
wrote of the sync:
- navidrome#2561 and koel#2619: `ping`, then the full sync through `search3` with the query `""` (two quote
  characters) in pages of 500 of one kind at a time (`artistCount=500&artistOffset=N`, the other counts 0),
  `v=1.13.0&c=Symfonium&f=json`, token authentication;
- support.symfonium.app/t/expanding-subsonic-api/1115: "support empty query in search3: necessary for the
  clients to do full database sync", and the server named by `type`/`serverVersion` (OpenSubsonic);
- kima-hub#126: the sync calls `getBookmarks` (a server without it fails the sync);
- navidrome#3135 and #3719: while playing, `getLyricsBySongId`, `scrobble` (now playing, then the play) and
  `createBookmark` with a position (the resume point it keeps).
The other lists a sync reads (playlists and their songs, favourites, genres, the play queue, radio stations,
podcasts) are what the app shows after a sync; their parameters are the Subsonic defaults.

usage: symfonium_client.py HTTP_PORT USER PASSWORD OPENAPI_DIR
Prints one JSON object: the counts the sync saw, and every call that answered an error (with its code), which
the Swift test requires to be none; exits 1 at a failed check.
"""
import json, sys

from openapi_check import Caller

port, user, password, openapi = sys.argv[1:5]
caller = Caller(port, user, password, openapi, client="Symfonium", version="1.13.0")
call, errors = caller.attempt, caller.errors

summary = {}
# Connection: ping, the server's name and extensions, the folders.
ping = call("ping") or {}
summary["server"] = ping.get("type")
call("getOpenSubsonicExtensions")
call("getMusicFolders")
# The full sync: search3 "" page by page, one kind at a time.
def pages(kind, key):
    seen, offset = [], 0
    while True:
        counts = {"artistCount": 0, "albumCount": 0, "songCount": 0, f"{kind}Count": 500, f"{kind}Offset": offset}
        page = ((call("search3", query='""', **counts) or {}).get("searchResult3") or {}).get(key, [])
        seen += page
        offset += 500
        if len(page) < 500:
            return seen
artists, albums, songs = pages("artist", "artist"), pages("album", "album"), pages("song", "song")
summary["artists"], summary["albums"] = len(artists), len(albums)
summary["songs"] = sorted(s["path"] for s in songs if "path" in s)
# What a sync reads besides: playlists and their songs, favourites, genres, bookmarks, the play queue,
# radio stations, podcasts.
playlists = ((call("getPlaylists") or {}).get("playlists") or {}).get("playlist", [])
summary["playlists"] = len(playlists)
for playlist in playlists:
    call("getPlaylist", id=playlist["id"])
call("getStarred2")
call("getGenres")
call("getBookmarks")
call("getPlayQueue")
call("getInternetRadioStations")
call("getPodcasts", includeEpisodes="false")
# Playing the first song: lyrics, now playing, a resume point, the play.
if songs:
    first = songs[0]
    call("getLyricsBySongId", id=first["id"])
    call("scrobble", id=first["id"], submission="false")
    call("createBookmark", id=first["id"], position=1000)
    summary["bookmarks"] = len(((call("getBookmarks") or {}).get("bookmarks") or {}).get("bookmark", []))
    call("scrobble", id=first["id"], submission="true")
    summary["playCount"] = ((call("getSong", id=first["id"]) or {}).get("song") or {}).get("playCount")
summary["errors"] = errors
print(json.dumps(summary))
