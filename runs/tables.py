"""A table, what every task of a study plays: rules and seats, with the game
template and batch kernel built once on the machine that plays it.

A table travels to a Dask worker as plain data (rule values, seat texts with exact
parameter values, plug-in files with their SHA-256) and is rebuilt there, so one
task function serves this machine and a cluster alike.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from unosim.errors import UnosimError
from unosim.simulate import layout as L
from unosim.simulate.rules import Rules, lower, resolve
from unosim.strategies.registry import SeatStrategy, parse_strategy, seat_template

#: the message a worker gives when its copy of a plug-in file differs
WORKER_PLUGIN_NOTE = "on this worker: every worker needs the same file at the same path"


def base_seed(seed: int) -> np.uint64:
    """The 64-bit key every game's generators are derived from."""
    return np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]


def game_template(rules: Rules, seats: list[SeatStrategy]) -> np.ndarray:
    """The game array every game of a table starts from: rules, deck and seats;
    the table records its public events when a seat observes them."""
    from unosim.strategies.plugins import watches

    template = seat_template(lower(rules), seats, rules["uno_forget_prob"])
    template[L.RF_EVENTS] = int(watches(seats))
    return template


class Table:
    """``rules`` and ``seats``; ``kernel(seed)`` and ``template`` are built on first use
    and not shipped (a worker builds its own)."""

    def __init__(self, rules: Rules, seats: list[SeatStrategy]) -> None:
        self.rules = rules
        self.seats = list(seats)
        self._template: np.ndarray | None = None
        self._kernels: dict[tuple[str, int | None], Callable[..., None]] = {}

    @property
    def players(self) -> int:
        return int(self.rules["players"])

    @property
    def template(self) -> np.ndarray:
        if self._template is None:
            self._template = game_template(self.rules, self.seats)
        return self._template

    def kernel(self, mode: Any, seed: int | None) -> Callable[..., None]:
        """The batch of this table in ``mode`` (a ``modes.Mode``): the built-in
        batch, with the search only where a seat searches, or the plug-in one
        (plugin_batch.py)."""
        key = (mode.name, seed)
        if key not in self._kernels:
            self._kernels[key] = mode.kernel(self.seats, seed)
        return self._kernels[key]

    def payload(self) -> dict[str, Any]:
        """What rebuilds this table elsewhere (one-line error for a plug-in that has
        no file)."""
        check_portable(self.seats)
        return {"rules": self.rules.as_dict(), "seats": seats_of(self.seats)}

    def __getstate__(self) -> dict[str, Any]:
        return self.payload()

    def __setstate__(self, state: dict[str, Any]) -> None:
        load_plugin_seats(state["seats"], WORKER_PLUGIN_NOTE)
        self.__init__(resolve([], list(state["rules"].items())),  # type: ignore[misc]
                      [parse_strategy(seat_text(s)) for s in state["seats"]])


def check_portable(seats: list[SeatStrategy]) -> None:
    """A plug-in registered from Python has no file a worker could load."""
    from unosim.strategies.plugins import PluginError
    from unosim.strategies.registry import PLUGINS

    for s in seats:
        if s.plugin is not None and PLUGINS[s.name].source.startswith("<python>"):
            raise PluginError(f"plug-in strategy {s.name} was registered from Python, not "
                              "loaded from a file, so Dask workers cannot load it")





def seat_text(seat: dict[str, Any]) -> str:
    """A seat of ``seats_of`` as ``NAME:key=value,...``, exact: ``repr`` of a float
    reads back to the same float."""
    params = ",".join(f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}"
                      for k, v in sorted(seat["params"].items()))
    return seat["name"] + (":" + params if params else "")


def seats_of(seats: list[Any]) -> list[dict[str, Any]]:
    """The JSON form of a run's seat strategies; a plug-in seat also keeps where its
    code came from (absolute ``PATH.py:NAME``) and the file's SHA-256."""
    out = []
    for s in seats:
        d: dict[str, Any] = {"name": s.name, "params": {
            k: v if isinstance(v, str) else float(v) for k, v in s.params.items()}}
        if getattr(s, "plugin", None) is not None:
            from unosim.strategies.registry import PLUGINS

            path_text, _, fn_name = PLUGINS[s.name].source.rpartition(":")
            path = Path(path_text).expanduser().resolve()
            d["plugin"] = {"spec": f"{path}:{fn_name}", "sha256": _file_digest(path)}
        out.append(d)
    return out


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def load_plugin_seats(seats: list[dict[str, Any]], changed: str) -> None:
    """Load the plug-ins of seats in the form of ``seats_of`` (a checkpoint's, or
    a Dask task's on its worker) from their files, refusing a file that cannot
    be read or whose SHA-256 differs: "PATH changed <changed>"."""
    from unosim.strategies.plugins import load_plugins
    from unosim.strategies.registry import PLUGINS

    for s in seats:
        plug = s.get("plugin")
        if not plug or s["name"] in PLUGINS:
            continue
        path = Path(str(plug["spec"]).rpartition(":")[0])
        try:
            digest = _file_digest(path)
        except OSError as e:
            raise UnosimError(f"plug-in {s['name']}: cannot read {path} ({e.strerror or e})"
                              ) from None
        if digest != plug.get("sha256"):
            raise UnosimError(f"plug-in {s['name']}: {path} changed {changed}")
        load_plugins([plug["spec"]])
