#!/usr/bin/env python3
"""Runs `declass sanitize --jsonl -` over a JSON Lines file and records, every few
seconds, how many output lines have come out and the process's resident memory (VmRSS
from /proc/PID/status): the throughput and the memory curve of a long run. Stops at the
end of the input, or after SECONDS (a partial run: the process is then ended and the
table says so). Output lines are counted and discarded, never printed.

    scripts/jsonl_soak.py DECLASS DOCS.jsonl SECONDS [INTERVAL] [-- declass args...]

Prints one tab-separated row per sample: elapsed s, lines out, lines/s since the start,
lines/s over the last interval, VmRSS MiB.
"""
import subprocess
import sys
import threading
import time


def rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def main() -> None:
    declass, docs, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    rest = sys.argv[4:]
    interval = 10.0
    if rest and rest[0] != "--":
        interval = float(rest.pop(0))
    extra = rest[1:] if rest and rest[0] == "--" else []
    command = [declass, *extra, "sanitize", "--jsonl", "-", "--format", "json"]
    with open(docs, "rb") as source:
        child = subprocess.Popen(command, stdin=source, stdout=subprocess.PIPE)
        lines = [0]

        def count() -> None:
            for _ in child.stdout:
                lines[0] += 1

        counter = threading.Thread(target=count, daemon=True)
        counter.start()
        start = last_time = time.monotonic()
        last_lines, peak = 0, 0.0
        print("elapsed_s\tlines\tmean_lines_per_s\tinterval_lines_per_s\tvmrss_mib", flush=True)
        while True:
            counter.join(timeout=interval)
            now = time.monotonic()
            rss = rss_mib(child.pid)
            peak = max(peak, rss)
            done, elapsed = lines[0], now - start
            print(f"{elapsed:.0f}\t{done}\t{done / elapsed:.1f}\t"
                  f"{(done - last_lines) / (now - last_time):.1f}\t{rss:.1f}", flush=True)
            last_time, last_lines = now, done
            if not counter.is_alive():
                status = child.wait()
                print(f"# end of input: {done} lines in {elapsed:.0f} s, exit status {status}, "
                      f"peak sampled VmRSS {peak:.1f} MiB", flush=True)
                return
            if elapsed >= seconds:
                child.terminate()
                child.wait()
                print(f"# partial run, stopped after {elapsed:.0f} s: {done} lines, "
                      f"peak sampled VmRSS {peak:.1f} MiB", flush=True)
                return


if __name__ == "__main__":
    main()
