"""``import unosim.env`` without the ``rl`` extra names the extra to install, as
``unosim play`` and Parquet do, instead of a bare "No module named 'gymnasium'".

Each case runs in a fresh interpreter where the package is made unimportable
(``sys.modules[name] = None``, which Python's import reads as "not installed"), so the
modules this process already imported do not hide the failure.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

HIDE = """
import sys
for name in {hidden!r}:
    sys.modules[name] = None
import unosim.env
"""


def _import_without(*hidden: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE.format(hidden=hidden)],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.subprocess
@pytest.mark.parametrize("missing", ["gymnasium", "pettingzoo"])
def test_a_missing_package_of_the_extra_names_the_extra(missing):
    p = _import_without(missing)
    assert p.returncode != 0
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("ModuleNotFoundError: unosim.env needs the extra 'rl'"), last
    assert 'pip install "unosim[rl]"' in last and f"({missing} is missing)" in last, last
    # one error, not the bare one chained under it
    assert "No module named" not in p.stderr and "During handling" not in p.stderr


@pytest.mark.subprocess
def test_the_error_is_still_an_import_error_naming_the_module():
    """Code that falls back on ``except ImportError`` keeps working, and ``e.name``
    still says which package is missing."""
    code = HIDE.format(hidden=("gymnasium",)).replace(
        "import unosim.env", "try:\n    import unosim.env\nexcept ImportError as e:\n"
                             "    print(type(e).__name__, e.name)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["ModuleNotFoundError", "gymnasium"]


@pytest.mark.subprocess
def test_another_missing_module_is_not_blamed_on_the_extra(tmp_path):
    """A gymnasium that is there but broken (it imports a module that is missing) fails
    on that module, not with advice to install what is installed."""
    fake = tmp_path / "gymnasium"
    fake.mkdir()
    (fake / "__init__.py").write_text("import unosim_no_such_dependency\n")
    p = subprocess.run([sys.executable, "-c", "import unosim.env"], capture_output=True,
                       text=True, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert p.returncode != 0
    assert "No module named 'unosim_no_such_dependency'" in p.stderr, p.stderr[-500:]
    assert "unosim[rl]" not in p.stderr


@pytest.mark.subprocess
def test_with_the_extra_it_imports():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    p = subprocess.run([sys.executable, "-c", "import unosim.env as e; print(e.N_ACTIONS)"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "153"
