#!/usr/bin/env python3
"""Replays an Ultrasonic session (Android) against `mlib serve --http`, every JSON answer validated against the
OpenSubsonic OpenAPI description. The calls and their parameters are Ultrasonic's, from its sources
(github.com/ultrasonic/ultrasonic at 3694d6f, the repository moved to GitLab since):
core/subsonic-api/.../SubsonicAPIDefinition.kt (which methods, which parameters: every `@Query`),
SubsonicAPIClient.kt (`u`, `c`, `f=json` on every call, `.view` paths), interceptors/VersionInterceptor.kt
(`v` = the version the last answer reported) and ProxyPasswordInterceptor.kt (below API 1.13.0 the password
as `p=enc:<hex>`, from then on a token and salt: the first call goes out at the configured minimum, 1.7.0,
so it uses `enc:`), RangeHeaderInterceptor.kt (`stream` with a `Range: bytes=N-` header), and
ultrasonic/.../service/RESTMusicService.kt (what each screen calls: the folder browser through
getIndexes/getMusicDirectory, the ID3 browser through getArtists/getArtist/getAlbum, album lists through
getAlbumList or getAlbumList2, search2 or search3, the jukebox actions, shares, bookmarks, chat, the
server settings' feature checks).

usage: ultrasonic_client.py HTTP_PORT USER PASSWORD OPENAPI_DIR
Prints one JSON object: what the client saw, and every call that answered an error (with its code), which
the Swift test requires to be none; exits 1 at a failed check (an invalid answer, a failed stream).
"""
import hashlib, json, sys, time, urllib.error, urllib.parse, urllib.request

from openapi_check import Validator

port, user, password, openapi = sys.argv[1:5]
validator = Validator(openapi)
errors = {}
version = "1.7.0"          # Ultrasonic's default minimum, until an answer reports the server's


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def query(params):
    """Ultrasonic's default parameters, then the call's (Retrofit: a list is the key repeated, null left out,
    a Boolean as true/false)."""
    pairs = [("u", user), ("c", "Ultrasonic"), ("f", "json"), ("v", version)]
    if tuple(int(p) for p in version.split(".")) < (1, 13, 0):
        pairs.append(("p", "enc:" + password.encode().hex()))
    else:
        salt = "9c1e40"
        pairs += [("t", hashlib.md5((password + salt).encode()).hexdigest()), ("s", salt)]
    for key, value in params.items():
        if value is None:
            continue
        for one in value if isinstance(value, list) else [value]:
            pairs.append((key, "true" if one is True else "false" if one is False else str(one)))
    return urllib.parse.urlencode(pairs)


def call(method, **params):
    """A JSON call; an error answer is recorded (not fatal), an "ok" answer is validated and returned."""
    global version
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rest/{method}.view?{query(params)}", timeout=30) as r:
        document = json.load(r)
    inside = document["subsonic-response"]
    # VersionInterceptor: later calls carry the version this answer reported.
    version = inside.get("version", version)
    if inside["status"] != "ok":
        errors[method] = inside.get("error", {}).get("code")
        return None
    problem = validator.problem(method, document)
    if problem:
        fail(problem)
    return inside


def media(method, headers=None, **params):
    """A streamed call (stream, getCoverArt, getAvatar): status, content type and body; a JSON body is an
    error answer (Extensions.kt's toStreamResponse), recorded."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/rest/{method}.view?{query(params)}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            status, kind, body = r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as error:
        status, kind, body = error.code, error.headers.get("Content-Type", ""), error.read()
    if "json" in kind:
        errors[method] = json.loads(body)["subsonic-response"].get("error", {}).get("code")
    return status, kind, body


summary = {}
# Server settings: "test connection" (ping, license) and the feature checks (chat, bookmarks, shares,
# podcasts, jukebox, video).
call("ping")
summary["licenseValid"] = ((call("getLicense") or {}).get("license") or {}).get("valid")
call("getChatMessages")
call("getBookmarks")
call("getShares")
call("getPodcasts", includeEpisodes=False)
call("jukeboxControl", action="status")
call("getVideos")
user_info = (call("getUser", username=user) or {}).get("user", {})
summary["jukeboxRole"] = user_info.get("jukeboxRole")

# The folder browser (the default): music folders, the index, every directory down to the songs.
folders = (call("getMusicFolders") or {}).get("musicFolders", {}).get("musicFolder", [])
summary["folders"] = len(folders)
indexes = (call("getIndexes") or {}).get("indexes", {})
folder_songs, stack = [], [a["id"] for index in indexes.get("index", []) for a in index.get("artist", [])]
stack += [c["id"] for c in indexes.get("child", []) if c.get("isDir")]
folder_songs += [c for c in indexes.get("child", []) if not c.get("isDir")]
while stack:
    directory = (call("getMusicDirectory", id=stack.pop()) or {}).get("directory", {})
    for child in directory.get("child", []):
        if child.get("isDir"):
            stack.append(child["id"])
        else:
            folder_songs.append(child)
summary["folderSongs"] = sorted(s["path"] for s in folder_songs if "path" in s)

# The ID3 browser ("use ID3 tags"): artists, each artist's albums, each album's songs.
artists = [a for index in (call("getArtists") or {}).get("artists", {}).get("index", []) for a in index.get("artist", [])]
summary["artists"] = len(artists)
songs, albums = [], []
for artist in artists:
    albums += (call("getArtist", id=artist["id"]) or {}).get("artist", {}).get("album", [])
for album in albums:
    songs += (call("getAlbum", id=album["id"]) or {}).get("album", {}).get("song", [])
summary["albums"] = len(albums)
summary["songs"] = sorted(s["path"] for s in songs if "path" in s)

# The main screen's album lists (maxAlbums 20 a page), both families, and the other lists.
for kind in ["newest", "recent", "frequent", "highest", "random", "starred", "alphabeticalByName", "alphabeticalByArtist"]:
    call("getAlbumList", type=kind, size=20, offset=0)
    call("getAlbumList2", type=kind, size=20, offset=0)
call("getRandomSongs", size=20)
call("getStarred")
call("getStarred2")
# Search (SearchFragment: 10 artists, 20 albums, 25 songs), search2 without ID3, search3 with.
word = (songs[0].get("title") or "a").split()[0] if songs else "a"
hits2 = (call("search2", query=word, artistCount=10, albumCount=20, songCount=25) or {}).get("searchResult2", {})
hits3 = (call("search3", query=word, artistCount=10, albumCount=20, songCount=25) or {}).get("searchResult3", {})
summary["searchSongs"] = [len(hits2.get("song", [])), len(hits3.get("song", []))]

# Genres: the list, a genre's songs (count 20 from 0 as the genre screen pages).
for genre in (call("getGenres") or {}).get("genres", {}).get("genre", []):
    call("getSongsByGenre", genre=genre["value"], count=20, offset=0)

# Playing a song: its cover (at the screen's size), the stream (from the start, then resumed with Range as a
# download that was cut), now-playing and the play, its lyrics.
if songs:
    first = songs[0]
    if first.get("coverArt"):
        status, kind, body = media("getCoverArt", id=first["coverArt"], size=1024)
        if status != 200 or not kind.startswith("image/"):
            fail(f"getCoverArt: {status} {kind}")
    status, kind, whole = media("stream", id=first["id"], maxBitRate=0)
    if status != 200 or not whole:
        fail(f"stream: {status} {kind}")
    status, kind, rest = media("stream", headers={"Range": "bytes=1000-"}, id=first["id"], maxBitRate=0)
    summary["resumed"] = status == 206 and rest == whole[1000:]
    call("scrobble", id=first["id"], submission=False)
    call("getLyrics", artist=first.get("artist"), title=first.get("title"))
    call("scrobble", id=first["id"], submission=True)
    # Favourites and rating, by song, album and artist.
    call("star", id=first["id"])
    call("star", albumId=first.get("albumId"))
    call("star", artistId=first.get("artistId"))
    summary["starredSongs"] = len((call("getStarred2") or {}).get("starred2", {}).get("song", []))
    call("unstar", id=first["id"])
    call("unstar", albumId=first.get("albumId"))
    call("unstar", artistId=first.get("artistId"))
    call("setRating", id=first["id"], rating=5)

    # Playlists: saved from the play queue (createPlaylist with a name and songs), renamed, read, deleted.
    call("createPlaylist", name="Ultrasonic queue", songId=[s["id"] for s in songs[:3]])
    made = [p for p in (call("getPlaylists") or {}).get("playlists", {}).get("playlist", []) if p["name"] == "Ultrasonic queue"]
    if made:
        playlist = made[0]["id"]
        call("updatePlaylist", playlistId=playlist, name="Ultrasonic mix", comment="from the phone", public=False)
        summary["playlistSongs"] = len((call("getPlaylist", id=playlist) or {}).get("playlist", {}).get("entry", []))
        call("deletePlaylist", id=playlist)

    # Shares: made for two songs with a description and an expiry (milliseconds), changed, listed, deleted.
    expires = int(time.time() * 1000) + 86_400_000
    shared = (call("createShare", id=[s["id"] for s in songs[:2]], description="for you", expires=expires) or {}).get("shares", {}).get("share", [])
    if shared:
        call("updateShare", id=shared[0]["id"], description="for you, again", expires=expires + 1000)
        summary["shares"] = len((call("getShares") or {}).get("shares", {}).get("share", []))
        call("deleteShare", id=shared[0]["id"])

    # Bookmarks (a position in milliseconds), listed, deleted.
    call("createBookmark", id=first["id"], position=93000)
    summary["bookmarks"] = len((call("getBookmarks") or {}).get("bookmarks", {}).get("bookmark", []))
    call("deleteBookmark", id=first["id"])

    # Jukebox mode: the queue set, started, skipped into, stopped, the gain set, the status.
    call("jukeboxControl", action="set", id=[s["id"] for s in songs[:3]])
    call("jukeboxControl", action="start")
    call("jukeboxControl", action="skip", index=1, offset=0)
    # Stopped (paused: the index stays) before the status is read: the fixtures are a few seconds long, and on
    # a loaded machine the second song ended and the jukebox went on to the third before the status came.
    call("jukeboxControl", action="stop")
    call("jukeboxControl", action="setGain", gain=0.5)
    summary["jukeboxIndex"] = ((call("jukeboxControl", action="status") or {}).get("jukeboxStatus") or {}).get("currentIndex")

# Chat, and the user's avatar (loaded directly by the image loader).
call("addChatMessage", message="hello from Ultrasonic")
summary["chat"] = len((call("getChatMessages", since=0) or {}).get("chatMessages", {}).get("chatMessage", []))
status, kind, _ = media("getAvatar", username=user)
summary["avatar"] = status == 200 and kind.startswith("image/")

summary["errors"] = errors
print(json.dumps(summary))
