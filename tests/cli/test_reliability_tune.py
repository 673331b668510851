"""``unosim tune`` and its storage: a database that fails before or during the study is
one line (the trials told before it kept), never a traceback or an empty database file
left behind; ``--out`` files that could not be written are written later by the same
command with ``--trials 0``, which adds no trial and gives the same report."""

from __future__ import annotations

import errno
import json
import os
import sqlite3

import pytest
from cli_helpers import assert_one_line_error, invoke

from unosim import common

optuna = pytest.importorskip("optuna")
sqlalchemy_exc = pytest.importorskip("sqlalchemy.exc")

TINY = ["--players", "2", "--games-per-trial", "900", "--seed", "3", "--param",
        "wild=-5..5", "--param", "draw=-20..-5"]


def _full(statement: str = "INSERT INTO trials") -> Exception:
    """What SQLAlchemy raises when SQLite finds the disk full."""
    return sqlalchemy_exc.OperationalError(statement, {},
                                           sqlite3.OperationalError("database or disk is full"))


def test_a_storage_that_fills_mid_study_is_one_line(capsys, monkeypatch, tmp_path):
    db = tmp_path / "t.db"
    real = optuna.study.Study.tell
    told = []

    def tell(self, *args, **kwargs):
        if len(told) == 2:  # two trials told, then the disk is full
            raise optuna.exceptions.StorageInternalError(
                "An exception is raised during the commit.") from _full()
        told.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(optuna.study.Study, "tell", tell)
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage", f"sqlite:///{db}",
                                     "--study", "s", "--trials", "5"])
    assert_one_line_error(code, out, err, f"--storage sqlite:///{db}",
                          "cannot write the study", "database or disk is full",
                          "trials finished before are kept", "continues the study")
    assert "Background on this error" not in err and "[SQL" not in err
    monkeypatch.undo()
    study = optuna.load_study(study_name="s", storage=f"sqlite:///{db}")
    finished = [t for t in study.trials if t.state.is_finished()]
    assert len(finished) == 2


def test_a_full_disk_before_the_study_leaves_no_empty_database(capsys, monkeypatch, tmp_path):
    db = tmp_path / "t.db"

    class FullStorage:
        def __init__(self, url, *args, **kwargs):
            db.touch()  # SQLite made the file, then could not write a page
            raise _full("CREATE TABLE studies (...)")

    monkeypatch.setattr(optuna.storages, "RDBStorage", FullStorage)
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage", f"sqlite:///{db}",
                                     "--trials", "1"])
    assert_one_line_error(code, out, err, f"--storage sqlite:///{db}", "cannot open it",
                          "OperationalError: database or disk is full)")
    assert "Background" not in err
    assert not db.exists()


def test_an_existing_database_is_never_removed(capsys, monkeypatch, tmp_path):
    db = tmp_path / "t.db"
    db.write_bytes(b"")

    def refuse(url, *args, **kwargs):
        raise _full()

    monkeypatch.setattr(optuna.storages, "RDBStorage", refuse)
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage", f"sqlite:///{db}",
                                     "--trials", "1"])
    assert code == 2 and db.exists()


def test_out_files_that_failed_are_written_by_trials_0(capsys, monkeypatch, tmp_path):
    """The disk fills at the files: the report is printed, the error names the way to
    the files, and ``--trials 0`` writes them from the study, adding no trial."""
    db = f"sqlite:///{tmp_path / 't.db'}"
    out_dir = tmp_path / "o"
    argv = ["tune", "weighted", *TINY, "--storage", db, "--study", "s", "--format", "json",
            "--out", str(out_dir)]
    real = common._write_new

    def full(tmp, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(common, "_write_new", full)
    code, out, err = invoke(capsys, [*argv, "--trials", "3"])
    assert code == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert os.strerror(errno.ENOSPC) in err
    assert "the same command with --trials 0 writes them from the study without adding a " \
           "trial" in err
    first = json.loads(out)
    assert list(out_dir.iterdir()) == []
    monkeypatch.setattr(common, "_write_new", real)
    code, out, err = invoke(capsys, [*argv, "--trials", "0"])
    assert code == 0, err
    again = json.loads(out)
    assert again["counts"] == first["counts"]  # no trial added
    assert again["best"] == first["best"] and again["reevaluation"] == first["reevaluation"]
    assert json.loads((out_dir / "summary.json").read_text())["best"] == first["best"]


def test_trials_0_on_a_study_without_trials_is_refused(capsys, tmp_path):
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage",
                                     f"sqlite:///{tmp_path / 't.db'}", "--trials", "0"])
    assert_one_line_error(code, out, err, "--trials 0", "no finished trial", "--trials N")


def test_ctrl_c_while_writing_tune_files_says_how_to_get_them(capsys, monkeypatch, tmp_path):
    from unosim import interrupt

    def stop(tmp, data):
        interrupt._note(2)
        raise KeyboardInterrupt

    monkeypatch.setattr(common, "_write_new", stop)
    out_dir = tmp_path / "o"
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage",
                                     f"sqlite:///{tmp_path / 't.db'}", "--trials", "1",
                                     "--out", str(out_dir)])
    assert code == 130 and len(err.splitlines()) == 1, err
    assert err.startswith(f"unosim: interrupted while writing the files of {out_dir}")
    assert "--trials 0" in err


# ---------------------------------------------------------------- a real full disk


def _fill(folder) -> None:
    """Fill the disk of ``folder`` to its last byte."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)


def test_a_really_full_disk_before_the_study(capsys, tiny_disk):
    _fill(tiny_disk)
    db = tiny_disk / "t.db"
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage", f"sqlite:///{db}",
                                     "--trials", "1"])
    assert_one_line_error(code, out, err, f"--storage sqlite:///{db}", "cannot open it",
                          "full")
    assert "Background" not in err and "[SQL" not in err
    assert not db.exists()  # no empty database left behind


def test_a_disk_that_really_fills_mid_study(capsys, monkeypatch, tiny_disk):
    db = tiny_disk / "t.db"
    real = optuna.study.Study.tell
    told = []

    def tell(self, *args, **kwargs):
        told.append(1)
        if len(told) == 3:
            _fill(tiny_disk)  # the disk fills while the third trial is told
        return real(self, *args, **kwargs)

    monkeypatch.setattr(optuna.study.Study, "tell", tell)
    code, out, err = invoke(capsys, ["tune", "weighted", *TINY, "--storage", f"sqlite:///{db}",
                                     "--study", "s", "--trials", "6"])
    assert_one_line_error(code, out, err, f"--storage sqlite:///{db}",
                          "cannot write the study", "full", "continues the study")
    monkeypatch.undo()
    (tiny_disk / "filler").unlink()
    study = optuna.load_study(study_name="s", storage=f"sqlite:///{db}")
    assert len([t for t in study.trials if t.state.is_finished()]) == 2
