"""The notebook docs/kayles.ipynb runs from top to bottom against the installed package, and
prints exactly the outputs committed in it: the executed notebook in docs/ is current.

``python tests/test_notebook.py --write`` executes it and writes the outputs into the file."""

import copy
import os
import pathlib
import sys

import pytest

NOTEBOOK = pathlib.Path(__file__).resolve().parents[3] / "docs" / "kayles.ipynb"


def modules():
    if os.environ.get("CI"):
        import nbclient
        import nbformat
    else:
        nbclient = pytest.importorskip("nbclient")
        nbformat = pytest.importorskip("nbformat")
    return nbclient, nbformat


def execute(nb, nbclient, cwd):
    """Runs every cell in a fresh kernel of this environment's Python."""
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    )
    client.execute()
    return nb


def shown(outputs):
    """What a cell printed and displayed: the streams and every representation, without the
    execution counts and metadata that change from run to run."""
    out = []
    for o in outputs:
        if o["output_type"] == "stream":
            out.append(("stream", o["name"], o["text"]))
        elif o["output_type"] in ("execute_result", "display_data"):
            out.append(("data", tuple(sorted((k, str(v)) for k, v in o["data"].items()))))
        else:
            out.append((o["output_type"], o.get("ename"), o.get("evalue")))
    return out


def test_notebook_runs_and_shows_what_is_committed(tmp_path):
    nbclient, nbformat = modules()
    committed = nbformat.read(str(NOTEBOOK), as_version=4)
    ran = execute(copy.deepcopy(committed), nbclient, tmp_path)
    cells = [(c, r) for c, r in zip(committed.cells, ran.cells) if c.cell_type == "code"]
    assert len(cells) >= 10
    for c, r in cells:
        assert not any(o["output_type"] == "error" for o in r.outputs), c.source
        assert r.outputs, c.source
        assert shown(r.outputs) == shown(c.outputs), c.source
    # The notebook shows each kind of picture: a plot, a position, a quotient, a board.
    kinds = " ".join(str(o.get("data", {}).keys()) for _, r in cells for o in r.outputs)
    assert "image/svg+xml" in kinds and "text/html" in kinds


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import nbclient
    import nbformat

    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    execute(nb, nbclient, NOTEBOOK.parent)
    nbformat.write(nb, str(NOTEBOOK))
