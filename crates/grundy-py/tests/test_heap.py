"""Heap games against the definition: mex over options, Nim outcomes, misère by search."""

import itertools

import numpy as np
import pytest
from conftest import mex, octal_ref

from grundy import HeapGame, LimitError, Position

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def test_kayles_sequence_and_proved_period():
    g = HeapGame("kayles")
    assert g.name == "octal:0.77"
    s = g.sequence(12)
    assert isinstance(s, np.ndarray) and s.dtype == np.uint32
    assert list(s) == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    a = g.analyze()
    assert (a.preperiod, a.period, a.saltus, a.proved) == (71, 12, 0, True)
    assert "periodicity theorem" in a.proof
    assert a.pattern
    # The period answers heaps of any size.
    n = 10**40 + 5
    r = 71 + (n - 71) % 12
    assert g.value(n) == int(g.sequence(r + 1)[r]) == a.value(n)


def test_analysis_document_is_the_schema_of_the_command_line():
    """to_dict() is the document of `grundy analyze --json`: the keys of its JSON Schema."""
    import json
    import pathlib

    schema = json.loads(
        (pathlib.Path(__file__).parents[3] / "docs" / "schemas" / "analysis.json").read_text()
    )
    for a in [HeapGame("kayles").analyze(), HeapGame("squares").analyze(max=200)]:
        d = a.to_dict()
        assert set(d) == set(schema["properties"]), d
        assert {k: getattr(a, k) for k in d} == d
    d = HeapGame("kayles").analyze().to_dict()
    assert (d["period"], d["preperiod"], d["saltus"], d["proved"]) == (12, 71, 0, True)


def test_position_document_is_the_schema_of_the_command_line():
    """to_dict() is the document of `grundy position --json` (docs/heap-games.md): heaps
    numbered from 1, integers exact at any size, the same for a Python rule."""
    import json
    import pathlib

    schema = json.loads(
        (pathlib.Path(__file__).parents[3] / "docs" / "schemas" / "position.json").read_text()
    )
    d = HeapGame("kayles").position([3, 5, 6]).to_dict()
    assert list(d) == ["outcome", "nim_sum", "winning_moves"]
    assert set(d) == set(schema["properties"])
    # `grundy position kayles 3 5 6 --json` in docs/heap-games.md:
    d_kayles = {"outcome": "N", "nim_sum": 4, "winning_moves": [{"heap": 2, "from": 5, "to": [2, 2]}]}
    assert d == d_kayles
    big = 2**128 + 1
    d = HeapGame("nim").position([big, 5]).to_dict()
    assert d["nim_sum"] == big ^ 5
    assert d["winning_moves"] == [{"heap": 1, "from": big, "to": [5]}]
    assert HeapGame("nim").position([3, 4], misere=True).to_dict()["nim_sum"] is None
    assert HeapGame.from_rule(kayles_options).position([3, 5, 6]).to_dict() == d_kayles


def test_dawsons_kayles_period_34_preperiod_53():
    a = HeapGame("octal:0.07").analyze()
    assert (a.period, a.preperiod, a.proved) == (34, 53, True)


@given(st.text(alphabet="01234567", min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_octal_games_match_the_definition(code):
    assert list(HeapGame("octal:0." + code).sequence(60)) == octal_ref(code, 60)


@given(st.sets(st.integers(min_value=1, max_value=9), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_subtraction_games_native_and_python_rule_and_mex(s):
    notation = "sub:" + ",".join(map(str, sorted(s)))
    native = list(HeapGame(notation).sequence(80))
    rule = HeapGame.from_rule(lambda n: [n - k for k in s if k <= n])
    ref = []
    for n in range(80):
        ref.append(mex(ref[n - k] for k in s if k <= n))
    assert native == ref == list(rule.sequence(80))


def test_python_rule_with_splits_is_grundys_game():
    # Grundy's game: split a heap into two unequal non-empty heaps.
    rule = HeapGame.from_rule(lambda n: [(a, n - a) for a in range(1, (n + 1) // 2) if a != n - a], "grundy")
    assert list(rule.sequence(40)) == list(HeapGame("grundys-game").sequence(40))
    assert rule.value(30) == int(HeapGame("grundys-game").value(30))
    a = HeapGame.from_rule(lambda n: [n - k for k in (1, 2) if k <= n]).analyze(max=100)
    assert (a.period, a.preperiod, a.proved) == (3, 0, False)


def test_python_rule_errors_pass_through():
    def bad(n):
        return [n]  # a heap that does not shrink

    with pytest.raises(ValueError, match="below"):
        HeapGame.from_rule(bad).sequence(3)

    def raising(n):
        raise RuntimeError("rule failed")

    with pytest.raises(RuntimeError, match="rule failed"):
        HeapGame.from_rule(raising).sequence(3)


def nim_outcome(heaps):
    x = 0
    for h in heaps:
        x ^= h
    return "P" if x == 0 else "N"


@given(st.lists(st.integers(min_value=0, max_value=2**80), max_size=6))
@settings(max_examples=80, deadline=None)
def test_nim_positions_any_size(heaps):
    p = HeapGame("nim").position(heaps)
    assert isinstance(p, Position)
    assert p.outcome == nim_outcome(heaps)
    x = 0
    for h in heaps:
        x ^= h
    assert p.nim_sum == x
    for m in p.winning_moves:
        after = list(heaps)
        after[m.heap] = m.to[0] if m.to else 0
        assert nim_outcome(after) == "P"
    expected = sum(1 for h in heaps if x and (h ^ x) < h)
    assert len(p.winning_moves) == expected


def misere_wins(game_rule, heaps, memo):
    """Misère play by definition: the player who cannot move wins."""
    key = tuple(sorted(h for h in heaps if h))
    if key in memo:
        return memo[key]
    if not key:
        memo[key] = True
        return True
    win = False
    for j, h in enumerate(key):
        for o in game_rule(h):
            rest = key[:j] + key[j + 1:] + tuple(o)
            if not misere_wins(game_rule, rest, memo):
                win = True
                break
        if win:
            break
    memo[key] = win
    return win


def kayles_options(n):
    out = []
    for k in (1, 2):
        if k <= n:
            rest = n - k
            out.append((rest,) if rest else ())
            out += [(a, rest - a) for a in range(1, rest) if a <= rest - a]
    return out


@given(st.lists(st.integers(min_value=0, max_value=7), max_size=4))
@settings(max_examples=60, deadline=None)
def test_misere_kayles_native_python_rule_and_search(heaps):
    memo = {}
    expect = "N" if misere_wins(kayles_options, heaps, memo) else "P"
    native = HeapGame("kayles").position(heaps, misere=True)
    rule = HeapGame.from_rule(kayles_options, "kayles").position(heaps, misere=True)
    assert native.outcome == rule.outcome == expect
    assert native.nim_sum is None
    for m in native.winning_moves:
        after = [h for i, h in enumerate(heaps) if i != m.heap] + list(m.to)
        assert not misere_wins(kayles_options, after, memo)
    canon = lambda p: sorted((m.heap, m.from_, tuple(sorted(m.to))) for m in p.winning_moves)  # noqa: E731
    assert canon(native) == canon(rule)


@given(st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=4))
@settings(max_examples=40, deadline=None)
def test_normal_play_positions_native_and_rule(heaps):
    native = HeapGame("kayles").position(heaps)
    rule = HeapGame.from_rule(kayles_options).position(heaps)
    assert (native.outcome, native.nim_sum) == (rule.outcome, rule.nim_sum)
    canon = lambda p: sorted((m.heap, m.from_, tuple(sorted(m.to))) for m in p.winning_moves)  # noqa: E731
    assert canon(native) == canon(rule)


def test_a_python_rule_runs_in_the_library_engines_and_declared_shapes_prove():
    # Kayles written in Python, with its shape declared: take at most 2, leave at most 2 heaps.
    mine = HeapGame.from_rule(kayles_options, "my-kayles", max_take=2, max_heaps=2)
    native = HeapGame("kayles")
    a, b = mine.analyze(max=2000), native.analyze(max=2000)
    assert (a.period, a.preperiod, a.proved) == (b.period, b.preperiod, True) == (12, 71, True)
    assert a.game == "my-kayles" and "Guy-Smith" in a.proof
    assert a.to_dict()["proved"] is True
    # Values of heaps far beyond those computed, by the proved period.
    assert mine.value(10**18, max=2000) == native.value(10**18)
    a, b = mine.position([300, 7, 11], max=2000), native.position([300, 7, 11])
    assert (a.outcome, a.nim_sum, a.winning_moves) == (b.outcome, b.nim_sum, b.winning_moves)
    # Undeclared: the same period is seen, not proved, and a huge heap is refused.
    plain = HeapGame.from_rule(kayles_options)
    a = plain.analyze(max=1000)
    assert (a.period, a.preperiod, a.proved) == (12, 71, False)
    with pytest.raises(LimitError):
        plain.value(10**18)


def test_a_rule_that_breaks_its_declared_shape_is_refused():
    # Declared as a subtraction game of moves at most 2, but it takes 3.
    g = HeapGame.from_rule(lambda n: [n - 3] if n >= 3 else [], "liar", max_take=2)
    with pytest.raises(ValueError, match="declares"):
        g.sequence(10)
    with pytest.raises(ValueError, match="natural number"):
        HeapGame.from_rule(lambda n: [-1] if n else []).sequence(3)
    with pytest.raises(TypeError, match="callable"):
        HeapGame.from_rule(42)


def test_huge_heaps_by_the_proved_period():
    p = HeapGame("sub:1,3,4").position([10**30, 10**30 + 1])
    g = HeapGame("sub:1,3,4")
    x = g.value(10**30) ^ g.value(10**30 + 1)
    assert p.nim_sum == x and p.outcome == ("P" if x == 0 else "N")
    assert str(HeapGame("kayles").position([3, 5, 6])) == "N\nheap 2: 5 -> 2 2"


def test_values_of_several_heaps_and_limits():
    g = HeapGame("kayles")
    assert g.value([0, 1, 2, 11]) == [0, 1, 2, 6]
    with pytest.raises(LimitError) as e:
        g.value(10**30, max=100)
    assert e.value.kind == "values"
    assert "raise max" in str(e.value)


def test_plot_is_svg():
    g = HeapGame("kayles")
    svg = g._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 100
    assert g.plot(20).svg().count("<circle") == 20


def test_all_notations_parse():
    for notation in ["nim", "sub:1,3,4", "sub:1-5", "octal:0.137", "octal:4.07", "kayles", "dawsons-kayles",
                     "dawsons-chess", "officers", "grundys-game", "divide:2,3", "squares"]:
        assert len(HeapGame(notation).sequence(10)) == 10


def test_squares_by_definition():
    ref = []
    for n in range(60):
        ref.append(mex(ref[n - k * k] for k in itertools.takewhile(lambda k: k * k <= n, itertools.count(1))))
    assert list(HeapGame("squares").sequence(60)) == ref
