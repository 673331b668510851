"""Fixtures the command-line tests share."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess

import pytest


@pytest.fixture
def tiny_disk(tmp_path):
    """A 600 KB tmpfs, where this machine allows mounting one (else the test skips): a
    disk that really fills, for the full-disk tests."""
    where = tmp_path / "tiny"
    where.mkdir()
    if os.name != "posix" or not shutil.which("mount") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root on Linux")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield where
    finally:
        gc.collect()  # a database connection left open keeps the disk busy
        if subprocess.run(["umount", str(where)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)
