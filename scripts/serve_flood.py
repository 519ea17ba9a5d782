#!/usr/bin/env python3
"""An idle-connection flood against a running `declass serve` on loopback: the figures of
BENCHMARKS.md's "Idle-connection flood".

    scripts/serve_flood.py --url http://127.0.0.1:8000 --pid PID --sockets 19000

Opens SOCKETS TCP connections and sends nothing on them, then measures how long
`GET /health` takes to answer (up to --wait seconds), the server's open file descriptors
(from /proc/PID/fd) at the height of the flood, how many sockets the server answered 503,
and how long until it had closed them all. The client needs `ulimit -n` above SOCKETS.
"""

import argparse
import os
import socket
import time
import urllib.error
import urllib.request
from urllib.parse import urlparse


def open_fds(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process id")
    parser.add_argument("--sockets", type=int, default=19000)
    parser.add_argument("--wait", type=float, default=60.0)
    args = parser.parse_args()
    where = urlparse(args.url)
    address = (where.hostname, where.port)
    if not where.hostname.startswith("127.") and where.hostname != "localhost":
        raise SystemExit("loopback only")

    fds_before = open_fds(args.pid)
    flood = []
    failed = 0
    started = time.monotonic()
    for _ in range(args.sockets):
        try:
            flood.append(socket.create_connection(address, timeout=5))
        except OSError:
            failed += 1
    opened = time.monotonic() - started
    time.sleep(0.5)
    fds_peak = open_fds(args.pid)

    started = time.monotonic()
    health = None
    while time.monotonic() - started < args.wait:
        try:
            with urllib.request.urlopen(args.url + "/health", timeout=2) as answer:
                if answer.status == 200:
                    health = time.monotonic() - started
                    break
        except (urllib.error.URLError, OSError):
            time.sleep(0.05)

    refused = 0
    still_open = 0
    started = time.monotonic()
    for s in flood:
        left = args.wait - (time.monotonic() - started)
        if left <= 0:
            still_open += 1
            continue
        s.settimeout(left)
        try:
            if s.recv(12).startswith(b"HTTP/1.1 503"):
                refused += 1
        except socket.timeout:
            still_open += 1
        except OSError:
            pass
    closed = time.monotonic() - started
    for s in flood:
        s.close()

    print(f"sockets opened: {len(flood)} in {opened:.1f} s ({failed} failed to connect)")
    print(f"server file descriptors: {fds_before} before, {fds_peak} during the flood")
    print("GET /health: " + (f"200 after {health:.2f} s" if health is not None
                             else f"no answer within {args.wait:.0f} s"))
    print(f"answered 503 and closed: {refused}; still open after a further "
          f"{closed:.1f} s: {still_open}")


if __name__ == "__main__":
    main()
