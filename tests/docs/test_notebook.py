"""The documentation's notebooks run from top to bottom without an error, and the
outputs stored in them (what the site shows) are the ones a fresh run gives, timings
aside. When they are not: ``python tests/notebooks.py`` stores them anew.
"""

from __future__ import annotations

import copy

import nbformat
import pytest
from notebooks import NOTEBOOKS, ROOT, execute, stderr_text, visible

IDS = [p.stem for p in NOTEBOOKS]
REFRESH = "run `python tests/notebooks.py` to store the outputs of a fresh run"


def test_the_docs_have_a_notebook():
    assert [p.name for p in NOTEBOOKS] == ["a-house-rule-question.ipynb"]
    assert "a-house-rule-question.ipynb" in (ROOT / "mkdocs.yml").read_text()


@pytest.fixture(scope="module", params=NOTEBOOKS, ids=IDS)
def ran(request, tmp_path_factory):
    """(stored, fresh): the notebook as checked in, and as it runs now."""
    stored = nbformat.read(request.param, as_version=4)
    return stored, execute(request.param, tmp_path_factory.mktemp("nb"))


@pytest.mark.slow
def test_it_runs_without_error_or_warning(ran):
    _, fresh = ran
    code = [c for c in fresh.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1))
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]
    assert "Warning" not in stderr_text(fresh)


@pytest.mark.subprocess
def test_the_stored_outputs_are_a_fresh_runs(ran):
    stored, fresh = ran
    for i, (was, now) in enumerate(zip(visible(stored), visible(fresh), strict=True)):
        assert was == now, f"code cell {i + 1}: the stored output is out of date; {REFRESH}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_stored_outputs_are_whole(path):
    """Every code cell ran, in order, warm (no compile message stored), and the page has
    its pictures and tables."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert [c.execution_count for c in code] == list(range(1, len(code) + 1)), REFRESH
    assert "compil" not in stderr_text(nb), f"the engine compiled while it ran; {REFRESH}"
    outputs = [o for c in code for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 4
    assert sum("text/html" in o.get("data", {}) for o in outputs) >= 4
    assert all(c.outputs for c in code[1:]), "a code cell shows nothing"


def test_an_outdated_output_is_caught_and_a_timing_is_not():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="rounds 3.2 turns longer\n"),
        nbformat.v4.new_output("execute_result", data={
            "text/html": "<table><tr><td>3.0</td><td>done in 0.41 s, 52,000 games/s</td>"
                         "</tr></table>", "text/plain": "3.0"}),
        nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0K"})])])
    same = copy.deepcopy(nb)
    same.cells[0].outputs[1].data["text/html"] = (
        "<table>\n<tr><td>3.0</td>\n<td>done in 12.5 s, 900 games/s</td></tr></table>")
    same.cells[0].outputs[2].data["image/png"] = "other bytes"
    assert visible(same) == visible(nb) == [
        ["rounds 3.2 turns longer", "3.0 done in <time>, <time>", "<image>"]]
    changed = copy.deepcopy(nb)
    changed.cells[0].outputs[0].text = "rounds 3.3 turns longer\n"
    assert visible(changed) != visible(nb)
    gone = copy.deepcopy(nb)
    del gone.cells[0].outputs[2]
    assert visible(gone) != visible(nb)
