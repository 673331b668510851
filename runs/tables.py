"""A table, what every task of a study plays: rules and seats, with the game
template and batch kernel built once on the machine that plays it.

A table travels to a Dask worker as plain data (rule values, seat texts with exact
parameter values, plug-in files with their SHA-256) and is rebuilt there, so one
task function serves this machine and a cluster alike.
"""

from __future__ import annotations

import threading
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
    and not shipped (a worker builds its own).

    Unpickled, a table keeps its seats as shipped until they are first used: the
    Dask scheduler unpickles every task to order the graph and pickles it again for
    a worker, so it needs no plug-in file and passes on exactly what the client sent;
    the worker that plays the task loads the plug-ins then, and a file it must refuse
    fails that task with the one-line error."""

    def __init__(self, rules: Rules, seats: list[SeatStrategy]) -> None:
        self.rules = rules
        self._seats: list[SeatStrategy] | None = list(seats)
        self._shipped: list[dict[str, Any]] | None = None
        self._template: np.ndarray | None = None
        self._kernels: dict[tuple[str, int | None], Callable[..., None]] = {}

    @property
    def seats(self) -> list[SeatStrategy]:
        if self._seats is None:
            # the plug-ins are registered by name: loading them and binding the seats to
            # their functions is one step, so tables of two runs that name the same
            # plug-in (played on two threads of one worker) each get their own file's code
            with _BINDING:
                if self._seats is None:
                    shipped = self._shipped or []
                    load_plugin_seats(shipped, WORKER_PLUGIN_NOTE)
                    self._seats = [parse_strategy(seat_text(s)) for s in shipped]
        return self._seats

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
        if self._seats is None:  # passing through (the scheduler): as it came
            return {"rules": self.rules.as_dict(), "seats": self._shipped}
        check_portable(self._seats)
        return {"rules": self.rules.as_dict(), "seats": seats_of(self._seats)}

    def __getstate__(self) -> dict[str, Any]:
        return self.payload()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(resolve([], list(state["rules"].items())), [])  # type: ignore[misc]
        self._seats = None
        self._shipped = state["seats"]


_BINDING = threading.Lock()


def _plugin(seat: Any) -> Any:
    """The loaded plug-in a seat plays: found by its function, not by its name, which a
    plug-in of another file may have taken since the seat was made."""
    from unosim.strategies.plugins import PluginError, plugin_of

    p = plugin_of(seat.plugin)
    if p is None:
        raise PluginError(f"plug-in strategy {seat.name} is no longer loaded in this process")
    return p


def check_portable(seats: list[SeatStrategy]) -> None:
    """A plug-in registered from Python has no file a worker could load."""
    from unosim.strategies.plugins import PluginError

    for s in seats:
        if not s.builtin and _plugin(s).source.startswith("<python>"):
            raise PluginError(f"plug-in strategy {s.name} was registered from Python, not "
                              "loaded from a file, so Dask workers cannot load it")


def seat_text(seat: dict[str, Any]) -> str:
    """A seat of ``seats_of`` as ``NAME:key=value,...``, exact: ``repr`` of a float
    reads back to the same float."""
    params = ",".join(f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}"
                      for k, v in sorted(seat["params"].items()))
    return seat["name"] + (":" + params if params else "")


def seats_of(seats: list[SeatStrategy]) -> list[dict[str, Any]]:
    """The JSON form of a run's seat strategies; a plug-in seat also keeps where its
    code came from (absolute ``PATH.py:NAME``) and the SHA-256 of the bytes its code
    was made of (the file as it was loaded, not as it is now)."""
    from unosim.strategies.plugins import file_digest

    out = []
    for s in seats:
        d: dict[str, Any] = {"name": s.name, "params": {
            k: v if isinstance(v, str) else float(v) for k, v in s.params.items()}}
        if not s.builtin:
            p = _plugin(s)
            path_text, _, fn_name = p.source.rpartition(":")
            path = Path(path_text).expanduser().resolve()
            d["plugin"] = {"spec": f"{path}:{fn_name}",
                           "sha256": p.sha256 or file_digest(path.read_bytes())}
        out.append(d)
    return out


def load_plugin_seats(seats: list[dict[str, Any]], changed: str) -> None:
    """Make the plug-ins of seats in the form of ``seats_of`` (a checkpoint's, or a
    Dask task's on its worker) the ones their names play here: the code of the file
    at that path with that SHA-256, whatever plug-in held the name before (a worker
    serves runs of many files and versions). Code loaded here before is used again;
    else the file is read, and refused in one line when it cannot be read or its
    SHA-256 differs: "PATH changed <changed>"."""
    from unosim.strategies.plugins import file_digest, load_plugin, loaded_plugin
    from unosim.strategies.registry import register_plugin

    for s in seats:
        plug = s.get("plugin")
        if not plug:
            continue
        spec = str(plug["spec"])
        path = Path(spec.rpartition(":")[0])
        known = loaded_plugin(spec, str(plug.get("sha256")))
        if known is not None:  # this very code was loaded here before
            register_plugin(known)
            continue
        try:
            source = path.read_bytes()
        except OSError as e:
            raise UnosimError(f"plug-in {s['name']}: cannot read {path} ({e.strerror or e})"
                              ) from None
        if file_digest(source) != plug.get("sha256"):
            raise UnosimError(f"plug-in {s['name']}: {path} changed {changed}")
        register_plugin(load_plugin(spec, source))

