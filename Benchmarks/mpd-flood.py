#!/usr/bin/env python3
"""Issue 26's flood conditions against a running MPD server (mlib serve or mpd): its resident memory
(sampled every 20 ms from /proc) against its idle value, another client's ping time throughout (a client
connected before the flood pings every 50 ms: a new one may be refused while 2,000 connections are open,
as by mpd's max_connections), and whether the server is still up, under in turn:
  1. 20 clients each sending a command_list of 1,000 x listallinfo (each answer is the whole library);
  2. 2,000 connections opened at once and held 3 s;
  3. 200 connections that never send, held 5 s;
  4. 5 clients each sending a 10 MB line with no newline.
Targets (issue 26): RSS under 2x idle, the other client answered within 100 ms, the server up.

Usage: mpd-flood.py PORT PID"""
import socket
import sys
import threading
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])


def rss_mb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def ping_once():
    start = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    f = s.makefile("rb")
    f.readline()
    s.sendall(b"ping\n")
    answer = f.readline()
    s.close()
    if answer != b"OK\n":
        raise RuntimeError(f"ping answered {answer!r}")
    return time.monotonic() - start


class Watch:
    """Samples RSS and pings in the background during one phase."""

    def __init__(self):
        self.peak, self.worst, self.failures, self.stop = 0.0, 0.0, [], False

    def __enter__(self):
        def sample():
            while not self.stop:
                self.peak = max(self.peak, rss_mb())
                time.sleep(0.02)

        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        f = s.makefile("rb")
        f.readline()

        def pinger():
            while not self.stop:
                try:
                    start = time.monotonic()
                    s.sendall(b"ping\n")
                    if f.readline() != b"OK\n":
                        raise RuntimeError("no OK")
                    self.worst = max(self.worst, time.monotonic() - start)
                except Exception as e:  # noqa: BLE001 - a failed ping is the finding
                    self.failures.append(repr(e))
                    return
                time.sleep(0.05)
            s.close()
        self.threads = [threading.Thread(target=sample), threading.Thread(target=pinger)]
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *_):
        self.stop = True
        for t in self.threads:
            t.join()


def list_flood():
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.recv(100)
    s.sendall(b"command_list_begin\n" + b"listallinfo\n" * 1000 + b"command_list_end\n")
    # Read slowly for a while (a client that does not keep up), then stop reading and close.
    s.settimeout(5)
    try:
        for _ in range(50):
            if not s.recv(65536):
                break
            time.sleep(0.01)
    except OSError:
        pass
    s.close()


def many_connections(count, hold):
    sockets = []
    for _ in range(count):
        try:
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except OSError:
            break
    time.sleep(hold)
    for s in sockets:
        s.close()
    return len(sockets)


def long_line():
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.recv(100)
    chunk = b"x" * 65536
    try:
        for _ in range(160):   # 10 MB
            s.sendall(chunk)
    except OSError:
        pass   # closed by the server: what is wanted
    s.close()


def parallel(body, count):
    threads = [threading.Thread(target=body) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def phase(name, body):
    with Watch() as w:
        detail = body()
    up = False
    for _ in range(20):   # the flood's connections may take a moment to close
        try:
            ping_once()
            up = True
            break
        except Exception:  # noqa: BLE001
            time.sleep(0.25)
    print(f"{name:44s} peak RSS {w.peak:7.1f} MB ({w.peak / idle:4.2f}x idle); other client's worst ping "
          f"{w.worst * 1000:6.1f} ms ({len(w.failures)} failed); server up: {'yes' if up else 'NO'}"
          + (f"; {detail}" if detail else ""), flush=True)
    return w.peak / idle < 2 and w.worst < 0.1 and not w.failures and up


idle = rss_mb()
print(f"idle RSS {idle:.1f} MB")
ok = True
ok &= phase("20 x command_list of 1,000 listallinfo", lambda: parallel(list_flood, 20))
ok &= phase("2,000 connections held 3 s", lambda: f"{many_connections(2000, 3)} opened")
ok &= phase("200 silent connections held 5 s", lambda: f"{many_connections(200, 5)} opened")
ok &= phase("5 x a 10 MB line", lambda: parallel(long_line, 5))
print("all within target" if ok else "OVER TARGET")
sys.exit(0 if ok else 1)
