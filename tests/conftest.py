"""Make tests/ importable (the reference engine and the scenario helpers live here,
not in the package)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# scenario.assert_unchanged asserts: show pytest's detailed diff when it fails
pytest.register_assert_rewrite("scenario")


@pytest.fixture(scope="session", autouse=True)
def engine_compiled():
    """Compile every path of the engine first (``unosim compile``), so that no test's
    output carries the one-time compile notice: it would appear in whichever test
    happened to use a path first (tests/test_compile_paths.py checks the notice)."""
    from unosim.compiler.compiling import PATHS
    from unosim.compiler.prebuild import compile_paths

    compile_paths(list(PATHS), lambda *a: None)
