"""A study's checkpoint: what it finished, kept in ``--out DIR`` so that ``--resume
DIR`` plays only the rest and ends with exactly the uninterrupted result.

The file is JSON with a checksum (``checkpoint.json``, as for ``unosim run``): the
command and its options as given (the seed made explicit), the unosim version and
the engine fingerprint (a checkpoint of another is refused: the rest would play
differently), and
per stage of the study the keys of its finished tasks with their merged totals.
Totals are written field by field from an allow-list of result types, integer
arrays compressed, floats as their exact decimal form, so loading runs no code and
a total reads back bit for bit.
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
from unosim.common import write_text_atomic
from unosim.errors import UnosimError
from unosim.reports.atlas import AtlasPlayers, Effect
from unosim.reports.metrics import Moments, Paired
from unosim.reports.skill import SkillTotals
from unosim.reports.tournament import Totals
from unosim.runs.aggregate import Aggregate
from unosim.runs.backend import Progress
from unosim.runs.checkpoint import FILE_NAME, check_provenance, path_in
from unosim.runs.match import MatchAggregate
from unosim.studies.compare import CompareTotals

FORMAT = "unosim-study-checkpoint"
FORMAT_VERSION = 1
#: the types a checkpoint may hold, by name
TYPES: dict[str, type] = {c.__name__: c for c in (
    Aggregate, MatchAggregate, Moments, Paired, CompareTotals, SkillTotals, Totals,
    AtlasPlayers, Effect, Progress)}


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
    """The inverse of ``encode``; ValueError for anything it did not write."""
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
        return obj
    return {k: decode(v) for k, v in x.items()}


def _digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()


def save(folder: Path, command: str, params: dict[str, Any], stages: dict[str, Any]) -> None:
    """Write the checkpoint of ``command`` (its options ``params``) atomically."""
    payload = {"unosim_version": __version__, "engine": ENGINE, "command": command,
               "params": params, "stages": encode(stages)}
    doc = {"format": FORMAT, "format_version": FORMAT_VERSION, "checkpoint": payload,
           "sha256": _digest(payload)}
    write_text_atomic(path_in(folder), json.dumps(doc) + "\n")


def exists(folder: Path | None) -> bool:
    """A study's checkpoint is in ``folder`` (a run's, of another format, is not)."""
    if folder is None or not path_in(folder).is_file():
        return False
    try:
        return json.loads(path_in(folder).read_text(encoding="utf-8")).get("format") == FORMAT
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return False


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
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UnosimError(f"{label}: {FILE_NAME} is not the checkpoint of a study (a run's "
                          "is finished with `unosim run --resume`)")
    payload = doc.get("checkpoint")
    if (doc.get("format_version") != FORMAT_VERSION or not isinstance(payload, dict)
            or doc.get("sha256") != _digest(payload)):
        raise UnosimError(f"{label}: {FILE_NAME} is damaged (its checksum does not match)")
    if payload.get("command") != command:
        raise UnosimError(f"{label}: {FILE_NAME} belongs to `unosim {payload.get('command')}`"
                          f"; finish it with `unosim {payload.get('command')} --resume "
                          f"{folder}`")
    check_provenance(payload, label, f"the {command}")
    try:
        return payload["params"], decode(payload["stages"])
    except (ValueError, KeyError, TypeError, zlib.error) as e:
        raise UnosimError(f"{label}: {FILE_NAME} is inconsistent ({e})") from None


class Keeper:
    """Keeps a study's checkpoint in ``folder`` (nothing without one): at most every
    ``every`` seconds while it plays, at once when it stops, removed when it ends."""

    def __init__(self, folder: Path | None, command: str, params: dict[str, Any],
                 stages: dict[str, Any] | None = None, every: float = 5.0) -> None:
        self.folder = folder
        self.command = command
        self.params = params
        self.stages: dict[str, Any] = stages if stages is not None else {}
        self.every = every
        self.last = 0.0

    def stage(self, name: str) -> Any:
        """The progress kept for stage ``name``, or None."""
        return self.stages.get(name)

    def note(self, name: str, progress: Any) -> None:
        """Stage ``name`` has got this far (saved when ``every`` seconds have passed)."""
        self.stages[name] = progress
        if self.folder is not None and time.monotonic() - self.last >= self.every:
            self.save()

    def save(self) -> None:
        if self.folder is not None:
            save(self.folder, self.command, self.params, self.stages)
            self.last = time.monotonic()

    def remove(self) -> None:
        if self.folder is not None:
            path_in(self.folder).unlink(missing_ok=True)
