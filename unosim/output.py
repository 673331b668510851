"""What a run prints and keeps: its report as a table or one JSON object on stdout,
and ``summary.json`` / ``summary.csv`` in ``--out`` (shared by every path of ``run``
and by ``--resume``, so they all print and write the same thing); and what every
command does when a file cannot be written (a full disk, a read-only folder).

A command prints its report first and writes its files after, as one set
(:func:`report_files`): a failure leaves the folder as it was, and ends the command
with one line ``unosim: error: cannot write PATH: REASON; ...`` and exit code 2,
saying that the report above is complete (or what it covers), which files the
command did write, and how ``--resume`` gets the rest without playing again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from unosim.common import FileSet, WriteFailed, written_files
from unosim.errors import UnosimError


def print_summary(summary: dict[str, Any], text: str, fmt: str, out_dir: Path | None,
                  keep: Any = None) -> None:
    """Echo ``text`` (or the JSON of ``summary``) and write the ``--out`` files."""
    from unosim.reports.export import write_summary_files
    from unosim.reports.render import render_json

    click.echo(render_json(summary) if fmt == "json" else text)
    if out_dir is not None:
        with report_files(out_dir, keep, "run", bool(summary.get("partial"))):
            write_summary_files(out_dir, summary)


# ---------------------------------------------------------------- files that fail


def cannot_write(e: WriteFailed, *notes: str) -> UnosimError:
    """The one line of a file that could not be written: the file, why, what that
    means (``notes``) and the files this command did write (complete, in place)."""
    parts = [f"cannot write {e.filename}: {e.strerror}", *e.notes, *(n for n in notes if n)]
    before = [str(p) for p in written_files() if str(p) != e.filename]
    if before:
        names = ", ".join(before[:4]) + (", ..." if len(before) > 4 else "")
        parts.append(f"this command did write {len(before)} file"
                     f"{'s' * (len(before) != 1)}: {names}")
    return UnosimError("; ".join(parts))


def checkpoint_note(keep: Any, command: str, complete: bool) -> str:
    """After a failed write: keep the checkpoint in ``--out`` up to date when it can
    be (then ``--resume`` writes the files without playing again), and say what it
    holds; a checkpoint that lags behind the per-game records is removed, since
    resuming it would repeat or miss records."""
    if keep is None or keep.folder is None:
        return ""
    saved = False
    if keep.failed is None:
        try:
            keep.save()
            saved = True
        except WriteFailed:
            pass  # the earlier checkpoint, if any, stays as it was
    resume = f"`unosim {command} --resume {keep.folder}`"
    if keep.records and not saved:
        keep.remove()
        return ("its checkpoint was removed, since it could not follow the per-game "
                "records; run the command again once there is room")
    if saved:
        return (f"free some space, then {resume} "
                + ("writes them without playing again" if complete else "finishes it"))
    if keep.kept():
        return (f"free some space, then {resume} "
                + ("writes them, playing again only the games after its last checkpoint"
                   if complete else "finishes it from its last checkpoint"))
    return "no checkpoint could be kept; run the command again once there is room"


@contextmanager
def report_files(out_dir: Path, keep: Any = None, command: str = "",
                 partial: bool = False, again: str = "") -> Iterator[None]:
    """Write the files of a report already printed, all of them or none
    (:class:`~unosim.common.FileSet`); a failure is one error line that says the
    report above stands and how to get the files (``again``: how, for a command
    without a checkpoint)."""
    try:
        with FileSet(out_dir) as files:
            yield
            with stops_noted():  # renamed into place all together, not cut halfway
                files.commit()
    except KeyboardInterrupt:  # Ctrl-C while writing: the set is not written, nothing half
        interrupted_writing(out_dir, keep, command, partial, again)
    except WriteFailed as e:
        failed = keep.failed if keep is not None else None
        if failed is not None:  # the play had stopped on a file already: that is the error
            raise cannot_write(
                failed, "stopped there: the report above shows what finished before it",
                f"its files were not written either ({e.strerror}; {out_dir} keeps what it "
                "held before)", checkpoint_note(keep, command, False)) from None
        report = ("the report above shows what finished before the stop, only its files "
                  "failed" if partial else "the report above is complete, only its files "
                  "failed")
        raise cannot_write(e, report, checkpoint_note(keep, command, not partial)
                           or (f"free some space, then {again}" if again else "")) from None


@contextmanager
def stops_noted() -> Iterator[None]:
    """While a set of files is renamed into place (a moment): Ctrl-C or SIGTERM is
    noted, not raised, so the set is never left half renamed; the command then ends
    as usual and says that it was stopped as it ended (``cli.main``)."""
    import signal
    import threading

    from unosim import interrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig in old:
        signal.signal(sig, lambda signum, frame: interrupt._note(signum))
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def interrupted_writing(out_dir: Path, keep: Any, command: str, partial: bool,
                        again: str = "") -> None:
    """Ctrl-C (or SIGTERM) while the files of a report already printed were being
    written: none of them was (``FileSet``), the folder keeps what it held; the
    checkpoint is brought up to date when there is one, so ``--resume`` writes them
    without playing again. One line, exit code 130 (143)."""
    import sys

    from unosim import interrupt

    report = ("the report above shows what finished before the stop"
              if partial else "the report above is complete")
    how = again or "run the command again to write them"
    if keep is not None and keep.folder is not None and keep.failed is None:
        try:
            keep.save()
            how = (f"`unosim {command} --resume {keep.folder}` writes them without playing "
                   "again")
        except (WriteFailed, KeyboardInterrupt):
            if keep.kept():
                how = (f"`unosim {command} --resume {keep.folder}` writes them, playing "
                       "again only the games after its last checkpoint")
    click.echo(f"unosim: interrupted while writing the files of {out_dir}: none was written "
               f"and the folder keeps what it held before; {report}; {how}", err=True)
    sys.exit(interrupt.exit_code())


def play_keeping_records(saver: Any, keep: Any, play: Callable[[], Any]
                         ) -> tuple[Any, WriteFailed | None]:
    """Play with ``--save-games``: (the result, None), or (the result, the failure)
    when the records could not be written: the records file is dropped (nothing half
    written), the play stops at the next task (through ``keep``) with every game
    played counted, and the command shows the report, then :func:`records_lost`."""
    if keep is not None:
        keep.records = saver.writer is not None
        saver.on_failure = keep.fail
    try:
        result = play()
    except BaseException:
        saver.close(False)
        raise
    if saver.failed is not None:
        return result, saver.failed
    try:
        saver.close(True)  # a stopped run keeps the records of its finished games
    except WriteFailed as e:
        return result, e
    return result, None


def records_lost(e: WriteFailed, keep: Any, partial: bool, done: str) -> UnosimError:
    """The error after the report of a play whose per-game records were lost (``done``:
    what the report covers): the checkpoint would resume without them, so it goes
    too, and no ``--out`` file is written."""
    lost = "the per-game records were not kept"
    if keep is not None and keep.folder is not None:
        keep.remove()
        lost += f", nor the files and checkpoint of --out {keep.folder}"
    return cannot_write(e, lost, f"the report above covers {done}" if partial
                        else "the report above is complete")

