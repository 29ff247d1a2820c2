#!/usr/bin/env python3
"""subsonic-bench.py PORT USER PASSWORD — times `mlib serve --http` as a phone uses it, over one keep-alive
connection (as clients do): Symfonium's full sync (search3 with an empty query, artists, albums and songs in
pages of 500, until every list runs out), getArtists, getAlbumList2 (alphabeticalByName 500, newest 50) and
getAlbum, each the median of 20 calls; then, on the song titled "Transcode bench" (subsonic-bench.sh adds a 5-minute
FLAC), a transcoded stream's time to first byte and speed (× real time) for Opus 128 kb/s and MP3 192 kb/s.
Prints one line per figure."""
import hashlib, http.client, json, statistics, sys, time, urllib.parse

port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
salt = "bench"
auth = {"u": user, "t": hashlib.md5((password + salt).encode()).hexdigest(), "s": salt, "v": "1.16.1", "c": "bench", "f": "json"}
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)


def get(method, **params):
    connection.request("GET", f"/rest/{method}?" + urllib.parse.urlencode({**auth, **params}))
    response = connection.getresponse()
    body = response.read()
    answer = json.loads(body)["subsonic-response"]
    if answer["status"] != "ok":
        raise SystemExit(f"{method}: {answer}")
    return answer, len(body)


def median_ms(method, **params):
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        get(method, **params)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


t0 = time.perf_counter()
counts = {"artist": 0, "album": 0, "song": 0}
offsets = {"artist": 0, "album": 0, "song": 0}
pages, size = 0, 0
while True:
    wanted = {k: (500 if offsets[k] is not None else 0) for k in counts}
    answer, n = get("search3", query='""', artistCount=wanted["artist"], artistOffset=offsets["artist"] or 0,
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
print(f"full sync (search3 \"\" in pages of 500): {sync:.2f} s, {pages} requests, {size / 1e6:.1f} MB of JSON, "
      f"{counts['song']} songs, {counts['album']} albums, {counts['artist']} artists")
print(f"getArtists: {median_ms('getArtists'):.1f} ms (median of 20)")
print(f"getAlbumList2 alphabeticalByName size=500: {median_ms('getAlbumList2', type='alphabeticalByName', size=500):.1f} ms")
print(f"getAlbumList2 newest size=50: {median_ms('getAlbumList2', type='newest', size=50):.1f} ms")
album = get("getAlbumList2", type="random", size=1)[0]["albumList2"]["album"][0]["id"]
print(f"getAlbum: {median_ms('getAlbum', id=album):.1f} ms")
print(f"search3 \"love\" (20 of each): {median_ms('search3', query='love'):.1f} ms")


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
