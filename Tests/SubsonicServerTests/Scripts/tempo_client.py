#!/usr/bin/env python3
"""Replays a Tempo session (Android, ID3 mode) against `mlib serve --http`, every JSON answer validated
against the OpenSubsonic OpenAPI description. The calls and their parameters are Tempo's, from its sources
(github.com/CappielloAntonio/tempo, app/src/main/java/com/cappielloantonio/tempo/): the Retrofit services
under subsonic/api/ (which methods and parameters), repository/AlbumRepository.java (getAlbumList2 byYear
1900→this year and this year→1900 for the year range, size 1), viewmodel/HomeViewModel.java and
AlbumListPageViewModel.java (recent, frequent, newest, byYear lists), AlbumCatalogueViewModel.java
(alphabeticalByName pages), and the player's scrobble/savePlayQueue.

usage: tempo_client.py PORT USER PASSWORD OPENAPI_DIR
Prints one JSON object: the songs and albums the client saw, and every call that answered an error (with
its code), which the Swift test requires to be none outside the documented list; exits 1 at a failed check.
"""
import datetime, json, sys

from openapi_check import Caller

port, user, password, openapi = sys.argv[1:5]
caller = Caller(port, user, password, openapi, client="Tempo", version="1.16.1", suffix="")
call, errors = caller.attempt, caller.errors

year = datetime.date.today().year
summary = {}
# Start-up and the home screen (HomeViewModel).
call("ping")
call("getOpenSubsonicExtensions")
call("getLicense")
call("getMusicFolders")
call("getScanStatus")
for kind in ["recent", "frequent", "newest", "random"]:
    call("getAlbumList2", type=kind, size=20, offset=0)
call("getAlbumList2", type="byYear", size=500, offset=0, fromYear=year, toYear=year)
call("getAlbumList2", type="byYear", size=1, offset=0, fromYear=1900, toYear=year)
call("getAlbumList2", type="byYear", size=1, offset=0, fromYear=year, toYear=1900)
call("getRandomSongs", size=100)
call("getStarred2")
call("getNowPlaying")
call("getPlaylists")
call("getGenres")
call("getPlayQueue")
# The library tab: artists, every album page (alphabeticalByName, 50 a page), every album opened.
artists = [a for index in (call("getArtists") or {}).get("artists", {}).get("index", []) for a in index["artist"]]
summary["artists"] = len(artists)
albums, offset = [], 0
while True:
    page = (call("getAlbumList2", type="alphabeticalByName", size=50, offset=offset) or {}).get("albumList2", {}).get("album", [])
    albums += page
    offset += 50
    if len(page) < 50:
        break
summary["albums"] = len(albums)
songs = []
for album in albums:
    songs += (call("getAlbum", id=album["id"]) or {}).get("album", {}).get("song", [])
    call("getAlbumInfo2", id=album["id"])
summary["songs"] = sorted(s["path"] for s in songs if "path" in s)
for artist in artists:
    call("getArtist", id=artist["id"])
    call("getArtistInfo2", id=artist["id"])
    call("getTopSongs", artist=artist["name"], count=10)
    call("getSimilarSongs2", id=artist["id"], count=20)
for genre in (call("getGenres") or {}).get("genres", {}).get("genre", []):
    call("getSongsByGenre", genre=genre["value"], count=100, offset=0)
# Search (SearchingService: search3 with its three counts).
call("search3", query="a", songCount=20, albumCount=10, artistCount=10)
# Playing a song: now playing, the song's details and lyrics, the queue saved, the play submitted.
if songs:
    first = songs[0]
    call("getSong", id=first["id"])
    call("scrobble", id=first["id"], submission="false")
    call("getLyricsBySongId", id=first["id"])
    call("getLyrics", artist=first.get("artist", ""), title=first.get("title", ""))
    call("savePlayQueue", id=[s["id"] for s in songs[:5]], current=first["id"], position=12000)
    summary["queue"] = len((call("getPlayQueue") or {}).get("playQueue", {}).get("entry", []))
    call("scrobble", id=first["id"], submission="true")
    call("star", id=first["id"])
    call("setRating", id=first["id"], rating=4)
    call("unstar", id=first["id"])
# Playlists (PlaylistService): made, renamed with a song added, read, deleted.
made = call("createPlaylist", name="Tempo mix", songId=[s["id"] for s in songs[:3]])
playlist = (made or {}).get("playlist", {}).get("id")
if playlist:
    call("updatePlaylist", playlistId=playlist, name="Tempo mix 2", public="false", songIdToAdd=[songs[-1]["id"]])
    summary["playlistSongs"] = len((call("getPlaylist", id=playlist) or {}).get("playlist", {}).get("entry", []))
    call("deletePlaylist", id=playlist)
# The drawer's other pages: podcasts, internet radio, shares, videos.
call("getPodcasts", includeEpisodes="false")
call("getNewestPodcasts", count=10)
call("getInternetRadioStations")
call("getShares")
call("getVideos")
summary["errors"] = errors
print(json.dumps(summary))
