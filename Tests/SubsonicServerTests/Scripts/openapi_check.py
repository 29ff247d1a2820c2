"""Validation of Subsonic JSON answers against the OpenSubsonic OpenAPI description (Fixtures/openapi),
shared by the test clients in this folder."""
import hashlib, json, pathlib, sys, urllib.error, urllib.parse, urllib.request

from openapi_schema_validator import OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012


def gain_as_volume(document):
    """OpenSubsonic's OpenAPI description names the jukebox's gain `volume`, typed an integer from 0 to 1; its
    own docs (responses/jukeboxstatus), the Subsonic 1.16.1 XSD and the clients (DSub's JukeboxStatusParser,
    py-sonic, Ultrasonic's JukeboxStatus.kt) say `gain`, a float, which is what the server sends. Only the
    validated copy gets a `volume`."""
    copy = json.loads(json.dumps(document))
    for key in ("jukeboxStatus", "jukeboxPlaylist"):
        if key in copy["subsonic-response"]:
            copy["subsonic-response"][key]["volume"] = round(copy["subsonic-response"][key]["gain"])
    return copy


class Validator:
    def __init__(self, openapi_dir):
        self.openapi = pathlib.Path(openapi_dir).resolve()

        def retrieve(uri):
            path = urllib.parse.urlparse(uri).path
            return Resource.from_contents(json.loads(pathlib.Path(path).read_text()), default_specification=DRAFT202012)

        self.registry = Registry(retrieve=retrieve)

    def problem(self, method, document):
        """None when a whole JSON answer ({"subsonic-response": …}) matches the method's 200 response schema,
        else what does not. Two known differences are allowed for: the jukebox's `gain` (`gain_as_volume`), and
        a play queue never saved, which answers an empty "ok" as Subsonic's own server and Navidrome do, where
        the description requires the element."""
        if method == "jukeboxControl":
            document = gain_as_volume(document)
        inside = document.get("subsonic-response", {})
        queue = {"getPlayQueue": "playQueue", "getPlayQueueByIndex": "playQueueByIndex"}.get(method)
        if queue and inside.get("status") == "ok" and queue not in inside:
            return None
        endpoint = self.openapi / "endpoints" / f"{method}.json"
        spec = json.loads(endpoint.read_text())
        operation = spec.get("get") or spec.get("post")
        response, where = operation["responses"]["200"], endpoint.parent
        if "$ref" in response:   # a shared response (ping, scrobble…: EmptySubsonicResponse)
            where = (where / response["$ref"]).resolve()
            response, where = json.loads(where.read_text()), where.parent
        ref = response["content"]["application/json"]["schema"]["$ref"]
        schema_uri = (where / ref).resolve().as_uri()
        validator = OAS31Validator({"$ref": schema_uri}, registry=self.registry)
        errors = sorted(validator.iter_errors(document), key=lambda e: e.path)
        if not errors:
            return None
        from jsonschema.exceptions import best_match
        error = best_match(errors)
        return (f"{method}: answer does not match the OpenSubsonic schema: {error.message} at {list(error.absolute_path)}\n"
                f"{json.dumps(document)[:2000]}")


class Caller:
    """JSON calls with token authentication, each answer validated and required to be "ok"; a failed check
    ends the script with exit status 1 and the reason on standard error."""

    def __init__(self, port, user, password, openapi_dir, client="test", version="1.16.1", suffix=".view"):
        self.base = f"http://127.0.0.1:{port}/rest"
        self.user, self.password, self.client, self.version, self.suffix = user, password, client, version, suffix
        self.validator = Validator(openapi_dir)
        self.errors = {}

    def attempt(self, method, **params):
        """A replayed client's call: an error answer is recorded in `errors` (method → code) and answers None,
        so a replay lists every call that failed; an "ok" answer is validated and its inside returned."""
        salt = "5a17"
        query = dict(u=self.user, t=hashlib.md5((self.password + salt).encode()).hexdigest(), s=salt, v=self.version,
                     c=self.client, f="json", **{k: v for k, v in params.items() if v is not None})
        url = f"{self.base}/{method}{self.suffix}?" + urllib.parse.urlencode(query, doseq=True)
        with urllib.request.urlopen(url, timeout=30) as response:
            document = json.load(response)
        inside = document["subsonic-response"]
        if inside["status"] != "ok":
            self.errors[method] = inside.get("error", {}).get("code")
            return None
        problem = self.validator.problem(method, document)
        self.expect(problem is None, problem)
        return inside

    @staticmethod
    def fail(message):
        print(f"FAILED: {message}", file=sys.stderr)
        sys.exit(1)

    def expect(self, condition, message):
        if not condition:
            self.fail(message)

    def call(self, method, auth=None, client=None, **params):
        """`auth` replaces the token (e.g. {"apiKey": …}); returns the inside of subsonic-response."""
        salt = "5a17"
        query = auth or {"u": self.user, "t": hashlib.md5((self.password + salt).encode()).hexdigest(), "s": salt}
        query = dict(query, v=self.version, c=client or self.client, f="json", **{k: v for k, v in params.items() if v is not None})
        url = f"{self.base}/{method}.view?" + urllib.parse.urlencode(query, doseq=True)
        try:
            with urllib.request.urlopen(url, timeout=20) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        self.expect(status == 200, f"{method} {params}: HTTP {status} {body[:300]}")
        document = json.loads(body)
        problem = self.validator.problem(method, document)
        self.expect(problem is None, problem)
        inside = document["subsonic-response"]
        self.expect(inside["status"] == "ok", f"{method} {params}: {inside.get('error')}")
        return inside
