"""Validation of Subsonic JSON answers against the OpenSubsonic OpenAPI description (Fixtures/openapi),
shared by the test clients in this folder."""
import json, pathlib, urllib.parse

from openapi_schema_validator import OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012


class Validator:
    def __init__(self, openapi_dir):
        self.openapi = pathlib.Path(openapi_dir).resolve()

        def retrieve(uri):
            path = urllib.parse.urlparse(uri).path
            return Resource.from_contents(json.loads(pathlib.Path(path).read_text()), default_specification=DRAFT202012)

        self.registry = Registry(retrieve=retrieve)

    def problem(self, method, document):
        """None when a whole JSON answer ({"subsonic-response": …}) matches the method's 200 response schema,
        else what does not."""
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
