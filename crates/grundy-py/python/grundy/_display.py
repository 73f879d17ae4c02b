"""How positions, boards and misère quotients show themselves in Jupyter.

Every function returns a self-contained fragment, well-formed XML (XHTML or SVG): every tag
closed, every text escaped, so it parses with ``xml.etree.ElementTree`` as the tests do. The
fragments draw what the engines computed; they compute nothing about the game themselves.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from . import MisereQuotient, Move, Position

# The most tokens drawn in a row; a larger heap is shown by its size.
MAX_TOKENS = 64

# The largest board drawn cell by cell (rows and columns).
MAX_BOARD = 40

# The largest quotient whose multiplication table is drawn.
MAX_TABLE = 64

_TOKEN = "display:inline-block;width:14px;height:14px;border-radius:50%;margin:1px;vertical-align:middle;"
_KEPT = _TOKEN + "background:#1f77b4;"
_TAKEN = _TOKEN + "background:#fff;border:2px solid #d62728;width:10px;height:10px;"
_SPLIT = "display:inline-block;width:2px;height:16px;margin:0 4px;background:#d62728;vertical-align:middle;"


def _tokens(n: int, style: str, title: str) -> List[str]:
    return [f'<span style="{style}" title="{title}"></span>' for _ in range(n)]


def _row(heap: int, move: Optional["Move"]) -> str:
    """One heap as a row of tokens; when ``move`` is the winning move on it, the tokens it
    takes are drawn hollow in red and a red bar marks where it splits the heap."""
    if heap > MAX_TOKENS:
        if move is None:
            return f"<span>{heap} tokens</span>"
        return f"<span>{heap} tokens (the winning move leaves {escape(_parts(move.to))})</span>"
    if move is None:
        return "".join(_tokens(heap, _KEPT, "token"))
    parts = list(move.to)
    taken = heap - sum(parts)
    out: List[str] = []
    taken_drawn = False
    for i, p in enumerate(parts):
        if i > 0:
            if not taken_drawn and taken > 0:
                out += _tokens(taken, _TAKEN, "taken by the winning move")
                taken_drawn = True
            else:
                out.append(f'<span style="{_SPLIT}" title="the winning move splits the heap here"></span>')
        out += _tokens(p, _KEPT, "token")
    if not taken_drawn:
        out += _tokens(taken, _TAKEN, "taken by the winning move")
    return "".join(out)


def _parts(heaps: Sequence[int]) -> str:
    return " ".join(map(str, heaps)) if heaps else "nothing"


def position_html(p: "Position") -> str:
    """A sum of heaps as rows of tokens, the first winning move marked on its heap."""
    move = p.winning_moves[0] if p.winning_moves else None
    if p.outcome == "P":
        head = "P-position: the player to move loses"
    else:
        head = "N-position: the player to move wins"
    if p.nim_sum is not None:
        head += f" (nim-sum {p.nim_sum})"
    rows = []
    for i, h in enumerate(p.heaps):
        m = move if move is not None and move.heap == i else None
        mark = f"<td>{escape(str(m))}</td>" if m is not None else "<td></td>"
        rows.append(
            f'<tr><th style="text-align:right;padding-right:8px">heap {i + 1}</th>'
            f'<td style="text-align:left">{_row(h, m)}</td>{mark}</tr>'
        )
    lines = [f'<div class="grundy-position"><p><b>{escape(head)}</b></p>']
    if rows:
        lines.append("<table>" + "".join(rows) + "</table>")
    if len(p.winning_moves) > 1:
        others = ", ".join(escape(str(m)) for m in p.winning_moves[1:])
        lines.append(f"<p>other winning moves: {others}</p>")
    lines.append("</div>")
    return "".join(lines)


def board_cells(shown: str) -> Optional[Tuple[str, List[str]]]:
    """The cells of a Chomp or Cram board from its family's notation (``Game.show()``):
    ``(family, rows)``, each row a string of ``.`` (a square on the board) and ``#`` (none);
    None for other families and for boards too large to draw."""
    family, _, body = shown.partition(":")
    if family == "chomp":
        lengths = [int(x) for x in body.split(",") if x]
        width = max(lengths, default=0)
        rows = ["." * n + "#" * (width - n) for n in lengths]
    elif family == "cram":
        rows = body.split("/") if body else []
    else:
        return None
    if len(rows) > MAX_BOARD or any(len(r) > MAX_BOARD for r in rows):
        return None
    return family, rows


def board_svg(shown: str) -> Optional[str]:
    """A Chomp or Cram board as a grid: squares still on the board filled, Chomp's poisoned
    square (row 1, column 1) dark; None for other games."""
    cells = board_cells(shown)
    if cells is None:
        return None
    family, rows = cells
    size, pad, top = 28, 4, 22
    width = max((len(r) for r in rows), default=0)
    w = max(2 * pad + size * width, 160)
    h = top + 2 * pad + size * len(rows)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
        f'<text x="{pad}" y="15" font-family="sans-serif" font-size="13">{escape(shown)}</text>',
    ]
    fill = {"chomp": "#8c564b", "cram": "#ffffff"}[family]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x, y = pad + c * size, top + pad + r * size
            if cell == ".":
                colour = "#2b1a16" if family == "chomp" and (r, c) == (0, 0) else fill
                name = "poisoned" if colour == "#2b1a16" else "free"
                out.append(
                    f'<rect class="{name}" x="{x}" y="{y}" width="{size}" height="{size}" '
                    f'fill="{colour}" stroke="#333"><title>({r + 1},{c + 1})</title></rect>'
                )
            elif family == "cram":
                out.append(
                    f'<rect class="blocked" x="{x}" y="{y}" width="{size}" height="{size}" '
                    f'fill="#999" stroke="#333"><title>({r + 1},{c + 1})</title></rect>'
                )
    out.append("</svg>")
    return "\n".join(out)


# The table's style, once per table (its cells only name a class).
_TABLE_STYLE = (
    ".grundy-quotient table{border-collapse:collapse}"
    ".grundy-quotient td,.grundy-quotient th{border:1px solid #ccc;padding:2px 6px;text-align:center}"
    ".grundy-quotient td.p{background:#f4cccc;font-weight:bold}"
)


def quotient_html(q: "MisereQuotient") -> str:
    """A misère quotient as its multiplication table: rows and columns are the elements (as
    words in the generators), each cell the product; products in the P-portion are shaded
    (class ``p``)."""
    words = q.elements
    p = set(q.p_portion)
    gens = ", ".join(f"{escape(g)} = heap {h}" for g, h in q.generators)
    if q.proof is not None:
        holds = f"every heap size (the heap map is periodic with period {q.proof[1]} from heap {q.proof[0]}: proved)"
    else:
        holds = f"heaps up to {q.max_heap} only"
    head = (
        f"<p><b>misère quotient of {escape(q.game)}</b>: order {len(words)}, {q.tameness}; "
        f"holds for {escape(holds)}</p><p>generators: {gens}; "
        f"relations: {escape(', '.join(f'{a} = {b}' for a, b in q.relations))}</p>"
    )
    if len(words) > MAX_TABLE:
        return (
            f'<div class="grundy-quotient">{head}<p>(the table of {len(words)} elements is not '
            f"drawn: <code>q.table</code> holds it)</p></div>"
        )
    rows = ["<tr><th>×</th>" + "".join(f"<th>{escape(w)}</th>" for w in words) + "</tr>"]
    for a, row in enumerate(q.table):
        tds = "".join(f'<td class="p">{escape(words[b])}</td>' if b in p else f"<td>{escape(words[b])}</td>" for b in row)
        rows.append(f"<tr><th>{escape(words[a])}</th>{tds}</tr>")
    foot = (
        "<p>shaded: products in the P-portion "
        f"({escape(', '.join(words[e] for e in sorted(p)))}), the sums the player to move loses</p>"
    )
    return (
        f'<div class="grundy-quotient"><style>{_TABLE_STYLE}</style>{head}<table>'
        + "".join(rows) + "</table>" + foot + "</div>"
    )
