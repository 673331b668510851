"""``--save-games FILE``: the form its suffix names (``.parquet``, ``.csv``, ``.json``),
checked before any game is played, the saver a command hands its batches to, and
the reading back of one game for ``unosim replay FILE --game K``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unosim.common import temp_path
from unosim.errors import UnosimError
from unosim.reports.records import Columns, CsvRecords, JsonRecords, csv_rows, json_rows

#: the suffixes --save-games writes and replay reads
SUFFIXES = (".parquet", ".csv", ".json")


def form_of(path: Path | str) -> str:
    """``parquet``, ``csv`` or ``json``; a one-line error for any other suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise UnosimError(f"--save-games expects a file name ending in "
                          f"{', '.join(SUFFIXES[:-1])} or {SUFFIXES[-1]}, got {str(path)!r}")
    return suffix[1:]


def check_records_path(path: str) -> Path:
    """Validate a ``--save-games`` target before any game is played."""
    p = Path(path)
    form = form_of(path)
    if p.is_dir():
        raise UnosimError(f"--save-games {path}: is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        # the nearest part of the path that exists: a file there is the real mistake
        above = next((a for a in (parent, *parent.parents) if a.exists()), None)
        if above is not None and not above.is_dir():
            raise UnosimError(f"--save-games {path}: {str(above)!r} is a file, not a folder")
        raise UnosimError(f"--save-games {path}: folder {str(parent)!r} does not exist")
    # a real write, as --out does: root passes os.access, yet /sys or a read-only
    # mount still refuses the file, and only after every game was played
    probe = temp_path(p)
    try:
        with open(probe, "xb"):
            pass
        probe.unlink()
    except OSError as e:
        raise UnosimError(f"--save-games {path}: cannot write in {str(parent)!r} "
                          f"({e.strerror or e})") from None
    if form == "parquet":
        from unosim.reports.parquet import require_pyarrow

        require_pyarrow()
    return p


def open_writer(path: Path, header: dict[str, Any], columns: Columns) -> Any:
    """The writer of ``path``'s form."""
    form = form_of(path)
    if form == "parquet":
        from unosim.reports.parquet import RecordWriter

        return RecordWriter(path, header, columns)
    return (CsvRecords if form == "csv" else JsonRecords)(path, header, columns)


class RecordSaver:
    """``--save-games`` of a run or a comparison: every batch of records into one
    file with its header (``header["variants"]`` name the variants, in the order
    of the hook's index); does nothing without a path, so a command can always
    hand it its batches."""

    def __init__(self, path: Path | None, mode: Any, header: dict[str, Any] | None = None,
                 resumed: bool = False):
        self.writer: Any = None
        #: the records could not be written (the file is dropped, the hook does nothing)
        self.failed: OSError | None = None
        #: told of that failure (a command's checkpoint keeper: the play stops there)
        self.on_failure: Any = None
        if path is None or header is None:
            return
        columns = Columns.of(mode, [(v["name"], v["players"]) for v in header["variants"]])
        header = {**header, "columns": columns.names}
        self.writer = open_writer(path, header, columns)
        if resumed:  # the rows the interrupted run kept come first
            try:
                self.writer.carry_over()
            except UnosimError:
                self.writer.abort()
                raise

    def hook(self, vi: int, first: int, rec: Any) -> None:
        if self.writer is not None and self.failed is None:
            try:
                self.writer.write(first, rec, vi)
            except OSError as e:  # the writer dropped its file; the games still count
                self.failed = e
                if self.on_failure is not None:
                    self.on_failure(e)

    @property
    def records_hook(self) -> Any:
        """``hook``, or None without a path (so no records are kept for nothing)."""
        return self.hook if self.writer is not None else None

    def close(self, ok: bool) -> None:
        """Rename the file into place after a finished run; drop it otherwise."""
        if self.writer is None or self.failed is not None:
            return
        if ok:
            self.writer.close()
        else:
            self.writer.abort()


def read_game(path: Path, game: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header of a records file and its rows of game ``game`` (one per variant);
    a one-line error for a file that cannot be read or holds no header."""
    if not path.is_file():
        raise UnosimError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise UnosimError(f"{path}: replay reads --save-games files ({', '.join(SUFFIXES)})")
    try:
        if suffix == ".parquet":
            from unosim.reports.parquet import parquet_rows

            return parquet_rows(path, game)
        return (csv_rows if suffix == ".csv" else json_rows)(path, game)
    except UnosimError:
        raise
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise UnosimError(f"{path}: cannot read it ({getattr(e, 'strerror', None) or e})"
                          ) from None
