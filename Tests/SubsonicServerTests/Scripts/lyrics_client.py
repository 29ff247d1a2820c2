#!/usr/bin/env python3
"""Lyrics and bookmarks through `mlib serve --http`, as clients ask for them: py-sonic's getLyrics,
getBookmarks, createBookmark and deleteBookmark, and OpenSubsonic's getLyricsBySongId (songLyrics); every
JSON answer also asked through `openapi_check.Caller`, which validates it against the OpenAPI description.

usage: lyrics_client.py PORT USER PASSWORD OPENAPI_DIR SONG_ID ARTIST TITLE
Prints what the server said, as JSON.
"""
import json, sys

import libsonic
from openapi_check import Caller

port, user, password, openapi, song, artist, title = sys.argv[1:8]
caller = Caller(port, user, password, openapi, client="lyrics-test")
call = caller.call
conn = libsonic.Connection("http://127.0.0.1", user, password, port=int(port), appName="mlib-test")

out = {"extensions": [e["name"] for e in call("getOpenSubsonicExtensions")["openSubsonicExtensions"]]}
out["bySongId"] = call("getLyricsBySongId", id=song)["lyricsList"].get("structuredLyrics", [])
out["getLyrics"] = call("getLyrics", artist=artist, title=title)["lyrics"]
out["pysonicLyrics"] = conn.getLyrics(artist=artist, title=title)["lyrics"]
out["unknownLyrics"] = call("getLyrics", artist="Nobody", title="Nothing")["lyrics"]

conn.createBookmark(song, 61500, comment="chapter two")
out["afterCreate"] = call("getBookmarks")["bookmarks"].get("bookmark", [])
call("createBookmark", id=song, position=62000)
out["afterMove"] = conn.getBookmarks()["bookmarks"].get("bookmark", [])
conn.deleteBookmark(song)
out["afterDelete"] = call("getBookmarks")["bookmarks"].get("bookmark", [])
print(json.dumps(out))
