#!/usr/bin/env python3
"""Drives `mlib serve`'s jukebox (jukeboxControl) as DSub's and Ultrasonic's jukebox mode do, with mpc beside
it on the MPD port: one queue, seen and edited from both sides. Every JSON answer is validated against the
OpenSubsonic OpenAPI description; py-sonic (libsonic) makes the same calls once more, as a client library.

usage: jukebox_client.py HTTP_PORT MPD_PORT USER PASSWORD OTHER_USER OTHER_PASSWORD OPENAPI_DIR
Prints one JSON object of what each side saw; exits 1 at the first failed check.
"""
import hashlib, json, random, subprocess, sys, urllib.parse, urllib.request

import libsonic
from openapi_check import Caller

http_port, mpd_port, user, password, other, other_password, openapi = sys.argv[1:8]
caller = Caller(http_port, user, password, openapi, client="DSub")
call = caller.call


def mpc(*args):
    return subprocess.run(["mpc", "-h", "127.0.0.1", "-p", mpd_port, *args], capture_output=True, text=True, check=True).stdout


def mpd_titles():
    return [line for line in mpc("playlist", "-f", "%title%").splitlines() if line]


def jukebox(action, **params):
    answer = call("jukeboxControl", action=action, **params)
    return answer["jukeboxPlaylist" if action == "get" else "jukeboxStatus"]


def titles():
    return [entry["title"] for entry in jukebox("get").get("entry", [])]


songs = {s["title"]: s["id"] for s in call("search3", query="", songCount=50)["searchResult3"]["song"]}
long = [songs[f"Long {name}"] for name in "ABC"]
summary = {}
summary["set"] = jukebox("set", id=long)
summary["afterSet"] = {"jukebox": titles(), "mpd": mpd_titles()}
# An MPD client adds a song: the jukebox lists it.
mpc("add", "Planted/long-d.flac")
summary["afterMpcAdd"] = {"jukebox": titles(), "mpd": mpd_titles()}
summary["remove"] = jukebox("remove", index=0)
summary["afterRemove"] = {"jukebox": titles(), "mpd": mpd_titles()}
summary["setGain"] = jukebox("setGain", gain=0.5)
summary["mpdVolume"] = next((line for line in mpc("volume").splitlines() if line.startswith("volume:")), "")
summary["skip"] = jukebox("skip", index=1, offset=5)
summary["mpdCurrent"] = mpc("current", "-f", "%title%").strip()


def now_playing():
    """getNowPlaying's entries as (title, player, state): the server's own player is one while it plays."""
    entries = call("getNowPlaying").get("nowPlaying", {}).get("entry", [])
    return [[e["title"], e.get("playerName"), e.get("state")] for e in entries]


summary["nowPlayingWhilePlaying"] = now_playing()
summary["stop"] = jukebox("stop")
summary["mpdState"] = mpc("status").splitlines()[1].split()[0] if len(mpc("status").splitlines()) > 1 else "stopped"
summary["nowPlayingWhilePaused"] = now_playing()
summary["start"] = jukebox("start")
summary["status"] = jukebox("status")
# The same calls through py-sonic, a client library.
conn = libsonic.Connection("http://127.0.0.1", user, password, port=int(http_port), appName="mlib-test")
summary["pysonicGet"] = [e["title"] for e in conn.jukeboxControl("get")["jukeboxPlaylist"].get("entry", [])]
random.seed(7)
before = titles()
jukebox("shuffle")
summary["shuffleKeepsSongs"] = sorted(titles()) == sorted(before)
summary["afterShuffle"] = {"jukebox": titles(), "mpd": mpd_titles()}
summary["clear"] = jukebox("clear")
summary["afterClear"] = {"jukebox": titles(), "mpd": mpd_titles()}
# Errors: an index outside the queue, an unknown song, an unknown action; another user who is no admin.


def raw(who, secret, **params):
    salt = "5a17"
    query = dict(u=who, t=hashlib.md5((secret + salt).encode()).hexdigest(), s=salt, v="1.16.1", c="test", f="json", **params)
    with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/rest/jukeboxControl.view?" + urllib.parse.urlencode(query, doseq=True)) as r:
        return json.load(r)["subsonic-response"].get("error", {}).get("code")


summary["errors"] = {"badIndex": raw(user, password, action="remove", index=9), "unknownSong": raw(user, password, action="add", id="999999"),
                     "unknownAction": raw(user, password, action="dance"), "notAdmin": raw(other, other_password, action="get")}
# Hostile values from an admin, with a player running (the fuzzer runs as an ordinary user, refused at once):
# each answers an error envelope or "ok" (HTTP 200), never a 5xx or a dropped connection.
hostile = ["", "-1", "x", "nan", "inf", "1e309", "9223372036854775808", "-9223372036854775809", "0x10", "1.5", "\u00e9"]
answers = set()
for action, names in [("skip", ["index", "offset"]), ("remove", ["index"]), ("setGain", ["gain"]), ("set", ["id"]),
                      ("add", ["id"]), ("status", ["action"])]:
    for name in names:
        for value in hostile:
            try:
                answers.add(raw(user, password, **{"action": action, name: value}))
            except Exception as error:   # an HTTP error status or a dropped connection
                caller.fail(f"jukeboxControl action={action} {name}={value!r}: {error}")
summary["hostileCodes"] = sorted(code for code in answers if code is not None)
summary["aliveAfter"] = jukebox("status")["currentIndex"] == -1

summary["roles"] = {"admin": call("getUser", username=user)["user"]["jukeboxRole"],
                    "other": call("getUser", username=other)["user"]["jukeboxRole"]}
print(json.dumps(summary))
