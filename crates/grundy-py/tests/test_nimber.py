"""Nimbers against Conway's definition and the field laws."""

import numpy as np
import pytest
from conftest import nim_mul_ref

from grundy import Nimber, nim_mul

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

big = st.integers(min_value=0, max_value=2**200)
nonzero = st.integers(min_value=1, max_value=2**200)


def test_products_below_32_are_conways_definition():
    for a in range(32):
        for b in range(32):
            assert int(Nimber(a) * Nimber(b)) == nim_mul_ref(a, b), (a, b)


def test_fermat_powers_square_to_three_halves():
    f = 1
    for _ in range(8):
        f = f * f if f > 1 else 2
        assert int(Nimber(f) * f) == 3 * f // 2


def test_int_interplay():
    x = Nimber(5)
    assert x + 3 == 6 and 3 + x == 6 and x - 3 == 6
    assert 2 * Nimber(2) == 3 and Nimber(2) * 2 == Nimber(3)
    assert int(x) == 5 and x == 5 and hash(x) == hash(5)
    assert {Nimber(5): 1}[5] == 1
    assert repr(Nimber(2**70)) == f"Nimber({2**70})" and str(Nimber(7)) == "*7"
    assert not Nimber(0) and bool(Nimber(1))
    assert -x == x
    assert Nimber(np.uint64(9)) == 9
    assert [1, 2, 3][Nimber(1)] == 2


@given(big, big, big)
@settings(max_examples=150, deadline=None)
def test_field_laws(a, b, c):
    A, B, C = Nimber(a), Nimber(b), Nimber(c)
    assert A * B == B * A
    assert (A * B) * C == A * (B * C)
    assert A * (B + C) == A * B + A * C
    assert A + B == a ^ b


@given(nonzero, big)
@settings(max_examples=100, deadline=None)
def test_division_inverse_and_square_root(a, b):
    A, B = Nimber(a), Nimber(b)
    assert A * A.inv() == 1
    assert (B * A) / A == B
    assert B.sqrt() * B.sqrt() == B
    assert A ** -1 == A.inv()
    assert 1 / A == A.inv()


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=0, max_value=300))
@settings(max_examples=80, deadline=None)
def test_power_is_repeated_product(a, e):
    expect = Nimber(1)
    for _ in range(e):
        expect = expect * a
    assert Nimber(a) ** e == expect


@given(st.integers(min_value=1, max_value=255))
@settings(max_examples=60, deadline=None)
def test_order_and_log_by_walking_the_powers(a):
    A = Nimber(a)
    powers = [Nimber(1)]
    while True:
        nxt = powers[-1] * A
        if nxt == 1:
            break
        powers.append(nxt)
    assert A.order() == len(powers)
    for k, y in enumerate(powers):
        assert y.log(A) == k
    # A primitive element has every non-zero element of F_256 among its powers: 256 lies outside.
    outside = next((x for x in range(1, 256) if Nimber(x) not in powers), 256)
    assert Nimber(outside).log(A) is None


def test_quadratic_roots_by_search():
    # Every root of x^2 + bx + c with b, c < 4 lies in the field of 16 elements (a quadratic
    # over F_4 splits in F_16).
    for b in range(4):
        for c in range(4):
            roots = [x for x in range(16) if nim_mul_ref(x, x) ^ nim_mul_ref(b, x) ^ c == 0]
            assert [int(r) for r in Nimber.solve_quadratic(b, c)] == roots, (b, c)


def test_zero_division_and_negative_input():
    with pytest.raises(ZeroDivisionError):
        Nimber(3) / 0
    with pytest.raises(ZeroDivisionError):
        Nimber(0).inv()
    with pytest.raises(ValueError, match="expected a natural number"):
        Nimber(-1)
    with pytest.raises(ValueError):
        Nimber(0).order()


@given(st.lists(st.integers(min_value=0, max_value=2**64 - 1), min_size=0, max_size=300), st.data())
@settings(max_examples=60, deadline=None)
def test_nim_mul_arrays_match_the_scalar_product(xs, data):
    ys = data.draw(st.lists(st.integers(min_value=0, max_value=2**64 - 1), min_size=len(xs), max_size=len(xs)))
    a = np.array(xs, dtype=np.uint64)
    b = np.array(ys, dtype=np.uint64)
    got = nim_mul(a, b)
    assert got.dtype == np.uint64
    assert [int(v) for v in got] == [int(Nimber(x) * y) for x, y in zip(xs, ys)]
    if xs:
        c = ys[0]
        assert [int(v) for v in nim_mul(a, c)] == [int(Nimber(x) * c) for x in xs]
        assert [int(v) for v in nim_mul(c, a)] == [int(Nimber(x) * c) for x in xs]


def test_nim_mul_long_arrays_out_and_shapes():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 2**64 - 1, size=100_003, dtype=np.uint64)
    b = rng.integers(0, 2**64 - 1, size=100_003, dtype=np.uint64)
    out = np.empty_like(a)
    r = nim_mul(a, b, out=out)
    assert r is out
    for i in rng.integers(0, len(a), size=200):
        assert int(out[i]) == int(Nimber(int(a[i])) * int(b[i]))
    # The constant path tabulates the product: check it on a long array too.
    c = int(b[0])
    r2 = nim_mul(a, c)
    for i in rng.integers(0, len(a), size=200):
        assert int(r2[i]) == int(Nimber(int(a[i])) * c)
    m = nim_mul(a[:12].reshape(3, 4), b[:12].reshape(3, 4))
    assert m.shape == (3, 4) and int(m[2, 3]) == int(Nimber(int(a[11])) * int(b[11]))
    # Strided views are copied, and still right.
    s = nim_mul(a[::2][:10], b[::2][:10])
    assert int(s[3]) == int(Nimber(int(a[6])) * int(b[6]))
    with pytest.raises(ValueError, match="differ"):
        nim_mul(a[:3], b[:4])
    with pytest.raises(ValueError, match="overlap"):
        nim_mul(a, b, out=a)
