"""Per-game (or per-match) records as Parquet, streamed batch by batch.

The writer opens a temporary file next to the target and appends one row group
per batch the run hands to its ``on_records`` hook, so memory stays one batch;
``close`` renames it into place (``os.replace``), so a reader never sees a
half-written file. Columns: ``game`` (the game or match index, which with the
seed replays it), optional constant columns (``variant`` in a comparison), then
``layout.GAME_FIELDS`` (rounds) or ``match_nb.MATCH_FIELDS`` (matches). The file's
metadata holds its provenance: ``unosim_version``, ``engine`` and ``schema_version``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from unosim import provenance
from unosim.common import note_written, temp_path, write_failed
from unosim.errors import UnosimError
from unosim.simulate.layout import FEEL_SCALE, FIXED_POINT_FIELDS


def check_parquet_path(path: str) -> Path:
    """Validate a ``--save-games`` target before any game is played."""
    p = Path(path)
    if p.suffix.lower() != ".parquet":
        raise UnosimError(f"--save-games expects a file name ending in .parquet, got {path!r}")
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
    require_pyarrow()
    return p


#: the one line a run without pyarrow ends with (pyarrow is the ``parquet`` extra, so
#: that a plain install stays light; every Parquet path of unosim goes through here)
NEEDS_PYARROW = 'Parquet needs pyarrow: pip install "unosim[parquet]"'


def require_pyarrow() -> Any:
    """``pyarrow.parquet``, or a one-line error naming the extra that installs it."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        raise UnosimError(NEEDS_PYARROW) from None
    return pq


class RecordWriter:
    """Stream record batches into one Parquet file, atomically renamed on close."""

    def __init__(self, path: Path | str, fields: tuple[str, ...],
                 constants: dict[str, str] | None = None) -> None:
        pq = require_pyarrow()
        import pyarrow as pa

        self.path = Path(path)
        self.fields = fields
        self.constant_names = list(constants or {})
        cols = [pa.field("game", pa.int64())]
        cols += [pa.field(c, pa.dictionary(pa.int32(), pa.string())) for c in self.constant_names]
        # game-feel fractions are recorded in fixed point; the file holds their value
        cols += [pa.field(f, pa.float64() if f in FIXED_POINT_FIELDS else pa.int32())
                 for f in fields]
        # the provenance as file metadata: pq.read_schema(path).metadata[b"engine"] ...
        self.schema = pa.schema(cols, metadata={k: str(v) for k, v in provenance().items()})
        self.tmp = temp_path(self.path)
        try:
            self.writer = pq.ParquetWriter(str(self.tmp), self.schema, compression="zstd")
        except OSError as e:
            self.tmp.unlink(missing_ok=True)
            raise write_failed(self.path, e) from None
        self.rows = 0
        self.done = False  # closed (renamed into place) or aborted

    def carry_over(self) -> int:
        """Copy the rows already in the target file (of an interrupted run that is
        being resumed) into this one; how many there were."""
        import pyarrow.parquet as pq

        if not self.path.is_file():
            return 0
        old = pq.ParquetFile(str(self.path))
        if old.schema_arrow != self.schema:
            raise UnosimError(f"--save-games {self.path}: holds other columns than this "
                              "run writes, so it cannot be continued")
        for group in range(old.num_row_groups):
            table = old.read_row_group(group)
            try:
                self.writer.write_table(table)
            except OSError as e:
                self.abort()
                raise write_failed(self.path, e) from None
            self.rows += table.num_rows
        return self.rows

    def write(self, first: int, rec: np.ndarray, constants: dict[str, str] | None = None
              ) -> None:
        import pyarrow as pa

        n = rec.shape[0]
        arrays: list[Any] = [pa.array(np.arange(first, first + n, dtype=np.int64))]
        for c in self.constant_names:
            value = (constants or {})[c]
            arrays.append(pa.DictionaryArray.from_arrays(
                pa.array(np.zeros(n, np.int32)), pa.array([value])))
        arrays += [pa.array(rec[:, i] / FEEL_SCALE if f in FIXED_POINT_FIELDS
                            else np.ascontiguousarray(rec[:, i]))
                   for i, f in enumerate(self.fields)]
        try:
            self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))
        except OSError as e:  # a full disk: the file cannot be finished, drop it
            self.abort()
            raise write_failed(self.path, e) from None
        self.rows += n

    def close(self) -> None:
        """Finish the file (its footer) and rename it into place; on failure nothing
        is left but the file that was there before."""
        self.done = True
        try:
            self.writer.close()
            os.replace(self.tmp, self.path)
        except OSError as e:
            self.tmp.unlink(missing_ok=True)
            raise write_failed(self.path, e) from None
        note_written(self.path)

    def abort(self) -> None:
        if self.done:
            return
        self.done = True
        try:
            self.writer.close()
        except OSError:
            pass  # the footer of a file that is removed anyway
        finally:
            self.tmp.unlink(missing_ok=True)


class RecordSaver:
    """``--save-games`` of a run or a comparison: every batch of records into one
    Parquet file (with a ``variant`` column in a comparison); does nothing without
    a path, so a command can always hand it its batches."""

    def __init__(self, path: Path | None, mode: str, variants: list[str] | None = None,
                 resumed: bool = False):
        self.writer: RecordWriter | None = None
        self.variants = variants
        #: the records could not be written (the file is dropped, the hook does nothing)
        self.failed: OSError | None = None
        #: told of that failure (a command's checkpoint keeper: the play stops there)
        self.on_failure: Any = None
        if path is None:
            return
        from unosim.runs import modes

        fields = modes.of(mode).fields
        consts = {"variant": ""} if variants else None
        self.writer = RecordWriter(path, fields, consts)
        if resumed:  # the rows the interrupted run kept come first
            self.writer.carry_over()

    def hook(self, vi: int, first: int, rec: Any) -> None:
        if self.writer is not None and self.failed is None:
            consts = {"variant": self.variants[vi]} if self.variants else None
            try:
                self.writer.write(first, rec, consts)
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
