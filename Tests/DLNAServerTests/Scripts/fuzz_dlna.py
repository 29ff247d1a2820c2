#!/usr/bin/env python3
"""A request fuzzer for mlib's DLNA server and the Subsonic server's public share links (issue 43; the
approach of Tests/SubsonicServerTests/Scripts/fuzz_requests.py): hostile requests, each in place of one
part of an otherwise valid one, so that they get past the first check. Checks: the server answers every
request (no dropped connection without an answer, no crash: it still answers afterwards), no 5xx for
malformed input, and no answer holds MARKER (written into files outside the library's roots, some of them
reached by symlinks inside the roots). Bounded: a fixed list of requests.

  fuzz_dlna.py dlna BASE_URL MARKER SECRET_FILE_URL   (SECRET_FILE_URL: an XML external entity's target)
  fuzz_dlna.py share BASE_URL MARKER SHARE_ID SONG_ID OTHER_SONG_ID SWAPPED_SONG_ID

UPnP answers a failed action with 500 and a SOAP fault (Device Architecture 1.0, 3.2.2): on a control
URL, a 500 is the answer only when its body is a UPnPError fault whose code says the call was at fault
(401, 402, 600-799); 501 "Action Failed" (the server's own failure) counts as a failure. 503 with
Retry-After is a transcode slot's answer by design. Prints a JSON summary; exits 1 when a check failed.
"""
import http.client
import json
import re
import socket
import sys
import urllib.parse

mode, base, marker = sys.argv[1], sys.argv[2], sys.argv[3].encode()
url = urllib.parse.urlparse(base)
host, port = url.hostname, url.port
summary = {"requests": 0, "status": {}, "failures": []}

HOSTILE_IDS = ["-1", "0", "99999999999999999999", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
               "1e3", "0x1", "+1", "%201", "1%20", "%31", "..", "../../../../etc/passwd", "%2e%2e/%2e%2e/etc/passwd",
               "1/../../../../etc/passwd", "1%00.mp3", "1%2f..%2f..%2fetc%2fpasswd", "%ff%fe", "%c3%28", "\u0663".encode().hex(),
               "%d9%a3", "%ef%bc%91", "1" * 400, "a" * 5000, "1.mp3.mp3", "1;rm", "1?x=../../etc/passwd", "1#x", "$", "0$1$i1"]
RANGES = ["bytes=", "bytes=-", "bytes=0-0", "bytes=-0", "bytes=5-2", "bytes=0-", "bytes=-1", "bytes=1-1",
          "bytes=0-9223372036854775807", "bytes=9223372036854775807-", "bytes=9223372036854775806-9223372036854775807",
          "bytes=-9223372036854775807", "bytes=-9223372036854775808", "bytes=0-99999999999999999999", "bytes=--1",
          "bytes=1--1", "bytes=0-1,2-3", "bytes=a-b", "bits=0-1", "bytes = 0-1", "bytes=0x10-", "bytes=\u0661-".encode().decode(),
          "bytes=" + "9" * 1000 + "-", "bytes=0-0" * 500]


def fail(what, **details):
    summary["failures"].append({"request": what[:300], **{k: str(v)[:300] for k, v in details.items()}})


def record(status):
    summary["status"][str(status)] = summary["status"].get(str(status), 0) + 1


def send(method, path, headers=None, body=None, control=False, expect=None, label=None):
    """One request on a new connection: checks its answer, returns (status, headers, body) or None."""
    summary["requests"] += 1
    what = f"{method} {path} {headers or ''} {label or (body[:120] if body else '')}"
    try:
        c = http.client.HTTPConnection(host, port, timeout=30)
        c.putrequest(method, path, skip_host=False, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            c.putheader(name, value.encode() if isinstance(value, str) else value)   # UTF-8 as it is, not latin-1
        if body is not None:
            c.putheader("Content-Length", str(len(body)))
        c.endheaders(body)
        r = c.getresponse()
        data = r.read()
        answer = (r.status, dict((k.lower(), v) for k, v in r.getheaders()), data)
        c.close()
    except Exception as error:
        fail(what, error=repr(error))
        alive(what)   # stops here when the server is gone: this request was the last it took
        return None
    record(answer[0])
    check(what, answer, control)
    if expect is not None and answer[0] not in expect:
        fail(what, status=answer[0], expected=expect)
    return answer


def check(what, answer, control=False):
    status, headers, data = answer
    if marker in data or any(marker.decode() in v for v in headers.values()):
        fail(what, error="an answer holds the marker of a file outside the roots", status=status)
    if status == 503 and "retry-after" in headers:
        return
    if status >= 500:
        code = re.search(rb"<errorCode>(\d+)</errorCode>", data)
        if control and status == 500 and code and (int(code.group(1)) in (401, 402) or 600 <= int(code.group(1)) < 800):
            return
        fault = re.search(rb"<errorCode>(\d+)</errorCode><errorDescription>(.{0,200})", data, re.S)
        fail(what, status=status, body=fault.group(1) + b" " + fault.group(2) if fault else data[:200])


def raw(text):
    """Bytes as they are (malformed HTTP): the server answers 4xx or closes, and still serves afterwards."""
    summary["requests"] += 1
    try:
        s = socket.create_connection((host, port), timeout=30)
        s.sendall(text)
        s.shutdown(socket.SHUT_WR)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
    except (ConnectionResetError, socket.timeout) as error:
        data = b""
    m = re.match(rb"HTTP/1\.[01] (\d{3})", data)
    if m:
        record(int(m.group(1)))
        if int(m.group(1)) >= 500 and b"Retry-After" not in data:
            fail(repr(text[:200]), status=m.group(1))
    if marker in data:
        fail(repr(text[:200]), error="an answer holds the marker of a file outside the roots")
    alive(repr(text[:120]))


def alive(after):
    try:
        c = http.client.HTTPConnection(host, port, timeout=30)
        c.request("GET", "/description.xml" if mode == "dlna" else "/rest/ping")
        c.getresponse().read()
        c.close()
    except Exception as error:
        fail(after, error="the server stopped answering: " + repr(error))
        print(json.dumps(summary))
        sys.exit(1)


def envelope(action, service, arguments):
    inner = "".join(f"<{k}>{v}</{k}>" for k, v in arguments)
    return ('<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" '
            's:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body>'
            f'<u:{action} xmlns:u="{service}">{inner}</u:{action}></s:Body></s:Envelope>').encode()


CD = "urn:schemas-upnp-org:service:ContentDirectory:1"
CM = "urn:schemas-upnp-org:service:ConnectionManager:1"
MS = "urn:microsoft.com:service:X_MS_MediaReceiverRegistrar:1"
CONTROLS = {"/ContentDirectory/control": CD, "/ConnectionManager/control": CM, "/X_MS_MediaReceiverRegistrar/control": MS}


def soap(path, action, service, arguments, raw_body=None):
    body = raw_body if raw_body is not None else envelope(action, service, arguments)
    label = repr(raw_body[:160]) if raw_body is not None else f"{action} " + repr([(k, v[:100]) for k, v in arguments])[:300]
    return send("POST", path, {"Content-Type": 'text/xml; charset="utf-8"', "SOAPACTION": f'"{service}#{action}"'}, body, control=True, label=label)


def dlna():
    alive("the start")
    browse = [("ObjectID", "0"), ("BrowseFlag", "BrowseDirectChildren"), ("Filter", "*"), ("StartingIndex", "0"),
              ("RequestedCount", "10"), ("SortCriteria", "")]
    search = [("ContainerID", "0"), ("SearchCriteria", "*"), ("Filter", "*"), ("StartingIndex", "0"),
              ("RequestedCount", "10"), ("SortCriteria", "")]
    # Real ids, found by browsing, so that hostile values get past the first check.
    answer = soap("/ContentDirectory/control", "Browse", CD, [(k, "1$all" if k == "ObjectID" else v) for k, v in browse])
    items = re.findall(rb'<item id="([^"]+)"', answer[2]) if answer else []
    item = items[0].decode() if items else "1$all$i1"
    media = re.findall(rb"/media/(\d+)\.\w+", answer[2]) if answer else []
    song = media[0].decode() if media else "1"
    containers = ["0", "1", "2", "3", "1$all", "1$albums", "1$artists", "1$genres", "1$years", "1$playlists", "2$all", "2$folders", "1$recent"]
    hostile_values = ["", " ", "-1", "4294967296", "99999999999999999999", "1e300", "NaN", "0x10", "+5", "&amp;&lt;", "<![CDATA[x]]>",
                      "a" * 20000, "\u202e" * 100, "&#0;", "&#xD800;", "$", "$$$$", "0$" * 1000, "1$albums$" + "f" * 64,
                      "1$artists$ffffffffffffffff$ffffffffffffffff$x", "1$playlists$-1", "1$playlists$99999999999999999999",
                      "2$folders$" + "0" * 16, "3$" + "%2e%2e", "../../etc/passwd", item + "$x", item]
    for name, _ in browse:
        for value in hostile_values:
            for flag in ("BrowseDirectChildren", "BrowseMetadata"):
                arguments = [(k, value if k == name else (flag if k == "BrowseFlag" else v)) for k, v in browse]
                soap("/ContentDirectory/control", "Browse", CD, arguments)
    for container in containers:
        for count in ("0", "1", "4294967295"):
            for start in ("0", "4294967295"):
                soap("/ContentDirectory/control", "Browse", CD, [(k, {"ObjectID": container, "RequestedCount": count, "StartingIndex": start}.get(k, v)) for k, v in browse])
        for sort in ("+", "-", ",", ",,,", "+dc:title,-upnp:artist", "+x:y", "-" * 5000, "+dc:title" * 2000, "+upnp:originalTrackNumber,-dc:date"):
            soap("/ContentDirectory/control", "Browse", CD, [(k, {"ObjectID": container, "SortCriteria": sort}.get(k, v)) for k, v in browse])
    criteria = ["", "*", "* and", "(", ")", "((((", "(" * 30000 + 'dc:title = "a"' + ")" * 30000, "(" * 60000,
                " and ".join(['dc:title = "a"'] * 2500), " or ".join(['dc:title contains "a"'] * 2500),
                'dc:title = "', 'dc:title = "a\\', 'dc:title = "\\"', 'dc:title contains ""', "dc:title exists maybe",
                'upnp:class derivedfrom "object.item"', 'upnp:class = "object.container.album.musicAlbum"',
                'dc:title <= "z" and dc:title >= "a"', "@id = \"0\"", 'res@size > "-1"', 'res@size > "99999999999999999999"',
                'dc:date > "not a date"', 'upnp:originalTrackNumber = "NaN"', 'x:y = "1"', 'dc:title = "%"', 'dc:title contains "_%\\\'"',
                'dc:title contains "' + "a" * 20000 + '"', 'dc:title = "\u0000"', 'dc:title = "&#1;"', 'dc:title != "a" or not a']
    for value in criteria:
        for container in ("0", "1$all", "1$albums", "3", "nope", item):
            soap("/ContentDirectory/control", "Search", CD, [(k, {"SearchCriteria": value, "ContainerID": container}.get(k, v)) for k, v in search])
    for name, _ in search:
        for value in hostile_values[:16]:
            soap("/ContentDirectory/control", "Search", CD, [(k, value if k == name else v) for k, v in search])
    # Malformed, oversized and garbage bodies, on every control URL, for every action they have and some they do not.
    entity = f'<!DOCTYPE x [<!ENTITY s SYSTEM "file:///etc/hostname"><!ENTITY m SYSTEM "{sys.argv[4] if len(sys.argv) > 4 else "file:///etc/passwd"}">]>'
    laughs = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">' + "".join(f'<!ENTITY {chr(98 + i)} "' + f"&{chr(97 + i)};" * 10 + '">' for i in range(9)) + "]>"
    bodies = [b"", b"garbage", b"<", b"<?xml version='1.0'?>", b"<s:Envelope>", b"\x00" * 1000, b"\xff\xfe<\x00",
              envelope("Browse", CD, browse)[:-20], b"<a>" * 20000, b"<a " + b'x="1" ' * 9000 + b"/>",
              envelope("Browse", CD, browse).replace(b"<s:Body>", b"<s:Body>" + b"<x>" * 3000),
              (entity + envelope("Browse", CD, [("ObjectID", "&m;")] + browse[1:]).decode().split("?>", 1)[1]).encode(),
              ('<?xml version="1.0"?>' + laughs + envelope("Browse", CD, [("ObjectID", "&j;")] + browse[1:]).decode().split("?>", 1)[1]).encode(),
              envelope("Browse", CD, browse).replace(b"utf-8", b"ebcdic"), envelope("Browse", CD, browse).decode().encode("utf-16"),
              envelope("Browse", CD, browse) + b"<trailing/>", envelope("Browse", CD, browse + browse),
              envelope("Browse", CD, browse).replace(b"http://schemas.xmlsoap.org/soap/envelope/", b"urn:x"),
              b"x" * 65536, b"<a>" + b"x" * 65530 + b"</a>"]
    for path, service in CONTROLS.items():
        for body in bodies:
            soap(path, "Browse", service, [], raw_body=body)
        for action in ["Browse", "Search", "GetSearchCapabilities", "GetSortCapabilities", "GetSystemUpdateID", "GetProtocolInfo",
                       "GetCurrentConnectionIDs", "GetCurrentConnectionInfo", "IsAuthorized", "IsValidated", "RegisterDevice",
                       "Nope", "", "a" * 5000, "x:y", "Browse Browse"]:
            soap(path, action, service, [])
            soap(path, action, service, [("ConnectionID", "-1"), ("DeviceID", "x" * 5000), ("RegistrationReqMsg", "&lt;x")])
    for name, value in [("SOAPACTION", ""), ("SOAPACTION", "garbage"), ("SOAPACTION", '"' + CD + '#Nope"'), ("Content-Type", "application/x-nope")]:
        send("POST", "/ContentDirectory/control", {name: value}, envelope("Browse", CD, browse), control=True)
    # GENA: SUBSCRIBE/UNSUBSCRIBE with bad headers.
    me = socket.create_connection((host, port)).getsockname()[0]
    for path in ["/ContentDirectory/event", "/ConnectionManager/event", "/X_MS_MediaReceiverRegistrar/event", "/nope/event", "/"]:
        for headers in [{}, {"NT": "upnp:event"}, {"CALLBACK": f"<http://{me}:1/>"}, {"NT": "upnp:event", "CALLBACK": "garbage"},
                        {"NT": "upnp:event", "CALLBACK": "<"}, {"NT": "upnp:event", "CALLBACK": "<>"}, {"NT": "upnp:event", "CALLBACK": "<http://[::1>"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:99999999/>"}, {"NT": "upnp:event", "CALLBACK": f"<http://{me}:65536/>"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:-1/>"}, {"NT": "upnp:event", "CALLBACK": f"<http://{me}:0/>"},
                        {"NT": "upnp:event", "CALLBACK": f"<ftp://{me}/>"}, {"NT": "upnp:event", "CALLBACK": "<http://127.0.0.1:22/>"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:1/" + "a" * 5000 + ">"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:1/>", "TIMEOUT": "Second-infinite"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:1/>", "TIMEOUT": "Second--5"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:1/>", "TIMEOUT": "Second-99999999999999999999"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:1/>", "TIMEOUT": "Second--9223372036854775808"},
                        {"NT": "upnp:event", "CALLBACK": f"<http://{me}:1/>", "TIMEOUT": "Second-9223372036854775807"},
                        {"SID": "uuid:nope"}, {"SID": ""}, {"SID": "uuid:nope", "NT": "upnp:event"}, {"SID": "x" * 5000, "TIMEOUT": "Second-5"}]:
            for method in ("SUBSCRIBE", "UNSUBSCRIBE"):
                send(method, path, headers)
    # A real subscription renewed and ended with hostile timeouts, then ended twice.
    answer = send("SUBSCRIBE", "/ContentDirectory/event", {"NT": "upnp:event", "CALLBACK": f"<http://{me}:9/>", "TIMEOUT": "Second-60"})
    sid = answer[1].get("sid") if answer else None
    if sid:
        for timeout in ["Second-9223372036854775807", "Second--9223372036854775808", "Second-", "infinite", ""]:
            send("SUBSCRIBE", "/ContentDirectory/event", {"SID": sid, "TIMEOUT": timeout})
        send("UNSUBSCRIBE", "/ContentDirectory/event", {"SID": sid}, expect=(200,))
        send("UNSUBSCRIBE", "/ContentDirectory/event", {"SID": sid}, expect=(412,))
    # Files: hostile ids on every file route, Range edge cases, HEAD, and methods no route has.
    for prefix, suffix in [("/media/", ".mp3"), ("/transcode/", ".mp3"), ("/transcode/", ".lpcm"), ("/thumb/", ".jpg"),
                           ("/subtitle/", ".srt"), ("/art/", ".jpg"), ("/icons/", ".png")]:
        for value in HOSTILE_IDS:
            for method in ("GET", "HEAD"):
                send(method, prefix + value + suffix)
                send(method, prefix + value)
        send("GET", prefix)
        send("GET", prefix + "../../../../etc/passwd")
    for number in range(1, 40):   # every item the test's library holds, on every route: none may leak
        for prefix, suffix in [("/media/", ""), ("/thumb/", ".jpg"), ("/subtitle/", ".srt"), ("/art/", ".jpg"), ("/transcode/", ".lpcm")]:
            send("GET", f"{prefix}{number}{suffix}")
    for value in RANGES:
        for method in ("GET", "HEAD"):
            send(method, f"/media/{song}.mp3", {"Range": value})
            send(method, f"/transcode/{song}.mp3", {"Range": value})
            send(method, f"/subtitle/{song}.srt", {"Range": value})
    for method in ["PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "NOTIFY", "M-SEARCH", "PROPFIND", "BREW"]:
        send(method, "/description.xml")
        send(method, f"/media/{song}.mp3")
    for value in ["/", "//", "/description.xml/..", "/description.xml%00", "/ContentDirectory/scpd.xml/../../x", "*", "/%", "/%zz",
                  "/" + "a" * 8000, "/media/" + "/" * 5000]:
        send("GET", value)
    # Malformed HTTP, as bytes.
    for text in [b"\r\n\r\n", b"GARBAGE\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X: y\r\n" * 5000 + b"\r\n",
                 b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
                 b"POST /ContentDirectory/control HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
                 b"POST /ContentDirectory/control HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nxx\r\n0\r\n\r\n",
                 b"POST /ContentDirectory/control HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
                 b"GET /media/" + song.encode() + b".mp3 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9223372036854775807\r\n\r\n",
                 b"GET /description.xml HTTP/1.1\r\nHost: x\r\n\r\n" * 50, b"GET /description.xml HTTP/1.0\r\n\r\n",
                 b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + b"\x00" * 200, b"GET / HTTP/1.1\r\nHost: x\r\nX: \xff\xfe\r\n\r\n"]:
        raw(text)
    alive("the end")


def share():
    share_id, song, other, swapped = sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
    alive("the start")
    send("GET", f"/share/{share_id}", expect=(200,))
    send("GET", f"/share/{share_id}/{song}", expect=(200,))
    send("GET", f"/share/{share_id}/{other}", expect=(404,))
    # A shared song's file swapped for a symlink out of the roots after the scan: not sent.
    send("GET", f"/share/{share_id}/{swapped}", expect=(404,))
    send("GET", f"/share/{share_id}/{swapped}", {"Range": "bytes=0-"}, expect=(404,))
    for value in HOSTILE_IDS + [share_id + "x", share_id.upper(), share_id + "/..", share_id + "/" + song + "/x", "%00"]:
        for method in ("GET", "HEAD"):
            send(method, f"/share/{value}")
            send(method, f"/share/{share_id}/{value}")
            send(method, f"/share/{value}/{song}")
    for value in RANGES:
        for method in ("GET", "HEAD"):
            send(method, f"/share/{share_id}/{song}", {"Range": value})
    for method in ["POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "PROPFIND"]:
        send(method, f"/share/{share_id}")
        send(method, f"/share/{share_id}/{song}", body=b"x" * 100)
    for value in ["/share", "/share/", "/share//", "/share/" + share_id + "//" + song, "/share/%2e%2e/%2e%2e/etc/passwd",
                  "/share/" + share_id + "/%2e%2e%2f" + song, "/share/" + "a" * 8000, "/share/" + "/" * 5000]:
        send("GET", value)
    for text in [b"GET /share/" + share_id.encode() + b" HTTP/1.1\r\nHost: x\r\n" + b"X: y\r\n" * 5000 + b"\r\n",
                 b"GET /share/" + share_id.encode() + b"/" + song.encode() + b" HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9223372036854775807\r\n\r\n",
                 b"GET /share/" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"GARBAGE /share/ x\r\n\r\n"]:
        raw(text)
    alive("the end")


dlna() if mode == "dlna" else share()
print(json.dumps(summary))
sys.exit(1 if summary["failures"] else 0)
