#!/usr/bin/env python3
"""Pictures where a client waits for one, through py-sonic as Sublime Music and py-opensonic clients ask:
getCoverArt of an album and a song without art (the placeholder PNG, at `size` too), of an album with
art (its picture), of an unknown id (error 70, raised by py-sonic), and getAvatar of an account and of a
name that is none; then the chat (addChatMessage, getChatMessages since a time), as py-sonic asks.

usage: cover_client.py PORT USER PASSWORD
Prints one JSON object (what the Swift test compares); exits 1 at the first failed check.
"""
import json, subprocess, sys

import libsonic
from libsonic.errors import DataNotFoundError

port, user, password = sys.argv[1:4]
sonic = libsonic.Connection("http://127.0.0.1", user, password, port=int(port), appName="cover_client", apiVersion="1.16.1")


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def picture(response):
    """(content type, width, height, bytes) of a binary answer."""
    kind = response.headers.get("Content-Type", "")
    body = response.read()
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=width,height", "-of", "json", "-i", "pipe:0"],
                         input=body, capture_output=True)
    if out.returncode != 0:
        fail(f"ffprobe cannot read the picture ({kind}, {len(body)} bytes): {out.stderr[:300]}")
    stream = json.loads(out.stdout)["streams"][0]
    return kind, stream["width"], stream["height"], body


def raises_not_found(call):
    try:
        call()
    except DataNotFoundError:
        return True
    return False


songs = sonic.search3("", artistCount=0, albumCount=0, songCount=500)["searchResult3"].get("song", [])
by_title = {s.get("title", s["path"]): s for s in songs}
bare = by_title.get("Alpha One") or fail(f"no Alpha One among {sorted(by_title)}")
covered = next((s for s in songs if s["path"].endswith("flac-vorbis-cover.flac")), None) or fail("no covered song")
summary = {}
kind, width, height, body = picture(sonic.getCoverArt(bare["albumId"]))
summary["bareAlbum"] = [kind, width, height, body[:8].hex()]
kind, width, height, _ = picture(sonic.getCoverArt(bare["albumId"], size=64))
summary["bareAlbum64"] = [kind, width, height]
kind, width, height, _ = picture(sonic.getCoverArt(bare["id"], size=300))
summary["bareSong300"] = [kind, width, height]
kind, width, height, body = picture(sonic.getCoverArt(covered["coverArt"]))
summary["coveredIsItsOwn"] = kind != "image/png" or (width, height) != (600, 600)
summary["unknownIsNotFound"] = raises_not_found(lambda: sonic.getCoverArt("al-0000000000000000"))
avatar = sonic.getAvatar(user)
if avatar is None:
    fail("getAvatar answered no picture for an account")
kind, width, height, _ = picture(avatar)
summary["avatar"] = [kind, width, height]
summary["unknownAvatarIsNotFound"] = raises_not_found(lambda: sonic.getAvatar("nobody-of-that-name"))
sonic.addChatMessage("first")
sonic.addChatMessage("Grüße — second")
chat = sonic.getChatMessages(since=0)["chatMessages"].get("chatMessage", [])
summary["chat"] = [[m["username"], m["message"]] for m in chat]
# py-sonic's `since` is in seconds (it sends int(since * 1000) ms): the first message's time, so only the second.
newest = sonic.getChatMessages(since=(chat[-1]["time"] + 0.5) / 1000)["chatMessages"].get("chatMessage", [])
summary["chatSince"] = [m["message"] for m in newest]
print(json.dumps(summary))
