"""The boundary: errors, panics, Ctrl-C, the GIL, progress, and the worked session in the docs."""

import doctest
import os
import pathlib
import signal
import sys
import threading
import time

import pytest

import grundy
from grundy import HeapGame, InternalError, LimitError, Nimber

DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python.md"


def test_bad_input_is_value_error_with_the_cli_message():
    with pytest.raises(ValueError) as e:
        HeapGame("octal:0.G")
    assert str(e.value).startswith("GAME, column")
    with pytest.raises(ValueError, match="unknown game"):
        HeapGame("foo")
    with pytest.raises(ValueError, match="natural number"):
        HeapGame("kayles").position([-1])


def test_limit_error():
    assert issubclass(LimitError, Exception) and not issubclass(LimitError, ValueError)
    with pytest.raises(LimitError) as e:
        Nimber(2**20000 + 1) ** (2**19999 + 1)
    assert e.value.kind == "fixed" and "smaller" in str(e.value)


def test_a_panic_becomes_an_exception_and_the_interpreter_lives_on():
    for worker in (False, True):
        with pytest.raises(InternalError, match="boom"):
            grundy._grundy._panic_for_test("boom", worker)
        assert isinstance(InternalError("x"), RuntimeError)
    assert int(Nimber(2) * 2) == 3


def test_ctrl_c_stops_a_long_computation(sigint_raises):
    # Grundy's game to 10^7 takes far longer than the 0.3 s after which SIGINT arrives.
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        HeapGame("grundys-game").sequence(10**7)
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 5, elapsed
    assert list(HeapGame("kayles").sequence(3)) == [0, 1, 2]


def test_the_gil_is_released_during_long_work():
    done = threading.Event()
    ticks = 0

    def work():
        HeapGame("grundys-game").sequence(20000)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    # The main thread kept running Python while the worker computed.
    assert ticks > 10


@pytest.fixture
def without_tqdm(monkeypatch):
    """`import tqdm` fails, as without the extra `progress`."""
    import builtins

    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):
        if name.startswith("tqdm"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)


def test_progress_on_stderr_shows_where_a_cram_search_stands(capsys, without_tqdm):
    """Without tqdm, progress=True writes one stderr line: the count, then the note."""
    assert grundy.solve("cram:5x7", progress=True).value == 1
    err = capsys.readouterr().err
    assert "positions: " in err, err
    assert " options asked" in err and "; " in err, err


def test_progress_line_without_tqdm(capsys, monkeypatch, without_tqdm):
    monkeypatch.setattr(grundy, "_PROGRESS_HINTED", False)
    HeapGame("grundys-game").sequence(30000, progress=True)
    err = capsys.readouterr().err
    assert "computing:" in err and "/30000" in err
    # The first line without tqdm names the extra that brings the bar, and only the first.
    assert err.startswith("(a progress bar needs tqdm: pip install 'grundy[progress]')\n")
    HeapGame("grundys-game").sequence(30000, progress=True)
    assert "grundy[progress]" not in capsys.readouterr().err
    assert "progress" in extras()


def test_progress_callback_errors_stop_the_work():
    native = HeapGame("grundys-game")._native

    def cb(done):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        native.sequence(10**7, cb)


def test_docstrings():
    failures, tried = doctest.testmod(grundy, verbose=False)
    assert tried > 0 and failures == 0


def test_the_worked_session_in_the_docs():
    text = DOCS.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "docs/python.md", str(DOCS), 0)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} of {runner.tries} examples failed"


def test_version_is_the_crates_version():
    import re

    from importlib.metadata import version

    assert re.fullmatch(r"\d+\.\d+\.\d+.*", grundy.__version__)
    assert "__version__" in grundy.__all__
    # The installed distribution's version is the crates' version the extension was built from.
    assert version("grundy") == grundy.__version__


def test_a_missing_optional_package_is_named_with_its_extra(monkeypatch):
    # An entry of None in sys.modules makes `import networkx` fail as if it were not installed.
    monkeypatch.setitem(sys.modules, "networkx", None)
    g = grundy.Graph([("a", "b")])
    with pytest.raises(ImportError, match=r"networkx.*pip install 'grundy\[networkx\]'.*pip install networkx"):
        g.to_networkx()
    # The extra named is one the installed package declares.
    assert "networkx" in extras()


def extras():
    """The extras the installed package declares (its metadata's Provides-Extra)."""
    from importlib.metadata import metadata

    return metadata("grundy").get_all("Provides-Extra") or []


def test_an_absurd_thread_count_is_refused_at_import():
    """Rayon would spawn threads until the system refuses; the import refuses the value."""
    import subprocess

    for bad in ("99999999999", "many"):
        env = dict(os.environ, RAYON_NUM_THREADS=bad)
        r = subprocess.run(
            [sys.executable, "-c", "import grundy"],
            env=env, capture_output=True, text=True, timeout=60,
        )
        assert r.returncode != 0
        assert "ValueError" in r.stderr and "RAYON_NUM_THREADS" in r.stderr, r.stderr
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    r = subprocess.run(
        [sys.executable, "-c", "import grundy; print(list(grundy.HeapGame('kayles').sequence(5)))"],
        env=env, capture_output=True, text=True, timeout=60,
    )
    assert r.returncode == 0, r.stderr
