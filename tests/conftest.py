"""Make tests/ importable (the reference engine and the scenario helpers live here,
not in the package)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
# scenario.assert_unchanged asserts: show pytest's detailed diff when it fails
pytest.register_assert_rewrite("scenario")
