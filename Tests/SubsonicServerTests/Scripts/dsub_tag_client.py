#!/usr/bin/env python3
"""Replays a DSub session in tag (ID3) mode against `mlib serve --http`. The calls and their parameters are
DSub's, from its sources (github.com/daneren2005/Subsonic, commit 449a6dc6,
app/src/main/java/github/daneren2005/dsub/service/RESTMusicService.java; the URL, authentication and
version from util/Util.java `getRestUrl` and util/Constants.java): XML answers (DSub sends no `f`), `c=DSub`,
`v=1.2.0`; `p=enc:` + hex until the server's version is known, then a token. In tag mode `getArtists`
stands for `getIndexes`, `getArtist`/`getAlbum` for `getMusicDirectory`, `search3` for `search2`,
`getAlbumList2`, `getStarred2`, `getSimilarSongs2` (artist radio) and `getArtistInfo2`; the rest are the
same in both modes (playlists, shares, bookmarks, play queue, podcasts, radio, videos, users, scans).
Every read is asked again with f=json and that answer validated against the OpenSubsonic OpenAPI
description (the XML answer must be well-formed, in Subsonic's namespace, status="ok").

usage: dsub_tag_client.py PORT USER PASSWORD OPENAPI_DIR
Prints one JSON object: the songs the session saw, the share and queue it made, and every call that
answered an error (with its code), which the Swift test requires to be none.
"""
import datetime, hashlib, json, sys, urllib.parse, urllib.request
import xml.etree.ElementTree as ET

from openapi_check import Validator

port, user, password, openapi = sys.argv[1:5]
validator = Validator(openapi)
NS = "{http://subsonic.org/restapi}"
errors = {}
token = False   # DSub sends the password (enc:) until it knows the server's version (ServerInfo.canUseToken)


def query(action, params):
    pairs = [("u", user)]
    if token:
        salt = "3kq9d1m"
        pairs += [("s", salt), ("t", hashlib.md5((password + salt).encode()).hexdigest())]
    else:
        pairs.append(("p", "enc:" + password.encode().hex()))
    pairs += [("v", "1.2.0"), ("c", "DSub")]
    for key, value in params.items():
        for one in value if isinstance(value, list) else [value]:
            pairs.append((key, str(one)))
    return f"http://127.0.0.1:{port}/rest/{action}.view?" + urllib.parse.urlencode(pairs)


def call(action, validate=True, **params):
    """DSub's call in XML; with `validate`, the same call in JSON is validated against the OpenAPI (only
    for calls that change nothing: a change is made once)."""
    with urllib.request.urlopen(query(action, params), timeout=20) as r:
        body = r.read()
    root = ET.fromstring(body)
    if root.tag != NS + "subsonic-response":
        print(f"FAILED: {action}: root element {root.tag}", file=sys.stderr)
        sys.exit(1)
    if root.get("status") != "ok":
        error = root.find(NS + "error")
        errors[action] = int(error.get("code")) if error is not None else -1
        return root
    if validate:
        with urllib.request.urlopen(query(action, dict(params, f="json")), timeout=20) as r:
            document = json.load(r)
        inside = document["subsonic-response"]
        # A play queue never saved is an empty "ok" (as Subsonic's server and Navidrome), which the OpenAPI does not allow.
        if not (action == "getPlayQueue" and "playQueue" not in inside):
            problem = validator.problem(action, document)
            if problem:
                print(f"FAILED: {problem}", file=sys.stderr)
                sys.exit(1)
    return root


def all_of(root, path):
    return root.findall(".//" + "/".join(NS + part for part in path.split("/")))


summary = {}
# Start-up (MainActivity → RESTMusicService.ping, isLicenseValid, getMusicFolders), then tokens.
version = call("ping").get("version")
call("getLicense")
token = tuple(int(n) for n in version.split(".")) >= (1, 13)
summary["token"] = token
folders = [f.get("id") for f in all_of(call("getMusicFolders"), "musicFolder")]
# The artists tab in tag mode: getArtists (getIndexes' place), each artist, each album.
artists = all_of(call("getArtists"), "artist")
if folders:
    call("getArtists", musicFolderId=folders[0])
songs, albums = {}, {}
for artist in artists:
    for album in all_of(call("getArtist", id=artist.get("id")), "album"):
        albums[album.get("id")] = album
for album_id in albums:
    for song in all_of(call("getAlbum", id=album_id), "song"):
        songs[song.get("id")] = song
summary["songs"] = sorted(s.get("path") for s in songs.values())
summary["albums"] = len(albums)
# Home lists (getAlbumList: size, offset, type; byGenre with genre; byYear newest decade first).
for kind in ["newest", "random", "highest", "frequent", "recent", "starred", "alphabeticalByName", "alphabeticalByArtist"]:
    call("getAlbumList2", size=20, offset=0, type=kind)
genres = [g.text for g in all_of(call("getGenres"), "genre")]
for genre in genres:
    call("getAlbumList2", size=20, offset=0, type="byGenre", genre=genre)
    call("getSongsByGenre", genre=genre, count=25, offset=0)
decade = datetime.date.today().year // 10 * 10
call("getAlbumList2", size=20, offset=0, type="byYear", fromYear=decade + 9, toYear=decade)
call("getRandomSongs", size=20)
call("getRandomSongs", size=20, fromYear=decade, toYear=decade + 9)
call("getStarred2")
call("search3", query="a", artistCount=3, albumCount=5, songCount=20)
call("search3", query="Кино", artistCount=3, albumCount=5, songCount=20)
# An artist's page: info (includeNotPresent), top songs (artist, size), artist radio (getSimilarSongs2 id, count).
for artist in artists:
    call("getArtistInfo2", id=artist.get("id"), includeNotPresent="true")
    call("getTopSongs", artist=artist.get("name"), size=20)
    call("getSimilarSongs2", id=artist.get("id"), count=50)
first = sorted(songs.values(), key=lambda s: s.get("path"))[0] if songs else None
if first is not None:
    song_ids = [s.get("id") for s in sorted(songs.values(), key=lambda s: s.get("path"))]
    # Playing: cover, stream (maxBitRate 0: as it is), lyrics, now playing, the play, the queue saved.
    with urllib.request.urlopen(query("getCoverArt", {"id": first.get("coverArt")}), timeout=20) as r:
        summary["cover"] = r.headers.get("Content-Type", "")
    with urllib.request.urlopen(query("stream", {"id": first.get("id"), "maxBitRate": 0}), timeout=20) as r:
        summary["streamed"] = len(r.read())
    call("getLyrics", artist=first.get("artist", ""), title=first.get("title", ""))
    call("scrobble", validate=False, id=first.get("id"), submission="false")
    call("scrobble", validate=False, id=first.get("id"), submission="true", time=int(datetime.datetime.now().timestamp() * 1000))
    call("savePlayQueue", validate=False, id=song_ids[:4], current=song_ids[1], position=31000)
    queue = call("getPlayQueue")
    summary["queue"] = {"count": len(all_of(queue, "entry")),
                        "currentMatches": (all_of(queue, "playQueue") or [ET.Element("x")])[0].get("current") == song_ids[1]}
    # Favourites: a song, its album and artist, then undone; a rating.
    call("star", validate=False, id=first.get("id"), albumId=first.get("albumId"), artistId=first.get("artistId"))
    summary["starred"] = len(all_of(call("getStarred2"), "song")) + len(all_of(call("getStarred2"), "album"))
    call("unstar", validate=False, id=first.get("id"), albumId=first.get("albumId"), artistId=first.get("artistId"))
    call("setRating", validate=False, id=first.get("id"), rating=4)
    # Bookmarks (audio books): made, listed, removed.
    call("createBookmark", validate=False, id=first.get("id"), position=12000, comment="DSub bookmark")
    summary["bookmarks"] = len(all_of(call("getBookmarks"), "bookmark"))
    call("deleteBookmark", validate=False, id=first.get("id"))
    # Playlists: made with songs, renamed and public, a song added and one removed, deleted.
    call("createPlaylist", validate=False, name="DSub list", songId=song_ids[:3])
    made = [p for p in all_of(call("getPlaylists"), "playlist") if p.get("name") == "DSub list"]
    if made:
        pid = made[0].get("id")
        call("updatePlaylist", validate=False, playlistId=pid, name="DSub list 2", comment="", public="true")
        call("updatePlaylist", validate=False, playlistId=pid, songIdToAdd=song_ids[-1])
        call("updatePlaylist", validate=False, playlistId=pid, songIndexToRemove=0)
        summary["playlistSongs"] = len(all_of(call("getPlaylist", id=pid), "entry"))
        call("deletePlaylist", validate=False, id=pid)
    # Shares (ShareParser): an album shared with a description, its expiry changed, listed, deleted.
    shared = call("createShare", validate=False, id=first.get("albumId"), description="From DSub",
                  expires=int((datetime.datetime.now() + datetime.timedelta(days=7)).timestamp() * 1000))
    share = (all_of(shared, "share") or [None])[0]
    if share is not None:
        summary["shareSongs"] = len(share.findall(NS + "entry"))
        call("updateShare", validate=False, id=share.get("id"), description="From DSub, a week", expires=0)
        summary["shares"] = len(all_of(call("getShares"), "share"))
        call("deleteShare", validate=False, id=share.get("id"))
# The other tabs: podcasts, internet radio, videos, the user's rights, users (an admin), chat left out (DSub
# opens it only when asked). A scan, then its status until done (startRescan).
call("getPodcasts", includeEpisodes="false")
call("getNewestPodcasts", count=10)
call("getInternetRadioStations")
call("getVideos")
call("getUser", username=user)
call("getUsers")
call("startScan", validate=False)
for _ in range(300):
    status = all_of(call("getScanStatus", validate=False), "scanStatus")
    if not status or status[0].get("scanning") != "true":
        break
summary["errors"] = errors
print(json.dumps(summary))
