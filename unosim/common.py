"""Helpers both sides of the house need: atomic file output (the reports and the
engine's checkpoints) and the interval maths (the reports and a run's ``--precision``
stop). It imports nothing of the project, so importing it never pulls the face or
the reports into the engine.

Atomic output writes a temporary file next to the target, then ``os.replace``: a
reader (or a crash) never sees half a file, only the old file or the complete new one.
Every output file of a command goes through :func:`write_bytes_atomic` (text, and
figures rendered in memory: :func:`save_figure_atomic`); the streamed Parquet records
and the checkpoint use the same temporary names and rename. Inside a :class:`FileSet`
(the files of one report) each file is first written under its temporary name and all
are renamed into place together at the end, so a full disk leaves the previous set of
files, never part of a new one. A failed write raises :class:`WriteFailed`, naming the
file meant (not its temporary name), with no temporary file left behind;
:func:`written_files` lists the files the command did write.
Win rates use the Wilson score interval (sound near 0 and 1 and for small samples);
means use the normal interval from the standard error, accurate at the sample sizes
a simulation produces.
"""

from __future__ import annotations

import errno
import io
import math
import os
import sys
import uuid
from pathlib import Path
from typing import Any

#: where the documentation lives: user-facing text (help, report headers, chart
#: titles) points here, at a page of it, or at `unosim rules`
DOCS_URL = "https://unosim.github.io/unosim/"

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and standard error of the mean from a sum and a sum of squares."""
    if n <= 0:
        return (math.nan, math.nan)
    mean = total / n
    if n == 1:
        return (mean, math.nan)
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    return (mean, math.sqrt(var / n))


def read_toml(path: Path | str) -> dict[str, Any]:
    """A user's TOML file (a claim, a design question), or the one-line error that
    says why it cannot be read."""
    import tomllib

    from unosim.errors import UnosimError

    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise UnosimError(f"{path}: cannot read it ({e.strerror or e})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise UnosimError(f"{path}: not valid TOML ({e})") from None


def temp_path(path: Path) -> Path:
    """A fresh hidden name next to ``path`` (same folder, so ``os.replace`` is atomic)."""
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


class WriteFailed(OSError):
    """A file could not be written (a full disk, a read-only mount, no permission):
    ``filename`` is the file meant, ``strerror`` why; nothing of it was left behind.
    ``notes`` say what else this means (the other files of its set not written)."""

    def __init__(self, path: Path | str, reason: str, code: int | None = None) -> None:
        super().__init__(code or errno.EIO, reason, str(path))
        self.notes: list[str] = []


def write_failed(path: Path | str, e: BaseException) -> WriteFailed:
    """``e`` (an OSError of the system, or of pyarrow) as the failure to write ``path``:
    the reason in the system's words ("No space left on device"), without the errno
    number or the temporary name."""
    if isinstance(e, WriteFailed):
        return e
    code = getattr(e, "errno", None)
    reason = os.strerror(code) if code else (getattr(e, "strerror", None) or str(e))
    return WriteFailed(path, reason, code)


#: every file the running command wrote, in order (the CLI forgets them per command)
_written: list[Path] = []
#: the file sets being written (the innermost takes the writes)
_open_sets: list[FileSet] = []


def written_files() -> list[Path]:
    """The files this command wrote so far (renamed into place), in order."""
    return list(_written)


def note_written(path: Path | str) -> None:
    """``path`` was written (renamed into place) by a writer of its own (Parquet)."""
    _written.append(Path(path))


def forget_written() -> None:
    """A new command starts: it has written nothing yet."""
    _written.clear()


def _write_new(path: Path, data: bytes) -> None:
    """Create ``path`` (a fresh temporary name) holding ``data``: every byte a command
    writes to a file passes here."""
    with open(path, "xb") as fh:  # created with the usual permissions (umask)
        fh.write(data)


def replace_atomically(path: Path | str, data: bytes) -> None:
    """Write ``data`` to a temporary file next to ``path`` and rename it into place;
    on failure remove the temporary file and raise :class:`WriteFailed` for ``path``."""
    path = Path(path)
    tmp = temp_path(path)
    try:
        _write_new(tmp, data)
        os.replace(tmp, path)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise write_failed(path, e) from None
        raise


def write_bytes_atomic(path: Path | str, data: bytes) -> None:
    """Write one output file atomically (inside a :class:`FileSet`: staged in it)."""
    path = Path(path)
    if _open_sets:
        _open_sets[-1].stage(path, data)
        return
    replace_atomically(path, data)
    _written.append(path)


def write_text_atomic(path: Path | str, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def figure_bytes(fig: Any, fmt: str, **kwargs: Any) -> bytes:
    """A matplotlib figure rendered in memory as ``fmt`` (png, svg ...)."""
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, **kwargs)
    return buf.getvalue()


def save_figure_atomic(fig: Any, path: Path | str, **kwargs: Any) -> None:
    """``fig.savefig(path, **kwargs)``, atomically: rendered in memory, the format
    from the file's suffix, then written as any other output file."""
    path = Path(path)
    write_bytes_atomic(path, figure_bytes(fig, path.suffix.lstrip(".").lower(), **kwargs))


def make_folder(path: Path | str) -> None:
    """``mkdir -p`` for an output folder (inside a :class:`FileSet`, a folder it makes
    is removed again if the set is not written)."""
    path = Path(path)
    made = [p for p in (path, *path.parents) if not p.exists()]
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise write_failed(path, e) from None
    if _open_sets:
        _open_sets[-1].made += reversed(made)


class FileSet:
    """The files of one report, written all together or not at all.

    While the set is open (``with FileSet(folder):``) every :func:`write_bytes_atomic`
    writes its file under a temporary name next to the target; when the block ends
    they are renamed into place one after the other (a rename needs no space). If a
    write fails, or the block raises, the temporary files and the folders the set
    made are removed: the folder keeps the files it held before, complete.
    """

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = None if folder is None else Path(folder)
        self.staged: dict[Path, Path] = {}
        self.made: list[Path] = []

    def __enter__(self) -> FileSet:
        _open_sets.append(self)
        return self

    def __exit__(self, kind: Any, value: Any, tb: Any) -> None:
        _open_sets.remove(self)
        if kind is not None:
            self.abort()
            if isinstance(value, WriteFailed):
                value.notes.append(self.not_written())
            return
        self.commit()

    def stage(self, path: Path, data: bytes) -> None:
        tmp = temp_path(path)
        try:
            _write_new(tmp, data)
        except BaseException as e:
            tmp.unlink(missing_ok=True)
            if isinstance(e, OSError):
                raise write_failed(path, e) from None
            raise
        old = self.staged.pop(path, None)
        if old is not None:
            old.unlink(missing_ok=True)
        self.staged[path] = tmp

    def commit(self) -> None:
        items = list(self.staged.items())
        for i, (path, tmp) in enumerate(items):
            try:
                os.replace(tmp, path)
            except OSError as e:
                for _, rest in items[i:]:
                    rest.unlink(missing_ok=True)
                raise write_failed(path, e) from None
            _written.append(path)
        self.staged.clear()

    def abort(self) -> None:
        for tmp in self.staged.values():
            tmp.unlink(missing_ok=True)
        for folder in reversed(self.made):
            try:
                folder.rmdir()  # only if still empty
            except OSError:
                pass

    def not_written(self) -> str:
        where = f" ({self.folder} keeps what it held before)" if self.folder else ""
        return f"none of the files of this report was written{where}"


def module_command(module: str, *args: str) -> list[str]:
    """``python -m module args`` in this interpreter, for a child process. With ``-P``:
    without it the child puts its working folder first on its path, so that run from
    a checkout (where the README installs) it imported the checkout's ``unosim``
    folder instead of the installed package and failed at once."""
    return [sys.executable, "-P", "-m", module, *args]
