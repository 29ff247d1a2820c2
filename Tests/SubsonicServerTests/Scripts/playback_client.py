#!/usr/bin/env python3
"""A client that reports its playing timeline with OpenSubsonic's `reportPlayback` (playbackReport), as
Navidrome-era clients do, against `mlib serve --http`; every JSON answer validated against the OpenAPI
description.

usage: playback_client.py PORT USER PASSWORD OPENAPI_DIR SONG_ID
Plays SONG_ID (4 s long) three times: heard to 2.6 s then stopped (a play), seeked to the end at once
then stopped (not a play: not heard), and heard with ignoreScrobble (not counted). Prints what getNowPlaying
said in between, as JSON.
"""
import json, sys, time

from openapi_check import Caller

port, user, password, openapi, song = sys.argv[1:6]
call = Caller(port, user, password, openapi, client="Naviamp").call


def report(state, ms, **extra):
    call("reportPlayback", mediaId=song, mediaType="song", positionMs=ms, state=state, **extra)


summary = {"extensions": [e["name"] for e in call("getOpenSubsonicExtensions")["openSubsonicExtensions"]]}
report("starting", 0)
time.sleep(1.3)
report("playing", 1300)
time.sleep(0.5)
entry = call("getNowPlaying")["nowPlaying"]["entry"][0]
summary["nowPlaying"] = {k: entry.get(k) for k in ("id", "state", "positionMs", "playerName", "username")}
time.sleep(0.8)
report("playing", 2600)
report("stopped", 2600)
summary["afterStop"] = len(call("getNowPlaying")["nowPlaying"].get("entry", []))
# A seek to the end, stopped at once: nothing heard.
report("starting", 0)
report("playing", 3900)
report("stopped", 3950)
# Heard, but the client asks not to count it.
report("starting", 0, ignoreScrobble="true")
time.sleep(2.5)
report("stopped", 2500, ignoreScrobble="true")
print(json.dumps(summary))
