#!/usr/bin/env python3
"""subsonic-bench.py PORT USER PASSWORD [--peer] — times a Subsonic server (`mlib serve --http`, or a peer such as
supysonic with --peer) as a phone uses it, over one keep-alive connection (as clients do): Symfonium's full sync
(search3 with an empty query, artists, albums and songs in pages of 500, until every list runs out), getArtists,
getAlbumList2 (alphabeticalByName 500, newest 50) and getAlbum, each the median of 20 calls; issue 42's figures:
the p95 of 40 calls of getAlbumList2 (newest 50), getArtists and getAlbum (40 different albums), of
getSimilarSongs2 and getTopSongs (the artist of each of 40 songs), and a star's time until the next getStarred2
shows it; then, on the song titled "Transcode bench" (subsonic-bench.sh adds a 5-minute FLAC; not with --peer), a
transcoded stream's time to first byte and speed (× real time) for Opus 128 kb/s and MP3 192 kb/s.
Authentication is `p=enc:` (hex), which every server takes (supysonic keeps no password to make tokens from).
Prints one line per figure; a method the server does not answer prints "not answered" and its error."""
import http.client, json, statistics, sys, time, urllib.parse

port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
peer = "--peer" in sys.argv[4:]
auth = {"u": user, "p": "enc:" + password.encode().hex(), "v": "1.16.1", "c": "bench", "f": "json"}
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)


class NotAnswered(Exception):
    pass


waited = 0.0   # seconds from sending a request to having its whole answer (the server's time and the network's)


def get(method, **params):
    global waited
    t0 = time.perf_counter()
    connection.request("GET", f"/rest/{method}?" + urllib.parse.urlencode({**auth, **params}, doseq=True))
    response = connection.getresponse()
    body = response.read()
    waited += time.perf_counter() - t0
    try:
        answer = json.loads(body)["subsonic-response"]
    except ValueError:
        raise NotAnswered(f"HTTP {response.status} {body[:120]!r}")
    if answer["status"] != "ok":
        raise NotAnswered(json.dumps(answer.get("error")))
    return answer, len(body)


def median_ms(method, **params):
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        get(method, **params)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def p95_ms(label, calls):
    """Times each (method, params) of `calls` once; prints the p95 and the median."""
    times = []
    try:
        for method, params in calls:
            t0 = time.perf_counter()
            get(method, **params)
            times.append((time.perf_counter() - t0) * 1000)
    except NotAnswered as error:
        print(f"{label}: not answered: {error}")
        return
    times.sort()
    print(f"{label} p95: {times[int(len(times) * 0.95) - 1]:.1f} ms (median {statistics.median(times):.1f} ms, {len(times)} calls)")


def full_sync(query='""'):
    """Symfonium's sync; returns the number of songs it saw."""
    global waited
    t0, waited = time.perf_counter(), 0.0
    counts = {"artist": 0, "album": 0, "song": 0}
    offsets = {"artist": 0, "album": 0, "song": 0}
    pages, size = 0, 0
    while True:
        wanted = {k: (500 if offsets[k] is not None else 0) for k in counts}
        answer, n = get("search3", query=query, artistCount=wanted["artist"], artistOffset=offsets["artist"] or 0,
                        albumCount=wanted["album"], albumOffset=offsets["album"] or 0,
                        songCount=wanted["song"], songOffset=offsets["song"] or 0)
        pages += 1
        size += n
        result = answer["searchResult3"]
        for kind in counts:
            if offsets[kind] is None:
                continue
            got = len(result.get(kind, []))
            counts[kind] += got
            offsets[kind] = offsets[kind] + got if got == 500 else None
        if all(v is None for v in offsets.values()):
            break
    sync = time.perf_counter() - t0
    label = "" if query == '""' else f" with query={query!r} (a peer that finds nothing for Symfonium's query)"
    print(f"full sync (search3 \"\" in pages of 500){label}: {sync:.2f} s, {pages} requests, {size / 1e6:.1f} MB of JSON, "
          f"{counts['song']} songs, {counts['album']} albums, {counts['artist']} artists; "
          f"{waited:.2f} s of it waiting for the answers (the rest is this client's JSON parsing)")
    return counts["song"]


try:
    if full_sync() == 0 and peer:
        full_sync("")
except NotAnswered as error:
    print(f"full sync (search3 \"\" in pages of 500): not answered: {error}")
print(f"getArtists: {median_ms('getArtists'):.1f} ms (median of 20)")
print(f"getAlbumList2 alphabeticalByName size=500: {median_ms('getAlbumList2', type='alphabeticalByName', size=500):.1f} ms")
print(f"getAlbumList2 newest size=50: {median_ms('getAlbumList2', type='newest', size=50):.1f} ms")
album = get("getAlbumList2", type="random", size=1)[0]["albumList2"]["album"][0]["id"]
print(f"getAlbum: {median_ms('getAlbum', id=album):.1f} ms")
print(f"search3 \"love\" (20 of each): {median_ms('search3', query='love'):.1f} ms")

# Issue 42's figures: p95 of 40 calls each.
albums = get("getAlbumList2", type="random", size=40)[0]["albumList2"]["album"]
songs = [get("getAlbum", id=a["id"])[0]["album"]["song"][0] for a in albums]
p95_ms("getAlbumList2 newest size=50", [("getAlbumList2", {"type": "newest", "size": 50})] * 40)
p95_ms("getArtists", [("getArtists", {})] * 40)
p95_ms("getAlbum", [("getAlbum", {"id": a["id"]}) for a in albums])
p95_ms("getSimilarSongs2 count=50", [("getSimilarSongs2", {"id": s.get("artistId") or s["id"], "count": 50}) for s in songs])
p95_ms("getTopSongs count=50", [("getTopSongs", {"artist": s.get("artist", ""), "count": 50}) for s in songs])
# A star seen by the next answer: star, then getStarred2 until the song is in it.
try:
    song = songs[0]["id"]
    get("unstar", id=song)
    t0 = time.perf_counter()
    get("star", id=song)
    tries = 0
    while True:
        tries += 1
        starred = get("getStarred2")[0]["starred2"].get("song", [])
        if any(s["id"] == song for s in starred) or time.perf_counter() - t0 > 10:
            break
    visible = any(s["id"] == song for s in starred)
    print(f"star visible in getStarred2: {(time.perf_counter() - t0) * 1000:.1f} ms after the star request, "
          f"{'in the next answer' if tries == 1 else f'after {tries} answers'}{'' if visible else ' (NOT seen within 10 s)'}")
    get("unstar", id=song)
except NotAnswered as error:
    print(f"star visible in getStarred2: not answered: {error}")
if peer:
    sys.exit(0)


def transcode(song, duration, **params):
    """One transcoded stream on a connection of its own: (time to first body byte, seconds to the last, bytes)."""
    stream = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    t0 = time.perf_counter()
    stream.request("GET", "/rest/stream?" + urllib.parse.urlencode({**auth, "id": song, **params}))
    response = stream.getresponse()
    if response.status != 200 or not response.getheader("Content-Type", "").startswith("audio/"):
        raise SystemExit(f"stream {params}: {response.status} {response.getheaders()}")
    first = response.read(1)
    ttfb = time.perf_counter() - t0
    total = len(first) + len(response.read())
    elapsed = time.perf_counter() - t0
    stream.close()
    return ttfb, elapsed, total


found = get("search3", query="Transcode bench", songCount=1, albumCount=0, artistCount=0)[0]["searchResult3"].get("song", [])
if found:
    song, duration = found[0]["id"], found[0]["duration"]
    for label, params in [("Opus 128 kb/s", {"format": "opus", "maxBitRate": 128}), ("MP3 192 kb/s", {"format": "mp3", "maxBitRate": 192})]:
        runs = [transcode(song, duration, **params) for _ in range(3)]
        ttfb = statistics.median(r[0] for r in runs) * 1000
        elapsed = statistics.median(r[1] for r in runs)
        print(f"transcode {label} of a {duration} s FLAC: first byte {ttfb:.1f} ms, whole stream {elapsed:.2f} s "
              f"= {duration / elapsed:.0f}x real time, {runs[0][2] / 1e6:.1f} MB (median of 3)")
    # A client that goes away after the first bytes: the server stops encoding (the next stream still gets a slot).
    for _ in range(4):
        dropped = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        dropped.request("GET", "/rest/stream?" + urllib.parse.urlencode({**auth, "id": song, "format": "opus"}))
        dropped.getresponse().read(4096)
        dropped.close()
    ttfb, elapsed, _ = transcode(song, duration, format="opus")
    print(f"after 4 streams dropped after 4 KB: a new Opus stream's first byte {ttfb * 1000:.1f} ms, whole {elapsed:.2f} s")
