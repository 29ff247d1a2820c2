#!/usr/bin/env python3
"""The clients the network lab's tests run on a host (inside its namespace): py-sonic for the Subsonic API,
a raw socket for MPD. One line of output per call, for the Swift test to read.

usage: lab_client.py ping PORT USER PASSWORD        -> "ok" | "error CODE MESSAGE" | "unreachable WHY"
       lab_client.py songs PORT USER PASSWORD       -> one "ID<TAB>TITLE" line per song (search3 of everything)
       lab_client.py stream PORT USER PASSWORD ID OUT -> "ok BYTES" (written to OUT) | "error CODE MESSAGE"
       lab_client.py cover PORT USER PASSWORD ID OUT -> "ok BYTES" (getCoverArt, written to OUT) | "error CODE MESSAGE"
       lab_client.py mpd PORT COMMAND               -> the answer's lines, then OK or ACK
"""
import socket, sys

import libsonic
from libsonic import errors


def code_of(exception):
    for code, kind in errors.ERR_CODE_MAP.items():
        if type(exception) is kind:
            return code
    return -1


def connection(port, user, password):
    return libsonic.Connection("http://127.0.0.1", user, password, port=int(port), appName="mlib-lab")


def main(argv):
    what = argv[0]
    if what == "mpd":
        port, command = int(argv[1]), argv[2]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            f = s.makefile("rw", encoding="utf-8", newline="\n")
            f.readline()
            f.write(command + "\n")
            f.flush()
            while True:
                line = f.readline()
                if not line:
                    break
                print(line.rstrip("\n"))
                if line.startswith("OK") or line.startswith("ACK"):
                    break
        return
    conn = connection(*argv[1:4])
    try:
        if what == "ping":
            print("ok" if conn.ping() else "unreachable ping returned False")
        elif what == "songs":
            found = conn.search3("", artistCount=0, albumCount=0, songCount=500)
            for song in found.get("searchResult3", {}).get("song", []):
                print(f"{song['id']}\t{song.get('title', '')}")
        elif what in ("stream", "cover"):
            answer = conn.stream(argv[4]) if what == "stream" else conn.getCoverArt(argv[4])
            if isinstance(answer, dict):
                conn._checkStatus(answer)
            data = answer.read()
            with open(argv[5], "wb") as out:
                out.write(data)
            print(f"ok {len(data)}")
    except errors.SonicError as e:
        print(f"error {code_of(e)} {e}")
    except Exception as e:  # the server did not answer at all
        print(f"unreachable {type(e).__name__}: {e}")


main(sys.argv[1:])
