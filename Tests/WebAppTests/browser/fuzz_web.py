#!/usr/bin/env python3
"""A request fuzzer for the web app's side of `mlib serve --http` (issue 45; the Subsonic API's is
Tests/SubsonicServerTests/Scripts/fuzz_requests.py): every `/api/` call with hostile query parameters, JSON
bodies (wrong types, huge, nested, not JSON, not UTF-8), methods and headers (cookie, CSRF token, Origin,
Host, If-None-Match, Accept-Encoding), `/app/` file names that try to climb out, and malformed requests on
a raw socket; logged in as an ordinary user (not an admin), then without a session.

  fuzz_web.py PORT USER PASSWORD [quick|full]

Checks: no 5xx, no dropped connection (the server answers the next request), every `/api/` answer that
has a body is JSON, no file outside the embedded assets is served, no state change without the CSRF token,
an ordinary user never starts a scan. Prints a JSON summary; exits 1 when a check failed. Loopback only,
bounded (a fixed list of requests).
"""
import http.client
import json
import socket
import sys
import urllib.parse

port, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3]
mode = sys.argv[4] if len(sys.argv) > 4 else "quick"
host = f"127.0.0.1:{port}"
summary = {"requests": 0, "status": {}, "failures": []}
conn = None

# Already %-escaped where the bytes are hostile (http.client refuses raw control bytes in a path).
HOSTILE = ["-1", "-9223372036854775809", "9223372036854775808", "99999999999999999999999", "1e300", "NaN", "inf",
           "", "%20", "+", "0x10", "1.5", "%00", "%ff%fe%80", "%c3%28", "%", "%%", "%zz", "../../../../etc/passwd",
           "a" * 10_000, "%e2%80%ae" * 100, "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "9" * 400]
# The query language's edges: unbalanced, deep, huge numbers, empty fields, every operator.
QUERIES = ["(", ")", "((((", "(" * 2000 + "a" + ")" * 2000, "NOT%20" * 500 + "a", "a%20OR%20" * 500 + "b", "year:1..",
           "year:..", "year:99999999999999999999..1", "rating>=1e300", "rating%20%3E%3D%20-1", "artist:", ":", "::::",
           "%22", "%22unclosed", "title:%22%5C", "added:-1d", "added:99999999999y", "length:1:99:99", "length:-5",
           "plays%3E", "%3C%3E%3D!~", "path:%2F..%2F..%2Fetc", "genre:%00", "a%20AND%20AND%20b", "OR", "AND", "NOT",
           "bpm:NaN", "disc:1e400", "format:%ff", "%E2%80%8B" * 50, "last_played%3Ctoday"]
SORTS = ["-", "--year", "nosuchkey", "year,year,year,year", ",", "-," * 100, "path%00", "rating%20desc", "a" * 5000, "%ff"]
JSON_VALUES = [None, True, 0, -1, 1e308, -1e308, 2 ** 64, 1.5, "", "a" * 70_000, "\u0000", "\ud800", "<script>",
               [], [1, 2], {}, {"a": {"b": {"c": []}}}, "((((", "year:1..", "NOT NOT NOT"]


def connection():
    global conn
    if conn is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    return conn


def send(method, path, body=None, headers=None):
    """One request (retried once on a closed keep-alive connection): status, headers, body."""
    global conn
    for attempt in range(2):
        try:
            c = connection()
            c.request(method, path, body=body, headers=headers or {})
            response = c.getresponse()
            data = response.read()
            if response.getheader("Connection", "").lower() == "close":
                c.close()
                conn = None
            return response.status, {k.lower(): v for k, v in response.getheaders()}, data
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, http.client.CannotSendRequest,
                http.client.ResponseNotReady):
            if conn is not None:
                conn.close()
            conn = None
            if attempt == 1:
                raise


def fail(what, **details):
    summary["failures"].append({"request": what[:300], **{k: str(v)[:300] for k, v in details.items()}})


def check(method, path, body=None, headers=None, expect=None):
    """A request and the checks every answer passes; the answer's JSON (or None)."""
    summary["requests"] += 1
    what = f"{method} {path}"
    try:
        status, fields, data = send(method, path, body, headers)
    except Exception as error:   # the server went away: the worst failure
        fail(what, error=repr(error))
        return None
    summary["status"][str(status)] = summary["status"].get(str(status), 0) + 1
    if status >= 500:
        fail(what, status=status, body=data[:200])
    if expect is not None and status not in expect:
        fail(what, status=status, expected=sorted(expect), body=data[:200])
    if b"root:x:0:0" in data or b"swift-tools-version" in data:
        fail(what, error="a file outside the embedded assets was served")
    if path.startswith("/api/") and data and fields.get("content-type", "").startswith("application/json"):
        try:
            return json.loads(data)
        except ValueError as error:
            fail(what, error=f"invalid JSON: {error}")
    elif path.startswith("/api/") and data and "event-stream" not in fields.get("content-type", ""):
        fail(what, error=f"an /api/ answer that is not JSON ({fields.get('content-type')})")
    return None


def login(name, secret):
    """The session cookie and CSRF token of a login."""
    status, fields, data = send("POST", "/api/login", json.dumps({"user": name, "password": secret}),
                                {"Content-Type": "application/json"})
    if status != 200:
        raise SystemExit(f"login as {name}: {status} {data[:200]!r}")
    return fields["set-cookie"].split(";")[0], json.loads(data)["csrf"]


cookie, csrf = login(user, password)
READ = {"Cookie": cookie}
WRITE = {"Cookie": cookie, "X-CSRF-Token": csrf, "Origin": f"http://{host}", "Content-Type": "application/json"}
CALLS = ["session", "logout", "query", "smart-preview", "smart-playlists", "status", "scan", "events", "login"]

# 1. /api/query: one hostile value at a time in q, sort, offset, limit; every query-language edge.
valid = {"q": "a", "sort": "title", "offset": "0", "limit": "5"}
for name in valid:
    for value in HOSTILE + (QUERIES if name == "q" else SORTS if name == "sort" else []):
        pairs = [(n, v) for n, v in valid.items() if n != name] + [(name, value)]
        check("GET", "/api/query?" + "&".join(f"{n}={v}" for n, v in pairs), headers=READ, expect={200, 400})
    check("GET", "/api/query?" + "&".join(f"{n}={v}" for n, v in valid.items()) + f"&{name}=-1&{name}=%ff", headers=READ,
          expect={200, 400})

# 2. JSON bodies: each field of a valid body replaced by a hostile JSON value, fields missing, bodies that are
#    not JSON objects, not JSON, not UTF-8, too large.
BODIES = {"smart-preview": {"rule": "a", "sort": "title", "limit": 3},
          "smart-playlists": {"name": "fuzz", "rule": "a", "sort": "title"}}
made = 0
for call, body in BODIES.items():
    for field in body:
        for value in JSON_VALUES + [urllib.parse.unquote(q) for q in QUERIES]:
            given = dict(body, **{field: value})
            if call == "smart-playlists" and field != "name":
                made += 1
                given["name"] = f"fuzz {made}"
            check("POST", f"/api/{call}", json.dumps(given), WRITE, expect={200, 201, 400, 409, 413})
        check("POST", f"/api/{call}", json.dumps({k: v for k, v in body.items() if k != field}), WRITE, expect={200, 201, 400, 409})
    for raw in [b"", b"null", b"[]", b"1", b'"a"', b"{", b"{}" * 1000, b"\xff\xfe\x00", b'{"rule":"\xff"}', b"[" * 10_000,
                b'{"rule":' * 5000, b"x" * (70 * 1024), json.dumps(body).encode() + b"trailing"]:
        check("POST", f"/api/{call}", raw, WRITE, expect={200, 201, 400, 409, 413})

# 3. Every call with every method; unknown and hostile call names; query strings where none is read.
for call in CALLS + ["", "nosuchcall", "..%2F..%2Frest%2Fping", "%00", "a" * 5000, "query%00", "session/extra", "%2e%2e"]:
    for method in ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]:
        if call in ("logout", "events") or (call == "scan" and method == "POST") or (call == "login" and method == "POST"):
            continue   # logout ends the session, events streams, login is fuzzed last: each below
        check(method, f"/api/{call}", b"{}" if method in ("POST", "PUT", "PATCH") else None, WRITE)
    if call != "events":
        check("GET", f"/api/{call}?" + "&".join(f"x{i}=%ff" for i in range(200)), headers=READ)

# 4. Rights: an ordinary user never scans, whatever the headers; no state change without the CSRF token or
#    from another origin.
check("POST", "/api/scan", b"", WRITE, expect={403})
for headers in [READ, dict(READ, **{"X-CSRF-Token": ""}), dict(READ, **{"X-CSRF-Token": csrf + "0"}),
                dict(WRITE, Origin="http://evil.example"), dict(WRITE, Origin="null"), dict(WRITE, Origin=f"http://{host}.evil"),
                dict(WRITE, Origin="http://" + "a" * 8000), dict(WRITE, Origin="%ff")]:
    check("POST", "/api/smart-playlists", json.dumps({"name": "never", "rule": "a"}), headers, expect={403})
    check("POST", "/api/scan", b"", headers, expect={403})

# 5. Hostile headers on reads and on the page's files.
for name, values in {"Cookie": ["", "mlib_session=", "mlib_session=" + "0" * 64, "mlib_session=" + "a" * 10_000,
                                ";;;;", "=" * 100, f"{cookie}; {cookie}; mlib_session=bad", "mlib_session=%ff%00"],
                     "If-None-Match": ["*", '"' * 500, ",,,,", "W/" * 1000],
                     "Accept-Encoding": ["gzip;q=NaN", "gzip;q=-1", ",,,," * 500, "*", "identity;q=0, *;q=0"],
                     "X-Forwarded-Proto": ["https" * 2000, "%ff"],
                     "Host": ["", "a" * 8000, "127.0.0.1:99999", "[::1", "evil.example"]}.items():
    for value in values:
        for path in ["/", "/app/app.js", "/api/session", "/api/query?q=a"]:
            headers = dict(READ) if name != "Cookie" else {}
            headers[name] = value
            check("GET", path, headers=headers)

# 6. /app/ names that try to leave the embedded files.
for name in ["../Package.swift", "..%2FPackage.swift", "%2e%2e/%2e%2e/%2e%2e/etc/passwd", "..%2f..%2f..%2fetc%2fpasswd",
             "/etc/passwd", "//etc/passwd", "%2Fetc%2Fpasswd", "....//....//etc/passwd", "app.js%00.css", "app.js/..",
             ".", "..", "", "a" * 5000, "%ff", "index.html?x=%00", "..\\..\\Package.swift", "app.js%2F..%2F..%2FPackage.swift"]:
    for method in ["GET", "HEAD"]:
        check(method, "/app/" + name, headers=READ)

# 7. Malformed requests on a raw socket: the server answers or closes, and keeps serving.
RAW = [b"GET /api/session HTTP/1.1\r\nHost: x\r\nCookie: " + cookie.encode() + b"\r\nContent-Length: -1\r\n\r\n",
       b"POST /api/smart-preview HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n{",
       b"POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
       b"GET /api/\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n", b"GET /app/../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
       b"GET /api/query?q=\x00 HTTP/1.1\r\nHost: x\r\n\r\n", b"\r\n\r\n\r\n", b"GET " + b"/" * 20_000 + b" HTTP/1.1\r\n\r\n",
       b"GET / HTTP/1.1\r\n" + b"X: y\r\n" * 2000 + b"\r\n"]
for raw in RAW:
    summary["requests"] += 1
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(raw)
            s.shutdown(socket.SHUT_WR)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        if answer.split(b" ", 2)[1:2] and answer.split(b" ", 2)[1].startswith(b"5"):
            fail(f"raw {raw[:60]!r}", status=answer[:40])
        if b"root:x:0:0" in answer:
            fail(f"raw {raw[:60]!r}", error="a file outside the embedded assets was served")
    except (ConnectionResetError, socket.timeout):
        pass   # closing on garbage is an answer; the next request shows the server is still there
    check("GET", "/api/session", headers=READ, expect={200})

# 8. The event stream: opened with hostile headers and dropped at once, many times.
for i in range(20 if mode == "quick" else 200):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\nLast-Event-ID: {'9' * (i * 50)}\r\n\r\n".encode())
            head = s.recv(4096)
            if not head.startswith(b"HTTP/1.1 200"):
                fail("GET /api/events", status=head[:40])
    except OSError as error:
        fail("GET /api/events", error=repr(error))
    summary["requests"] += 1

# 9. Without a session: every call refused (401), the page's files still served.
for call in CALLS[:-1]:
    for method in ["GET", "POST"]:
        check(method, f"/api/{call}", b"{}" if method == "POST" else None, {"Content-Type": "application/json"}, expect={401, 405})
check("GET", "/", expect={200})

# 10. Login, last (failures start the throttle): hostile bodies and credentials; then the session still works,
#     and logout ends it.
for raw in [b"", b"{}", b"[]", b'{"user":null,"password":null}', b'{"user":1,"password":[]}', b"\xff" * 100, b"x" * (70 * 1024),
            json.dumps({"user": "a" * 60_000, "password": "b"}).encode(), json.dumps({"user": user, "password": "\u0000"}).encode(),
            json.dumps({"user": "' OR 1=1 --", "password": "x"}).encode(), json.dumps({"user": user + "\u0000", "password": password}).encode()]:
    check("POST", "/api/login", raw, {"Content-Type": "application/json"}, expect={400, 401, 413, 429})
check("GET", "/api/session", headers=READ, expect={200})
check("POST", "/api/logout", b"", WRITE, expect={204})
check("GET", "/api/session", headers=READ, expect={401})

print(json.dumps(summary))
sys.exit(1 if summary["failures"] else 0)
