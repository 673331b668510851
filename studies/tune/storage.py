"""Where a tuning study lives: its storage checked before any game, and a database that
fails (a full disk, a lost server) said in one line, the finished trials kept."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from unosim.errors import UnosimError


def check_storage(storage: str, study_name: str | None) -> None:
    """Refuse a study that would be lost at exit or has no name: an in-memory SQLite
    database (``sqlite://``, ``sqlite:///``, ``:memory:``, ``mode=memory``) keeps no
    trial, so neither the result nor a continued study would survive the run."""
    if study_name is not None and not study_name.strip():
        raise UnosimError(f"--study must name the study, got {study_name!r}")
    try:
        from sqlalchemy.engine import make_url

        url = make_url(storage)
    except Exception:  # noqa: BLE001 - a malformed URL: open_study says why
        return
    if url.get_backend_name() == "sqlite" and (
            url.database in (None, "", ":memory:") or url.query.get("mode") == "memory"):
        raise UnosimError(f"--storage {storage}: an in-memory database, lost when unosim "
                          "exits; give a file, e.g. sqlite:///unosim-tune.db")


def sqlite_file(storage: str) -> Path | None:
    """The file of an SQLite storage URL, or None."""
    try:
        from sqlalchemy.engine import make_url

        url = make_url(storage)
    except Exception:  # noqa: BLE001 - not a URL: open_study says why
        return None
    if url.get_backend_name() != "sqlite" or not url.database:
        return None
    return Path(url.database)


def storage_failure(e: BaseException) -> str:
    """What the database said, in one line: the innermost error of the chain (the
    driver's, e.g. "OperationalError: database or disk is full") without SQLAlchemy's
    statement and its "Background on this error" link."""
    root = e
    seen = {id(e)}
    while True:  # down to the driver's error, not into what was being handled then
        nxt = next((x for x in (getattr(root, "orig", None), root.__cause__,
                                root.__context__)
                    if x is not None and is_storage_failure(x)), None)
        if nxt is None or id(nxt) in seen:
            break
        seen.add(id(nxt))
        root = nxt
    text = str(root).split("\n")[0]
    for cut in ("[SQL:", "(Background on this error"):
        text = text.split(cut)[0]
    text = " ".join(text.split()).strip()
    if len(text) > 200:
        text = text[:200] + " ..."
    return f"{type(root).__name__}: {text}" if text else type(root).__name__


def is_storage_failure(e: BaseException) -> bool:
    """An error of the study's database (SQLAlchemy's, the driver's, or Optuna's
    storage error around them), not of the play."""
    import sqlite3

    kinds: list[type] = [sqlite3.Error]
    try:
        from sqlalchemy.exc import SQLAlchemyError

        kinds.append(SQLAlchemyError)
    except ImportError:
        pass
    try:
        from optuna.exceptions import StorageInternalError

        kinds.append(StorageInternalError)
    except ImportError:
        pass
    return isinstance(e, tuple(kinds))


@contextmanager
def storage_errors(storage: str) -> Iterator[None]:
    """A study whose database fails while it runs (a full disk, a lost server): one
    line, saying that the trials told before it stay in the study."""
    try:
        yield
    except Exception as e:
        if not is_storage_failure(e):
            raise
        raise UnosimError(f"--storage {storage}: cannot write the study any more "
                          f"({storage_failure(e)}); the trials finished before are kept "
                          "there (the one playing may show as running); free some space or "
                          "fix the storage, then the same command continues the study"
                          ) from None
