#!/usr/bin/env python3
"""Internet radio stations, shares and the index-based play queue through the API: an admin (USER) and an
ordinary user (bob, password bobpass) call the radio station editors, the share calls and
getPlayQueueByIndex/savePlayQueueByIndex; every answer validated against the OpenAPI description. The
shares' public links are opened without an account (the page, each song's stream, another song through the
link, an expired and a deleted share). Prints what each call answered (its values, or the error code) as JSON.

usage: sharing_client.py PORT USER PASSWORD OPENAPI_DIR"""
import hashlib, json, re, sys, time, urllib.error, urllib.parse, urllib.request

from openapi_check import Validator

port, admin, admin_password, openapi = sys.argv[1:5]
validator = Validator(openapi)
passwords = {admin: admin_password, "bob": "bobpass"}


def call(as_user, method, **params):
    """The inside of subsonic-response when "ok", else the error's code; every answer validated."""
    salt = "0ff1ce"
    query = {"u": as_user, "t": hashlib.md5((passwords[as_user] + salt).encode()).hexdigest(), "s": salt,
             "v": "1.16.1", "c": "sharing-test", "f": "json", **params}
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rest/{method}?" + urllib.parse.urlencode(query, doseq=True), timeout=20) as response:
        document = json.loads(response.read())
    inside = document["subsonic-response"]
    problem = validator.problem(method, document)
    if problem:
        print(f"FAILED: {problem}", file=sys.stderr)
        sys.exit(1)
    return inside if inside["status"] == "ok" else inside["error"]["code"]


def ok(answer):
    return "ok" if isinstance(answer, dict) else answer


def fetch(url):
    """(HTTP status, body) of a GET without credentials."""
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


summary = {}
# Radio stations: only the admin edits; everyone lists.
summary["bobCreatesStation"] = call("bob", "createInternetRadioStation", streamUrl="http://radio.example.org/a.mp3", name="Bob FM")
summary["adminCreates"] = ok(call(admin, "createInternetRadioStation", streamUrl="http://radio.example.org/jazz.aac",
                                  name="Jazz", homepageUrl="http://radio.example.org/"))
summary["adminCreatesSecond"] = ok(call(admin, "createInternetRadioStation", streamUrl="https://radio.example.org/news", name="Allnews"))
summary["createWithoutName"] = call(admin, "createInternetRadioStation", streamUrl="http://radio.example.org/x")
summary["createFileURL"] = call(admin, "createInternetRadioStation", streamUrl="file:///etc/passwd", name="Local")
stations = call("bob", "getInternetRadioStations")["internetRadioStations"].get("internetRadioStation", [])
summary["stations"] = [[s["name"], s["streamUrl"], s.get("homePageUrl")] for s in stations]
jazz = next(s["id"] for s in stations if s["name"] == "Jazz")
summary["bobUpdates"] = call("bob", "updateInternetRadioStation", id=jazz, streamUrl="http://evil.example.org/", name="Jazz")
summary["bobDeletes"] = call("bob", "deleteInternetRadioStation", id=jazz)
summary["adminUpdates"] = ok(call(admin, "updateInternetRadioStation", id=jazz, streamUrl="http://radio.example.org/jazz.ogg", name="Jazz 24"))
summary["updateUnknown"] = call(admin, "updateInternetRadioStation", id="999999", streamUrl="http://radio.example.org/", name="X")
summary["updateWithoutStream"] = call(admin, "updateInternetRadioStation", id=jazz, name="X")
summary["deleteUnknown"] = call(admin, "deleteInternetRadioStation", id="999999")
summary["adminDeletes"] = ok(call(admin, "deleteInternetRadioStation", id=jazz))
summary["stationsAfter"] = [s["name"] for s in call(admin, "getInternetRadioStations")["internetRadioStations"].get("internetRadioStation", [])]

# Shares: bob shares an album, the admin two songs; each sees their own, the admin every one.
summary["bobShareRole"] = call("bob", "getUser")["user"]["shareRole"]
albums = call("bob", "getAlbumList2", type="alphabeticalByName", size=50)["albumList2"]["album"]
album = max(albums, key=lambda a: a["songCount"])
album_songs = call("bob", "getAlbum", id=album["id"])["album"]["song"]
all_songs = [s for a in albums for s in call("bob", "getAlbum", id=a["id"])["album"]["song"]]
others = [s for s in all_songs if s["id"] not in {x["id"] for x in album_songs}]
made = call("bob", "createShare", id=album["id"], description="Bob's album")
bob_share = made["shares"]["share"][0]
summary["bobShareEntries"] = [e["id"] for e in bob_share.get("entry", [])] == [s["id"] for s in album_songs]
summary["bobShareSongs"] = len(bob_share.get("entry", []))
admin_share = call(admin, "createShare", id=[others[0]["id"], others[1]["id"]])["shares"]["share"][0]
summary["createUnknown"] = call("bob", "createShare", id="al-0000000000000000")
summary["createNothing"] = call("bob", "createShare")
summary["bobSees"] = sorted(s["id"] for s in call("bob", "getShares")["shares"].get("share", [])) == [bob_share["id"]]
summary["adminSees"] = sorted(s["id"] for s in call(admin, "getShares")["shares"].get("share", [])) == sorted([bob_share["id"], admin_share["id"]])
summary["bobUpdatesAdmins"] = call("bob", "updateShare", id=admin_share["id"], description="mine now")
summary["bobDeletesAdmins"] = call("bob", "deleteShare", id=admin_share["id"])
summary["adminUpdatesBobs"] = ok(call(admin, "updateShare", id=bob_share["id"], description="Checked by the admin"))
summary["bobDescription"] = call("bob", "getShares")["shares"]["share"][0].get("description")

# The public link: the page lists the share's songs, each streams; nothing else goes through it.
url = bob_share["url"]
summary["urlPath"] = urllib.parse.urlparse(url).path == f"/share/{bob_share['id']}"
status, page = fetch(url)
summary["pageStatus"] = status
links = re.findall(r'href="(/share/[^"]+)"', page.decode())
summary["pageLinks"] = len(links)
streamed = []
for song, link in zip(album_songs, links):
    status, body = fetch(f"http://127.0.0.1:{port}{link}")
    streamed.append(status == 200 and len(body) == song["size"])
summary["streamsWhole"] = all(streamed) and len(streamed) == len(album_songs)
summary["otherSongThroughShare"] = fetch(f"http://127.0.0.1:{port}/share/{bob_share['id']}/{others[0]['id']}")[0]
summary["otherSongsIDs"] = fetch(f"http://127.0.0.1:{port}/share/{bob_share['id']}/..%2F{others[0]['id']}")[0]
summary["unknownShare"] = fetch(f"http://127.0.0.1:{port}/share/zzzzzzzzzzzzzzzz")[0]
summary["visits"] = next(s for s in call("bob", "getShares")["shares"]["share"]).get("visitCount")
# Expired (a time in the past) is 410, also for its songs; the expiry removed (0) opens it again; deleted is 404.
past = int((time.time() - 60) * 1000)
summary["expire"] = ok(call("bob", "updateShare", id=bob_share["id"], expires=past))
summary["expiredPage"] = fetch(url)[0]
summary["expiredSong"] = fetch(f"http://127.0.0.1:{port}{links[0]}")[0]
summary["unexpire"] = ok(call("bob", "updateShare", id=bob_share["id"], expires=0))
summary["reopenedPage"] = fetch(url)[0]
summary["delete"] = ok(call("bob", "deleteShare", id=bob_share["id"]))
summary["deletedPage"] = fetch(url)[0]
summary["deletedSong"] = fetch(f"http://127.0.0.1:{port}{links[0]}")[0]
summary["deleteAgain"] = call("bob", "deleteShare", id=bob_share["id"])
# The page shows a description as text, never as markup.
marked = call("bob", "createShare", id=album_songs[0]["id"], description='<i>x</i> & "y"')["shares"]["share"][0]
page = fetch(marked["url"])[1].decode()
summary["pageEscapes"] = "&lt;i&gt;x&lt;/i&gt; &amp; &quot;y&quot;" in page and "<i>" not in page
call("bob", "deleteShare", id=marked["id"])

# The index-based play queue (indexBasedQueue), one queue with savePlayQueue's.
extensions = {e["name"]: e["versions"] for e in call("bob", "getOpenSubsonicExtensions")["openSubsonicExtensions"]}
summary["indexBasedQueue"] = extensions.get("indexBasedQueue")
a, b = all_songs[0]["id"], all_songs[1]["id"]
summary["saveByIndex"] = ok(call("bob", "savePlayQueueByIndex", id=[a, b, a], currentIndex=2, position=4500))
queue = call("bob", "getPlayQueueByIndex")["playQueueByIndex"]
summary["byIndex"] = [queue.get("currentIndex"), queue.get("position"), [e["id"] for e in queue["entry"]] == [a, b, a], queue["changedBy"]]
summary["byIdCurrent"] = call("bob", "getPlayQueue")["playQueue"].get("current") == a
summary["saveById"] = ok(call("bob", "savePlayQueue", id=[a, b, a], current=b, position=100))
summary["byIndexAfterById"] = call("bob", "getPlayQueueByIndex")["playQueueByIndex"].get("currentIndex")
summary["indexOutside"] = call("bob", "savePlayQueueByIndex", id=[a, b], currentIndex=2)
summary["indexNegative"] = call("bob", "savePlayQueueByIndex", id=[a, b], currentIndex=-1)
summary["indexMissing"] = call("bob", "savePlayQueueByIndex", id=[a, b])
summary["indexWithoutSongs"] = call("bob", "savePlayQueueByIndex", currentIndex=0)
summary["unchanged"] = call("bob", "getPlayQueueByIndex")["playQueueByIndex"].get("currentIndex")
summary["adminQueueApart"] = "playQueueByIndex" not in call(admin, "getPlayQueueByIndex")
summary["clear"] = ok(call("bob", "savePlayQueueByIndex"))
summary["cleared"] = len(call("bob", "getPlayQueueByIndex")["playQueueByIndex"].get("entry", []))
print(json.dumps(summary))
