"""``unosim compile --clean`` removes the engines other versions compiled into the
cache folder and keeps this version's; it touches nothing in a cache folder the user
chose."""

from __future__ import annotations

import pytest

from unosim.cli import main
from unosim.compiler import old_engines


def _engine(folder, name: str, nbytes: int):
    d = folder / name / "unosim.simulate.step_nb"
    d.mkdir(parents=True)
    (d / "step.nbc").write_bytes(b"x" * nbytes)
    return folder / name


def test_only_the_other_engines_are_found_and_removed(tmp_path):
    cache = tmp_path / "unosim"
    current = _engine(cache, "numba-aaaa", 10)
    old = [_engine(cache, "numba-bbbb", 300), _engine(cache, "numba-cccc", 700)]
    (cache / "engine-scan-1.json").write_text("{}")  # not an engine: kept
    (cache / "numba-dddd").write_text("a file, not a folder")  # kept
    found = old_engines.find(current)
    assert found.folders == tuple(old) and found.size == 1000
    assert old_engines.remove(found) == 2
    assert sorted(p.name for p in cache.iterdir()) == ["engine-scan-1.json", "numba-aaaa",
                                                       "numba-dddd"]
    assert (current / "unosim.simulate.step_nb" / "step.nbc").read_bytes() == b"x" * 10


def test_a_folder_the_user_chose_is_not_judged(tmp_path):
    assert old_engines.find(tmp_path / "my-numba-cache") is None
    assert old_engines.find(tmp_path / "elsewhere" / "numba-aaaa") is None


def _run(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    return e.value.code or 0, capsys.readouterr()


def test_the_command_says_what_it_removed(tmp_path, monkeypatch, capsys):
    cache = tmp_path / "unosim"
    current = _engine(cache, "numba-aaaa", 10)
    _engine(cache, "numba-bbbb", 2_000_000)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(current))
    code, out = _run(capsys, ["compile", "--clean", "--dry-run"])
    assert code == 0
    assert f"would remove 1 engine of other unosim versions (2 MB) from {cache}" in out.out
    assert (cache / "numba-bbbb").is_dir()  # a dry run removes nothing
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    code, out = _run(capsys, ["compile", "--clean", "--dry-run"])
    assert code == 0 and "nothing removed: NUMBA_CACHE_DIR is set to" in out.out
    assert (cache / "numba-bbbb").is_dir()
