#!/usr/bin/env python3
"""A real UPnP control point (async-upnp-client, the library behind Home Assistant's DLNA integration)
against mlib's DLNA server: discovers it by SSDP from this network namespace, browses every container
(metadata and children, paged), streams a track whole and by Range, fetches art, searches, asks for an
object that does not exist, and (with --events) subscribes and waits for SystemUpdateID to change after
the test adds and scans a file. Prints one JSON object; the Swift test judges it."""
import argparse, asyncio, hashlib, json, os, sys, time

import aiohttp
from async_upnp_client.aiohttp import AiohttpNotifyServer, AiohttpRequester
from async_upnp_client.client_factory import UpnpFactory
from async_upnp_client.exceptions import UpnpActionResponseError, UpnpError
from async_upnp_client.profiles.dlna import DmsDevice
from async_upnp_client.search import async_search


async def discover(source, target, timeout):
    found = []

    async def seen(headers):
        found.append({"st": headers.get("ST"), "usn": headers.get("USN"), "location": headers.get("LOCATION")})

    await async_search(seen, timeout=timeout, search_target=target, source=(source, 0))
    return found


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True, help="this namespace's address")
    parser.add_argument("--page", type=int, default=7, help="RequestedCount of each Browse (paging)")
    parser.add_argument("--search", action="append", default=[])
    parser.add_argument("--events", help="a marker file written once subscribed; then wait for SystemUpdateID to move")
    args = parser.parse_args()
    out = {}

    media_servers = await discover(args.source, "urn:schemas-upnp-org:device:MediaServer:1", 2)
    out["discovered"] = media_servers
    out["all"] = sorted({r["st"] for r in await discover(args.source, "ssdp:all", 2)})
    if not media_servers:
        print(json.dumps(out))
        return
    location = media_servers[0]["location"]

    requester = AiohttpRequester(timeout=10)
    factory = UpnpFactory(requester, non_strict=False)
    device = await factory.async_create_device(location)
    out["friendlyName"] = device.friendly_name
    out["icons"] = [{"url": i.url, "width": i.width} for i in device.icons]
    notify = None
    if args.events:
        notify = AiohttpNotifyServer(requester, source=(args.source, 0))
        await notify.async_start_server()
    dms = DmsDevice(device, notify.event_handler if notify else None)
    await dms.async_update()
    out["systemUpdateID"] = dms.system_update_id
    out["searchCaps"] = dms.search_capabilities
    out["sortCaps"] = dms.sort_capabilities
    cm = device.service("urn:schemas-upnp-org:service:ConnectionManager:1")
    info = await cm.action("GetProtocolInfo").async_call()
    out["protocolInfo"] = info["Source"].split(",")
    registrar = device.service("urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1")
    out["isAuthorized"] = (await registrar.action("IsAuthorized").async_call(DeviceID=""))["Result"]

    # The whole tree, breadth first; each container's children in pages of --page.
    containers, items, calls = {}, {}, 0
    queue = ["0"]
    walk_started = time.monotonic()
    while queue:
        cid = queue.pop(0)
        meta = await dms.async_browse_metadata(cid)
        calls += 1
        children, start, total = [], 0, None
        while total is None or start < total:
            page = await dms.async_browse_direct_children(cid, starting_index=start, requested_count=args.page)
            calls += 1
            total = page.total_matches
            children += page.result
            start += page.number_returned
            if page.number_returned == 0:
                break
        containers[cid] = {"title": meta.title, "childCount": int(getattr(meta, "child_count", -1) or -1),
                           "children": len(children), "total": total, "class": meta.upnp_class}
        for child in children:
            if child.upnp_class.startswith("object.container"):
                queue.append(child.id)
            else:
                res = child.res[0]
                items[child.id] = {"title": child.title, "parent": child.parent_id, "url": res.uri, "size": int(res.size or -1),
                                   "protocolInfo": res.protocol_info, "duration": res.duration,
                                   "art": getattr(child, "album_art_uri", None), "class": child.upnp_class}
    out["containers"] = containers
    out["items"] = items
    out["browseCalls"] = calls
    out["walkSeconds"] = round(time.monotonic() - walk_started, 3)

    # Sorted children: All Tracks by title, descending.
    sorted_page = await dms.async_browse_direct_children("1$all", sort_criteria="-dc:title")
    out["sortedTitles"] = [o.title for o in sorted_page.result]

    # An object that is not there: UPnP error 701.
    try:
        await dms.async_browse_metadata("1$albums$0000000000000000")
        out["missingError"] = None
    except UpnpActionResponseError as error:
        out["missingError"] = error.error_code
    except UpnpError as error:
        out["missingError"] = str(error)

    # Streams: the first audio track whole, by Range, and by HEAD; its art.
    async with aiohttp.ClientSession() as session:
        track = next((i for i in items.values() if i["class"].startswith("object.item.audioItem")), None)
        if track:
            async with session.get(track["url"]) as r:
                body = await r.read()
                out["stream"] = {"url": track["url"], "status": r.status, "sha256": hashlib.sha256(body).hexdigest(), "length": len(body),
                                 "contentFeatures": r.headers.get("contentFeatures.dlna.org"), "transferMode": r.headers.get("transferMode.dlna.org")}
            async with session.get(track["url"], headers={"Range": "bytes=100-1099"}) as r:
                part = await r.read()
                out["range"] = {"status": r.status, "contentRange": r.headers.get("Content-Range"), "equal": part == body[100:1100]}
            async with session.head(track["url"]) as r:
                out["head"] = {"status": r.status, "length": r.headers.get("Content-Length")}
        arts = [i["art"] for i in items.values() if i["art"]]
        out["art"] = []
        for url in sorted(set(arts)):
            async with session.get(url) as r:
                out["art"].append({"url": url, "status": r.status, "type": r.headers.get("Content-Type"), "length": len(await r.read())})

    out["searches"] = {}
    for criteria in args.search:
        try:
            started = time.monotonic()
            result = await dms.async_search_directory("0", criteria)
            out.setdefault("searchMilliseconds", {})[criteria] = round((time.monotonic() - started) * 1000, 1)
            out["searches"][criteria] = sorted(o.title for o in result.result)
        except UpnpActionResponseError as error:
            out["searches"][criteria] = {"error": error.error_code}

    if args.events:
        seen = []
        dms.on_event = lambda service, variables: seen.extend((v.name, v.value) for v in variables)
        await dms.async_subscribe_services(auto_resubscribe=False)
        await asyncio.sleep(0.5)
        first = dms.system_update_id
        with open(args.events, "w") as marker:
            marker.write("subscribed\n")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and dms.system_update_id == first:
            await asyncio.sleep(0.1)
        out["events"] = {"before": first, "after": dms.system_update_id, "seen": seen,
                         "containerUpdateIDs": dms.container_update_ids}
        await dms.async_unsubscribe_services()
        await notify.async_stop_server()
    await requester.async_close() if hasattr(requester, "async_close") else None
    print(json.dumps(out))


asyncio.run(main())
