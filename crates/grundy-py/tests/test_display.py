"""What Jupyter shows: every repr is well-formed XML (XHTML or SVG) and draws what the engines
computed, checked here against the definitions."""

import itertools
import re
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest

from grundy import Game, HeapGame, LimitError, Plot
from conftest import octal_options, octal_ref

SVG = "{http://www.w3.org/2000/svg}"


def parse(text):
    """The fragment as an XML tree: fails on an unclosed tag or an unescaped '<' or '&'."""
    assert text is not None
    return ET.fromstring(text)


def text_of(el):
    return "".join(el.itertext())


# --------------------------------------------------------------------------------------------
# Positions


def rows(html):
    """(row label, kept tokens, taken tokens, split bars, move text) of each heap row."""
    out = []
    for tr in parse(html).iter("tr"):
        th, tokens, move = list(tr)
        spans = list(tokens.iter("span"))
        kept = sum(1 for s in spans if s.get("title") == "token")
        taken = sum(1 for s in spans if s.get("title") == "taken by the winning move")
        splits = sum(1 for s in spans if "splits" in (s.get("title") or ""))
        out.append((text_of(th), kept, taken, splits, text_of(move)))
    return out


def test_nim_position_marks_the_winning_move_on_its_heap():
    p = HeapGame("nim").position([3, 4, 5])
    assert p.heaps == (3, 4, 5)
    html = p._repr_html_()
    assert "N-position" in html and "nim-sum 2" in html
    r = rows(html)
    # The move leaves a position of nim-sum 0 (the definition of a winning move in Nim).
    (m,) = p.winning_moves
    after = list(p.heaps)
    after[m.heap] = sum(m.to)
    assert after[0] ^ after[1] ^ after[2] == 0
    for i, (label, kept, taken, splits, move) in enumerate(r):
        assert label == f"heap {i + 1}"
        if i == m.heap:
            assert (kept, taken, splits) == (sum(m.to), p.heaps[i] - sum(m.to), 0)
            assert move == str(m)
        else:
            assert (kept, taken, splits, move) == (p.heaps[i], 0, 0, "")


def test_a_kayles_move_that_splits_a_heap_is_drawn_in_place():
    p = HeapGame("kayles").position([3, 5, 6])
    r = rows(p._repr_html_())
    # heap 2: 5 -> 2 2: two tokens, the one taken, two tokens.
    assert r[1] == ("heap 2", 4, 1, 0, "heap 2: 5 -> 2 2")
    spans = [s.get("title") for s in parse(p._repr_html_()).iter("tr").__next__().iter("span")]
    assert spans == ["token"] * 3
    second = [s.get("title") for s in list(parse(p._repr_html_()).iter("tr"))[1].iter("span")]
    assert second == ["token", "token", "taken by the winning move", "token", "token"]


def test_a_split_without_removal_shows_a_bar():
    # Grundy's game: split a heap into two unequal heaps; heap 3 -> 1 2 is the only move.
    p = HeapGame("grundys-game").position([3])
    assert p.outcome == "N"
    (row,) = rows(p._repr_html_())
    assert row == ("heap 1", 3, 0, 1, "heap 1: 3 -> 1 2")


def test_a_p_position_marks_nothing():
    p = HeapGame("nim").position([1, 2, 3])
    html = p._repr_html_()
    assert "P-position" in html
    assert all(taken == 0 and move == "" for _, _, taken, _, move in rows(html))


def test_huge_heaps_are_written_not_drawn():
    p = HeapGame("nim").position([10**30, 1])
    html = p._repr_html_()
    parse(html)
    assert f"{10**30} tokens" in html


def test_a_python_rule_position_carries_its_heaps():
    g = HeapGame.from_rule(lambda n: [n - k for k in (1, 2) if k <= n])
    p = g.position([4, 2])
    assert p.heaps == (4, 2)
    assert len(rows(p._repr_html_())) == 2


# --------------------------------------------------------------------------------------------
# Boards


def cells(svg):
    root = parse(svg)
    assert root.tag == SVG + "svg"
    out = {}
    for rect in root.iter(SVG + "rect"):
        pos = tuple(int(x) for x in re.findall(r"\d+", text_of(rect)))
        out[pos] = rect.get("class")
    return out


def test_chomp_board_is_its_rows_with_the_poisoned_square():
    svg = Game("chomp:3,2,2")._repr_svg_()
    c = cells(svg)
    expected = {(r, k) for r, n in enumerate([3, 2, 2], 1) for k in range(1, n + 1)}
    assert set(c) == expected
    assert c[(1, 1)] == "poisoned"
    assert [p for p, k in c.items() if k == "poisoned"] == [(1, 1)]
    assert "chomp:3,2,2" in svg
    # RxC is drawn as its rows.
    assert set(cells(Game("chomp:2x3")._repr_svg_())) == {(r, k) for r in (1, 2) for k in (1, 2, 3)}


def test_cram_board_shows_free_and_blocked_squares():
    c = cells(Game("cram:../.#")._repr_svg_())
    assert c == {(1, 1): "free", (1, 2): "free", (2, 1): "free", (2, 2): "blocked"}
    c = cells(Game("cram:3x4")._repr_svg_())
    assert len(c) == 12 and set(c.values()) == {"free"}


def test_other_games_and_huge_boards_fall_back_to_text():
    assert Game("node-kayles:path:5")._repr_svg_() is None
    assert Game("wythoff:3,5")._repr_svg_() is None
    assert Game("cram:41x2")._repr_svg_() is None


# --------------------------------------------------------------------------------------------
# Sequences


def circles(svg):
    root = parse(svg)
    return [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(SVG + "circle")]


def test_sequence_plot_draws_every_value_at_its_height():
    g = HeapGame("kayles")
    values = octal_ref("77", 100)
    svg = g._repr_svg_()
    assert "kayles: G(n) for 0 <= n < 100" in text_of(parse(svg))
    pts = circles(svg)
    assert len(pts) == 100
    # x grows with n; y is one affine map of G(n), higher values drawn higher (smaller y).
    assert all(a[0] < b[0] for a, b in zip(pts, pts[1:]))
    lo, hi = values.index(0), values.index(max(values))
    scale = (pts[lo][1] - pts[hi][1]) / max(values)
    assert scale > 0
    for (_, y), v in zip(pts, values):
        assert abs(pts[lo][1] - y - scale * v) < 1.0
    p = g.plot(20)
    assert p.values == values[:20] and len(circles(p.svg())) == 20


def test_analysis_plot_shades_the_preperiod_and_marks_the_periods():
    a = HeapGame("kayles").analyze()
    assert (a.period, a.preperiod) == (12, 71)
    svg = a._repr_svg_()
    root = parse(svg)
    # The title names the game canonically, as `grundy analyze kayles --plot` does.
    assert "octal:0.77: period 12, preperiod 71 (proved)" in text_of(root)
    assert "period 12 begins" in text_of(root)
    assert "preperiod 0 <= n < 71" in text_of(root)
    # The window is the preperiod and four periods: 71 + 48 values.
    assert a.plot().values == octal_ref("77", 119)
    assert len(circles(svg)) == 119


def test_a_floor_division_analysis_is_plotted_by_its_runs():
    # As `grundy analyze divide:2,3 --plot`: runs of equal values on a logarithmic n axis.
    a = HeapGame("divide:2,3").analyze()
    text = text_of(parse(a._repr_svg_()))
    assert a.runs and f"divide:2,3: {a.runs} runs (proved)" in text
    assert "n (logarithmic scale)" in text


def test_plot_limit_and_save(tmp_path):
    with pytest.raises(LimitError) as e:
        Plot([0] * 100_001, "too many")
    assert e.value.kind == "length"
    p = Plot([0, 1, 2], "three")
    path = tmp_path / "p.svg"
    p.save(str(path))
    assert path.read_text() == p.svg() and "three" in p.svg()
    with pytest.raises(OSError):
        p.save(str(tmp_path / "missing" / "p.svg"))
    for bad in ([-1], [2**64], ["x"]):
        with pytest.raises((ValueError, TypeError)):
            Plot(bad, "bad")


# --------------------------------------------------------------------------------------------
# Misère quotients


def misere_p(code):
    """Whether a sum of heaps is a misère P-position, by definition: the player who makes the
    last move loses, so a position without a move is won by the player to move; a position is
    P when it has a move and every move leads to an N-position."""
    options = octal_options(code)

    @lru_cache(maxsize=None)
    def p(heaps):
        moves = []
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1:]
            for o in options(h):
                moves.append(tuple(sorted(rest + o)))
        if not moves:
            return False
        return all(not p(m) for m in moves)

    return lambda heaps: p(tuple(sorted(heaps)))


def table_cells(html):
    trs = list(parse(html).iter("tr"))
    head = [text_of(x) for x in trs[0]][1:]
    body = [[(text_of(td), td.get("class") == "p") for td in list(tr)[1:]] for tr in trs[1:]]
    return head, [text_of(list(tr)[0]) for tr in trs[1:]], body


def test_quotient_table_is_the_multiplication_table_with_the_p_portion_shaded():
    q = HeapGame("octal:0.75").misere_quotient(max_heap=12)
    assert q.order == 8 and q.tameness == "wild" and q.proof is None
    assert [q.elements[e] for e in q.p_portion] == ["a", "b^2"]
    head, labels, body = table_cells(q._repr_html_())
    assert head == q.elements and labels == q.elements
    for a, row in enumerate(body):
        for b, (word, shaded) in enumerate(row):
            prod = q.table[a][b]
            assert word == q.elements[prod]
            assert shaded == (prod in q.p_portion)


def test_quotient_outcomes_agree_with_the_definition():
    q = HeapGame("octal:0.75").misere_quotient(max_heap=12)
    p = misere_p("75")
    for k in range(4):
        for heaps in itertools.combinations_with_replacement(range(1, 8), k):
            assert q.outcome(heaps) == ("P" if p(heaps) else "N"), heaps


def test_kayles_quotient_and_its_limits():
    q = HeapGame("kayles").misere_quotient(max_heap=20)
    assert q.proof is None and "heaps up to 20 only" in q._repr_html_()
    p = misere_p("77")
    for heaps in itertools.combinations_with_replacement(range(1, 9), 2):
        assert q.outcome(heaps) == ("P" if p(heaps) else "N"), heaps
    with pytest.raises(ValueError, match="beyond"):
        q.outcome([21])
    assert q.of_heap(21) is None
    # From heap 200 the periodicity theorem proves it for every heap size (docs/misere.md).
    q = HeapGame("kayles").misere_quotient(max_heap=200)
    assert q.order == 40 and q.proof is not None and q.proof[:2] == (71, 12)
    assert q.of_heap(10**18) == q.of_heap(71 + (10**18 - 71) % 12)
    assert q.outcome([10**18, 5]) == q.outcome([71 + (10**18 - 71) % 12, 5])
    _, _, body = table_cells(q._repr_html_())
    assert len(body) == 40 and all(len(r) == 40 for r in body)
    # A Python rule runs in the same quotient engine: Kayles written in Python, shape declared.
    def kayles(n):
        return [(a, n - k - a) for k in (1, 2) if k <= n for a in range((n - k) // 2 + 1)]

    mine = HeapGame.from_rule(kayles, "my-kayles", max_take=2, max_heaps=2).misere_quotient(max_heap=30)
    assert mine.order == HeapGame("kayles").misere_quotient(max_heap=30).order


def test_quotient_document_is_the_command_lines():
    import json
    import pathlib

    schema = json.loads(
        (pathlib.Path(__file__).resolve().parents[3] / "docs" / "schemas" / "quotient.json").read_text()
    )
    q = HeapGame("octal:0.75").misere_quotient(max_heap=12)
    d = q.to_dict()
    assert set(d) <= set(schema["properties"]) and set(schema.get("required", [])) <= set(d)
    assert d["game"] == q.game and d["order"] == q.order == len(d["elements"])
    assert d["p_portion"] == q.p_portion and d["heap_map"] == q.heap_map
