"""Shared references written from the definitions, for the tests to check the engines against."""

import signal
from functools import lru_cache

import pytest


def mex(values):
    """The least natural number not in `values`."""
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


@lru_cache(maxsize=None)
def nim_mul_ref(a, b):
    """Conway's definition: a*b = mex { a'*b + a*b' + a'*b' : a' < a, b' < b } (+ is xor)."""
    return mex(nim_mul_ref(x, b) ^ nim_mul_ref(a, y) ^ nim_mul_ref(x, y) for x in range(a) for y in range(b))


def octal_options(code):
    """The options of a heap in the take-and-break game `code` (digits after "0."), from the
    rules, as sorted tuples of the heaps left: digit d_k for removing k tokens; bit 1 leaves no
    heap, bit 2 one heap, bit 4 two heaps."""
    digits = [int(c, 16) for c in code]

    def options(h):
        out = set()
        for k, d in enumerate(digits, start=1):
            if k > h:
                break
            rest = h - k
            if d & 1 and rest == 0:
                out.add(())
            if d & 2 and rest > 0:
                out.add((rest,))
            if d & 4:
                for a in range(1, rest // 2 + 1):
                    out.add((a, rest - a))
        return out

    return options


def octal_ref(code, n):
    """G(0..n-1) of the take-and-break game `code`: G(h) is the mex of the options' nim-sums."""
    options = octal_options(code)
    g = []
    for h in range(n):
        opts = set()
        for o in options(h):
            x = 0
            for part in o:
                x ^= g[part]
            opts.add(x)
        g.append(mex(opts))
    return g


@pytest.fixture
def sigint_raises():
    """Python's own SIGINT handler (KeyboardInterrupt) for the test's duration. A process started
    in the background by a shell without job control inherits SIGINT as ignored, and Python then
    installs no handler: a test that sends itself SIGINT would wait for ever."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, old)
