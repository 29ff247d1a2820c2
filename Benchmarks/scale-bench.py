#!/usr/bin/env python3
"""scale-bench.py MPD_PORT HTTP_PORT PID USER PASSWORD — the client side of scale-bench.sh, against one
`mlib serve` (the MPD port and --http, one view). Prints `name value` lines (seconds, MB, ms) for the
shell to collect:
  rss_start_mb                 resident memory once serving
  rating_visible_p95_ms        a rating set by one client (setRating) seen by another (getSong), p95 of 20
  rating_cpu_ms                the server's CPU per rating (user+system over the second after it, less an idle
                               second's): the view's refresh and what each front derives again
  sync_s, rss_sync_mb          a full Subsonic sync (search3 of "" in pages of 500, as Symfonium and Feishin)
  search_p95_ms                search3 of one word, p95 of 40
  mpd_list_artist_ms, mpd_find_ms, mpd_search_any_ms, mpd_listallinfo_s, rss_listallinfo_mb
"""
import hashlib, json, os, random, socket, sys, time, urllib.parse, urllib.request

mpd_port, http_port, pid, user, password = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
base = f"http://127.0.0.1:{http_port}/rest"


def rss_mb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024


_threads = {}   # tid -> the last CPU ns seen of it
_gone = 0       # CPU ns of threads that exited (or whose tid came back for a new thread)


def cpu_s():
    """The server's CPU time, summed over its threads' schedstat (nanoseconds: /proc/PID/stat counts 10 ms ticks).
    A thread that exits takes its time out of /proc (an idle worker thread ends after a few seconds): each
    thread's last figure is kept, so sample often (`sleep_sampling`) for a window's CPU to be whole."""
    global _gone
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                ns = int(f.read().split()[0])
        except OSError:
            continue
        if ns < _threads.get(task, 0):
            _gone += _threads[task]   # a new thread under an old tid
        _threads[task] = ns
    return (_gone + sum(_threads.values())) / 1e9


def sleep_sampling(seconds):
    """time.sleep, reading the server's threads every 50 ms meanwhile (`cpu_s`)."""
    end = time.perf_counter() + seconds
    while (left := end - time.perf_counter()) > 0:
        cpu_s()
        time.sleep(min(0.05, left))


def call(method, **params):
    salt = "%08x" % random.getrandbits(32)
    token = hashlib.md5((password + salt).encode()).hexdigest()
    query = urllib.parse.urlencode(dict(u=user, t=token, s=salt, v="1.16.1", c="scale-bench", f="json", **params))
    with urllib.request.urlopen(f"{base}/{method}?{query}", timeout=600) as answer:
        body = json.load(answer)["subsonic-response"]
    if body.get("status") != "ok":
        raise SystemExit(f"{method}: {body}")
    return body


def mpd(command):
    with socket.create_connection(("127.0.0.1", mpd_port), timeout=600) as s:
        f = s.makefile("rb")
        f.readline()
        started = time.perf_counter()
        s.sendall(command.encode() + b"\n")
        size = 0
        while True:
            line = f.readline()
            size += len(line)
            if line == b"OK\n":
                return time.perf_counter() - started, size
            if not line or line.startswith(b"ACK"):
                raise SystemExit(f"{command}: the answer stopped after {size} bytes ({line.strip().decode(errors='replace') or 'closed'})")


def p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def say(name, value, unit=""):
    print(f"{name} {value:.3f}" if isinstance(value, float) else f"{name} {value}", flush=True)


say("rss_start_mb", rss_mb())
songs = call("search3", query="", songCount=200, albumCount=0, artistCount=0)["searchResult3"]["song"]
rng = random.Random(44)

# A rating's cost to the server: CPU over the second after setRating (the view looks every 0.5 s), less
# what an idle second costs.
idle0 = cpu_s(); sleep_sampling(2.0); idle = (cpu_s() - idle0) / 2
costs = []
for i in range(10):
    song = rng.choice(songs)
    before = cpu_s()
    call("setRating", id=song["id"], rating=i % 5 + 1)
    sleep_sampling(1.0)
    costs.append(cpu_s() - before - idle)
say("rating_cpu_ms", median(costs) * 1000)

# Visibility: another request (another connection) until getSong says the new rating.
latencies = []
for i in range(20):
    song = rng.choice(songs)
    wanted = (call("getSong", id=song["id"])["song"].get("userRating") or 0) % 5 + 1
    started = time.perf_counter()
    call("setRating", id=song["id"], rating=wanted)
    while call("getSong", id=song["id"])["song"].get("userRating") != wanted:
        if time.perf_counter() - started > 30:
            raise SystemExit("a rating not visible within 30 s")
        time.sleep(0.005)
    latencies.append(time.perf_counter() - started)
say("rating_visible_p95_ms", p95(latencies) * 1000)

# A full sync as Symfonium and Feishin do it.
started = time.perf_counter()
offset, total = 0, 0
while True:
    page = call("search3", query="", songCount=500, songOffset=offset, albumCount=0, artistCount=0)["searchResult3"].get("song", [])
    total += len(page)
    offset += 500
    if len(page) < 500:
        break
say("sync_s", time.perf_counter() - started)
say("sync_songs", total)
say("rss_sync_mb", rss_mb())

words = sorted({w for s in songs for w in (s.get("artist", "") + " " + s.get("album", "")).split() if len(w) > 3})
times = []
for i in range(40):
    started = time.perf_counter()
    call("search3", query=rng.choice(words), songCount=20, albumCount=20, artistCount=20)
    times.append(time.perf_counter() - started)
say("search_p95_ms", p95(times) * 1000)

artist = songs[0].get("artist", "x").replace('"', '\\"')
say("mpd_list_artist_ms", median([mpd("list artist")[0] for _ in range(3)]) * 1000)
say("mpd_find_ms", median([mpd(f'find artist "{artist}"')[0] for _ in range(3)]) * 1000)
say("mpd_search_any_ms", median([mpd('search any "song 1"')[0] for _ in range(3)]) * 1000)
seconds, size = mpd("listallinfo")
say("mpd_listallinfo_s", seconds)
say("mpd_listallinfo_mb", size / 1e6)
say("rss_listallinfo_mb", rss_mb())
