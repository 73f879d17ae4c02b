"""Games by their rules (`Game`, `solve`) against references written here from the definitions:
a plain mex over every option, Beatty pairs for Wythoff, Dawson's Kayles for 1×n Cram."""

import itertools
import math
import os
import pathlib
import signal
import threading
import time
from functools import lru_cache

import pytest

import grundy
from grundy import Game, HeapGame, LimitError, Solution, solve

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "docs" / "examples"


def mex(values):
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


# --------------------------------------------------------------------------------------------
# Chomp: rows of cells, bottom row first, non-increasing; taking cell (r, c) (from 1, counted
# from the poisoned corner) removes it and every cell above and to its right.


def chomp_options(rows):
    out = {}
    for r, length in enumerate(rows):
        for c in range(length):
            if (r, c) == (0, 0):
                continue
            new = tuple(x for x in (rows[:r] + tuple(min(x, c) for x in rows[r:])) if x > 0)
            out[f"({r + 1},{c + 1})"] = new
    return out


@lru_cache(maxsize=None)
def chomp_value(rows):
    return mex(chomp_value(o) for o in chomp_options(rows).values())


@lru_cache(maxsize=None)
def chomp_misere_wins(rows):
    opts = chomp_options(rows).values()
    return not opts or any(not chomp_misere_wins(o) for o in opts)


def chomp_name(rows):
    return "chomp:" + ",".join(map(str, rows))


def partitions(max_rows, max_len):
    """Every Chomp position inside max_rows × max_len."""
    for n in range(1, max_rows + 1):
        for rows in itertools.combinations_with_replacement(range(max_len, 0, -1), n):
            yield tuple(rows)


def test_chomp_values_and_winning_moves_match_a_brute_force_mex():
    for rows in partitions(4, 4):
        s = solve(chomp_name(rows), moves=True)
        v = chomp_value(rows)
        assert (s.value, s.outcome) == (v, "P" if v == 0 else "N"), rows
        expected = {(m, chomp_name(o)) for m, o in chomp_options(rows).items() if chomp_value(o) == 0}
        assert set(s.winning_moves) == expected and len(s.winning_moves) == len(expected), rows


def test_chomp_rectangles_are_first_player_wins():
    for r in range(1, 5):
        for c in range(1, 5):
            s = solve(f"chomp:{r}x{c}")
            assert s.outcome == ("P" if r == c == 1 else "N")
            assert Game(f"chomp:{r}x{c}").show() == chomp_name((c,) * r)


def test_chomp_misere_matches_a_brute_force():
    for rows in partitions(3, 4):
        s = solve(chomp_name(rows), misere=True, moves=True)
        assert s.value is None
        assert s.outcome == ("N" if chomp_misere_wins(rows) else "P"), rows
        for _, after in s.winning_moves:
            back = tuple(int(x) for x in after.split(":")[1].split(","))
            assert not chomp_misere_wins(back), (rows, after)


# --------------------------------------------------------------------------------------------
# Cram: a move fills two orthogonally adjacent free cells.


def cram_options(free):
    out = []
    for (r, c) in free:
        for nb in ((r + 1, c), (r, c + 1)):
            if nb in free:
                out.append(free - {(r, c), nb})
    return out


@lru_cache(maxsize=None)
def cram_value(free):
    return mex(cram_value(o) for o in cram_options(free))


@lru_cache(maxsize=None)
def cram_misere_wins(free):
    opts = cram_options(free)
    return not opts or any(not cram_misere_wins(o) for o in opts)


def cram_board(text):
    rows = text.split(":", 1)[1].split("/")
    return frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == ".")


def cram_name(free, rows, cols):
    return "cram:" + "/".join(
        "".join("." if (r, c) in free else "#" for c in range(cols)) for r in range(rows)
    )


def test_cram_empty_boards_match_a_brute_force_mex():
    for rows in range(1, 5):
        for cols in range(rows, 6):
            if rows * cols > 16:
                continue
            free = frozenset(itertools.product(range(rows), range(cols)))
            s = solve(f"cram:{rows}x{cols}", moves=True)
            assert s.value == cram_value(free), (rows, cols)
            p_options = [o for o in cram_options(free) if cram_value(o) == 0]
            assert len(s.winning_moves) == len(p_options)
            for _, after in s.winning_moves:
                assert cram_value(cram_board(after)) == 0, after
            if rows % 2 == 0 and cols % 2 == 0:
                assert s.outcome == "P"
            if (rows * cols) % 2 == 0 and (rows + cols) % 2 == 1:
                assert s.outcome == "N"


def test_cram_drawn_boards_in_both_plays_match_a_brute_force():
    cells = list(itertools.product(range(3), range(3)))
    for mask in range(0, 1 << 9, 7):
        free = frozenset(cell for i, cell in enumerate(cells) if mask >> i & 1)
        name = cram_name(free, 3, 3)
        assert solve(name).value == cram_value(free), name
        s = solve(name, misere=True, moves=True)
        assert s.value is None
        assert s.outcome == ("N" if cram_misere_wins(free) else "P"), name
        for _, after in s.winning_moves:
            assert not cram_misere_wins(cram_board(after)), (name, after)


def test_one_row_cram_is_dawsons_kayles():
    n = 24
    kayles = HeapGame("dawsons-kayles").sequence(n + 1)
    for k in range(1, n + 1):
        assert solve(f"cram:1x{k}").value == solve(f"cram:{k}x1").value == kayles[k], k


# --------------------------------------------------------------------------------------------
# Node-Kayles: a move deletes a vertex and its neighbours.


def nk_value(n, edges):
    nbr = [1 << v for v in range(n)]
    for u, v in edges:
        nbr[u] |= 1 << v
        nbr[v] |= 1 << u

    @lru_cache(maxsize=None)
    def value(left):
        return mex(value(left & ~nbr[v]) for v in range(n) if left >> v & 1)

    return value((1 << n) - 1)


def test_node_kayles_paths_cycles_grids_match_a_brute_force_mex():
    chess = HeapGame("dawsons-chess").sequence(16)
    for n in range(1, 16):
        path = [(i, i + 1) for i in range(n - 1)]
        assert solve(f"node-kayles:path:{n}").value == nk_value(n, path) == chess[n], n
    for n in range(3, 14):
        cycle = [(i, (i + 1) % n) for i in range(n)]
        assert solve(f"node-kayles:cycle:{n}").value == nk_value(n, cycle), n
    for r, c in [(2, 2), (2, 5), (3, 3), (3, 4), (4, 4)]:
        grid = [(i * c + j, i * c + j + 1) for i in range(r) for j in range(c - 1)]
        grid += [(i * c + j, (i + 1) * c + j) for i in range(r - 1) for j in range(c)]
        assert solve(f"node-kayles:grid:{r}x{c}").value == nk_value(r * c, grid), (r, c)


def test_node_kayles_graph_file(tmp_path):
    # The path a - c - b: taking c ends the game, taking a leaf leaves one vertex: mex{0, 1} = 2.
    f = tmp_path / "path.txt"
    f.write_text("c: a b\n")
    s = solve(f"node-kayles:{f}", moves=True)
    assert s.value == nk_value(3, [(0, 1), (0, 2)]) == 2
    assert [m for m, _ in s.winning_moves] == ["c"]


# --------------------------------------------------------------------------------------------
# Wythoff: the P-positions are the Beatty pairs (⌊kφ⌋, ⌊kφ²⌋) and their mirrors.


def beatty_pairs(limit):
    pairs = set()
    for k in range(limit + 1):
        a = (k + math.isqrt(5 * k * k)) // 2  # ⌊kφ⌋
        pairs |= {(a, a + k), (a + k, a)}
    return pairs


def test_wythoff_p_positions_are_beatty_pairs():
    p = beatty_pairs(30)
    for a in range(30):
        for b in range(a, 30):
            s = solve(f"wythoff:{a},{b}", moves=True)
            assert s.outcome == ("P" if (a, b) in p else "N"), (a, b)
            for _, after in s.winning_moves:
                x, y = map(int, after.split(":")[1].split(","))
                assert (x, y) in p, (a, b, after)


def test_wythoff_values_match_a_brute_force_mex():
    @lru_cache(maxsize=None)
    def value(a, b):
        opts = [value(a - i, b) for i in range(1, a + 1)]
        opts += [value(a, b - i) for i in range(1, b + 1)]
        opts += [value(a - i, b - i) for i in range(1, min(a, b) + 1)]
        return mex(opts)

    for a in range(12):
        for b in range(12):
            assert solve(f"wythoff:{a},{b}").value == value(a, b), (a, b)


# --------------------------------------------------------------------------------------------
# Scripts, the object, errors, Ctrl-C


def test_a_rules_script():
    s = solve(f"rules:{EXAMPLES / 'turning-coins.rhai'}")
    assert (s.outcome, s.value) == ("N", 2 ^ 3 ^ 5 ^ 7)


def test_solution_and_game_objects():
    g = Game("chomp:2x2")
    assert repr(g) == "Game('chomp:2x2')" and str(g) == "chomp:2x2" and g == Game("chomp:2x2")
    s = g.solve(moves=True)
    assert isinstance(s, Solution) and s == solve(g, moves=True)
    assert str(s) == "N\nvalue 2\n(2,2): chomp:2,1"
    assert solve("chomp:2x2").winning_moves == []
    assert set(s.stats) == {"positions", "lookups", "hits", "hit_rate", "table_bytes", "seconds"}
    assert s.stats["positions"] > 0 and 0 <= s.stats["hit_rate"] <= 1
    assert str(solve("cram:1x4", misere=True)) == "N"


def test_bad_games_raise_value_error_with_the_cli_message(tmp_path):
    with pytest.raises(ValueError, match=r"^GAME, column 10: expected '\.' \(free\)"):
        Game("cram:../.x.")
    with pytest.raises(ValueError, match="unknown game"):
        solve("go:19x19")
    with pytest.raises(ValueError, match="cannot read it"):
        solve(f"node-kayles:{tmp_path / 'missing.txt'}")
    with pytest.raises(TypeError):
        Game(3)
    with pytest.raises(ValueError):
        solve("cram:2x2", memory=-1)


def test_a_full_table_raises_limit_error():
    with pytest.raises(LimitError) as e:
        solve("cram:5x5", memory=1000)
    assert e.value.kind == "memory" and "memory=" in str(e.value)
    assert solve("cram:5x5", memory=10**8).outcome == "P"


def test_ctrl_c_stops_a_long_search(sigint_raises):
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solve("cram:7x7", moves=True)
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 5, elapsed
    assert solve("cram:2x2").outcome == "P"


def test_progress_counts_positions_and_a_raising_callback_stops_the_search():
    seen = []
    notes = []

    class Stop(Exception):
        pass

    def progress(done, note):
        seen.append(done)
        notes.append(note)
        if done > 0:
            raise Stop

    with pytest.raises(Stop):
        grundy._grundy._solve_board("cram:7x7", False, True, None, progress)
    assert seen == sorted(seen) and seen[-1] > 0 and all(d % 4096 == 0 for d in seen)
    # The search says where it stands at the board: 7×7 (value 1) has 84 moves, and it first
    # asks whether one of them has the value 0.
    said = [n for n in notes if n is not None]
    assert said, notes
    assert said[-1].startswith("asking whether the board's value is 0: ") or said[-1].startswith(
        "the board: value at least 1; asking whether its value is 1: "
    ), said
    # The search of the option being asked (47 cells) may say where it stands, after
    # "; inside the option(s) being asked: ": "A of O" an engine, with "> A of O" for each
    # level of search below it, "-" for an engine that has not said.
    last, _, inside = said[-1].partition("; inside the option")
    if inside:
        each = inside.split(" being asked: ", 1)[1].removesuffix(" options asked")
        for e in (level for engine in each.split(" + ") for level in engine.split(" > ")):
            if e != "-":
                a, o = e.split(" of ")
                assert 0 <= int(a) <= int(o), said
    # One engine: "A of O options asked"; several: "A + B of O options asked by 2 engines".
    counts = last.rsplit(": ", 1)[1].split(" options asked")[0]
    asked, options = counts.split(" of ")
    assert all(0 <= int(a) <= int(options) <= 84 for a in asked.split(" + ")), said


def test_solution_document_is_the_schema_of_the_command_line():
    """to_dict() is the document of `grundy solve --json`: the keys of its JSON Schema, the
    moves as {"move", "after"}, and the same answer as the object's fields."""
    import json

    docs = pathlib.Path(__file__).resolve().parents[3] / "docs" / "schemas"
    schema = json.loads((docs / "solution.json").read_text())
    s = solve("chomp:3,2,2", moves=True)
    d = s.to_dict()
    assert list(d) == ["game", "outcome", "value", "winning_moves", "stats"]
    assert set(d) == set(schema["properties"])
    assert (d["game"], d["outcome"], d["value"]) == ("chomp:3,2,2", "N", 3)
    assert d["winning_moves"] == [
        {"move": "(2,2)", "after": "chomp:3,1,1"},
        {"move": "(3,1)", "after": "chomp:3,2"},
    ]
    assert set(d["stats"]) == set(schema["$defs"]["StatsDocument"]["properties"])
    assert s.winning_moves == [(m["move"], m["after"]) for m in d["winning_moves"]]
    m = solve("wythoff:3,5", misere=True).to_dict()
    assert m["value"] is None and m["outcome"] in ("P", "N")
    assert json.loads(json.dumps(d)) == d


# --------------------------------------------------------------------------------------------
# A Cram search's table kept in a file (`checkpoint=`)


def test_a_cram_table_kept_in_a_file_gives_the_same_answer(tmp_path):
    table = tmp_path / "4x9.table"
    first = solve("cram:4x9", moves=True, checkpoint=table)
    assert table.read_bytes().startswith(b"grundy table 1\nabout: cram:")
    again = Game("cram:4x9").solve(moves=True, checkpoint=str(table), checkpoint_every=60)
    assert (again.value, again.winning_moves) == (first.value, first.winning_moves)
    assert again.stats["positions"] < first.stats["positions"]
    assert first.value == solve("cram:4x9").value == 1


def test_a_foreign_or_damaged_table_file_is_refused(tmp_path):
    table = tmp_path / "t"
    solve("cram:4x7", checkpoint=table)
    with pytest.raises(ValueError, match="it is the table of"):
        solve("cram:4x8", checkpoint=table)
    data = bytearray(table.read_bytes())
    data[len(data) // 2] ^= 1
    table.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        solve("cram:4x7", checkpoint=table)
    with pytest.raises(ValueError, match="only a Cram board in normal play"):
        solve("chomp:3x3", checkpoint=tmp_path / "c")
    with pytest.raises(ValueError, match="only a Cram board in normal play"):
        solve("cram:3x3", misere=True, checkpoint=tmp_path / "m")
    with pytest.raises((ValueError, TypeError)):
        solve("cram:3x3", checkpoint=tmp_path / "e", checkpoint_every=-1)


def test_progress_bar_shows_where_a_cram_search_stands(capsys):
    """With tqdm (the extra `progress`), the bar's postfix is the search's last note."""
    pytest.importorskip("tqdm")
    assert solve("cram:5x7", progress=True).value == 1
    err = capsys.readouterr().err
    assert "positions" in err and " options asked" in err, err
