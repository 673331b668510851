"""The code base stays ruff clean (style is part of the test command)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_clean():
    cmd = [sys.executable, "-m", "ruff", "check", str(ROOT)]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stdout + res.stderr
