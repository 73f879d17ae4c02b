"""grundy: impartial combinatorial games from Python.

Nimbers of any size (:class:`Nimber`, :func:`nim_mul` over numpy arrays), heap games of the
command line's notation or of a Python rule (:class:`HeapGame`), game graphs with cycles
(:class:`Graph`), games given by their rules (:class:`Game`, :func:`solve`: Chomp, Cram,
Node-Kayles, Wythoff, Rhai scripts), counting positions (:func:`count`) and ordinals with their nim-arithmetic
(:class:`Ordinal`, :func:`cascade`, :func:`matrix_game`, :func:`election`, :func:`dag_game`).

The engines are the Rust library's; long computations release the GIL, stop on Ctrl-C
(``KeyboardInterrupt``) and take ``progress=True`` for a progress bar. Bad input raises
``ValueError`` with the command line's message, a stated limit :class:`LimitError`.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Hashable, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _grundy
from . import _display
from ._grundy import Analysis, InternalError, LimitError, Nimber, Ordinal, Plot, cascade
from ._grundy import __version__

__all__ = [
    "Analysis",
    "Game",
    "Graph",
    "GraphSolution",
    "HeapGame",
    "InternalError",
    "LevelMove",
    "LimitError",
    "MisereQuotient",
    "Move",
    "Nimber",
    "Ordinal",
    "Plot",
    "Position",
    "Solution",
    "cascade",
    "count",
    "dag_game",
    "election",
    "matrix_game",
    "nim_mul",
    "solve",
    "__version__",
]


def _optional(module: str, extra: str, what: str) -> Any:
    """Imports an optional dependency, or raises ``ImportError`` naming it and its extra."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(
            f"{what} needs the optional package {module}: pip install 'grundy[{extra}]' "
            f"(the extra {extra!r} of grundy), or pip install {module}"
        ) from e

# --------------------------------------------------------------------------------------------
# Progress


_PROGRESS_HINTED = False


class _Progress:
    """A progress display for ``total`` steps: tqdm when installed, else one stderr line, the
    first of a session naming the extra that brings the bar."""

    def __init__(self, total: Optional[int], desc: str) -> None:
        global _PROGRESS_HINTED
        self.total = total
        self.desc = desc
        self.last = 0
        self.note: Optional[str] = None
        self.width = 0
        self.bar = None
        try:
            from tqdm.auto import tqdm  # type: ignore

            self.bar = tqdm(total=total, desc=desc, unit="")
        except ImportError:
            if not _PROGRESS_HINTED:
                _PROGRESS_HINTED = True
                sys.stderr.write("(a progress bar needs tqdm: pip install 'grundy[progress]')\n")

    def __call__(self, done: int, note: Optional[str] = None) -> None:
        """Records ``done`` steps and, for a search that says it, where it stands (``note``,
        shown after the count)."""
        if self.bar is not None:
            if note is not None and note != self.note:
                self.bar.set_postfix_str(note, refresh=False)
            self.bar.update(max(0, done - self.last))
        else:
            if self.total:
                line = f"{self.desc}: {done}/{self.total} ({100 * done // self.total}%)"
            else:
                line = f"{self.desc}: {done}"
            if note is not None:
                line += f"; {note}"
            # Spaces over what is left of a longer line before.
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = len(line)
        self.last = done
        self.note = note

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.last:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _with_progress(progress: bool, total: Optional[int], desc: str, call: Callable[[Any], Any]) -> Any:
    if not progress:
        return call(None)
    bar = _Progress(total, desc)
    try:
        return call(bar)
    finally:
        bar.close()


# --------------------------------------------------------------------------------------------
# Nimbers


def nim_mul(a: Any, b: Any, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Element-wise nim-product of ``uint64`` arrays (or an array and a scalar).

    Contiguous ``uint64`` arrays are read in place, without a copy; other array-likes are
    converted first. The product runs with the GIL released, in parallel for long arrays.
    ``out`` (a contiguous ``uint64`` array of the result's shape) receives the result.

    >>> nim_mul(np.array([2, 16], dtype=np.uint64), np.array([2, 16], dtype=np.uint64))
    array([ 3, 24], dtype=uint64)
    """
    if np.ndim(a) == 0 and np.ndim(b) != 0:
        a, b = b, a
    if np.ndim(a) == 0:
        raise ValueError("nim_mul: expected an array (multiply two scalars with Nimber)")
    a_arr = np.ascontiguousarray(a, dtype=np.uint64)
    shape = a_arr.shape
    scalar = None
    if np.ndim(b) == 0:
        scalar = _natural(b, "nim_mul")
        if scalar >= 2**64:
            raise ValueError(f"nim_mul: the scalar {scalar} is not below 2^64")
    else:
        b_arr = np.ascontiguousarray(b, dtype=np.uint64)
        if b_arr.shape != shape:
            raise ValueError(f"nim_mul: shapes {a_arr.shape} and {b_arr.shape} differ")
    if out is None:
        out = np.empty(shape, dtype=np.uint64)
    elif out.dtype != np.uint64 or out.shape != shape or not out.flags.c_contiguous:
        raise ValueError("nim_mul: out must be a contiguous uint64 array of the result's shape")
    if np.shares_memory(out, a_arr) or (scalar is None and np.shares_memory(out, b_arr)):
        raise ValueError("nim_mul: out must not overlap the inputs")
    flat_out = out.reshape(-1)
    if scalar is not None:
        _grundy._nim_mul_scalar(scalar, a_arr.reshape(-1), flat_out)
    else:
        _grundy._nim_mul_arrays(a_arr.reshape(-1), b_arr.reshape(-1), flat_out)
    return out


# --------------------------------------------------------------------------------------------
# Heap games


@dataclass(frozen=True)
class Move:
    """A move in a sum of heaps: heap number ``heap`` (0-based) of size ``from_`` is replaced
    by the heaps ``to`` (empty when it is removed)."""

    heap: int
    from_: int
    to: Tuple[int, ...]

    def __str__(self) -> str:
        return f"heap {self.heap + 1}: {self.from_} -> {' '.join(map(str, self.to))}".rstrip()


@dataclass(frozen=True)
class Position:
    """The analysis of a sum of heaps: ``outcome`` is ``"P"`` (the player to move loses) or
    ``"N"``; ``nim_sum`` the xor of the heaps' values (None under misère play);
    ``winning_moves`` every move to a P-position; ``heaps`` the heap sizes. Jupyter shows it as
    rows of tokens with the winning move marked."""

    outcome: str
    nim_sum: Optional[int]
    winning_moves: List[Move] = field(default_factory=list)
    heaps: Tuple[int, ...] = ()

    def to_dict(self) -> dict:
        """The position as the document of ``grundy position --json``
        (``docs/schemas/position.json``): heaps numbered from 1 there, as on the command line
        (``Move.heap`` is 0-based, a Python index)."""
        return {
            "outcome": self.outcome,
            "nim_sum": self.nim_sum,
            "winning_moves": [
                {"heap": m.heap + 1, "from": m.from_, "to": sorted(m.to)} for m in self.winning_moves
            ],
        }

    def __str__(self) -> str:
        return "\n".join([self.outcome] + [str(m) for m in self.winning_moves])

    def _repr_html_(self) -> str:
        """The heaps as rows of tokens, the first winning move marked: the tokens it takes
        hollow in red, a red bar where it splits a heap."""
        return _display.position_html(self)


def _natural(x: Any, what: str) -> int:
    i = int(x.__index__()) if not isinstance(x, int) else int(x)
    if i < 0:
        raise ValueError(f"{what}: expected a natural number, found {i}")
    return i


class HeapGame:
    """A heap game: the command line's notation (``"kayles"``, ``"octal:0.137"``,
    ``"sub:1,3,4"``, ``"divide:2,3"``, ``"script:rule.rhai"``, ...) or, by
    :meth:`from_rule`, a rule written in Python.

    >>> HeapGame("kayles").sequence(12)
    array([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6], dtype=uint32)
    """

    def __init__(self, notation: str) -> None:
        self._native: _grundy.NativeHeapGame = _grundy.NativeHeapGame(notation)
        self.name: str = self._native.name
        # As typed, for the plot's title (`grundy seq GAME --plot` writes GAME as typed).
        self._notation = notation

    @classmethod
    def from_rule(cls, rule: Callable[[int], Iterable[Any]], name: str = "python-rule",
                  max_take: Optional[int] = None, max_heaps: int = 1) -> "HeapGame":
        """A heap game whose options are ``rule(n)``: an iterable of options, each the heap left
        (an int, 0 when the heap is gone) or a sequence of the heaps left, all below n. It runs
        in the library's engines, as the games of the notation do.

        Declaring ``max_take`` (and ``max_heaps``, 1 for a subtraction game) says that a move
        takes at most ``max_take`` tokens and leaves at most ``max_heaps`` heaps, every such
        split of what is left being allowed whenever one is: ``analyze`` then proves periods by
        the Guy-Smith theorem. Every answer of the rule is checked against the declaration.

        >>> g = HeapGame.from_rule(lambda n: [n - k for k in (1, 2) if k <= n])
        >>> g.sequence(6).tolist()
        [0, 1, 2, 0, 1, 2]
        """
        self = cls.__new__(cls)
        self._native = _grundy.NativeHeapGame.from_rule(rule, name, max_take, max_heaps)
        self.name = name
        return self

    def __repr__(self) -> str:
        return f"HeapGame({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def sequence(self, n: int, progress: bool = False) -> np.ndarray:
        """G(0), ..., G(n-1) as a numpy ``uint32`` array."""
        n = _natural(n, "n")
        native = self._native
        return _with_progress(progress, n, "computing", lambda cb: native.sequence(n, cb))

    def analyze(self, max: Optional[int] = None, progress: bool = False) -> Analysis:
        """What the sequence does: computes until a period is proved or ``max`` values are done
        (the game's default when None). The result has ``period``, ``preperiod``, ``saltus``,
        ``proved``, ``proof`` (the theorem applied) and ``pattern`` (other regularity)."""
        native = self._native
        total = max if max is not None else native.default_max()
        return _with_progress(progress, total, "analysing", lambda cb: native.analyze(max, cb))

    def value(self, n: Any, max: Optional[int] = None, progress: bool = False) -> Any:
        """G(n) for an int n of any size (or a list of them), by proved patterns where n is
        beyond computing; :class:`LimitError` where no pattern is proved and n is too large."""
        many = not isinstance(n, (int, np.integer))
        ns = [_natural(x, "n") for x in (n if many else [n])]
        native = self._native
        top = max if max is not None else native.default_max()
        vs = _with_progress(progress, top, "analysing", lambda cb: native.values(ns, max, cb))
        return vs if many else vs[0]

    def position(self, heaps: Iterable[Any], misere: bool = False, max: Optional[int] = None,
                 progress: bool = False) -> Position:
        """The sum of heaps ``heaps``: outcome and every winning move (any heap size where the
        game's pattern allows it; misère play for heaps below 2^64)."""
        hs = [_natural(h, f"heap {i + 1}") for i, h in enumerate(heaps)]
        native = self._native
        outcome, x, moves = _with_progress(
            progress, None, "computing", lambda cb: native.position(hs, misere, max, cb)
        )
        return Position(outcome, None if misere else x, [Move(i, f, tuple(t)) for i, f, t in moves], tuple(hs))

    def plot(self, n: int = 100) -> Plot:
        """The plot of G(0..n-1) that ``grundy seq GAME -n N --plot`` draws (the same code),
        shown by Jupyter; ``.save(path)`` writes the SVG. At most 100000 values."""
        return Plot.sequence(getattr(self, "_notation", self.name), self.sequence(n).tolist())

    def misere_quotient(self, max_heap: int = 32, progress: bool = False) -> "MisereQuotient":
        """The misère quotient of the heaps up to ``max_heap`` (``grundy misere``): a
        :class:`MisereQuotient`, proved for every heap size when the periodicity theorem
        applies. Jupyter shows its multiplication table."""
        native = self._native
        bound = _natural(max_heap, "max_heap")
        q = _with_progress(progress, bound, "adjoining heaps", lambda cb: _grundy._misere_quotient(native, bound, cb))
        return MisereQuotient(q)

    def _repr_svg_(self) -> str:
        return self.plot(100).svg()


class MisereQuotient:
    """The misère quotient of a heap game over the heaps up to ``max_heap`` (Plambeck and
    Siegel; ``grundy misere``). Elements are numbered from 0 (the identity, the empty sum) and
    named by their words in the generators (``elements``); ``table[a][b]`` is the product;
    a sum of heaps is a misère P-position exactly when the product of its heaps' elements lies
    in ``p_portion``. ``proof`` is ``(preperiod, period, statement)`` when the quotient holds
    for every heap size, else None. Jupyter shows the multiplication table."""

    def __init__(self, native: Any) -> None:
        self._q = native
        self.game: str = native.game
        self.max_heap: int = native.max_heap
        self.elements: List[str] = native.elements
        self.table: List[List[int]] = native.table
        self.p_portion: List[int] = native.p_portion
        self.heap_map: List[int] = native.heap_map
        self.generators: List[Tuple[str, int]] = native.generators
        self.relations: List[Tuple[str, str]] = native.relations
        self.proof: Optional[Tuple[int, int, str]] = native.proof
        self.tameness: str = native.tameness

    def to_dict(self) -> Dict[str, Any]:
        """The quotient as the document of ``grundy misere --json`` (``docs/schemas/quotient.json``)."""
        return dict(self._q.to_dict())

    @property
    def order(self) -> int:
        """The number of elements |Q|."""
        return len(self.elements)

    def of_heap(self, n: int) -> Optional[int]:
        """The element of a heap of ``n`` tokens (any n once proved), or None."""
        n = _natural(n, "n")
        return self._q.of_heap(n) if n < 2**64 else None

    def outcome(self, heaps: Iterable[int]) -> str:
        """``"P"`` or ``"N"`` of the misère sum of ``heaps``, read from the table;
        ``ValueError`` when a heap lies beyond what the quotient covers."""
        hs = [_natural(h, f"heap {i + 1}") for i, h in enumerate(heaps)]
        e = self._q.of_heaps(hs) if all(h < 2**64 for h in hs) else None
        if e is None:
            raise ValueError(
                f"a heap is beyond the heaps up to {self.max_heap} this quotient covers (not proved for all)"
            )
        return "P" if e in self.p_portion else "N"

    def __repr__(self) -> str:
        return f"MisereQuotient({self.game!r}, max_heap={self.max_heap}, order={self.order}, {self.tameness})"

    def _repr_html_(self) -> str:
        """The multiplication table, products in the P-portion shaded."""
        return _display.quotient_html(self)


# --------------------------------------------------------------------------------------------
# Counting


def count(game: Any, heaps: int, max: int, min: int = 1, nim_sum: int = 0, mod: Optional[int] = None,
          unordered: bool = False, distribution: bool = False, progress: bool = False,
          document: bool = False) -> Any:
    """The number of ``heaps``-tuples of heap sizes in ``[min, max]`` whose Grundy values xor to
    ``nim_sum``, modulo ``mod`` when given; ``unordered=True`` counts multisets. With
    ``distribution=True``, the list of counts for every nim-sum instead (as ``grundy count``).
    With ``document=True``, the document of ``grundy count --json`` as a dict
    (``docs/schemas/count.json``): the question and the count (and the distribution when asked).

    >>> count("nim", heaps=3, max=7)
    42
    """
    g = game if isinstance(game, HeapGame) else HeapGame(game)
    native = g._native
    total, dist = _with_progress(
        progress, None, "analysing",
        lambda cb: _grundy._count(native, heaps, max, min, nim_sum, mod, unordered, distribution, cb),
    )
    if document:
        doc = {
            "game": g.name, "heaps": int(heaps), "min": int(min), "max": int(max),
            "nim_sum": int(nim_sum), "modulus": None if mod is None else int(mod),
            "unordered": bool(unordered), "count": int(total),
        }
        if distribution:
            doc["distribution"] = [int(c) for c in dist]
        return doc
    return dist if distribution else total


# --------------------------------------------------------------------------------------------
# Graphs

_OUTCOMES = np.array(["P", "N", "D"])


@dataclass(frozen=True)
class GraphSolution:
    """The solution of a game graph, by vertex index (``names[i]`` is vertex i's name).

    ``outcome``: numpy array of ``"P"``/``"N"``/``"D"``; ``remoteness``: int64, -1 for draws;
    ``value``: int64 generalized Sprague-Grundy values, -1 where infinite (and everywhere under
    misère play); ``infinite``: vertex index -> the set K of finite option values of ∞(K)."""

    names: List[Hashable]
    outcome: np.ndarray
    remoteness: np.ndarray
    value: np.ndarray
    infinite: Dict[int, List[int]]
    misere: bool

    @property
    def index(self) -> Dict[Hashable, int]:
        """Name -> vertex index."""
        return {n: i for i, n in enumerate(self.names)}

    def value_str(self, i: int) -> str:
        """The value as the command line writes it: a number, ``inf{1,3}``, or ``-``."""
        if self.misere:
            return "-"
        if i in self.infinite:
            return "inf{" + ",".join(map(str, self.infinite[i])) + "}"
        return str(int(self.value[i]))

    def __getitem__(self, name: Hashable) -> Tuple[str, Optional[int], Any]:
        """(outcome, remoteness or None, value: int, ('inf', K) or None under misère)."""
        i = self.index[name]
        r = int(self.remoteness[i])
        if self.misere:
            v: Any = None
        elif i in self.infinite:
            v = ("inf", self.infinite[i])
        else:
            v = int(self.value[i])
        return str(self.outcome[i]), (None if r < 0 else r), v

    def to_dict(self) -> dict:
        """The solution as the document of ``grundy graph solve --json``
        (``docs/schemas/graph.json``): every vertex with its name (as text), outcome,
        remoteness (None for a draw), finite value, or ``value`` None and ``infinite_options``
        K for ∞(K); value and infinite options both None under misère play."""
        vertices = []
        for i, n in enumerate(self.names):
            r = int(self.remoteness[i])
            value: Optional[int] = None
            infinite: Optional[List[int]] = None
            if not self.misere:
                if i in self.infinite:
                    infinite = [int(k) for k in self.infinite[i]]
                else:
                    value = int(self.value[i])
            vertices.append({
                "name": str(n),
                "outcome": str(self.outcome[i]),
                "remoteness": None if r < 0 else r,
                "value": value,
                "infinite_options": infinite,
            })
        return {"vertices": vertices}

    def __str__(self) -> str:
        lines = []
        for i, n in enumerate(self.names):
            r = int(self.remoteness[i])
            lines.append(f"{n} {self.outcome[i]} {'-' if r < 0 else r} {self.value_str(i)}")
        return "\n".join(lines)


class Graph:
    """A game graph (cycles allowed): vertices are any hashable names, arcs are moves.

    Build it from an edge list ``[(u, v), ...]``, a dict ``{v: [w, ...]}``, a networkx
    ``DiGraph``, or the command line's graph-file text with :meth:`parse`. Vertices are numbered
    in order of first appearance."""

    def __init__(self, data: Any = None, vertices: Iterable[Hashable] = ()) -> None:
        self.names: List[Hashable] = []
        self._index: Dict[Hashable, int] = {}
        src: List[int] = []
        dst: List[int] = []
        for v in vertices:
            self._id(v)
        if data is None:
            pass
        elif _is_networkx(data):
            if not data.is_directed():
                raise ValueError("Graph: a networkx graph must be directed (a DiGraph): moves have a direction")
            for v in data.nodes:
                self._id(v)
            for u, v in data.edges():
                src.append(self._id(u))
                dst.append(self._id(v))
        elif isinstance(data, dict):
            for v, ws in data.items():
                i = self._id(v)
                for w in ws:
                    src.append(i)
                    dst.append(self._id(w))
        else:
            for k, e in enumerate(data):
                try:
                    u, v = e
                except (TypeError, ValueError):
                    raise ValueError(f"Graph: edge {k + 1} is {e!r}, expected a pair (u, v)") from None
                src.append(self._id(u))
                dst.append(self._id(v))
        if len(self.names) >= 2**32 - 1:
            raise LimitError("Graph: more than 2^32 - 2 vertices")
        self._src = np.array(src, dtype=np.uint32)
        self._dst = np.array(dst, dtype=np.uint32)

    def _id(self, v: Hashable) -> int:
        i = self._index.get(v)
        if i is None:
            i = self._index[v] = len(self.names)
            self.names.append(v)
        return i

    @classmethod
    def parse(cls, text: str, edges: bool = False) -> "Graph":
        """A graph from the command line's graph-file text (``V: W1 W2`` lines, or one ``U V``
        arc a line with ``edges=True``)."""
        names, src, dst = _grundy._parse_graph(text, edges)
        g = cls(vertices=names)
        g._src = np.array(src, dtype=np.uint32)
        g._dst = np.array(dst, dtype=np.uint32)
        return g

    @property
    def edges(self) -> List[Tuple[Hashable, Hashable]]:
        """The arcs as name pairs."""
        return [(self.names[u], self.names[v]) for u, v in zip(self._src.tolist(), self._dst.tolist())]

    def __len__(self) -> int:
        return len(self.names)

    def __repr__(self) -> str:
        return f"Graph({len(self.names)} vertices, {len(self._src)} arcs)"

    def solve(self, misere: bool = False, progress: bool = False) -> GraphSolution:
        """Outcomes (P, N, D), remoteness and generalized Sprague-Grundy values of every vertex."""
        n = len(self.names)
        codes, remote, values, infinite = _with_progress(
            progress, n, "solving",
            lambda cb: _grundy._solve_graph(n, self._src, self._dst, misere, cb),
        )
        return GraphSolution(list(self.names), _OUTCOMES[codes], remote, values, dict(infinite), misere)

    def to_dot(self, misere: bool = False) -> str:
        """Graphviz DOT with vertices coloured by outcome (as ``grundy graph dot``)."""
        s = self.solve(misere)
        colour = {"P": "red", "N": "blue", "D": "grey"}
        out = ["digraph game {", "  node [style=filled, fontcolor=white];"]
        for i, name in enumerate(self.names):
            o = str(s.outcome[i])
            r = int(s.remoteness[i])
            label = f"{name}\\n{o} {'-' if r < 0 else r} {s.value_str(i)}"
            out.append(f'  "{name}" [fillcolor={colour[o]}, label="{label}"];')
        for u, v in zip(self._src.tolist(), self._dst.tolist()):
            out.append(f'  "{self.names[u]}" -> "{self.names[v]}";')
        out.append("}")
        return "\n".join(out) + "\n"

    def to_networkx(self) -> Any:
        """The graph as a networkx ``DiGraph`` (networkx must be installed: the ``networkx``
        extra)."""
        nx = _optional("networkx", "networkx", "Graph.to_networkx")

        g = nx.DiGraph()
        g.add_nodes_from(self.names)
        g.add_edges_from(self.edges)
        return g


def _is_networkx(data: Any) -> bool:
    return type(data).__module__.startswith("networkx") and hasattr(data, "is_directed")


# --------------------------------------------------------------------------------------------
# Games by their rules


@dataclass(frozen=True)
class Solution:
    """A solved game of the rules notation: ``outcome`` is ``"P"`` (the player to move loses)
    or ``"N"``; ``value`` the Grundy value (None in misère play, where values do not add);
    ``winning_moves`` every winning move as ``(move, position after)`` in the family's notation
    (empty unless asked for); ``stats`` what the search did (``positions``, ``lookups``,
    ``hits``, ``hit_rate``, ``table_bytes``, ``seconds``). ``str()`` prints what
    ``grundy solve`` prints."""

    outcome: str
    value: Optional[int]
    winning_moves: List[Tuple[str, str]] = field(default_factory=list)
    stats: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    game: Optional[str] = field(default=None, compare=False, repr=False)

    @classmethod
    def _from_document(cls, doc: Dict[str, Any]) -> "Solution":
        moves = [(m["move"], m["after"]) for m in doc["winning_moves"]]
        return cls(doc["outcome"], doc["value"], moves, dict(doc["stats"]), doc["game"])

    def to_dict(self) -> dict:
        """The solution as the document of ``grundy solve --json``
        (``docs/schemas/solution.json``): ``game``, ``outcome``, ``value``, ``winning_moves``
        as ``{"move", "after"}``, ``stats``."""
        return {
            "game": self.game,
            "outcome": self.outcome,
            "value": self.value,
            "winning_moves": [{"move": m, "after": after} for m, after in self.winning_moves],
            "stats": dict(self.stats),
        }

    def __str__(self) -> str:
        lines = [self.outcome]
        if self.value is not None:
            lines.append(f"value {self.value}")
        lines += [f"{m}: {after}" for m, after in self.winning_moves]
        return "\n".join(lines)


class Game:
    """A game given by its rules, in the notation of ``grundy solve``: ``chomp:A,B,C``,
    ``chomp:RxC``, ``cram:RxC``, ``cram:ROWS`` (``.`` free, ``#`` blocked, rows separated by
    ``/``), ``node-kayles:path:N``, ``node-kayles:cycle:N``, ``node-kayles:grid:RxC``,
    ``node-kayles:FILE``, ``wythoff:A,B``, ``rules:PATH`` (a Rhai script).

    The notation is checked at once (``ValueError`` with the command line's message); a graph
    file or script is read when the game is shown or solved.
    """

    def __init__(self, notation: str) -> None:
        if not isinstance(notation, str):
            raise TypeError(f"Game: expected a string, found {type(notation).__name__}")
        _grundy._parse_board(notation)
        self.notation = notation

    def solve(self, misere: bool = False, moves: bool = False, memory: Optional[int] = None,
              progress: bool = False, checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
              checkpoint_every: Optional[int] = None) -> Solution:
        """Who wins, the Grundy value (normal play) and, with ``moves=True``, every winning
        move, by the library's search (components, symmetries, ``G + *k`` tests).

        ``memory`` bounds the search's tables in bytes (:class:`LimitError` when they fill;
        no bound by default). ``progress=True`` shows the positions searched so far and, for
        a Cram board, where the search stands at the board: the value it asks about and how
        many of the options it has asked (e.g. ``the board: value at least 2; asking whether
        its value is 2: 5 of 95 options asked``), the only measure of how far a search of
        hours has gone.

        ``checkpoint`` (a Cram board in normal play) is a file that keeps the search's table:
        the search starts from the table saved there, if any, and saves it when it stops
        (``KeyboardInterrupt``) or finishes, so that calling ``solve`` again goes on where it
        stopped; with ``checkpoint_every`` (seconds) it is also saved that often once the
        search's engines share it. A file of another board, or damaged, is refused
        (``ValueError``).
        """
        if memory is not None:
            memory = _natural(memory, "memory")
        if checkpoint is not None:
            checkpoint = os.fspath(checkpoint)
        if checkpoint_every is not None:
            checkpoint_every = _natural(checkpoint_every, "checkpoint_every")
        doc = _with_progress(
            progress, None, "positions",
            lambda cb: _grundy._solve_board(self.notation, bool(misere), bool(moves), memory, cb,
                                            checkpoint, checkpoint_every),
        )
        return Solution._from_document(doc)

    def show(self) -> str:
        """The starting position in its family's notation (``chomp:4x3`` shows as
        ``chomp:3,3,3,3``)."""
        return _grundy._show_board(self.notation)

    def _repr_svg_(self) -> Optional[str]:
        """A Chomp or Cram board drawn as a grid (None, so the text is shown, for the other
        families and for boards of more than 40 rows or columns)."""
        return _display.board_svg(self.show())

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Game({self.notation!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.notation == self.notation

    def __hash__(self) -> int:
        return hash(self.notation)


def solve(game: Any, misere: bool = False, moves: bool = False, memory: Optional[int] = None,
          progress: bool = False, checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
          checkpoint_every: Optional[int] = None) -> Solution:
    """Solves a game of the rules notation (a string, or a :class:`Game`): ``Game(game).solve(...)``.

    >>> solve("cram:1x4").value
    2
    """
    g = game if isinstance(game, Game) else Game(game)
    return g.solve(misere=misere, moves=moves, memory=memory, progress=progress,
                   checkpoint=checkpoint, checkpoint_every=checkpoint_every)


# --------------------------------------------------------------------------------------------
# Ordinal games


@dataclass(frozen=True)
class LevelMove:
    """A move in a level game: lower vertex ``vertex``'s heap from ``from_`` to ``to`` and set
    the heaps ``set`` (vertex -> new heap)."""

    vertex: Any
    from_: int
    to: int
    set: Dict[Any, int]


def _level(answer: Any, names: Sequence[Any]) -> Tuple[Ordinal, Optional[LevelMove]]:
    value, mv = answer
    if mv is None:
        return value, None
    v, f, t, s = mv
    return value, LevelMove(names[v], f, t, {names[w]: h for w, h in s})


def matrix_game(rows: Sequence[Sequence[int]]) -> Tuple[Ordinal, Optional[LevelMove]]:
    """The matrix game of Codeforces 1451F ("Nullify The Matrix"): its value and a winning move
    (None when the first player loses), cells named ``(row, column)`` from 1.

    >>> matrix_game([[1, 2], [3, 4]])[0]
    Ordinal('w^2+w+4')
    """
    rows = [list(r) for r in rows]
    m = len(rows[0]) if rows else 0
    names = [(i // m + 1, i % m + 1) for i in range(len(rows) * m)] if m else []
    return _level(_grundy._matrix_game(rows), names)


def _dag(graph: Dict[Hashable, Iterable[Hashable]], heaps: Dict[Hashable, int], path: bool):
    names: List[Hashable] = []
    index: Dict[Hashable, int] = {}

    def idx(v: Hashable) -> int:
        if v not in index:
            index[v] = len(names)
            names.append(v)
        return index[v]

    for v, ws in graph.items():
        idx(v)
        for w in ws:
            idx(w)
    for v in heaps:
        idx(v)
    succ: List[List[int]] = [[] for _ in names]
    for v, ws in graph.items():
        succ[index[v]] = [idx(w) for w in ws]
    hs = [heaps.get(v, 0) for v in names]
    return _level(_grundy._dag_game(succ, hs, path), names)


def dag_game(graph: Dict[Hashable, Iterable[Hashable]], heaps: Dict[Hashable, int]) -> Tuple[Ordinal, Optional[LevelMove]]:
    """The DAG path game (``grundy ordinal dag``): a move lowers a heap and sets the heaps along
    any one path leaving it freely. Value and a winning move."""
    return _dag(graph, heaps, True)


def election(graph: Dict[Hashable, Iterable[Hashable]], heaps: Dict[Hashable, int]) -> Tuple[Ordinal, Optional[LevelMove]]:
    """The game of Codeforces 1149E ("Election Promises", ``grundy ordinal election``): lower
    a city's tax and set its direct successors' freely. Value and a winning move.

    >>> election({"a": ["b", "c"], "b": ["c"], "c": []}, {"a": 1, "b": 1, "c": 1})[0]
    Ordinal('w^2+w+1')
    """
    return _dag(graph, heaps, False)
