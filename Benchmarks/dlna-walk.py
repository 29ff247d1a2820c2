#!/usr/bin/env python3
"""dlna-walk.py --control URL [--page N] [--search CRITERIA ...] [--server-pid PID] [--record FILE]

A lean ContentDirectory client, the second one of dlna-bench.sh: the whole tree walked breadth first with
BrowseDirectChildren in pages of --page over one kept-alive connection, reading from each answer only the
counts and the containers' ids (regular expressions over the SOAP bytes, no XML parser), and each --search
from the root (50 results asked; median of 11). async-upnp-client (dlna-bench.py) spends more of a walk
parsing than either server spends answering, so its walk times the client; this one times the servers.
Prints one JSON object: walk_s, walk_http_s (waiting for answers), browse_calls, containers, item_listings,
walk_server_cpu_s, search {criteria: {median_ms, matches}}. With --record FILE: each Browse answer of the walk
written to FILE (a 4-byte big-endian length, then the body), for dlna-floor.c to answer the same walk with the same
bytes (dlna-bench.sh's floor)."""
import argparse, html, http.client, json, re, statistics, struct, time, urllib.parse

from proc_cpu import cpu_seconds

ENVELOPE = ('<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
            '<u:{action} xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1">{arguments}</u:{action}></s:Body></s:Envelope>')
# The DIDL-Lite's markup as it is escaped in the SOAP answer: quotes as they are (mlib since session 24, minidlna) or &quot;.
CONTAINER = re.compile(rb'&lt;container id=(?:&quot;|")(.*?)(?:&quot;|")')
ITEM = re.compile(rb"&lt;item ")
RETURNED, TOTAL = re.compile(rb"<NumberReturned>(\d+)"), re.compile(rb"<TotalMatches>(\d+)")


class Client:
    def __init__(self, control):
        url = urllib.parse.urlsplit(control)
        self.path = url.path or "/"
        self.connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)

    def call(self, action, **arguments):
        body = ENVELOPE.format(action=action, arguments="".join(f"<{k}>{html.escape(str(v))}</{k}>" for k, v in arguments.items()))
        self.connection.request("POST", self.path, body.encode(), {
            "Content-Type": 'text/xml; charset="utf-8"',
            "SOAPACTION": f'"urn:schemas-upnp-org:service:ContentDirectory:1#{action}"'})
        answer = self.connection.getresponse()
        data = answer.read()
        if answer.status != 200:
            raise SystemExit(f"{action} {arguments}: HTTP {answer.status}: {data[:300]!r}")
        return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--control", required=True)
    parser.add_argument("--page", type=int, default=50)
    parser.add_argument("--search", action="append", default=[])
    parser.add_argument("--server-pid", type=int, default=0)
    parser.add_argument("--record", help="write each Browse answer of the walk to this file (dlna-floor.c replays them)")
    options = parser.parse_args()
    client = Client(options.control)
    record = open(options.record, "wb") if options.record else None
    result = {"browse_calls": 0, "containers": 0, "item_listings": 0}
    waited, cpu_before, started = 0.0, cpu_seconds(options.server_pid) or 0.0, time.monotonic()
    queue = ["0"]
    while queue:
        container, start = queue.pop(0), 0
        while True:
            asked = time.monotonic()
            data = client.call("Browse", ObjectID=container, BrowseFlag="BrowseDirectChildren", Filter="*",
                               StartingIndex=start, RequestedCount=options.page, SortCriteria="")
            waited += time.monotonic() - asked
            if record:
                record.write(struct.pack(">I", len(data)) + data)
            result["browse_calls"] += 1
            returned, total = int(RETURNED.search(data).group(1)), int(TOTAL.search(data).group(1))
            for found in CONTAINER.findall(data):
                # Escaped twice where the server escapes the attribute and then the whole DIDL-Lite.
                queue.append(html.unescape(html.unescape(found.decode())))
                result["containers"] += 1
            result["item_listings"] += len(ITEM.findall(data))
            start += returned
            if returned == 0 or start >= total:
                break
    result["walk_s"] = round(time.monotonic() - started, 3)
    if record:
        record.close()
    result["walk_http_s"] = round(waited, 3)
    result["walk_server_cpu_s"] = round((cpu_seconds(options.server_pid) or 0.0) - cpu_before, 4)
    result["search"] = {}
    for criteria in options.search:
        times, matches = [], None
        for _ in range(11):
            asked = time.monotonic()
            data = client.call("Search", ContainerID="0", SearchCriteria=criteria, Filter="*", StartingIndex=0,
                               RequestedCount=50, SortCriteria="")
            times.append(time.monotonic() - asked)
            matches = int(TOTAL.search(data).group(1))
        result["search"][criteria] = {"median_ms": round(statistics.median(times) * 1000, 2), "matches": matches}
    print(json.dumps(result))


main()
