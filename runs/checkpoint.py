"""The checkpoint: what an interrupted command finished, kept in ``--out DIR`` so
that ``--resume DIR`` plays only the rest and ends with exactly the uninterrupted
result. One format for every command (``unosim run`` is a study like the others)
and one :class:`Keeper`.

The file is JSON (``checkpoint.json``) with a SHA-256 of its content, written to a
temporary name and renamed into place: a reader sees either the previous complete
checkpoint or the new one, and a file damaged later is refused rather than
silently resumed. It holds the command and its options as given (the seed made
explicit), the unosim version and the engine fingerprint (a checkpoint of another
is refused: the rest would play differently), and per stage of the study the keys
of its finished tasks with their merged totals. Game ``g`` is seeded from (seed,
g) alone and the totals are integer sums, so finishing the tasks left on top of
them gives exactly the totals of an uninterrupted run.

Totals are written field by field from an allow-list of result types
(:func:`keepable`), integer arrays compressed, floats as their exact decimal
form, so loading runs no code and a total reads back bit for bit; a run's totals
that no real run could give are refused (:func:`check_totals`). A checkpoint of
an older format is refused with one line naming its format and version.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from unosim import ENGINE, __version__
from unosim.common import WriteFailed, replace_atomically
from unosim.errors import UnosimError
from unosim.runs.aggregate import Aggregate
from unosim.runs.backend import Progress
from unosim.runs.match import MatchAggregate

FILE_NAME = "checkpoint.json"
FORMAT = "unosim-checkpoint"
#: 3: one format for `run` and the studies (2 was `run`'s own, and the studies wrote
#: "unosim-study-checkpoint" 1)
FORMAT_VERSION = 3
#: the types a checkpoint may hold, by name (the studies add theirs: ``keepable``)
TYPES: dict[str, type] = {}


def keepable(*classes: type) -> None:
    """Allow these dataclasses in a checkpoint (a study's totals)."""
    TYPES.update({c.__name__: c for c in classes})


keepable(Aggregate, MatchAggregate, Progress)


def path_in(folder: Path | str) -> Path:
    return Path(folder) / FILE_NAME


# ---------------------------------------------------------------- values <-> JSON


def encode(x: Any) -> Any:
    """``x`` as JSON-ready data (see the module's text)."""
    if dataclasses.is_dataclass(x) and type(x).__name__ in TYPES:
        return {"__type__": type(x).__name__,
                **{f.name: encode(getattr(x, f.name)) for f in dataclasses.fields(x)}}
    if isinstance(x, np.ndarray):
        raw = zlib.compress(np.ascontiguousarray(x).tobytes())
        return {"__array__": str(x.dtype), "shape": list(x.shape),
                "data": base64.b64encode(raw).decode("ascii")}
    if isinstance(x, set):
        return {"__set__": sorted(encode(v) for v in x)}
    if isinstance(x, dict):
        if not all(isinstance(k, str) for k in x):
            raise TypeError("only string keys can be kept")
        return {k: encode(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [encode(v) for v in x]
    if isinstance(x, (np.integer, np.floating)):
        return x.item()
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    raise TypeError(f"a checkpoint cannot hold a {type(x).__name__}")


def decode(x: Any) -> Any:
    """The inverse of ``encode``; ValueError for anything it did not write, and for
    a run's totals that do not fit together."""
    if isinstance(x, list):
        return [decode(v) for v in x]
    if not isinstance(x, dict):
        return x
    if "__array__" in x:
        data = np.frombuffer(zlib.decompress(base64.b64decode(x["data"])),
                             dtype=np.dtype(x["__array__"]))
        return data.reshape(x["shape"]).copy()
    if "__set__" in x:
        return set(decode(x["__set__"]))
    if "__type__" in x:
        cls = TYPES.get(x["__type__"])
        if cls is None:
            raise ValueError(f"unknown type {x['__type__']!r}")
        obj = cls.__new__(cls)
        for f in dataclasses.fields(cls):
            if f.name not in x:
                raise ValueError(f"{cls.__name__}: field {f.name!r} missing")
            setattr(obj, f.name, decode(x[f.name]))
        if cls in (Aggregate, MatchAggregate):
            _check_fields(obj)
            check_totals(obj)
        return obj
    return {k: decode(v) for k, v in x.items()}


def _check_fields(agg: Any) -> None:
    """Every field of a run's totals of the type and shape a fresh one has."""
    if type(agg.players) is not int or not 2 <= agg.players <= 10:
        raise ValueError(f"totals: players={agg.players!r} is outside 2..10")
    like = type(agg)(players=agg.players)
    for f in dataclasses.fields(agg):
        want, got, where = getattr(like, f.name), getattr(agg, f.name), f"totals.{f.name}"
        if isinstance(want, np.ndarray):
            _check_array(got, want, where)
        elif isinstance(want, dict):
            if not isinstance(got, dict) or set(got) != set(want):
                raise ValueError(f"{where}: expected the keys {sorted(want)}")
            for k, w in want.items():
                if isinstance(w, np.ndarray):
                    _check_array(got[k], w, f"{where}.{k}")
                elif type(got[k]) is not int:
                    raise ValueError(f"{where}.{k}: expected an integer, got {got[k]!r}")
        elif type(got) is not int:
            raise ValueError(f"{where}: expected an integer, got {got!r}")


def _check_array(got: Any, want: np.ndarray, where: str) -> None:
    if not isinstance(got, np.ndarray) or got.shape != want.shape or got.dtype != want.dtype:
        raise ValueError(f"{where}: expected an array of shape {list(want.shape)}")


def check_totals(agg: Any) -> None:
    """A run's totals that cannot come from a real run are refused (ValueError)."""
    n = agg.games
    if n < 0 or not 0 <= agg.capped <= n:
        raise ValueError(f"totals: games={n}, capped={agg.capped} do not fit")
    for m, c in agg.count.items():
        if int(agg.hist[m].sum()) != c:
            raise ValueError(f"totals: histogram of {m} does not add up to its count")
        if (agg.hist[m] < 0).any():
            raise ValueError(f"totals: negative histogram entry for {m}")
    if isinstance(agg, Aggregate):
        for m, c in agg.count.items():
            expect = n - agg.capped if m == "winner_points" else n
            if c != expect:
                raise ValueError(f"totals: {c} values of {m} for {n} games")
        if int(agg.wins.sum()) != n - agg.capped:
            raise ValueError("totals: wins do not add up to the games with a winner")
        if agg.feel_rounds != n - agg.capped:
            raise ValueError("totals: feel_rounds do not add up to the games with a winner")
    elif agg.count["rounds"] != n or agg.count["score"] != n * agg.players:
        raise ValueError(f"totals: the match counts do not fit {n} matches")
    if int(agg.feel_hist.sum()) != agg.feel_rounds or (agg.feel_hist < 0).any():
        raise ValueError("totals: the winner_max_deficit histogram does not fit feel_rounds")


# ---------------------------------------------------------------- files


def digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()


def save(folder: Path, command: str, params: dict[str, Any], stages: dict[str, Any]) -> None:
    """Write the checkpoint of ``command`` (its options ``params``) atomically."""
    payload = {"unosim_version": __version__, "engine": ENGINE, "command": command,
               "params": params, "stages": encode(stages)}
    doc = {"format": FORMAT, "format_version": FORMAT_VERSION, "checkpoint": payload,
           "sha256": digest(payload)}
    # the checkpoint is the command's own bookkeeping, not one of its report's files:
    # never part of a file set, and replaced on its own
    replace_atomically(path_in(folder), (json.dumps(doc) + "\n").encode("utf-8"))


def _read(folder: Path) -> dict[str, Any] | None:
    try:
        doc = json.loads(path_in(folder).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def unfinished(folder: Path | None) -> str | None:
    """The command whose checkpoint (of any unosim format) is in ``folder``, or None;
    "" when the file cannot tell."""
    if folder is None or not path_in(folder).is_file():
        return None
    doc = _read(folder) or {}
    inner = doc.get("checkpoint")
    if doc.get("format") == "unosim-checkpoint" and isinstance(inner, dict):
        return str(inner.get("command", "run"))  # format 2 held only runs
    return ""


def load(folder: str | Path, command: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(options, stages) of the unfinished ``command`` in ``folder``; every problem is
    one UnosimError naming ``--resume FOLDER``."""
    label = f"--resume {folder}"
    folder = Path(folder)
    if not folder.is_dir():
        raise UnosimError(f"{label}: no such folder")
    path = path_in(folder)
    if not path.is_file():
        raise UnosimError(f"{label}: no {FILE_NAME} there (the {command} finished, or was "
                          "never started with --out there)")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UnosimError(f"{label}: cannot read {FILE_NAME} ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") not in (FORMAT,
                                                              "unosim-study-checkpoint"):
        raise UnosimError(f"{label}: {FILE_NAME} is not a unosim checkpoint")
    if doc.get("format") != FORMAT or doc.get("format_version") != FORMAT_VERSION:
        raise UnosimError(
            f"{label}: {FILE_NAME} is a checkpoint of format {doc.get('format')} version "
            f"{doc.get('format_version')!r}, written by an older unosim; this one reads "
            f"version {FORMAT_VERSION} only: start the {command} again without --resume")
    payload = doc.get("checkpoint")
    if not isinstance(payload, dict) or doc.get("sha256") != digest(payload):
        raise UnosimError(f"{label}: {FILE_NAME} is damaged (its checksum does not match)")
    if payload.get("command") != command:
        raise UnosimError(f"{label}: {FILE_NAME} belongs to `unosim {payload.get('command')}`"
                          f"; finish it with `unosim {payload.get('command')} --resume "
                          f"{folder}`")
    check_provenance(payload, label, f"the {command}")
    try:
        params, stages = payload["params"], decode(payload["stages"])
        if not isinstance(params, dict) or not isinstance(stages, dict):
            raise ValueError("options or stages missing")
    except (ValueError, KeyError, TypeError, AttributeError, zlib.error) as e:
        raise UnosimError(f"{label}: {FILE_NAME} is inconsistent ({e})") from None
    return params, stages


def check_provenance(p: dict[str, Any], label: str, what: str) -> None:
    """Refuse (one UnosimError) a checkpoint of another unosim version or engine:
    the games left would play differently, so ``what`` could not be finished exactly."""
    if p.get("unosim_version") != __version__:
        raise UnosimError(
            f"{label}: written by unosim {p.get('unosim_version')}, this is {__version__}; "
            f"the engine may differ, so {what} cannot be finished exactly")
    if p.get("engine") != ENGINE:
        raise UnosimError(
            f"{label}: written by another engine ({p.get('engine')}, this is {ENGINE}: the "
            f"compiled sources changed), so {what} cannot be finished exactly; start it "
            "again without --resume")


class Keeper:
    """Keeps a command's checkpoint in ``folder`` (nothing without one): at most every
    ``every`` seconds while it plays, at once when it stops, removed when it ends.

    A checkpoint that cannot be written while the command plays (a full disk), or
    another file the play writes (``fail``: the per-game records), is kept in
    ``failed`` and stops the play at the next task, as Ctrl-C would (the driver reads
    it): the previous checkpoint stays as it was, and the command ends with the
    report of what it finished and one line naming the file."""

    def __init__(self, folder: Path | None, command: str, params: dict[str, Any],
                 stages: dict[str, Any] | None = None, every: float = 5.0) -> None:
        self.folder = folder
        self.command = command
        self.params = params
        self.stages: dict[str, Any] = stages if stages is not None else {}
        self.resumed = stages is not None
        self.every = every
        self.last: float | None = None
        #: the failure to write a file while playing (then no more checkpoints)
        self.failed: WriteFailed | None = None
        #: the command streams per-game records (--save-games) beside the checkpoint:
        #: a checkpoint that lags behind them cannot be resumed
        self.records = False

    def stage(self, name: str) -> Any:
        """The progress kept for stage ``name``, or None."""
        return self.stages.get(name)

    def note(self, name: str, progress: Any) -> None:
        """Stage ``name`` has got this far (saved at once the first time, then when
        ``every`` seconds have passed)."""
        self.stages[name] = progress
        if self.folder is not None and self.failed is None and (
                self.last is None or time.monotonic() - self.last >= self.every):
            try:
                self.save()
            except WriteFailed as e:
                self.fail(e)

    def fail(self, e: WriteFailed) -> None:
        """A file of the play could not be written: stop at the next task (the first
        failure is the one the command reports)."""
        if self.failed is None:
            self.failed = e

    def save(self) -> None:
        if self.folder is not None:
            save(self.folder, self.command, self.params, self.stages)
            self.last = time.monotonic()

    def refuse(self, reason: str) -> UnosimError:
        """The error of a kept stage that does not fit the command's options."""
        return UnosimError(f"--resume {self.folder}: {FILE_NAME} is inconsistent ({reason})")

    def remove(self) -> None:
        if self.folder is not None:
            path_in(self.folder).unlink(missing_ok=True)

    def kept(self) -> bool:
        """Whether ``folder`` holds a checkpoint (of this command or an earlier run)."""
        return self.folder is not None and path_in(self.folder).is_file()
