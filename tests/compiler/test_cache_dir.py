"""Compiled kernels are cached in a folder named after a hash of the compiled
sources, whatever the import order: Numba checks only the timestamp of the file
that defines a kernel, so a cache shared across source versions would run stale
code (a changed layout once crashed a batch this way)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

SHOW = (
    "import os\n{first}import unosim\nfrom numba.core import config\n"
    "print(config.CACHE_DIR)\nprint(os.environ['NUMBA_CACHE_DIR'])\n"
    "print(unosim._default_cache_dir())\n"
)


@pytest.mark.subprocess
@pytest.mark.parametrize("first", ["", "import numba\n"], ids=["unosim-first", "numba-first"])
@pytest.mark.parametrize("unset", [None, ""], ids=["unset", "empty"])
def test_numba_uses_the_hashed_cache_folder(first, unset, tmp_path):
    """An empty NUMBA_CACHE_DIR counts as unset, as it does to Numba."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if unset is not None:
        env["NUMBA_CACHE_DIR"] = unset
    env["XDG_CACHE_HOME"] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", SHOW.format(first=first)], env=env,
                         capture_output=True, text=True, check=True).stdout.split()
    numba_dir, env_dir, expected = out
    assert numba_dir == env_dir == expected
    assert expected.startswith(str(tmp_path / "unosim" / "numba-"))

