"""Checkpoints of an interrupted run, so ``unosim run --resume DIR`` can finish it.

A checkpoint holds what the run was (mode, rules, seats, seed, games requested,
``max_rounds`` for matches) and what it has done so far: the run's totals
(:class:`~unosim.runs.aggregate.Aggregate` or
:class:`~unosim.runs.match.MatchAggregate`), whose ``games`` is the index of
the next game to play. Game ``g`` is seeded from (seed, g) alone and the totals
are integer sums, so finishing games ``next .. games`` on top of them gives
exactly the totals of an uninterrupted run, on the same engine: the checkpoint
keeps the unosim version and the engine fingerprint (``unosim.ENGINE``), and one of
another is refused.

The file is JSON (``checkpoint.json`` in the run's ``--out`` folder), written to
a temporary name and renamed into place, with a SHA-256 of its content: a
reader sees either the previous complete checkpoint or the new one, and a file
damaged later is refused rather than silently resumed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from unosim import ENGINE, __version__
from unosim.common import write_text_atomic
from unosim.errors import UnosimError
from unosim.runs.aggregate import Aggregate
from unosim.runs.tables import load_plugin_seats, seat_text, seats_of  # noqa: F401

FILE_NAME = "checkpoint.json"
FORMAT = "unosim-checkpoint"
FORMAT_VERSION = 2  # 2: the totals carry the game-feel sums (docs/metrics.md#game-feel)
MODES = ("round", "match")


@dataclass
class Checkpoint:
    """An unfinished run: its definition and its totals so far."""

    mode: str
    variant: str
    rules: dict[str, Any]
    seats: list[dict[str, Any]]  # {"name": ..., "params": {...}} per seat
    seed: int
    games: int
    agg: Any  # Aggregate (rounds) or MatchAggregate (matches)
    max_rounds: int | None = None
    precision: float | None = None  # --precision: stop early (its batches must match)
    batch: int = 0  # games per batch (decides where a --precision run stops)
    elapsed_s: float = 0.0
    unosim_version: str = field(default=__version__)
    engine: str = field(default=ENGINE)  # the engine fingerprint (unosim.ENGINE)

    @property
    def next_game(self) -> int:
        return int(self.agg.games)

    def seat_texts(self) -> list[str]:
        """Each seat as ``NAME:key=value,...`` with the exact parameter values
        (``repr`` of a float reads back to the same float)."""
        return [seat_text(s) for s in self.seats]


def load_seat_plugins(ck: Checkpoint) -> None:
    """Load the plug-ins a checkpoint's seats use, refusing a changed file
    (UnosimError): the same code is needed to finish the run exactly."""
    load_plugin_seats(ck.seats, "since the run started, so the run cannot be finished "
                      "exactly")


def path_in(folder: Path | str) -> Path:
    return Path(folder) / FILE_NAME


# ---------------------------------------------------------------- totals <-> JSON


def _aggregate_class(mode: str) -> type:
    if mode == "round":
        return Aggregate
    from unosim.runs.match import MatchAggregate

    return MatchAggregate


def _array_to_json(a: np.ndarray) -> dict[str, Any]:
    flat = np.asarray(a, dtype=np.int64).reshape(-1)
    nz = np.nonzero(flat)[0]
    return {"shape": list(a.shape), "nonzero": [[int(i), int(flat[i])] for i in nz]}


def _array_from_json(obj: Any, like: np.ndarray, where: str) -> np.ndarray:
    if not isinstance(obj, dict) or obj.get("shape") != list(like.shape):
        raise ValueError(f"{where}: expected an array of shape {list(like.shape)}")
    out = np.zeros(like.size, dtype=np.int64)
    for pair in obj.get("nonzero", []):
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(type(x) is int for x in pair) or not 0 <= pair[0] < like.size):
            raise ValueError(f"{where}: bad entry {pair!r}")
        out[pair[0]] = pair[1]
    return out.reshape(like.shape)


def aggregate_to_json(agg: Any) -> dict[str, Any]:
    """Every field of an Aggregate or MatchAggregate (integers, integer arrays and
    dicts of them), arrays stored sparsely."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(agg):
        v = getattr(agg, f.name)
        if isinstance(v, np.ndarray):
            out[f.name] = _array_to_json(v)
        elif isinstance(v, dict):
            out[f.name] = {k: _array_to_json(x) if isinstance(x, np.ndarray) else int(x)
                           for k, x in v.items()}
        else:
            out[f.name] = int(v)
    return out


def aggregate_from_json(mode: str, obj: Any) -> Any:
    """The totals back; ValueError naming the field when something does not fit."""
    cls = _aggregate_class(mode)
    if not isinstance(obj, dict) or type(obj.get("players")) is not int:
        raise ValueError("totals: 'players' missing")
    if not 2 <= obj["players"] <= 10:
        raise ValueError(f"totals: players={obj['players']} is outside 2..10")
    agg = cls(players=obj["players"])
    for f in dataclasses.fields(agg):
        if f.name not in obj:
            raise ValueError(f"totals: field {f.name!r} missing")
        like, raw = getattr(agg, f.name), obj[f.name]
        where = f"totals.{f.name}"
        if isinstance(like, np.ndarray):
            setattr(agg, f.name, _array_from_json(raw, like, where))
        elif isinstance(like, dict):
            if not isinstance(raw, dict) or set(raw) != set(like):
                raise ValueError(f"{where}: expected the keys {sorted(like)}")
            setattr(agg, f.name, {
                k: _array_from_json(raw[k], x, f"{where}.{k}") if isinstance(x, np.ndarray)
                else _int(raw[k], f"{where}.{k}") for k, x in like.items()})
        else:
            setattr(agg, f.name, _int(raw, where))
    check_totals(mode, agg)
    return agg


def _int(x: Any, where: str) -> int:
    if type(x) is not int:
        raise ValueError(f"{where}: expected an integer, got {x!r}")
    return x


def check_totals(mode: str, agg: Any) -> None:
    """Totals that cannot come from a real run are refused (ValueError)."""
    n = agg.games
    if n < 0 or not 0 <= agg.capped <= n:
        raise ValueError(f"totals: games={n}, capped={agg.capped} do not fit")
    for m, c in agg.count.items():
        if int(agg.hist[m].sum()) != c:
            raise ValueError(f"totals: histogram of {m} does not add up to its count")
        if (agg.hist[m] < 0).any():
            raise ValueError(f"totals: negative histogram entry for {m}")
    if mode == "round":
        for m, c in agg.count.items():
            expect = n - agg.capped if m == "winner_points" else n
            if c != expect:
                raise ValueError(f"totals: {c} values of {m} for {n} games")
        if int(agg.wins.sum()) != n - agg.capped:
            raise ValueError("totals: wins do not add up to the games with a winner")
        if agg.feel_rounds != n - agg.capped:
            raise ValueError("totals: feel_rounds do not add up to the games with a winner")
    else:
        if agg.count["rounds"] != n or agg.count["score"] != n * agg.players:
            raise ValueError(f"totals: the match counts do not fit {n} matches")
    if int(agg.feel_hist.sum()) != agg.feel_rounds or (agg.feel_hist < 0).any():
        raise ValueError("totals: the winner_max_deficit histogram does not fit feel_rounds")


# ---------------------------------------------------------------- files


def _payload(ck: Checkpoint) -> dict[str, Any]:
    return {
        "unosim_version": ck.unosim_version,
        "engine": ck.engine,
        "mode": ck.mode,
        "variant": ck.variant,
        "rules": ck.rules,
        "seats": ck.seats,
        "seed": ck.seed,
        "games": ck.games,
        "max_rounds": ck.max_rounds,
        "precision": ck.precision,
        "batch": ck.batch,
        "next_game": ck.next_game,
        "elapsed_s": ck.elapsed_s,
        "totals": aggregate_to_json(ck.agg),
    }


def _digest(payload: dict[str, Any]) -> str:
    canon = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def save(folder: Path | str, ck: Checkpoint) -> Path:
    """Write ``folder/checkpoint.json`` atomically; return its path."""
    payload = _payload(ck)
    doc = {"format": FORMAT, "format_version": FORMAT_VERSION, "sha256": _digest(payload),
           "checkpoint": payload}
    path = path_in(folder)
    write_text_atomic(path, json.dumps(doc, indent=1) + "\n")
    return path


class Saver:
    """Writes the checkpoint after the first batch, then every ``every`` seconds."""

    def __init__(self, out_dir: Path | None, ck: Checkpoint, every: float) -> None:
        self.out_dir = out_dir
        self.ck = ck
        self.every = every
        self.base_elapsed = ck.elapsed_s
        self.t0 = time.perf_counter()
        self.last: float | None = None

    def save(self, elapsed: float | None = None) -> None:
        if self.out_dir is None:
            return
        spent = time.perf_counter() - self.t0 if elapsed is None else elapsed
        self.ck.elapsed_s = self.base_elapsed + spent
        save(self.out_dir, self.ck)
        self.last = time.perf_counter()

    def maybe_save(self) -> None:
        if self.out_dir is not None and (
                self.last is None or time.perf_counter() - self.last >= self.every):
            self.save()


def exists(folder: Path | str) -> bool:
    return path_in(folder).is_file()


def remove(folder: Path | str) -> None:
    path_in(folder).unlink(missing_ok=True)


def load(folder: Path | str, label: str | None = None) -> Checkpoint:
    """Read and check ``folder/checkpoint.json``; every problem is one UnosimError
    that starts with ``label`` (default ``--resume FOLDER``)."""
    label = label or f"--resume {folder}"
    folder = Path(folder)
    if not folder.is_dir():
        raise UnosimError(f"{label}: no such folder")
    path = path_in(folder)
    if not path.is_file():
        raise UnosimError(
            f"{label}: no {FILE_NAME} there (the run finished, or was never started "
            "with --out there)"
        )
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UnosimError(f"{label}: cannot read {FILE_NAME} ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UnosimError(f"{label}: {FILE_NAME} is not a unosim checkpoint")
    if doc.get("format_version") != FORMAT_VERSION:
        raise UnosimError(
            f"{label}: checkpoint format {doc.get('format_version')!r} is not supported "
            f"(this unosim reads format {FORMAT_VERSION})"
        )
    payload = doc.get("checkpoint")
    if not isinstance(payload, dict) or doc.get("sha256") != _digest(payload):
        raise UnosimError(f"{label}: {FILE_NAME} is damaged (its checksum does not match)")
    check_provenance(payload, label, "the run")
    try:
        return _from_payload(payload)
    except (ValueError, KeyError, TypeError) as e:
        raise UnosimError(f"{label}: {FILE_NAME} is inconsistent ({e})") from None


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


def _from_payload(p: dict[str, Any]) -> Checkpoint:
    mode = p["mode"]
    if mode not in MODES:
        raise ValueError(f"mode {mode!r}")
    for key in ("seed", "games", "next_game", "batch"):
        if type(p[key]) is not int or p[key] < 0:
            raise ValueError(f"{key} must be a whole number, got {p[key]!r}")
    if mode == "match" and type(p["max_rounds"]) is not int:
        raise ValueError("max_rounds missing")
    prec = p["precision"]
    if prec is not None and (type(prec) not in (int, float) or not 0 < prec < 0.5):
        raise ValueError(f"precision {prec!r}")
    if not isinstance(p["rules"], dict) or not isinstance(p["seats"], list):
        raise ValueError("rules or seats missing")
    for s in p["seats"]:
        if not isinstance(s, dict) or not isinstance(s.get("name"), str) or not isinstance(
                s.get("params"), dict):
            raise ValueError(f"bad seat {s!r}")
    agg = aggregate_from_json(mode, p["totals"])
    if agg.games != p["next_game"] or not 0 <= agg.games <= p["games"]:
        raise ValueError(f"next game {p['next_game']} does not fit {p['games']} games")
    if len(p["seats"]) != agg.players:
        raise ValueError(f"{len(p['seats'])} seats for {agg.players} players")
    return Checkpoint(mode=mode, variant=str(p["variant"]), rules=p["rules"],
                      seats=p["seats"], seed=p["seed"], games=p["games"], agg=agg,
                      max_rounds=p["max_rounds"], precision=prec, batch=p["batch"],
                      elapsed_s=float(p.get("elapsed_s", 0.0)),
                      unosim_version=p["unosim_version"], engine=p["engine"])
