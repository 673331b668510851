"""The documentation's notebooks (``docs/*.ipynb``), run as a reader runs them, behind
tests/docs/test_notebook.py.

The site shows each notebook with the outputs stored in it (mkdocs-jupyter does not
run it), so the build stays fast and shows the same numbers every time. Those outputs
are made by this file: after changing a notebook, or when the test says its outputs
are out of date, run

    python tests/notebooks.py

which runs every notebook in place with this Python (the kernel is the ``python3`` of
``sys.executable``, not whichever one Jupyter finds first) and runs it a second time
if the first run had to compile the engine, so that the compile message is not stored.

``visible`` is what a reader sees of each cell, as text: standard output, each
result's HTML as its text (or its plain text), ``<image>`` for a picture, with the
timings masked; the test compares it between the stored outputs and a fresh run.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
from docs_site import text_of
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "docs").glob("*.ipynb"))
#: seconds one cell may take: the first study of a fresh install compiles the engine
#: (20 to 70 s, minutes on a busy machine); every other cell takes a few seconds
CELL_TIMEOUT = 900
#: what the engine prints on standard error while it compiles, once per install
COMPILING = re.compile(r"^unosim: compil.*$\n?", re.M)
#: a duration or a speed: the only figures that differ between two runs
TIMING = re.compile(r"\d[\d,]*(?:\.\d+)?\s*(?:s|ms|games/s|rounds/s|matches/s)\b")


def execute(path: Path, cwd: Path, timeout: int = CELL_TIMEOUT) -> nbformat.NotebookNode:
    """The notebook at ``path`` with its outputs cleared and made anew, run in ``cwd``;
    raises ``nbclient.exceptions.CellExecutionError`` at the first cell that fails."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    # the python3 kernel of this Python: no kernel directory is searched
    km = KernelManager(kernel_name="python3",
                       kernel_spec_manager=KernelSpecManager(kernel_dirs=[]))
    try:
        NotebookClient(nb, km=km, timeout=timeout, allow_errors=False, record_timing=False,
                       resources={"metadata": {"path": str(cwd)}}).execute()
    finally:  # a kernel manager given to the client is ours to stop
        if km.has_kernel:
            km.shutdown_kernel(now=True)
    return nb


def stderr_text(nb: nbformat.NotebookNode) -> str:
    return "".join(o.text for c in nb.cells if c.cell_type == "code" for o in c.outputs
                   if o.output_type == "stream" and o.name == "stderr")


def _shown(output: nbformat.NotebookNode) -> str:
    if output.output_type == "stream":
        text = output.text if output.name == "stdout" else COMPILING.sub("", output.text)
        return " ".join(text.split())
    if output.output_type == "error":
        return f"<error {output.ename}: {output.evalue}>"
    data = output.get("data", {})
    if "image/png" in data:
        return "<image>"
    if "text/html" in data:
        return text_of(data["text/html"])
    return " ".join(data.get("text/plain", "").split())


def visible(nb: nbformat.NotebookNode) -> list[list[str]]:
    """What a reader sees of each code cell, timings masked (see the module's text)."""
    return [[s for s in (TIMING.sub("<time>", _shown(o)) for o in cell.outputs) if s]
            for cell in nb.cells if cell.cell_type == "code"]


def refresh(path: Path) -> None:
    """Run the notebook at ``path`` and store its outputs in it."""
    nb = execute(path, path.parent)
    if COMPILING.search(stderr_text(nb)):  # the engine is compiled now: run it warm
        nb = execute(path, path.parent)
    nbformat.write(nb, path)


def main() -> None:
    for path in NOTEBOOKS:
        refresh(path)
        print(f"ran {path.relative_to(ROOT)}: outputs stored", file=sys.stderr)


if __name__ == "__main__":
    main()
