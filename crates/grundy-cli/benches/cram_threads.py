#!/usr/bin/env python3
"""Cram on every core: `grundy solve` with one thread beside all of them, in one run.

From the repository root:
    cargo build --release -p grundy-cli
    python3 crates/grundy-cli/benches/cram_threads.py [BOARD ...]      # default: 5x9

Each board is solved from scratch (--no-cache) RUNS times (environment, default 3) with
RAYON_NUM_THREADS=1 (one engine) and with RAYON_NUM_THREADS=THREADS (default: the cores), in
turns. A row gives the value of each (they must agree), the median wall-clock seconds of each
and their ratio (below 1: the threads finish sooner), and the median CPU seconds (user + system,
from getrusage) of each and their ratio (the work the threads add). Boards whose search ends
before the first engine's table reaches 256 MiB are solved by one engine either way.
"""
import os
import re
import resource
import statistics
import subprocess
import sys
import time

GRUNDY = os.environ.get("GRUNDY", "target/release/grundy")
RUNS = int(os.environ.get("RUNS", "3"))
THREADS = os.environ.get("THREADS", str(os.cpu_count() or 2))


def run(board, threads):
    """(value, wall seconds, CPU seconds) of one run."""
    env = dict(os.environ, RAYON_NUM_THREADS=threads)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(
        [GRUNDY, "solve", f"cram:{board}", "--no-cache"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    value = re.search(r"^value (\d+)$", out, re.M).group(1)
    return value, wall, cpu


def main():
    boards = sys.argv[1:] or ["5x9"]
    print(f"| board | value | wall s, 1 thread | wall s, {THREADS} threads | wall ratio "
          f"| CPU s, 1 thread | CPU s, {THREADS} threads | CPU ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for b in boards:
        one, many = [], []
        for _ in range(RUNS):
            one.append(run(b, "1"))
            many.append(run(b, THREADS))
        values = {r[0] for r in one + many}
        if len(values) != 1:
            sys.exit(f"VALUES DIFFER on {b}: {sorted(values)}")
        w1, wn = (statistics.median(r[1] for r in x) for x in (one, many))
        c1, cn = (statistics.median(r[2] for r in x) for x in (one, many))
        print(f"| cram:{b} | {values.pop()} | {w1:.2f} | {wn:.2f} | {wn / w1:.2f} "
              f"| {c1:.2f} | {cn:.2f} | {cn / c1:.2f} |")


if __name__ == "__main__":
    main()
