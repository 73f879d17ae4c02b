"""Benchmarks of the Python package against the Rust side (docs/python.md, "Benchmarks").

Run with the Python that has `grundy` installed, from the repository root, after
`cargo build --release -p grundy-cli` (for the CLI comparison). Prints medians.

    python crates/grundy-py/bench/bench.py
"""

import os
import statistics
import subprocess
import sys
import time
import timeit

import numpy as np

import grundy
from grundy import HeapGame, Nimber, nim_mul

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def median_time(f, runs=7):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def per_call(stmt, setup, number=200_000, repeat=7):
    return min(timeit.repeat(stmt, setup, number=number, repeat=repeat, globals=globals())) / number


def main():
    print(f"grundy from {grundy.__file__}")
    # 1. Per-call overhead of Nimber * Nimber, beside a Python int xor and int * int.
    mul = per_call("a * b", "a = Nimber(0x1234_5678_9abc_def0); b = Nimber(0xfedc_ba98_7654_3210)")
    mul_int = per_call("a * b", "a = Nimber(0x1234_5678_9abc_def0); b = 0xfedc_ba98_7654_3210")
    xor = per_call("a ^ b", "a = 0x1234_5678_9abc_def0; b = 0xfedc_ba98_7654_3210")
    big = per_call("a * b", "a = Nimber(3**200); b = Nimber(5**150)", number=20_000)
    print(f"Nimber * Nimber (64-bit): {mul * 1e9:.0f} ns per call")
    print(f"Nimber * int (64-bit): {mul_int * 1e9:.0f} ns per call")
    print(f"int ^ int (Python, for scale): {xor * 1e9:.0f} ns per call")
    print(f"Nimber * Nimber (~320-bit): {big * 1e9:.0f} ns per call")
    # The fixed cost of a computation run on a worker thread (GIL released, signals polled).
    tiny = per_call("g.sequence(1)", "g = HeapGame('nim')", number=2_000)
    print(f"HeapGame('nim').sequence(1) (worker thread start and join): {tiny * 1e6:.1f} us per call")

    # 2. HeapGame("officers").sequence(10**6) against the CLI.
    g = HeapGame("officers")
    py_seq = median_time(lambda: g.sequence(10**6), runs=5)
    cli = os.path.join(ROOT, "target", "release", "grundy")
    print(f'HeapGame("officers").sequence(10**6): {py_seq * 1e3:.1f} ms')
    if os.path.exists(cli):
        def run_cli():
            subprocess.run([cli, "seq", "officers", "-n", "1000000"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cli_seq = median_time(run_cli, runs=5)
        print(f"grundy seq officers -n 1000000 (process, output to /dev/null): {cli_seq * 1e3:.1f} ms")
    else:
        print(f"(no {cli}: build it with cargo build --release -p grundy-cli)")

    # 3. nim_mul on 10^7 elements.
    n = 10**7
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**64 - 1, size=n, dtype=np.uint64, endpoint=True)
    b = rng.integers(0, 2**64 - 1, size=n, dtype=np.uint64, endpoint=True)
    out = np.empty_like(a)
    t = median_time(lambda: nim_mul(a, b, out=out))
    t_new = median_time(lambda: nim_mul(a, b))
    t_c = median_time(lambda: nim_mul(a, 0x1234_5678_9abc_def0, out=out))
    print(f"nim_mul 10^7 (out=): {t * 1e3:.1f} ms, {t * 1e9 / n:.2f} ns per element")
    print(f"nim_mul 10^7 (new array): {t_new * 1e3:.1f} ms, {t_new * 1e9 / n:.2f} ns per element")
    print(f"nim_mul 10^7 by a constant: {t_c * 1e3:.1f} ms, {t_c * 1e9 / n:.2f} ns per element")
    ex = os.path.join(ROOT, "target", "release", "examples", "nim_mul_batch")
    if os.path.exists(ex):
        print(subprocess.run([ex], check=True, capture_output=True, text=True).stdout, end="")
    else:
        print("(build the Rust side: cargo build --release -p grundy --example nim_mul_batch)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
