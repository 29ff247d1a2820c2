#!/usr/bin/env python3
"""subsonic-bench.py PORT USER PASSWORD — times `mlib serve --http` as a phone uses it, over one keep-alive
connection (as clients do): Symfonium's full sync (search3 with an empty query, artists, albums and songs in
pages of 500, until every list runs out), getArtists, getAlbumList2 (alphabeticalByName 500, newest 50) and
getAlbum, each the median of 20 calls. Prints one line per figure."""
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
