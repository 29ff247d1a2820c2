#!/usr/bin/env python3
"""dlna-bench.py --location URL [--page N] [--search CRITERIA ...] [--runs N]

One UPnP control point (async-upnp-client, Home Assistant's DLNA library) timing one MediaServer, so that
dlna-bench.sh drives mlib and minidlna with the same client: the whole tree walked breadth first with
BrowseDirectChildren in pages of --page (every container, every page; no BrowseMetadata, which some servers
answer from a cache), each --search from the root (median and worst of --runs, 50 results asked, TotalMatches
counted), the first byte of the first audio item's stream (median of --runs, a new connection each), and
each video's JPEG_TN thumbnail (the first fetch and the median of --runs fetches after it). Prints one
JSON object."""
import argparse, asyncio, json, os, statistics, time

import aiohttp
from async_upnp_client.aiohttp import AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.profiles.dlna import DmsDevice


def cpu(pid):
    """The server's CPU seconds so far (user + system, waited-for children included: minidlna forks to stream),
    from /proc (one PID namespace for both network namespaces): under a shared machine's load, the walk's wall
    time is mostly waiting, its CPU is not."""
    if not pid:
        return 0.0
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def ms(seconds):
    return round(seconds * 1000, 2)


async def first_byte(url):
    """A new connection, GET, until the first byte of the body."""
    async with aiohttp.ClientSession() as session:
        started = time.monotonic()
        async with session.get(url) as response:
            await response.content.readexactly(1)
            return time.monotonic() - started


async def fetch(session, url):
    started = time.monotonic()
    async with session.get(url) as response:
        body = await response.read()
        return time.monotonic() - started, response.status, response.headers.get("Content-Type"), len(body)


class TimedRequester(AiohttpRequester):
    """Counts the walk's answers: bytes, and the seconds from sending a request to having its whole body (the
    server's time and the network's); the rest of a walk's wall time is the client's (parsing the SOAP
    answer and the DIDL-Lite in it, and async-upnp-client's own work)."""
    answers, body_bytes, http_s = 0, 0, 0.0

    async def async_http_request(self, http_request):
        started = time.monotonic()
        response = await super().async_http_request(http_request)
        TimedRequester.http_s += time.monotonic() - started
        TimedRequester.answers += 1
        TimedRequester.body_bytes += len(response.body or "")
        return response


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--location", required=True, help="the device description's URL")
    parser.add_argument("--page", type=int, default=50)
    parser.add_argument("--server-pid", type=int, help="the server's process: its CPU time during the walk")
    parser.add_argument("--search", action="append", default=[])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--thumbnails", type=int, default=5, help="how many videos' thumbnails to time")
    args = parser.parse_args()
    out = {"page": args.page}

    requester = TimedRequester(timeout=120)
    device = await UpnpFactory(requester, non_strict=True).async_create_device(args.location)
    dms = DmsDevice(device, None)
    out["server"] = device.model_name

    containers, items, calls, videos, audio, resources = 0, 0, 0, [], None, 0
    queue = ["0"]
    TimedRequester.answers, TimedRequester.body_bytes, TimedRequester.http_s = 0, 0, 0.0
    started, server_cpu, client_cpu = time.monotonic(), cpu(args.server_pid), time.process_time()
    while queue:
        cid = queue.pop(0)
        containers += 1
        start, total = 0, None
        while total is None or start < total:
            page = await dms.async_browse_direct_children(cid, starting_index=start, requested_count=args.page)
            calls += 1
            total = page.total_matches
            start += page.number_returned
            for child in page.result:
                if child.upnp_class.startswith("object.container"):
                    queue.append(child.id)
                    continue
                items += 1
                resources += len(child.res or [])
                if audio is None and child.upnp_class.startswith("object.item.audioItem") and child.res:
                    audio = child.res[0].uri
                if child.upnp_class.startswith("object.item.videoItem") and len(videos) < args.thumbnails:
                    thumb = next((r.uri for r in child.res if "JPEG_TN" in (r.protocol_info or "")), None)
                    thumb = thumb or getattr(child, "album_art_uri", None)
                    if thumb and thumb not in videos:
                        videos.append(thumb)
            if page.number_returned == 0:
                break
    out["walk_s"] = round(time.monotonic() - started, 3)
    out["walk_server_cpu_s"] = round(cpu(args.server_pid) - server_cpu, 2)
    out["walk_client_cpu_s"] = round(time.process_time() - client_cpu, 2)
    out["containers"], out["item_listings"], out["browse_calls"] = containers, items, calls
    # What the walk's wall time is made of: answers' size, time waiting for them, res per item.
    out["walk_answer_bytes"] = TimedRequester.body_bytes
    out["walk_bytes_per_item"] = round(TimedRequester.body_bytes / max(1, items), 1)
    out["walk_http_s"] = round(TimedRequester.http_s, 2)
    out["walk_res_per_item"] = round(resources / max(1, items), 2)

    out["search"] = {}
    for criteria in args.search:
        times, matches, error, server_cpu = [], None, None, cpu(args.server_pid)
        for _ in range(args.runs):
            try:
                started = time.monotonic()
                result = await dms.async_search_directory("0", criteria, requested_count=50)
                times.append(time.monotonic() - started)
                matches = result.total_matches
            except Exception as e:  # a server without Search (or this criteria) says so in the output
                error = f"{type(e).__name__}: {e}"
                break
        out["search"][criteria] = {"median_ms": ms(statistics.median(times)), "max_ms": ms(max(times)), "matches": matches,
                                   "server_cpu_ms_each": ms((cpu(args.server_pid) - server_cpu) / len(times))} if times else {"error": error}

    if audio:
        firsts = [await first_byte(audio) for _ in range(args.runs)]
        out["first_byte_ms"] = ms(statistics.median(firsts))
        out["first_byte_max_ms"] = ms(max(firsts))

    out["thumbnails"] = len(videos)
    if videos:
        async with aiohttp.ClientSession() as session:
            first, cached, statuses = [], [], set()
            for url in videos:
                seconds, status, kind, length = await fetch(session, url)
                first.append(seconds)
                statuses.add(f"{status} {kind}")
                again = [(await fetch(session, url))[0] for _ in range(args.runs)]
                cached.append(statistics.median(again))
        out["thumbnail_first_ms"] = ms(statistics.median(first))
        out["thumbnail_first_max_ms"] = ms(max(first))
        out["thumbnail_cached_ms"] = ms(statistics.median(cached))
        out["thumbnail_answers"] = sorted(statuses)
    print(json.dumps(out))


asyncio.run(main())
