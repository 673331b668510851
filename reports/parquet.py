"""Per-game (or per-match) records as Parquet, streamed batch by batch.

The writer appends one row group per batch the run hands to its ``on_records``
hook, so memory stays one batch, into a temporary file renamed into place on
``close`` (``records.StreamFile``). Columns are those of ``records.Columns``; an
absent seat is null. The schema metadata holds the provenance (``unosim_version``,
``engine``, ``schema_version``) and the whole header as JSON under ``unosim``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from unosim import provenance
from unosim.common import write_failed
from unosim.errors import UnosimError
from unosim.reports.records import (
    HEADER_KEY,
    Columns,
    StreamFile,
    header_text,
    not_a_records_file,
    same_run,
)

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


class RecordWriter(StreamFile):
    """Stream record batches into one Parquet file, atomically renamed on close."""

    def __init__(self, path: Path | str, header: dict[str, Any], columns: Columns) -> None:
        pq = require_pyarrow()
        import pyarrow as pa

        super().__init__(path)
        self.header, self.columns = header, columns
        cols = [pa.field("game", pa.int64())]
        if columns.several:
            cols.append(pa.field("variant", pa.dictionary(pa.int32(), pa.string())))
        # game-feel fractions are recorded in fixed point; the file holds their value
        cols += [pa.field(columns.fields[i], pa.float64() if columns.fixed(k) else pa.int32())
                 for k, i in enumerate(columns.keep)]
        # the provenance as file metadata (pq.read_schema(path).metadata[b"engine"] ...)
        # and the whole header, as JSON, under b"unosim"
        meta = {k: str(v) for k, v in provenance().items()}
        meta[HEADER_KEY] = header_text(header)
        self.schema = pa.schema(cols, metadata=meta)
        self.writer: Any = None
        try:
            self.writer = pq.ParquetWriter(str(self.tmp), self.schema, compression="zstd")
        except OSError as e:
            self.tmp.unlink(missing_ok=True)
            raise write_failed(self.path, e) from None

    def carry_over(self) -> int:
        """Copy the rows already in the target file (of an interrupted run that is
        being resumed) into this one; how many there were."""
        import pyarrow.parquet as pq

        if not self.path.is_file():
            return 0
        old = pq.ParquetFile(str(self.path))
        same_run(parquet_header(old.schema_arrow.metadata), self.header, self.path)
        if old.schema_arrow != self.schema:
            same_run(None, self.header, self.path)
        for group in range(old.num_row_groups):
            table = old.read_row_group(group)
            try:
                self.writer.write_table(table)
            except OSError as e:
                raise self.fail(e) from None
            self.rows += table.num_rows
        return self.rows

    def write(self, first: int, rec: np.ndarray, vi: int = 0) -> None:
        import pyarrow as pa

        n = rec.shape[0]
        arrays: list[Any] = [pa.array(np.arange(first, first + n, dtype=np.int64))]
        if self.columns.several:
            arrays.append(pa.DictionaryArray.from_arrays(
                pa.array(np.zeros(n, np.int32)), pa.array([self.columns.variants[vi]])))
        absent = self.columns.absent(vi)
        for k, values in enumerate(self.columns.values(rec)):
            kind = self.schema.field(len(arrays)).type
            arrays.append(pa.nulls(n, kind) if absent[k] else pa.array(values, kind))
        try:
            self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))
        except OSError as e:  # a full disk: the file cannot be finished, drop it
            raise self.fail(e) from None
        self.rows += n

    def close_stream(self) -> None:
        if self.writer is not None:
            self.writer.close()


def parquet_header(meta: dict[bytes, bytes] | None) -> dict[str, Any] | None:
    """The header a Parquet records file keeps in its schema metadata, or None."""
    raw = (meta or {}).get(HEADER_KEY.encode())
    if raw is None:
        return None
    try:
        header = json.loads(raw.decode("utf-8"))
    except ValueError:
        return None
    return header if isinstance(header, dict) else None


def parquet_rows(path: Path, game: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header of a Parquet records file and its rows whose ``game`` is ``game``."""
    pq = require_pyarrow()
    try:
        schema = pq.read_schema(str(path))
    except Exception:  # pyarrow raises several kinds for a file that is not Parquet
        raise not_a_records_file(path, "is not a Parquet file") from None
    header = parquet_header(schema.metadata)
    if header is None:
        raise not_a_records_file(path, "has no unosim header in its metadata (written by an "
                                 "older unosim, or by another program)")
    if "game" not in schema.names:
        raise not_a_records_file(path, "has no 'game' column")
    table = pq.read_table(str(path), filters=[("game", "==", game)])
    rows = table.to_pylist()
    for r in rows:
        if "variant" in r and r["variant"] is not None:
            r["variant"] = str(r["variant"])
    return header, rows
