#!/usr/bin/env python3
"""Asks `mlib serve --http` what clients show beside a song, album or artist (Feishin, Tempo, Ultrasonic,
Music Assistant: getArtistInfo2, getAlbumInfo2, getTopSongs, getSimilarSongs2, getNowPlaying and their
first versions), every JSON answer validated against the OpenSubsonic OpenAPI description.

usage: discovery_client.py PORT USER PASSWORD OPENAPI_DIR
Prints one JSON object of names (what the Swift test compares with the planted library); exits 1 at the
first failed check.
"""
import json, sys

from openapi_check import Caller

port, user, password, openapi = sys.argv[1:5]
call = Caller(port, user, password, openapi, client="Feishin").call


artists = {a["name"]: a["id"] for index in call("getArtists")["artists"]["index"] for a in index["artist"]}
summary = {"nowPlayingBefore": len(call("getNowPlaying")["nowPlaying"].get("entry", []))}
summary["similarArtists"] = [a["name"] for a in call("getArtistInfo2", id=artists["Alpha"])["artistInfo2"].get("similarArtist", [])]
summary["similarArtistsV1"] = [a["name"] for a in call("getArtistInfo", id=artists["Alpha"])["artistInfo"].get("similarArtist", [])]
summary["artistMusicBrainzId"] = call("getArtistInfo2", id=artists["Alpha"])["artistInfo2"].get("musicBrainzId")
album = call("getArtist", id=artists["Alpha"])["artist"]["album"][0]
summary["albumMusicBrainzId"] = call("getAlbumInfo2", id=album["id"])["albumInfo"].get("musicBrainzId")
call("getAlbumInfo", id=album["id"])
summary["topSongs"] = [s["title"] for s in call("getTopSongs", artist="alpha", count=10)["topSongs"].get("song", [])]
seed = next(s for s in call("getAlbum", id=album["id"])["album"]["song"] if s["title"] == "Alpha One")
for method, key in [("getSimilarSongs2", "similarSongs2"), ("getSimilarSongs", "similarSongs")]:
    summary[method] = sorted(s["title"] for s in call(method, id=seed["id"], count=50)[key].get("song", []))
# A folder-mode client (DSub) seeds with a folder: the song's, Alpha's own.
summary["getSimilarSongsOfFolder"] = sorted(s["title"] for s in call("getSimilarSongs", id=seed["parent"], count=50)["similarSongs"].get("song", []))
# A client says what it plays; another user's board shows it.
call("scrobble", client="Tempo", id=seed["id"], submission="false")
entries = call("getNowPlaying")["nowPlaying"].get("entry", [])
summary["nowPlaying"] = [{"title": e["title"], "username": e["username"], "playerName": e.get("playerName")} for e in entries]
print(json.dumps(summary))
