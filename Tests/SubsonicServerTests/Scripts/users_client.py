#!/usr/bin/env python3
"""The household's accounts through the API: an admin (USER) and an ordinary user (bob, password bobpass)
call getUser(s), createUser, updateUser, deleteUser and changePassword; every answer validated against the
OpenAPI description. Prints what each call answered (ok or the error code) as JSON."""
import hashlib, json, sys, urllib.parse, urllib.request

from openapi_check import Validator

port, admin, admin_password, openapi = sys.argv[1:5]
validator = Validator(openapi)
passwords = {admin: admin_password, "bob": "bobpass"}


def call(as_user, method, **params):
    salt = "0ff1ce"
    query = {"u": as_user, "t": hashlib.md5((passwords[as_user] + salt).encode()).hexdigest(), "s": salt,
             "v": "1.16.1", "c": "test", "f": "json", **params}
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rest/{method}?" + urllib.parse.urlencode(query), timeout=20) as response:
        document = json.loads(response.read())
    problem = validator.problem(method, document)
    if problem:
        print(f"FAILED: {problem}", file=sys.stderr)
        sys.exit(1)
    inside = document["subsonic-response"]
    return inside if inside["status"] == "ok" else inside["error"]["code"]


def outcome(answer):
    return "ok" if isinstance(answer, dict) else answer


summary = {}
summary["bobGetUsers"] = call("bob", "getUsers")
summary["bobGetAdmin"] = call("bob", "getUser", username=admin)
summary["bobCreate"] = call("bob", "createUser", username="mallory", password="x", email="m@example.org")
summary["bobDeleteAdmin"] = call("bob", "deleteUser", username=admin)
summary["bobChangesAdminPassword"] = call("bob", "changePassword", username=admin, password="pwned")
summary["adminGetsBob"] = call(admin, "getUser", username="bob")["user"]["username"]
summary["adminCreatesCarol"] = outcome(call(admin, "createUser", username="carol", password="enc:" + "cär0l".encode().hex(),
                                            email="c@example.org", adminRole="false"))
passwords["carol"] = "cär0l"
summary["carolLogsIn"] = call("carol", "getUser")["user"]["adminRole"]
summary["users"] = sorted(u["username"] for u in call(admin, "getUsers")["users"]["user"])
summary["adminMakesCarolAdmin"] = outcome(call(admin, "updateUser", username="carol", adminRole="true"))
summary["adminSetsCarolsPassword"] = outcome(call(admin, "updateUser", username="carol", password="new-carol"))
passwords["carol"] = "new-carol"
summary["carolNewPassword"] = outcome(call("carol", "ping"))
summary["bobChangesOwnPassword"] = outcome(call("bob", "changePassword", username="bob", password="bob2"))
passwords["bob"] = "bob2"
summary["bobNewPassword"] = outcome(call("bob", "ping"))
summary["adminDeletesSelf"] = call(admin, "deleteUser", username=admin)
summary["adminDeletesCarol"] = outcome(call(admin, "deleteUser", username="carol"))
summary["usersAfter"] = sorted(u["username"] for u in call(admin, "getUsers")["users"]["user"])
summary["deleteUnknown"] = call(admin, "deleteUser", username="nobody")
print(json.dumps(summary))
