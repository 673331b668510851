"""Per-game (or per-match) records as files that replay: what a ``--save-games`` file
holds, and its CSV and JSON forms (Parquet is in ``parquet.py``, the choice of form
in ``saved_games.py``).

Every form carries one header, a JSON document under the key ``unosim``: the seed,
the mode, each variant's full rule values and seat strategies, the columns and the
provenance (version, engine fingerprint). With the ``game`` column it is all that
``unosim replay FILE --game K`` needs. A table of n seats writes seat columns 0..n-1
only; in a file of several variants with different player counts, the columns are
the widest table's and the seats a table lacks are empty (null), not zeros.

Every writer streams into a temporary file next to the target and renames it into
place on ``close`` (``os.replace``), so a reader never sees a half-written file and
a full disk leaves the file that was there before.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from unosim.common import note_written, temp_path, write_failed
from unosim.errors import UnosimError
from unosim.simulate.layout import FEEL_SCALE, FIXED_POINT_FIELDS

#: the header's key: Parquet schema metadata, the CSV comment line, the JSON object
HEADER_KEY = "unosim"
#: the CSV comment line that holds the header
CSV_HEADER_PREFIX = f"# {HEADER_KEY}: "


@dataclass(frozen=True)
class Columns:
    """Which columns a file holds: ``game``, ``variant`` (several variants only),
    then the record's columns the widest table fills (``keep``, indices into
    ``fields``); ``seat[k]`` is the seat of kept column k, or -1."""

    fields: tuple[str, ...]
    keep: tuple[int, ...]
    seat: tuple[int, ...]
    variants: tuple[str, ...]  # the labels, in the header's order
    players: tuple[int, ...]  # per variant

    @classmethod
    def of(cls, mode: Any, variants: list[tuple[str, int]]) -> Columns:
        """``mode`` a ``modes.Mode``; ``variants`` (label, players) per variant."""
        keep = mode.columns_at(max(n for _, n in variants))
        seat = tuple(-1 if mode.seat_of(mode.fields[i]) is None
                     else mode.seat_of(mode.fields[i]) for i in keep)
        return cls(tuple(mode.fields), keep, seat, tuple(v for v, _ in variants),
                   tuple(n for _, n in variants))

    @property
    def several(self) -> bool:
        return len(self.variants) > 1

    @property
    def names(self) -> list[str]:
        return ["game", *(["variant"] if self.several else []),
                *(self.fields[i] for i in self.keep)]

    def fixed(self, k: int) -> bool:
        return self.fields[self.keep[k]] in FIXED_POINT_FIELDS

    def absent(self, vi: int) -> list[bool]:
        """Per kept column: a seat variant ``vi``'s table does not have."""
        n = self.players[vi]
        return [s >= n for s in self.seat]

    def values(self, rec: np.ndarray) -> list[np.ndarray]:
        """The kept columns of a batch as the file holds them (fixed point as floats)."""
        return [rec[:, i] / FEEL_SCALE if self.fixed(k) else np.ascontiguousarray(rec[:, i])
                for k, i in enumerate(self.keep)]


def header_text(header: dict[str, Any]) -> str:
    """The header as one line of JSON (the same text in every form)."""
    return json.dumps(header, sort_keys=False, ensure_ascii=False)


def same_run(old: dict[str, Any] | None, new: dict[str, Any], path: Path) -> None:
    """A resumed run appends to its own file only: refuse one another run wrote."""
    if old != new:
        raise UnosimError(f"--save-games {path}: holds the records of another run (its "
                          "header differs), so it cannot be continued")


class StreamFile:
    """The temporary file a writer streams into, renamed into place on ``close``;
    ``open_tmp`` makes it, an OSError at any step becomes a
    :class:`~unosim.common.WriteFailed` for the target and drops the file."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.tmp = temp_path(self.path)
        self.rows = 0
        self.done = False  # closed (renamed into place) or aborted

    def fail(self, e: OSError) -> OSError:
        self.abort()
        return write_failed(self.path, e)

    def finish(self) -> None:
        """Close the stream (subclasses), then this: rename into place."""
        try:
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
            self.close_stream()
        except OSError:
            pass  # the end of a file that is removed anyway
        finally:
            self.tmp.unlink(missing_ok=True)

    def close_stream(self) -> None:  # pragma: no cover - every form has its own
        raise NotImplementedError

    def close(self) -> None:
        """Finish the file and rename it into place; on failure nothing is left but
        the file that was there before."""
        self.done = True
        try:
            self.close_stream()
        except OSError as e:
            self.tmp.unlink(missing_ok=True)
            raise write_failed(self.path, e) from None
        self.finish()


class TextRecords(StreamFile):
    """CSV or JSON: text streamed through one file object."""

    def __init__(self, path: Path | str, header: dict[str, Any], columns: Columns) -> None:
        super().__init__(path)
        self.header, self.columns = header, columns
        try:
            self.fh: TextIO = open(self.tmp, "x", encoding="utf-8", newline="")
            self.fh.write(self.opening())
        except OSError as e:
            raise self.fail(e) from None

    def opening(self) -> str:  # pragma: no cover - every form has its own
        raise NotImplementedError

    def put(self, text: str) -> None:
        try:
            self.fh.write(text)
        except OSError as e:
            raise self.fail(e) from None

    def close_stream(self) -> None:
        if not self.fh.closed:
            self.fh.write(self.ending())
            self.fh.close()

    def ending(self) -> str:
        return ""

    def rows_of(self, first: int, rec: np.ndarray, vi: int) -> Iterator[list[Any]]:
        """The batch as rows of Python values (None where a seat is absent)."""
        cols = [c.tolist() for c in self.columns.values(rec)]
        absent = self.columns.absent(vi)
        label = [self.columns.variants[vi]] if self.columns.several else []
        for r in range(rec.shape[0]):
            yield [first + r, *label, *(None if absent[k] else col[r]
                                        for k, col in enumerate(cols))]


class CsvRecords(TextRecords):
    """A comment line ``# unosim: {header}``, the column names, one line per game;
    an absent seat is an empty field. ``pandas.read_csv(path, comment="#")`` reads it."""

    def opening(self) -> str:
        return CSV_HEADER_PREFIX + header_text(self.header) + "\n" + ",".join(
            self.columns.names) + "\n"

    def write(self, first: int, rec: np.ndarray, vi: int = 0) -> None:
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerows(["" if v is None else v for v in row]
                      for row in self.rows_of(first, rec, vi))
        self.put(buf.getvalue())
        self.rows += rec.shape[0]

    def carry_over(self) -> int:
        """Copy the rows of the target file (an interrupted run being resumed)."""
        if not self.path.is_file():
            return 0
        with open(self.path, encoding="utf-8", newline="") as fh:
            old = read_csv_header(fh, self.path)
            same_run(old, self.header, self.path)
            names = fh.readline().rstrip("\n")
            if names != ",".join(self.columns.names):
                same_run(None, self.header, self.path)
            for line in fh:
                self.put(line)
                self.rows += 1
        return self.rows


class JsonRecords(TextRecords):
    """One JSON document: ``{"unosim": header, "columns": [...], "games": [[...],
    ...]}``, a row a line; an absent seat is null."""

    def opening(self) -> str:
        return ('{"' + HEADER_KEY + '": ' + header_text(self.header) + ',\n"columns": '
                + json.dumps(self.columns.names) + ',\n"games": [')

    def ending(self) -> str:
        return "\n]}\n"

    def write(self, first: int, rec: np.ndarray, vi: int = 0) -> None:
        self.put_rows([json.dumps(row) for row in self.rows_of(first, rec, vi)])

    def put_rows(self, lines: list[str]) -> None:
        if not lines:
            return
        lead = "\n" if self.rows == 0 else ",\n"
        self.put(lead + ",\n".join(lines))
        self.rows += len(lines)

    def carry_over(self) -> int:
        if not self.path.is_file():
            return 0
        doc = read_json_document(self.path)
        same_run(doc.get(HEADER_KEY), self.header, self.path)
        if doc.get("columns") != self.columns.names:
            same_run(None, self.header, self.path)
        self.put_rows([json.dumps(row) for row in doc.get("games", [])])
        return self.rows


# ---------------------------------------------------------------- reading back


def not_a_records_file(path: Path, why: str) -> UnosimError:
    return UnosimError(f"{path}: {why}; replay reads the files of --save-games")


def read_csv_header(fh: TextIO, path: Path) -> dict[str, Any]:
    """The header of a CSV records file (its first line), the stream left after it."""
    first = fh.readline()
    if not first.startswith(CSV_HEADER_PREFIX):
        raise not_a_records_file(path, "has no '# unosim:' header line")
    return _header(first[len(CSV_HEADER_PREFIX):], path)


def _header(text: str, path: Path) -> dict[str, Any]:
    try:
        header = json.loads(text)
    except ValueError:
        raise not_a_records_file(path, "its unosim header is not valid JSON") from None
    if not isinstance(header, dict):
        raise not_a_records_file(path, "its unosim header is not a JSON object")
    return header


def read_json_document(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        raise not_a_records_file(path, "is not valid JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(HEADER_KEY), dict):
        raise not_a_records_file(path, f"has no {HEADER_KEY!r} header object")
    return doc


def csv_rows(path: Path, game: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header of a CSV records file and its rows whose ``game`` is ``game``."""
    with open(path, encoding="utf-8", newline="") as fh:
        header = read_csv_header(fh, path)
        reader = csv.reader(fh)
        names = next(reader, [])
        if "game" not in names:
            raise not_a_records_file(path, "has no 'game' column")
        at = names.index("game")
        want = str(game)
        found = [dict(zip(names, (_number(v) for v in row), strict=True))
                 for row in reader if len(row) > at and row[at] == want]
    return header, found


def json_rows(path: Path, game: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    doc = read_json_document(path)
    names = doc.get("columns") or []
    if "game" not in names:
        raise not_a_records_file(path, "has no 'game' column")
    at = names.index("game")
    found = [dict(zip(names, row, strict=True)) for row in doc.get("games", [])
             if row[at] == game]
    return doc[HEADER_KEY], found


def _number(text: str) -> Any:
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
