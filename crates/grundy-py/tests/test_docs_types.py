"""The type stubs: ``mypy.stubtest`` finds them complete and consistent with the installed
package, and the examples of docs/python.md type-check under ``mypy --strict`` against them
(the doctest sources written out as one module, in order; ``--allow-redefinition`` because the
page reuses short names such as ``a`` and ``s`` for values of different types)."""

import doctest
import os
import pathlib
import subprocess
import sys

import pytest

DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python.md"


def examples() -> str:
    """The source of every ``>>>`` example of the page, in order, as one module."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(DOCS.read_text(encoding="utf-8"), {}, "docs/python.md", str(DOCS), 0)
    return "".join(e.source for e in test.examples)


def test_examples_are_many():
    # The extraction finds the page's examples (a failing parse would check nothing).
    src = examples()
    assert src.count("\n") > 60 and "HeapGame(\"kayles\")" in src


def mypy_api():
    if os.environ.get("CI"):
        import mypy.api as api  # required under CI

        return api
    return pytest.importorskip("mypy.api")


def test_stubs_match_the_package(tmp_path):
    mypy_api()
    allow = pathlib.Path(__file__).with_name("stubtest-allowlist.txt")
    # From an empty directory, so that `grundy` is the installed package.
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "grundy", "--allowlist", str(allow)],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_docs_examples_pass_mypy_strict(tmp_path):
    api = mypy_api()
    path = tmp_path / "docs_python_examples.py"
    path.write_text(examples(), encoding="utf-8")
    out, err, status = api.run(
        ["--strict", "--allow-redefinition", "--no-incremental", "--cache-dir", os.devnull, str(path)]
    )
    assert status == 0, out + err
