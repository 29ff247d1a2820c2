#!/usr/bin/env python3
"""Every method mlib answers, asked in XML (the Subsonic default, what DSub, Amperfy and Subsonic's own clients
read), each answer validated against the Subsonic XSD with xsd_check.py. The ids come from the library (JSON
calls); the writes (bookmark, star, rating, scrobble, play queue, playlist) come before the reads that show them,
so that those answers have something in them to validate.

usage: xml_sweep.py PORT USER PASSWORD
Prints one JSON object: {"checked": [methods], "failed": {method: problem}, "errors": {method: error code}}.
"""
import hashlib, json, sys, urllib.error, urllib.parse, urllib.request

from xsd_check import XSDValidator

port, user, password = sys.argv[1:4]
salt = "x5d"
auth = {"u": user, "t": hashlib.md5((password + salt).encode()).hexdigest(), "s": salt, "v": "1.16.1", "c": "xml-sweep"}
validator = XSDValidator()
checked, failed, errors = [], {}, {}


def get(method, **params):
    query = urllib.parse.urlencode({**auth, **{k: v for k, v in params.items() if v is not None}}, doseq=True)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/rest/{method}?{query}", timeout=20) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        return error.read()


def json_call(method, **params):
    return json.loads(get(method, f="json", **params))["subsonic-response"]


def xml(method, **params):
    body = get(method, **params)
    name = method + ("" if not params.get("action") else f"({params['action']})")
    checked.append(name)
    problem = validator.problem(name, body)
    if problem:
        failed[name] = problem
    if b'status="ok"' not in body[:400]:
        errors[name] = body[:300].decode(errors="replace")


albums = json_call("getAlbumList2", type="alphabeticalByName", size=500)["albumList2"]["album"]
album = albums[0]["id"]
artist = next(a["artistId"] for a in albums if a.get("artistId"))
songs = json_call("getAlbum", id=album)["album"]["song"]
song = songs[0]["id"]
artist_name = json_call("getArtist", id=artist)["artist"]["name"]
genres = json_call("getGenres")["genres"].get("genre", [])
folder = json_call("getMusicFolders")["musicFolders"]["musicFolder"][0]["id"]
directory = next((a["id"] for i in json_call("getIndexes")["indexes"].get("index", []) for a in i.get("artist", [])), album)

# Writes first, so that the reads below carry bookmarks, stars, ratings, a queue, a playlist and a now-playing entry.
xml("ping")
xml("createBookmark", id=song, position=1000, comment="xml sweep")
xml("star", id=song)
xml("star", albumId=album)
xml("star", artistId=artist)
xml("setRating", id=song, rating=4)
xml("scrobble", id=song, submission="false")
xml("savePlayQueue", id=[s["id"] for s in songs], current=song, position=500)
xml("createPlaylist", name="XML sweep", songId=[s["id"] for s in songs])
playlist = next(p["id"] for p in json_call("getPlaylists")["playlists"]["playlist"] if p["name"] == "XML sweep")
xml("createInternetRadioStation", streamUrl="http://radio.example/stream", name="XML sweep radio", homepageUrl="http://radio.example/")
xml("createShare", id=song, description="xml sweep")
xml("addChatMessage", message="xml sweep <&> chat")

for method, params in [
    ("getLicense", {}), ("getOpenSubsonicExtensions", {}), ("getMusicFolders", {}), ("getIndexes", {}),
    ("getIndexes", {"musicFolderId": folder}), ("getMusicDirectory", {"id": directory}), ("getMusicDirectory", {"id": album}),
    ("getGenres", {}), ("getArtists", {}), ("getArtist", {"id": artist}), ("getAlbum", {"id": album}), ("getSong", {"id": song}),
    ("getArtistInfo", {"id": artist}), ("getArtistInfo2", {"id": artist}), ("getAlbumInfo", {"id": album}),
    ("getAlbumInfo2", {"id": album}), ("getSimilarSongs", {"id": song}), ("getSimilarSongs2", {"id": song}),
    ("getTopSongs", {"artist": artist_name}), ("getAlbumList", {"type": "newest"}), ("getAlbumList", {"type": "starred"}),
    ("getAlbumList2", {"type": "alphabeticalByName"}), ("getAlbumList2", {"type": "highest"}), ("getRandomSongs", {"size": 5}),
    ("getSongsByGenre", {"genre": genres[0]["value"] if genres else "Rock"}), ("getNowPlaying", {}), ("getStarred", {}),
    ("getStarred2", {}), ("search", {"any": "a"}), ("search2", {"query": "a"}), ("search3", {"query": "a"}),
    ("search3", {"query": ""}), ("getPlaylists", {}), ("getPlaylist", {"id": playlist}),
    ("getLyrics", {"artist": artist_name, "title": songs[0]["title"]}), ("getLyricsBySongId", {"id": song}),
    ("getBookmarks", {}), ("getPlayQueue", {}), ("getUser", {"username": user}), ("getUsers", {}),
    ("getScanStatus", {}), ("getInternetRadioStations", {}), ("getShares", {}), ("tokenInfo", {}),
    ("getPlayQueueByIndex", {}), ("getChatMessages", {}), ("getChatMessages", {"since": 0}),
]:
    xml(method, **params)
for action in ["get", "status"]:
    xml("jukeboxControl", action=action)
xml("savePlayQueueByIndex", id=[s["id"] for s in songs], currentIndex=0, position=250)
xml("getPlayQueueByIndex")
xml("deletePlaylist", id=playlist)
xml("deleteBookmark", id=song)
xml("unstar", id=song)
print(json.dumps({"checked": checked, "failed": failed, "errors": errors, "removed": sorted(validator.removed)}))
