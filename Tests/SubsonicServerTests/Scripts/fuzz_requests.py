#!/usr/bin/env python3
"""A request fuzzer for mlib's Subsonic API (issue 37): every method x every parameter with hostile values
(negative, huge, 1e300, NaN, 10,000-character strings, invalid UTF-8, repeated, empty), as an authenticated
user, each value put in place of one parameter of an otherwise valid request (real ids for the others, so
that the methods get past their first check). Checks: no 5xx, no dropped connection, every JSON answer
parses. Loopback only; bounded (a fixed list of requests).

  fuzz_requests.py PORT USER PASSWORD METHODS_FILE [quick|full] [TARGET]

METHODS_FILE: the server's SubsonicServer.swift (every `case "method"` of its dispatch is fuzzed).
quick: one hostile value at a time. full: also pairs of hostile values, form POSTs, repeated parameters
and hostile authentication parameters. TARGET (default USER): the account the valid `username` names (an
admin fuzzing updateUser, deleteUser and changePassword aims them at another account, its own login kept).
Prints a JSON summary; exits 1 when a check failed.
"""
import http.client
import json
import re
import sys
import urllib.parse

port, user, password, methods_file = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
target = sys.argv[6] if len(sys.argv) > 6 else user
mode = sys.argv[5] if len(sys.argv) > 5 else "quick"

PARAMETERS = {
    "getIndexes": ["musicFolderId", "ifModifiedSince"], "getMusicDirectory": ["id"], "getArtists": ["musicFolderId"],
    "getArtist": ["id"], "getAlbum": ["id"], "getSong": ["id"],
    "getAlbumList": ["type", "size", "offset", "fromYear", "toYear", "genre", "musicFolderId"],
    "getAlbumList2": ["type", "size", "offset", "fromYear", "toYear", "genre", "musicFolderId"],
    "getRandomSongs": ["size", "genre", "fromYear", "toYear", "musicFolderId"],
    "getSongsByGenre": ["genre", "count", "offset", "musicFolderId"],
    "getArtistInfo": ["id", "count", "includeNotPresent"], "getArtistInfo2": ["id", "count", "includeNotPresent"],
    "getAlbumInfo": ["id"], "getAlbumInfo2": ["id"], "getTopSongs": ["artist", "count"],
    "getSimilarSongs": ["id", "count"], "getSimilarSongs2": ["id", "count"],
    "reportPlayback": ["mediaId", "mediaType", "positionMs", "state", "playbackRate", "ignoreScrobble"],
    "getUsers": [], "createUser": ["username", "password", "adminRole"], "updateUser": ["username", "password", "adminRole"],
    "deleteUser": ["username"], "changePassword": ["username"],   # never bob's own password: the fuzzer logs in with it
    "search": ["artist", "album", "title", "any", "count", "offset", "newerThan"],
    "search2": ["query", "artistCount", "artistOffset", "albumCount", "albumOffset", "songCount", "songOffset", "musicFolderId"],
    "search3": ["query", "artistCount", "artistOffset", "albumCount", "albumOffset", "songCount", "songOffset", "musicFolderId"],
    "stream": ["id", "maxBitRate", "format", "timeOffset", "estimateContentLength"], "download": ["id"],
    "getCoverArt": ["id", "size"], "scrobble": ["id", "time", "submission"],
    "star": ["id", "albumId", "artistId"], "unstar": ["id", "albumId", "artistId"], "getStarred": ["musicFolderId"], "getStarred2": ["musicFolderId"],
    "setRating": ["id", "rating"], "getPlaylists": ["username"], "getPlaylist": ["id"],
    "createPlaylist": ["playlistId", "name", "songId"],
    "updatePlaylist": ["playlistId", "name", "comment", "public", "songIdToAdd", "songIndexToRemove"],
    "deletePlaylist": ["id"], "getUser": ["username"], "savePlayQueue": ["id", "current", "position"],
    "savePlayQueueByIndex": ["id", "currentIndex", "position"], "getAvatar": ["username"],
    "getChatMessages": ["since"], "addChatMessage": ["message"],
    "createInternetRadioStation": ["streamUrl", "name", "homepageUrl"],
    "updateInternetRadioStation": ["id", "streamUrl", "name", "homepageUrl"], "deleteInternetRadioStation": ["id"],
    "createShare": ["id", "description", "expires"], "updateShare": ["id", "description", "expires"], "deleteShare": ["id"],
}
COMMON = ["f", "v", "c"]
HOSTILE = ["-1", "-9223372036854775809", "9223372036854775808", "99999999999999999999999", "1e300", "-1e300", "NaN",
           "inf", "-0", "", "%20", "+", "0x10", "1.5", "true", "%00", "%ff%fe%80", "%c3%28", "../../../../etc/passwd", "/etc/passwd",
           "a" * 10_000, "%e2%80%ae" * 100, "<x>&amp;\"'", "al-", "ar-", "fo-", "9" * 400]

conn = None
summary = {"requests": 0, "status": {}, "failures": []}


def connection():
    global conn
    if conn is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    return conn


def send(method, query, body=None):
    """One request (retried once on a closed keep-alive connection); the status and body."""
    global conn
    path = "/rest/" + method + "?" + query
    for attempt in range(2):
        try:
            c = connection()
            if body is None:
                c.request("GET", path)
            else:
                c.request("POST", path, body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
            response = c.getresponse()
            data = response.read()
            if response.getheader("Connection", "").lower() == "close":
                c.close()
                conn = None
            return response.status, response.getheader("Content-Type", ""), data
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, http.client.CannotSendRequest):
            conn.close()
            conn = None
            if attempt == 1:
                raise


def check(method, query, body=None, login=True):
    """One request; a failure when the server errs (5xx, a dropped connection, JSON that does not parse) or,
    with `login` (the credentials are not the value fuzzed), refuses the fuzzing user's login: a request
    that changed that user's password (an admin's updateUser of itself did) would leave every later request
    refused at login, counted as answered, and the rest of the run would fuzz nothing past authentication."""
    summary["requests"] += 1
    try:
        status, kind, data = send(method, query, body)
    except Exception as error:   # the server went away: the worst failure
        summary["failures"].append({"method": method, "query": query[:300], "error": repr(error)})
        return None
    summary["status"][str(status)] = summary["status"].get(str(status), 0) + 1
    if status >= 500 and status != 503:   # 503: every transcoding slot busy, an answer by design
        summary["failures"].append({"method": method, "query": query[:300], "status": status})
    if "json" in kind:
        try:
            answer = json.loads(data)
        except ValueError as error:
            summary["failures"].append({"method": method, "query": query[:300], "error": f"invalid JSON: {error}"})
            return None
        error = (answer.get("subsonic-response") or {}).get("error") if isinstance(answer, dict) else None
        if login and isinstance(error, dict) and error.get("code") == 40:
            summary["failures"].append({"method": method, "query": query[:300], "error": "the fuzzing user's login was refused"})
        return answer
    return None


def q(pairs):
    # Values are sent as they are (already %-escaped where hostile), names plain.
    return "&".join(f"{name}={value}" for name, value in pairs)


auth = [("u", user), ("p", urllib.parse.quote(password)), ("v", "1.16.1"), ("c", "fuzz"), ("f", "json")]

# Real ids, so that a request with one hostile value gets as far as that value.
found = check("search3", q(auth + [("query", "")])) or {}
result = found.get("subsonic-response", {}).get("searchResult3", {})
song = (result.get("song") or [{}])[0].get("id", "1")
album = (result.get("album") or [{}])[0].get("id", "al-1")
artist = (result.get("artist") or [{}])[0].get("id", "ar-1")
indexes = (check("getIndexes", q(auth)) or {}).get("subsonic-response", {}).get("indexes", {})
folder = ((indexes.get("index") or [{}])[0].get("artist") or [{}])[0].get("id", "fo-1")
created = (check("createPlaylist", q(auth + [("name", "fuzz"), ("songId", song)])) or {})
playlist = created.get("subsonic-response", {}).get("playlist", {}).get("id", "1")
VALID = {"id": song, "albumId": album, "artistId": artist, "musicFolderId": "0", "type": "newest", "size": "5",
         "offset": "0", "count": "5", "fromYear": "1990", "toYear": "2030", "genre": "Rock", "query": "a",
         "artistCount": "2", "artistOffset": "0", "albumCount": "2", "albumOffset": "0", "songCount": "2",
         "songOffset": "0", "maxBitRate": "64", "format": "mp3", "timeOffset": "0", "estimateContentLength": "false",
         "time": "1700000000000", "submission": "true", "rating": "3", "username": target, "playlistId": playlist,
         "name": "fuzz", "songId": song, "comment": "c", "public": "false", "songIdToAdd": song, "songIndexToRemove": "0",
         "current": song, "position": "0", "ifModifiedSince": "0", "f": "json", "v": "1.16.1", "c": "fuzz",
         "artist": "a", "album": "a", "title": "a", "any": "a", "newerThan": "0", "includeNotPresent": "false",
         "mediaId": song, "mediaType": "song", "positionMs": "1000", "state": "playing", "playbackRate": "1", "ignoreScrobble": "true",
         "password": "fuzz-password", "adminRole": "false", "currentIndex": "0", "streamUrl": "http://example.org/s.mp3",
         "homepageUrl": "https://example.org/", "description": "d", "expires": "0",
         "since": "0", "message": "hello"}
VALID_IDS = {"getMusicDirectory": folder, "getArtist": artist, "getAlbum": album, "getPlaylist": playlist,
             "deletePlaylist": "999999", "getCoverArt": album, "getArtistInfo": artist, "getArtistInfo2": artist,
             "getAlbumInfo": album, "getAlbumInfo2": album}

methods = re.findall(r'case "([A-Za-z0-9]+)"(?:, "([A-Za-z0-9]+)")?:', open(methods_file).read())
names = sorted({name for pair in methods for name in pair if name})
summary["methods"] = len(names)


def base(method, skip=()):
    pairs = [(n, v) for n, v in auth if n not in skip]
    for name in PARAMETERS.get(method, []):
        if name not in skip:
            pairs.append((name, VALID_IDS.get(method, VALID[name]) if name == "id" else VALID[name]))
    return pairs


for method in names:
    for name in PARAMETERS.get(method, []) + COMMON:
        for value in HOSTILE:
            check(method, q(base(method, skip=(name,)) + [(name, value)]))
        # Repeated: a valid value then a hostile one, and the other way round.
        check(method, q(base(method) + [(name, HOSTILE[4])]))
        check(method, q(base(method, skip=(name,)) + [(name, HOSTILE[0]), (name, VALID.get(name, "1"))]))
    if mode == "full":
        params = PARAMETERS.get(method, [])
        for i, a in enumerate(params):
            for b in params[i + 1:]:
                for value in HOSTILE[::3]:
                    check(method, q(base(method, skip=(a, b)) + [(a, value), (b, value)]))
        for value in HOSTILE:
            for name in params:
                check(method, q(auth), body=q(base(method, skip=(name,)) + [(name, value)])[len(q(auth)) + 1:])
if mode == "full":
    for name in ["u", "p", "t", "s", "apiKey"]:
        for value in HOSTILE:
            pairs = [(n, v) for n, v in auth if n != name] + [(name, value)]
            if name in ("t", "s"):
                pairs = [(n, v) for n, v in pairs if n != "p"]
            check("ping", q(pairs), login=False)

print(json.dumps(summary))
sys.exit(1 if summary["failures"] else 0)
