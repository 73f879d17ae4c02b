"""Graphs by retrograde analysis from the definition, counting by enumeration, ordinals."""

import itertools
import random

import numpy as np
import pytest
from conftest import nim_mul_ref

from grundy import Graph, HeapGame, Ordinal, cascade, count, dag_game, election, matrix_game


def outcomes_ref(n, arcs, misere=False):
    """P/N/D by the definition: iterate 'a vertex is N if some option is P (or, misère, it has no
    move... reversed), P if every option is N', to a fixed point; the rest are draws."""
    opts = [[] for _ in range(n)]
    for u, v in arcs:
        opts[u].append(v)
    out = [None] * n
    changed = True
    while changed:
        changed = False
        for v in range(n):
            if out[v] is not None:
                continue
            if not opts[v]:
                out[v] = "N" if misere else "P"
            elif any(out[w] == "P" for w in opts[v]):
                out[v] = "N"
            elif all(out[w] == "N" for w in opts[v]):
                out[v] = "P"
            else:
                continue
            changed = True
    return [o or "D" for o in out]


@pytest.mark.parametrize("seed", range(40))
def test_random_graphs_outcomes(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 12)
    arcs = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 25))]
    arcs = list(dict.fromkeys(arcs))
    g = Graph(arcs, vertices=range(n))
    for misere in (False, True):
        s = g.solve(misere=misere)
        assert list(s.outcome) == outcomes_ref(n, arcs, misere)
        # Remoteness: a P vertex's options are all N with remoteness < its own, and so on.
        for v in range(n):
            r = int(s.remoteness[v])
            assert (r < 0) == (s.outcome[v] == "D")


def test_acyclic_graph_values_are_mex():
    rng = random.Random(7)
    n = 30
    arcs = [(u, v) for u in range(n) for v in range(u) if rng.random() < 0.2]
    s = Graph(arcs, vertices=range(n)).solve()
    val = []
    for u in range(n):
        opts = {val[v] for (a, v) in arcs if a == u}
        m = 0
        while m in opts:
            m += 1
        val.append(m)
    assert list(s.value) == val
    assert not s.infinite


def test_the_cycle_example_and_inputs_agree():
    arcs = [("a", "b"), ("b", "a"), ("b", "c"), ("c", "d")]
    g1 = Graph(arcs)
    g2 = Graph({"a": ["b"], "b": ["a", "c"], "c": ["d"]})
    g3 = Graph.parse("a: b\nb: a c\nc: d\n")
    for g in (g1, g2, g3):
        s = g.solve()
        assert s.names == ["a", "b", "c", "d"]
        assert list(s.outcome) == ["D", "D", "N", "P"]
        assert list(s.remoteness) == [-1, -1, 1, 0]
        assert s["c"] == ("N", 1, 1) and s["a"] == ("D", None, ("inf", [])) and s["b"][2] == ("inf", [1])
        assert str(s).splitlines() == ["a D - inf{}", "b D - inf{1}", "c N 1 1", "d P 0 0"]
    dot = g1.to_dot()
    assert dot.startswith("digraph game {") and '"c" -> "d";' in dot and "fillcolor=red" in dot
    assert Graph.parse("0 1\n1 2\n", edges=True).solve().names == ["0", "1", "2"]
    with pytest.raises(ValueError):
        Graph.parse("a: b\na: c\n")
    with pytest.raises(ValueError, match="pair"):
        Graph([(1, 2, 3)])


def test_graph_document_is_that_of_the_command_line():
    """to_dict() is the document of `grundy graph solve --json`: the line of docs/graphs.md for
    docs/examples/cycle.txt, and the keys of its JSON Schema."""
    import json
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[3]
    text = (root / "docs" / "graphs.md").read_text()
    line = text.split("$ grundy graph solve --json docs/examples/cycle.txt\n")[1].splitlines()[0]
    g = Graph.parse((root / "docs" / "examples" / "cycle.txt").read_text())
    assert g.solve().to_dict() == json.loads(line)
    schema = json.loads((root / "docs" / "schemas" / "graph.json").read_text())
    vertex = schema["$defs"]["VertexDocument"]["properties"]
    m = g.solve(misere=True).to_dict()
    assert all(set(v) == set(vertex) for v in m["vertices"])
    assert all(v["value"] is None and v["infinite_options"] is None for v in m["vertices"])
    assert [v["remoteness"] for v in m["vertices"]] == [4, 3, 2, 1, 0]


def test_networkx_digraph():
    nx = pytest.importorskip("networkx")
    d = nx.DiGraph()
    d.add_edges_from([("x", "y"), ("y", "z")])
    d.add_node("w")
    s = Graph(d).solve()
    assert dict(zip(s.names, s.outcome)) == {"x": "P", "y": "N", "z": "P", "w": "P"}
    back = Graph(d).to_networkx()
    assert set(back.edges) == set(d.edges)
    with pytest.raises(ValueError, match="directed"):
        Graph(nx.Graph([(1, 2)]))


def count_ref(game, k, lo, hi, x, unordered=False):
    g = [int(v) for v in HeapGame(game).sequence(hi + 1)]
    it = itertools.combinations_with_replacement if unordered else lambda r, k: itertools.product(r, repeat=k)
    total = 0
    for t in it(range(lo, hi + 1), k):
        s = 0
        for h in t:
            s ^= g[h]
        total += s == x
    return total


@pytest.mark.parametrize("game", ["nim", "kayles", "sub:1,3,4", "octal:0.137"])
def test_count_by_enumeration(game):
    for k, lo, hi, x in [(1, 1, 9, 0), (2, 0, 8, 0), (3, 1, 7, 1), (3, 2, 9, 3), (4, 1, 5, 0)]:
        assert count(game, heaps=k, max=hi, min=lo, nim_sum=x) == count_ref(game, k, lo, hi, x)
        assert count(game, heaps=k, max=hi, min=lo, nim_sum=x, unordered=True) == count_ref(game, k, lo, hi, x, True)
    d = count(game, heaps=2, max=6, distribution=True)
    assert sum(d) == 36 and d[0] == count_ref(game, 2, 1, 6, 0)
    assert count(game, heaps=10**12, max=1000, mod=998244353) < 998244353


def test_count_document_is_that_of_the_command_line():
    """count(..., document=True) is the document of `grundy count --json`: the keys of its JSON
    Schema, exact integers, the distribution only when asked for."""
    import json
    import pathlib

    schema = json.loads(
        (pathlib.Path(__file__).resolve().parents[3] / "docs" / "schemas" / "count.json").read_text()
    )
    d = count("kayles", heaps=2, max=5, document=True)
    assert list(d) == ["game", "heaps", "min", "max", "nim_sum", "modulus", "unordered", "count"]
    assert set(d) | {"distribution"} == set(schema["properties"])
    assert d["game"] == "octal:0.77" and d["count"] == count("kayles", heaps=2, max=5)
    big = count("kayles", heaps=40, max=1000, document=True)
    assert big["count"] == count("kayles", heaps=40, max=1000) and big["count"] > 2**64
    dist = count("nim", heaps=2, max=3, distribution=True, document=True)
    assert dist["distribution"] == count("nim", heaps=2, max=3, distribution=True)
    assert dist["count"] == dist["distribution"][0]


def test_count_errors():
    with pytest.raises(ValueError, match="--min"):
        count("nim", heaps=2, max=3, min=5)
    with pytest.raises(ValueError, match="positive modulus"):
        count("nim", heaps=2, max=3, mod=0)


def test_ordinals():
    a = Ordinal("w^(w^2*3+1)*2+w^2*5+w+7")
    assert str(a) == "w^(w^2*3+1)*2+w^2*5+w+7" and repr(a) == "Ordinal('w^(w^2*3+1)*2+w^2*5+w+7')"
    assert Ordinal("w") > 10**30 and Ordinal(5) == 5 and Ordinal("w+1") > Ordinal("w")
    assert sorted([Ordinal("w^2"), Ordinal(3), Ordinal("w")]) == [3, Ordinal("w"), Ordinal("w^2")]
    assert str(Ordinal("w*3+5") ^ Ordinal("w*6+1")) == "w*5+4"
    assert str(Ordinal("w").nim_sum("w")) == "0"
    assert str(Ordinal("w").nim_mul("w")) == "w^2"
    assert int(Ordinal(12).nim_mul(13)) == nim_mul_ref(12, 13)
    for a, b in [(3, 5), (7, 9), (15, 14)]:
        assert int(Ordinal(a) ^ b) == a ^ b
        assert int(Ordinal(a).nim_mul(b)) == nim_mul_ref(a, b)
    x = Ordinal("w+1")
    assert x.nim_mul(x.nim_inv()) == 1
    assert x.nim_pow(2) == x.nim_mul(x)
    assert [(str(e), c) for e, c in Ordinal("w^2*3+7").terms] == [("2", 3), ("0", 7)]
    assert hash(Ordinal(5)) == hash(5)
    with pytest.raises(ValueError):
        Ordinal("w^")
    with pytest.raises(ValueError):
        int(Ordinal("w"))


def test_transfinite_games():
    assert str(cascade([[1, 0], [0, 3]])) == "w+3"
    v, mv = matrix_game([[1, 2], [3, 4]])
    assert str(v) == "w^2+w+4" and mv is not None
    v, mv = matrix_game([[0, 0], [0, 0]])
    assert v == 0 and mv is None
    v, _ = election({"a": ["b", "c"], "b": ["c"], "c": []}, {"a": 1, "b": 1, "c": 1})
    assert str(v) == "w^2+w+1"
    v, _ = dag_game({"a": ["b"], "b": ["c"], "c": []}, {"a": 1, "b": 2, "c": 3})
    assert str(v) == "w^2+w*2+3"
    with pytest.raises(ValueError):
        dag_game({"a": ["b"], "b": ["a"]}, {"a": 1, "b": 1})
