#!/usr/bin/env python3
"""Saves every XML answer a control point gets from a MediaServer, as sent, for DLNASchemaTests to validate:
the device description, each service's SCPD, and the DIDL-Lite `Result` of BrowseMetadata and
BrowseDirectChildren of every container of the tree (walked whole) and of every item, and of Search.
Plain urllib, no UPnP library: what is saved is the server's text, not a library's reading of it.
dlna_dump.py LOCATION DIR [SEARCH ...]; prints how many files it wrote."""
import os, re, sys, urllib.request
import xml.etree.ElementTree as ET

location, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
base = re.match(r"(http://[^/]+)", location).group(1)
written = 0


def save(name, text):
    global written
    with open(os.path.join(out, f"{written:05d}-{name}.xml"), "w", encoding="utf-8") as f:
        f.write(text)
    written += 1


def get(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read().decode("utf-8")


description = get(location)
save("description", description)
ns = {"d": "urn:schemas-upnp-org:device-1-0"}
root = ET.fromstring(description)
control = None
for service in root.iterfind(".//d:service", ns):
    save("scpd", get(base + service.find("d:SCPDURL", ns).text))
    if service.find("d:serviceType", ns).text == "urn:schemas-upnp-org:service:ContentDirectory:1":
        control = base + service.find("d:controlURL", ns).text


def call(action, **arguments):
    body = "".join(f"<{k}>{v}</{k}>" for k, v in arguments.items())
    envelope = ('<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
                's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
                f'<u:{action} xmlns:u="urn:schemas-upnp-org:service:ContentDirectory:1">{body}</u:{action}></s:Body></s:Envelope>')
    request = urllib.request.Request(control, data=envelope.encode(), headers={
        "Content-Type": 'text/xml; charset="utf-8"', "SOAPACTION": f'"urn:schemas-upnp-org:service:ContentDirectory:1#{action}"'})
    with urllib.request.urlopen(request, timeout=30) as r:
        answer = ET.fromstring(r.read())
    return next(answer.iter("Result")).text


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


didl = {"d": "urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/"}
queue = ["0"]
while queue:
    cid = queue.pop(0)
    save("meta", call("Browse", ObjectID=escape(cid), BrowseFlag="BrowseMetadata", Filter="*", StartingIndex=0, RequestedCount=0, SortCriteria=""))
    children = call("Browse", ObjectID=escape(cid), BrowseFlag="BrowseDirectChildren", Filter="*", StartingIndex=0, RequestedCount=0, SortCriteria="")
    save("children", children)
    document = ET.fromstring(children)
    queue += [c.get("id") for c in document.iterfind("d:container", didl)]
    for item in document.iterfind("d:item", didl):
        save("item", call("Browse", ObjectID=escape(item.get("id")), BrowseFlag="BrowseMetadata", Filter="*", StartingIndex=0, RequestedCount=0, SortCriteria=""))
for criteria in sys.argv[3:]:
    save("search", call("Search", ContainerID="0", SearchCriteria=escape(criteria), Filter="*", StartingIndex=0, RequestedCount=0, SortCriteria=""))
print(written)
