#!/usr/bin/env python3
"""Clients that hold a server's connections, for mlib's fair-limit tests (issue 37). Each mode opens its
connections, prints "ready" on a line of its own, holds them for SECONDS (a bounded loop), then exits.

  slowloris PORT N SECONDS   N connections, each sending one byte of a request header every second
  idle PORT N SECONDS        N connections that send nothing
  stall PORT SECONDS PATH... one connection per PATH (a GET), which reads the answer's first bytes, then
                             stops reading (its receive buffer kept small)
  skip PORT N PATH          N times in a row, as a player skipping songs: a GET of PATH, its first 4 KB read,
                             the connection closed, the next asked at once; prints each answer's status
Each line of output after "ready" says how many of the connections the server has closed so far.
"""
import socket
import sys
import time


def connect(port, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    return s


def closed(s):
    s.setblocking(False)
    try:
        data = s.recv(1, socket.MSG_PEEK)
        return data == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        s.setblocking(True)


def main():
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode in ("slowloris", "idle"):
        count, seconds = int(sys.argv[3]), float(sys.argv[4])
        sockets = [connect(port) for _ in range(count)]
        header = b"GET /rest/ping?u=x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"a" * 10_000
        print("ready", flush=True)
        start = time.monotonic()
        sent = 0
        while time.monotonic() - start < seconds:
            if mode == "slowloris":
                for s in sockets:
                    try:
                        s.send(header[sent:sent + 1])
                    except OSError:
                        pass
                sent += 1
            time.sleep(1)
        print("closed", sum(closed(s) for s in sockets), flush=True)
    elif mode == "stall":
        seconds, paths = float(sys.argv[3]), sys.argv[4:]
        sockets = []
        for path in paths:
            s = connect(port, rcvbuf=4096)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            first = s.recv(64)
            print("status", first.split(b"\r\n", 1)[0].decode("latin-1"), flush=True)
            sockets.append(s)
        print("ready", flush=True)
        time.sleep(seconds)
        print("closed", sum(closed(s) for s in sockets), flush=True)
    elif mode == "skip":
        count, path = int(sys.argv[3]), sys.argv[4]
        print("ready", flush=True)
        for _ in range(count):
            s = connect(port)
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            answer = b""
            while len(answer) < 4096:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
                if b"\r\n\r\n" in answer and b" 200 " not in answer.split(b"\r\n", 1)[0]:
                    break   # a refusal's short answer, on a connection kept open
            print("status", answer.split(b"\r\n", 1)[0].decode("latin-1"), flush=True)
            s.close()


if __name__ == "__main__":
    main()
