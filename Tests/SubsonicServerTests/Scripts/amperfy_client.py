#!/usr/bin/env python3
"""Replays an Amperfy session (iOS) against `mlib serve --http` in XML, the format Amperfy asks for and
parses (it sends no `f`). The calls and parameters are Amperfy's, from its sources (github.com/BLeeEZ/amperfy,
AmperfyKit/Api/Subsonic/SubsonicServerApi.swift: token authentication with c=Amperfy and the version `ping`
reported, the library sync through getIndexes/getMusicDirectory and getArtists/getArtist/getAlbum, the home
lists, search3 with 40 of one kind and 0 of the others, playlists edited by songIdToAdd and
songIndexToRemove, scrobble with `time`, favourites by id/albumId/artistId, stream as mp3).
Every answer must be well-formed XML in Subsonic's namespace with status="ok", and valid against the Subsonic
XSD once OpenSubsonic's additions are taken out (xsd_check.py).

usage: amperfy_client.py PORT USER PASSWORD
Prints one JSON object: what the sync saw, and every call that answered an error.
"""
import hashlib, json, sys, time, urllib.parse, urllib.request
import xml.etree.ElementTree as ET

from xsd_check import XSDValidator

port, user, password = sys.argv[1:4]
NS = "{http://subsonic.org/restapi}"
errors = {}
version = "1.16.1"
xsd = XSDValidator()


def call(action, raw=False, **params):
    salt = "a3f9"
    query = [("u", user), ("v", version), ("c", "Amperfy"), ("t", hashlib.md5((password + salt).encode()).hexdigest()), ("s", salt)]
    for key, value in params.items():
        for one in value if isinstance(value, list) else [value]:
            query.append((key, str(one)))
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rest/{action}.view?" + urllib.parse.urlencode(query), timeout=20) as r:
        body = r.read()
        if raw:
            return r.headers.get("Content-Type", ""), body
    root = ET.fromstring(body)
    problem = xsd.problem(action, body)
    if problem:
        print(f"FAILED: {problem}", file=sys.stderr)
        sys.exit(1)
    if root.get("status") != "ok":
        error = root.find(NS + "error")
        errors[action] = int(error.get("code")) if error is not None else -1
    return root


def all_of(root, path):
    return root.findall(".//" + "/".join(NS + part for part in path.split("/")))


summary = {}
version = call("ping").get("version")
call("getOpenSubsonicExtensions")
folders = [f.get("id") for f in all_of(call("getMusicFolders"), "musicFolder")]
# Folder sync: every directory of every folder.
folder_songs = set()
for folder in folders:
    index = call("getIndexes", musicFolderId=folder)
    pending = [a.get("id") for a in all_of(index, "artist")]
    folder_songs |= {c.get("id") for c in all_of(index, "child") if c.get("isDir") != "true"}
    while pending:
        directory = call("getMusicDirectory", id=pending.pop())
        for child in all_of(directory, "child"):
            (pending.append(child.get("id")) if child.get("isDir") == "true" else folder_songs.add(child.get("id")))
summary["folderSongs"] = len(folder_songs)
# Tag sync: artists, each artist, each album.
tag_songs = {}
for artist in all_of(call("getArtists"), "artist"):
    for album in all_of(call("getArtist", id=artist.get("id")), "album"):
        for song in all_of(call("getAlbum", id=album.get("id")), "song"):
            tag_songs[song.get("id")] = song.get("path")
summary["tagSongs"] = sorted(tag_songs.values())
call("getGenres")
call("getStarred2")
for kind in ["newest", "recent"]:
    call("getAlbumList2", type=kind, size=20, offset=0)
albums, offset = 0, 0
while True:
    page = len(all_of(call("getAlbumList2", type="alphabeticalByName", size=50, offset=offset), "album"))
    albums += page
    offset += 50
    if page < 50:
        break
summary["albums"] = albums
call("getRandomSongs", size=50)
for kinds in [(40, 0, 0), (0, 40, 0), (0, 0, 40)]:
    call("search3", query="a", artistCount=kinds[0], artistOffset=0, albumCount=kinds[1], albumOffset=0, songCount=kinds[2], songOffset=0)
call("getPodcasts", includeEpisodes="false")
call("getNewestPodcasts", count=20)
call("getInternetRadioStations")
ids = list(tag_songs)
if ids:
    song = ids[0]
    call("getSong", id=song)
    call("getLyricsBySongId", id=song)
    call("getSimilarSongs2", id=song, count=50)
    call("scrobble", id=song, time=int(time.time() * 1000), submission="false")
    call("scrobble", id=song, time=int(time.time() * 1000), submission="true")
    call("setRating", id=song, rating=3)
    call("star", id=song)
    call("unstar", id=song)
    content_type, audio = call("stream", raw=True, id=song, format="mp3", maxBitRate=128)
    summary["streamed"] = {"type": content_type, "bytes": len(audio)}
    call("createPlaylist", name="Amperfy list")
    playlist = next((p.get("id") for p in all_of(call("getPlaylists"), "playlist") if p.get("name") == "Amperfy list"), None)
    if playlist:
        call("updatePlaylist", playlistId=playlist, name="Amperfy list", songIdToAdd=ids[:3])
        call("updatePlaylist", playlistId=playlist, name="Amperfy list", songIndexToRemove=[0])
        summary["playlistSongs"] = len(all_of(call("getPlaylist", id=playlist), "entry"))
        call("deletePlaylist", id=playlist)
summary["errors"] = errors
print(json.dumps(summary))
