"""A full disk never ends in a traceback, never leaves half a file, and never loses
the report: the commands that write files (``run --save-games``, ``compare --out``,
``settle --out``, and the checkpoint every ``--out`` keeps) with the disk filling up
at their first, middle or last file.

The disk is simulated: ``unosim.common._write_new``, through which every byte of an
output file or a checkpoint passes, writes half its data and then fails with ENOSPC
at the chosen file, as ``write(2)`` does on a full disk; pyarrow's writer fails the
same way for the Parquet records. The last test fills a real 600 KB tmpfs where the
machine lets the tests mount one (root on Linux), and skips elsewhere.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from cli_helpers import invoke
from test_cli import TIMING_KEYS

from unosim import common
from unosim.cli import main

ENOSPC = os.strerror(errno.ENOSPC)  # "No space left on device"


class FullDisk:
    """``_write_new`` that runs out of space at one file: the ``at``-th write (from 1)
    of a file whose name matches ``which`` ("report": any file but the checkpoint,
    "checkpoint": checkpoint.json) gets half its bytes, then ENOSPC; every other write
    goes through. ``names`` lists the files written (or attempted), in order."""

    def __init__(self, at: int | None = None, which: str = "report") -> None:
        self.at, self.which = at, which
        self.names: list[str] = []
        self.seen = 0
        self.real = common._write_new

    def __call__(self, tmp: Path, data: bytes) -> None:
        name = tmp.name[1:].rsplit(".", 3)[0]  # .NAME.PID.HEX.tmp -> NAME
        self.names.append(name)
        kind = "checkpoint" if name == "checkpoint.json" else "report"
        if kind == self.which:
            self.seen += 1
            if self.seen == self.at:
                with open(tmp, "xb") as fh:
                    fh.write(data[: len(data) // 2])  # a truncated file, as a full disk
                raise OSError(errno.ENOSPC, ENOSPC)
        self.real(tmp, data)

    def report_files(self) -> list[str]:
        return [n for n in self.names if n != "checkpoint.json"]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (relative name -> bytes), the checkpoint aside."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != "checkpoint.json"}


def no_leftovers(root: Path, *out_dirs: Path) -> None:
    """No temporary file anywhere in ``root``, and no empty folder but the ``--out``
    folders the commands were given (a failed set removes the folders it made)."""
    temps = [p for p in root.rglob("*") if p.name.endswith(".tmp")]
    assert temps == [], temps
    empty = [p for p in root.rglob("*") if p.is_dir() and not any(p.iterdir())
             and p not in out_dirs]
    assert empty == [], empty


def assert_write_error(code: int, out: str, err: str, path: Path, *needles: str) -> str:
    """Exit 2, the report on stdout, and on stderr one line naming ``path``."""
    assert code == 2, (code, err)
    assert "Traceback" not in out + err
    assert out.strip(), "the report must be printed before the error"
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert line.startswith(f"unosim: error: cannot write {path}: {ENOSPC}"), line
    for needle in needles:
        assert needle in line, (needle, line)
    return line


def pick(n: int, where: str) -> int:
    """The first, middle or last of ``n`` files (1-based)."""
    return {"first": 1, "middle": (n + 1) // 2, "last": n}[where]


@pytest.fixture
def small_tasks(monkeypatch):
    """Tasks of 500 games, and a checkpoint after every one of them, so that a run of
    a few thousand games has a checkpoint on disk before its report."""
    monkeypatch.setenv("UNOSIM_BATCH", "500")
    monkeypatch.setenv("UNOSIM_CHECKPOINT_SECONDS", "0.001")


# ---------------------------------------------------------------- compare --out

COMPARE = ["compare", "official", "stacking", "--games", "2000", "--no-progress"]


@pytest.fixture(scope="module")
def compare_before(tmp_path_factory):
    """The complete files of ``compare --out`` (seed 1), and the order they are
    written in: the previous set a failed run must leave as it was."""
    folder = tmp_path_factory.mktemp("compare") / "c"
    return folder, healthy(folder, [*COMPARE, "--seed", "1", "--out", str(folder)])


def healthy(folder: Path, argv: list[str]) -> list[str]:
    """Run ``argv`` on a healthy disk (small tasks); the report files it wrote, in order."""
    spy = FullDisk()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UNOSIM_BATCH", "500")
        mp.setenv("UNOSIM_CHECKPOINT_SECONDS", "0.001")
        mp.setattr(common, "_write_new", spy)
        with pytest.raises(SystemExit) as done:
            main(argv)
    assert done.value.code in (0, None)
    return spy.report_files()


@pytest.mark.slow  # three compares with charts, and the healthy one: about 25 s
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_compare_out_on_a_full_disk_keeps_the_previous_files(capsys, monkeypatch, tmp_path,
                                                             small_tasks, compare_before,
                                                             where):
    out_dir = tmp_path / "c"
    shutil.copytree(compare_before[0], out_dir)
    before = snapshot(out_dir)
    files = compare_before[1]
    assert len(files) >= 10 and set(files) == set(before)

    fail = FullDisk(pick(len(files), where))
    monkeypatch.setattr(common, "_write_new", fail)
    code, out, err = invoke(capsys, [*COMPARE, "--seed", "2", "--out", str(out_dir)])
    line = assert_write_error(code, out, err, out_dir / files[fail.at - 1],
                              "none of the files of this report was written",
                              "the report above is complete, only its files failed",
                              f"`unosim compare --resume {out_dir}` writes them without "
                              "playing again")
    assert "did write" not in line  # nothing else of this command was written
    assert "PARTIAL" not in out and "stacking" in out
    assert snapshot(out_dir) == before  # not one file of the new run, none cut short
    no_leftovers(tmp_path)
    if where != "middle":
        return

    # once there is room, --resume writes the files without playing again
    monkeypatch.setattr(common, "_write_new", fail.real)
    code, resumed, err = invoke(capsys, ["compare", "--resume", str(out_dir),
                                         "--no-progress"])
    assert code == 0, err
    assert f"wrote {len(files)} files" in err
    assert not (out_dir / "checkpoint.json").exists()
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["seed"] == 2 and not summary["partial"]
    assert [x for x in resumed.splitlines() if "games/s" not in x] == [
        x for x in out.splitlines() if "games/s" not in x]


# ---------------------------------------------------------------- settle --out


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_settle_out_on_a_full_disk_keeps_the_previous_files(capsys, monkeypatch, tmp_path,
                                                            where):
    out_dir = tmp_path / "s"
    argv = ["settle", "stacking-longer", "--games", "500", "--no-progress",
            "--out", str(out_dir)]
    spy = FullDisk()
    monkeypatch.setattr(common, "_write_new", spy)
    code, _, _ = invoke(capsys, [*argv, "--seed", "1"])
    assert code == 0
    before = snapshot(out_dir)
    files = spy.report_files()
    assert {"verdicts.json", "verdicts.csv", "settle.html", "stacking-longer.png"} <= set(files)

    fail = FullDisk(pick(len(files), where))
    monkeypatch.setattr(common, "_write_new", fail)
    code, out, err = invoke(capsys, [*argv, "--seed", "2"])
    name = files[fail.at - 1]
    target = out_dir / ("cards/" + name if name.endswith(".png") else name)
    assert_write_error(code, out, err, target, "the report above is complete",
                       f"`unosim settle --resume {out_dir}`")
    assert "stacking-longer --seed 2" in out  # the verdict line stands
    assert snapshot(out_dir) == before
    no_leftovers(tmp_path)


def test_settle_out_into_a_new_folder_leaves_no_cards_folder(capsys, monkeypatch, tmp_path):
    out_dir = tmp_path / "s"
    monkeypatch.setattr(common, "_write_new", FullDisk(3))  # the card (after json and csv)
    code, out, err = invoke(capsys, ["settle", "stacking-longer", "--games", "500",
                                     "--seed", "1", "--no-progress", "--out", str(out_dir)])
    assert_write_error(code, out, err, out_dir / "cards" / "stacking-longer.png")
    assert snapshot(out_dir) == {}  # not a file of the report, and no empty cards/
    no_leftovers(tmp_path)


# ---------------------------------------------------------------- run --save-games


class RecordsFull:
    """pyarrow's ParquetWriter running out of space at its ``at``-th batch of records,
    or (``at`` = "close") when it writes the footer."""

    def __init__(self, monkeypatch, at: int | str) -> None:
        self.at, self.batches = at, 0
        real_write, real_close = pq.ParquetWriter.write_table, pq.ParquetWriter.close

        def write_table(writer, table, *args, **kwargs):
            self.batches += 1
            if self.batches == self.at:
                raise OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] "
                              "No space left on device")
            return real_write(writer, table, *args, **kwargs)

        def close(writer):
            real_close(writer)
            if self.at == "close" and not getattr(writer, "_failed_once", False):
                writer._failed_once = True
                raise OSError(errno.ENOSPC, ENOSPC)

        monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)
        monkeypatch.setattr(pq.ParquetWriter, "close", close)


RUN = ["run", "--games", "4000", "--no-progress"]


def run_argv(folder: Path, seed: int) -> list[str]:
    """``run --save-games --out --report`` into ``folder`` (g.parquet and o/)."""
    return [*RUN, "--seed", str(seed), "--save-games", str(folder / "g.parquet"),
            "--out", str(folder / "o"), "--report"]


@pytest.fixture(scope="module")
def run_before(tmp_path_factory):
    """The records and the complete files of ``run --save-games --out --report``
    (seed 3), and the order the report's files are written in, learnt once on a
    healthy disk: the previous set a failed run must leave as it was."""
    folder = tmp_path_factory.mktemp("run")
    return folder, healthy(folder, run_argv(folder, 3))


def copy_run(run_before, tmp_path: Path) -> None:
    """The healthy run's records and --out folder into ``tmp_path``."""
    shutil.copytree(run_before[0] / "o", tmp_path / "o")
    shutil.copy2(run_before[0] / "g.parquet", tmp_path / "g.parquet")


@pytest.mark.parametrize("at", [1, 4, "close"])
def test_run_save_games_on_a_full_disk_keeps_the_report(capsys, monkeypatch, tmp_path,
                                                         small_tasks, run_before, at):
    """The records fail at the first batch, a middle one, or when the file is finished:
    the report of every game played is printed, no records file is left (the previous
    one stays), and the line says so; with --out, no file of the run is written."""
    records = tmp_path / "g.parquet"
    out_dir = tmp_path / "o"
    copy_run(run_before, tmp_path)
    old_records, before = records.read_bytes(), snapshot(out_dir)
    assert set(before) == set(run_before[1])

    RecordsFull(monkeypatch, at)
    code, out, err = invoke(capsys, [*RUN, "--seed", "2", "--save-games", str(records),
                                     "--out", str(out_dir), "--report"])
    line = assert_write_error(code, out, err, records, "the per-game records were not kept",
                              f"nor the files and checkpoint of --out {out_dir}")
    if at == "close":  # every game was played: the report is the whole run
        assert "the report above is complete" in line and "PARTIAL" not in out
    else:  # the run stops at the next task, with every game it played in the report
        assert "PARTIAL" in out and f"the {500 * at:,} of 4,000 games played" in line
    assert records.read_bytes() == old_records
    assert snapshot(out_dir) == before and not (out_dir / "checkpoint.json").exists()
    no_leftovers(tmp_path, out_dir)


@pytest.mark.slow  # a run with its report three times: about 12 s
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_run_report_files_on_a_full_disk_after_the_records(capsys, monkeypatch, tmp_path,
                                                           run_before, small_tasks, where):
    """The records were written; then the disk fills while the report's files are:
    the line names the records file as written, and the checkpoint lets --resume
    write the rest."""
    records, out_dir = tmp_path / "g.parquet", tmp_path / "o"
    argv = run_argv(tmp_path, 3)
    files = run_before[1]
    fail = FullDisk(pick(len(files), where))
    monkeypatch.setattr(common, "_write_new", fail)
    code, out, err = invoke(capsys, argv)
    assert_write_error(code, out, err, out_dir / files[fail.at - 1],
                       "the report above is complete",
                       f"this command did write 1 file: {records}",
                       f"`unosim run --resume {out_dir}` writes them without playing again")
    assert pq.read_table(records).num_rows == 4000
    assert snapshot(out_dir) == {}
    no_leftovers(tmp_path, out_dir)
    if where != "middle":
        return

    monkeypatch.setattr(common, "_write_new", fail.real)
    code, _, err = invoke(capsys, ["run", "--resume", str(out_dir), "--no-progress"])
    assert code == 0, err
    assert set(snapshot(out_dir)) == set(files)
    assert pq.read_table(records).num_rows == 4000  # carried over, not played twice


# ---------------------------------------------------------------- the checkpoint


def test_the_first_checkpoint_failing_stops_the_play_there(capsys, monkeypatch, tmp_path,
                                                           small_tasks):
    """The first checkpoint cannot be written: the play stops there, as Ctrl-C would,
    with the report and the files of what it finished (marked partial)."""
    out_dir = tmp_path / "r"
    monkeypatch.setattr(common, "_write_new", FullDisk(1, "checkpoint"))
    code, out, err = invoke(capsys, [*RUN, "--seed", "1", "--out", str(out_dir)])
    assert_write_error(code, out, err, out_dir / "checkpoint.json",
                       "stopped there: the report above covers 500 of 4,000 games",
                       "no checkpoint could be kept",
                       f"this command did write 2 files: {out_dir / 'summary.json'}, "
                       f"{out_dir / 'summary.csv'}")
    assert "PARTIAL RESULT: interrupted after 500 of 4,000 games" in out
    assert json.loads((out_dir / "summary.json").read_text())["partial"]
    assert not (out_dir / "checkpoint.json").exists()
    no_leftovers(tmp_path)


def test_a_disk_full_from_the_start_writes_nothing(capsys, monkeypatch, tmp_path,
                                                   small_tasks):
    """Nothing fits, neither the checkpoint nor the files: the report is printed, the
    line names the first failure and says the files failed too."""
    out_dir = tmp_path / "r"

    def nothing_fits(tmp: Path, data: bytes) -> None:
        with open(tmp, "xb") as fh:
            fh.write(data[:10])
        raise OSError(errno.ENOSPC, ENOSPC)

    monkeypatch.setattr(common, "_write_new", nothing_fits)
    code, out, err = invoke(capsys, [*RUN, "--seed", "1", "--out", str(out_dir)])
    assert_write_error(code, out, err, out_dir / "checkpoint.json",
                       "stopped there: the report above shows what finished before it",
                       f"its files were not written either ({ENOSPC}; {out_dir} keeps what "
                       "it held before)", "no checkpoint could be kept")
    assert "PARTIAL RESULT: interrupted after 500 of 4,000 games" in out
    assert list(out_dir.iterdir()) == []
    no_leftovers(tmp_path, out_dir)


def test_a_disk_that_fills_during_play_keeps_the_last_checkpoint(capsys, monkeypatch,
                                                                 tmp_path, small_tasks):
    """The third checkpoint fails: the play stops there, the second stays, and --resume
    finishes the run with exactly the figures of one never stopped."""
    out_dir = tmp_path / "r"
    monkeypatch.setattr(common, "_write_new", FullDisk(3, "checkpoint"))
    code, out, err = invoke(capsys, [*RUN, "--seed", "5", "--out", str(out_dir),
                                     "--format", "json"])
    assert_write_error(code, out, err, out_dir / "checkpoint.json",
                       f"`unosim run --resume {out_dir}` finishes it from its last "
                       "checkpoint")
    assert json.loads(out)["partial"] and (out_dir / "checkpoint.json").exists()
    no_leftovers(tmp_path)

    monkeypatch.setattr(common, "_write_new", FullDisk())
    code, resumed, err = invoke(capsys, ["run", "--resume", str(out_dir), "--no-progress",
                                         "--format", "json"])
    assert code == 0, err
    code, whole, _ = invoke(capsys, [*RUN, "--seed", "5", "--format", "json"])
    a, b = json.loads(resumed), json.loads(whole)
    assert {k: v for k, v in a.items() if k not in TIMING_KEYS} == {
        k: v for k, v in b.items() if k not in TIMING_KEYS}
    assert not (out_dir / "checkpoint.json").exists()


# ---------------------------------------------------------------- a real full disk


def test_compare_on_a_real_full_disk(capsys, tiny_disk):
    out_dir = tiny_disk / "c"
    code, out, err = invoke(capsys, ["compare", "official", "stacking", "--games", "20000",
                                     "--seed", "1", "--no-progress", "--out", str(out_dir)])
    assert code == 2, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"unosim: error: cannot write {out_dir}/"), err
    assert ENOSPC in err and "the report above is complete" in err
    assert "stacking" in out
    assert snapshot(out_dir) == {}  # the checkpoint alone: --resume writes the rest
    no_leftovers(tiny_disk)
