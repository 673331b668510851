"""A claim: the argument players have (its sentence) and the test behind it, read
from a small TOML file and checked field by field, so that a malformed claim is one
line naming the field (docs/settle.md documents every field).

A claim is data, not code: which study answers it (compare, tournament, skill or
sweep), on which metric, in which direction (or "same within a margin"), at which
table. Every claim has a margin, the smallest difference that matters to players:
its own ``margin``, else the metric's default (``stats.verdicts.default_margin``). The
catalogue of arguments players actually have ships in ``claims/``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from unosim.common import read_toml
from unosim.errors import UnosimError, did_you_mean
from unosim.runs import modes
from unosim.stats.verdicts import default_margin

STUDIES = ("compare", "tournament", "skill", "sweep")
DIRECTIONS = ("higher", "lower", "same")
#: the figures a tournament claim reads, about strategies[0] against strategies[1]
TOURNAMENT_METRICS = ("ahead", "win_rate", "net_points", "points_won")
SKILL_METRICS = ("skill_edge",)
MAX_LOOKS = 6
MAX_GAMES = 10**9

FIELDS = {
    "name": str, "claim": str, "source": str, "study": str, "metric": str,
    "direction": str, "margin": (int, float), "value": (int, float, str),
    "baseline": list, "variant": list, "rules": list, "baseline_rules": list,
    "variant_rules": list, "players": (int, list), "seats": (list, str),
    "strategy": str, "seat_strategies": dict, "strategies": list, "mode": str,
    "games": int, "looks": int,
}


@dataclass(frozen=True)
class Claim:
    """One claim, checked. ``players`` has one entry, or several for a claim asked
    across player counts; ``seats`` likewise for a claim asked across seats."""

    name: str
    sentence: str
    source: str
    study: str
    metric: str
    direction: str
    margin: float = 0.0  # the smallest difference that matters, in the effect's units
    own_margin: bool = False  # the claim file's own margin, not the metric's default
    value: float | str | None = None
    baseline: tuple[str, ...] = ("official",)
    variant: tuple[str, ...] | None = None
    rules: tuple[str, ...] = ()
    baseline_rules: tuple[str, ...] = ()
    variant_rules: tuple[str, ...] = ()
    players: tuple[int, ...] = (4,)
    seats: tuple[int, ...] | None = None
    strategy: str = "random"
    seat_strategies: dict[int, str] = field(default_factory=dict)
    strategies: tuple[str, ...] = ()
    mode: str = "round"
    games: int = 20_000
    looks: int = 3
    path: str | None = None  # the file it came from (a user's claim)

    @property
    def across(self) -> str | None:
        """"players" or "seats" when the verdict is asked at several, else None."""
        if self.seats is not None and len(self.seats) > 1:
            return "seats"
        if len(self.players) > 1 and self.study != "sweep":
            return "players"
        return None

    def with_games(self, games: int) -> Claim:
        return replace(self, games=games)


def _bad(where: str, name: str, why: str) -> UnosimError:
    return UnosimError(f"{where}: field {name!r}: {why}")


def parse_claim(data: dict[str, Any], where: str, default_name: str) -> Claim:
    """The claim ``data`` (a TOML table) describes, or one UnosimError naming the field."""
    for k, v in data.items():
        if k not in FIELDS:
            raise _bad(where, k, "unknown field" + (did_you_mean(k, FIELDS) or
                                                    f"; fields: {', '.join(FIELDS)}"))
        if not isinstance(v, FIELDS[k]) or isinstance(v, bool):
            raise _bad(where, k, f"has the wrong type ({type(v).__name__})")
    for k in ("claim", "source", "study", "metric", "direction"):
        if k not in data:
            raise _bad(where, k, "missing (every claim needs claim, source, study, metric "
                                 "and direction)")
        if not str(data[k]).strip():
            raise _bad(where, k, "is empty")
    study, direction = data["study"], data["direction"]
    if study not in STUDIES:
        raise _bad(where, "study", f"must be one of {', '.join(STUDIES)}, got {study!r}")
    if direction not in DIRECTIONS:
        raise _bad(where, "direction", f"must be one of {', '.join(DIRECTIONS)}, got "
                                       f"{direction!r}")
    margin = float(data.get("margin", 0.0))
    if "margin" in data and not (margin >= 0 and margin < float("inf")):
        raise _bad(where, "margin", f"must be 0 or more, got {margin}")
    if direction == "same" and "margin" in data and margin <= 0:
        raise _bad(where, "margin", "direction = \"same\" needs a margin above 0 (the "
                                    "largest difference that still counts as the same)")
    players = data.get("players", 4)
    players = tuple(players) if isinstance(players, list) else (players,)
    if not players or not all(isinstance(p, int) and not isinstance(p, bool) and 2 <= p <= 10
                              for p in players):
        raise _bad(where, "players", f"must be a player count 2..10 or a list of them, got "
                                     f"{data.get('players')!r}")
    if len(set(players)) != len(players):
        raise _bad(where, "players", "a player count is given twice")
    name = str(data.get("name", default_name)).strip()
    if not name or any(c.isspace() for c in name):
        raise _bad(where, "name", f"must be one word such as stacking-longer, got {name!r}")
    games = data.get("games", 20_000)
    if not 1 <= games <= MAX_GAMES:
        raise _bad(where, "games", f"must be within 1..{MAX_GAMES}, got {games}")
    looks = data.get("looks", 3)
    if not 1 <= looks <= MAX_LOOKS:
        raise _bad(where, "looks", f"must be within 1..{MAX_LOOKS}, got {looks}")
    mode = data.get("mode", "round")
    if mode not in modes.MODES:
        raise _bad(where, "mode", f"must be round or match, got {mode!r}")
    claim = Claim(
        name=name, sentence=data["claim"].strip(), source=data["source"].strip(),
        study=study, metric=data["metric"], direction=direction, margin=margin,
        value=data.get("value"),
        baseline=tuple(_strings(data, "baseline", where)) or ("official",),
        variant=tuple(_strings(data, "variant", where)) if "variant" in data else None,
        rules=tuple(_strings(data, "rules", where)),
        baseline_rules=tuple(_strings(data, "baseline_rules", where)),
        variant_rules=tuple(_strings(data, "variant_rules", where)),
        players=players, seats=_seats(data, where, players),
        strategy=data.get("strategy", "random"),
        seat_strategies=_seat_strategies(data, where),
        strategies=tuple(_strings(data, "strategies", where)), mode=mode, games=games,
        looks=looks, path=None, own_margin="margin" in data)
    check_claim(claim, where)
    if not claim.own_margin:
        try:
            claim = replace(claim, margin=default_margin(claim.metric, claim.mode))
        except UnosimError as e:
            raise _bad(where, "margin", str(e)) from None
    return claim


def _strings(data: dict[str, Any], key: str, where: str) -> list[str]:
    items = data.get(key, [])
    if not all(isinstance(x, str) and x.strip() for x in items):
        raise _bad(where, key, "must be a list of non-empty strings")
    return [x.strip() for x in items]


def _seats(data: dict[str, Any], where: str, players: tuple[int, ...]) -> tuple[int, ...] | None:
    if "seats" not in data:
        return None
    raw = data["seats"]
    top = min(players)
    if len(players) > 1:
        raise _bad(where, "seats", "a claim asked across seats takes one player count")
    if raw == "all":
        return tuple(range(top))
    if isinstance(raw, str) or not raw or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < top for s in raw):
        raise _bad(where, "seats", f"must be \"all\" or a list of seats 0..{top - 1}, got "
                                   f"{raw!r}")
    return tuple(raw)


def _seat_strategies(data: dict[str, Any], where: str) -> dict[int, str]:
    out = {}
    for k, v in data.get("seat_strategies", {}).items():
        if not str(k).isdigit() or not isinstance(v, str):
            raise _bad(where, "seat_strategies", f"must map seats to strategies, e.g. "
                                                 f"{{\"0\" = \"offensive\"}}, got {k!r} = {v!r}")
        out[int(k)] = v
    return out


def check_claim(c: Claim, where: str) -> None:
    """The checks that need the rules and the strategies: presets, rule values, metric
    names and strategy names, each refused with the field it came from."""
    from unosim.reports import metrics as MX
    from unosim.strategies.registry import parse_strategy

    for key, presets, extra in (("baseline", c.baseline, c.baseline_rules),
                                ("variant", c.variant or (), c.variant_rules)):
        for p in c.players:
            _rules(where, key, presets, (*c.rules, *extra), p)
    for key, names in (("strategy", [c.strategy]), ("strategies", c.strategies),
                       ("seat_strategies", list(c.seat_strategies.values()))):
        for n in names:
            try:
                parse_strategy(n)
            except UnosimError as e:
                raise _bad(where, key, str(e)) from None
    if any(s >= min(c.players) for s in c.seat_strategies):
        raise _bad(where, "seat_strategies", f"a seat is outside 0..{min(c.players) - 1}")
    if c.study == "tournament":
        if len(c.strategies) != 2:
            raise _bad(where, "strategies", "a tournament claim names two strategies: the "
                                            "one the claim is about, then its opponent")
        if c.metric not in TOURNAMENT_METRICS:
            raise _bad(where, "metric", f"a tournament claim reads one of "
                                        f"{', '.join(TOURNAMENT_METRICS)}, got {c.metric!r}")
        return
    if c.study == "skill":
        if c.metric not in SKILL_METRICS:
            raise _bad(where, "metric", f"a skill claim reads skill_edge, got {c.metric!r}")
        if c.strategy == "random":
            raise _bad(where, "strategy", "a skill claim measures a strategy other than "
                                          "random (random's edge is 0 by definition)")
    else:
        _check_metric(c, where, {m.name for m in MX.metrics_for(c.mode, min(c.players))})
    if c.study == "sweep":
        if len(c.players) < 2:
            raise _bad(where, "players", "a sweep claim sweeps two or more player counts")
        if c.variant is not None or c.value is not None:
            raise _bad(where, "variant" if c.variant is not None else "value",
                       "a sweep claim compares each player count with the first one")
        return
    if c.variant is None and c.value is None:
        raise _bad(where, "variant", "missing: compare the baseline with a variant, or "
                                     "its figure with a value")
    if c.variant is not None and c.value is not None:
        raise _bad(where, "value", "give a variant or a value, not both")
    if isinstance(c.value, str) and c.value != "fair":
        raise _bad(where, "value", f"must be a number or \"fair\" (the fair share 1/P), got "
                                   f"{c.value!r}")
    if modes.of(c.mode).by_rounds and c.study != "compare":
        raise _bad(where, "mode", "matches are compared by the compare study only")


def _check_metric(c: Claim, where: str, names: set[str]) -> None:
    """A compare or sweep metric: one the reports know at the table's player count;
    seats only with seat_win / seat_edge (round mode)."""
    per_seat = ("seat_win", "seat_edge")
    if not modes.of(c.mode).by_rounds:
        names |= {f"seat_edge_{s}" for s in range(min(c.players))} | set(per_seat)
    if c.metric not in names:
        raise _bad(where, "metric", f"unknown metric {c.metric!r} for {c.mode}s at "
                                    f"{min(c.players)} players"
                                    + (did_you_mean(c.metric, names) or ""))
    if c.metric in per_seat and c.seats is None:
        raise _bad(where, "seats", f"metric {c.metric} needs seats (\"all\" or a list)")
    if c.seats is not None and c.metric not in per_seat:
        raise _bad(where, "seats", "seats go with metric seat_win or seat_edge")


def _rules(where: str, key: str, presets: tuple[str, ...], rules: tuple[str, ...],
           players: int) -> Any:
    from unosim.simulate.rules import parse_assignment, resolve

    try:
        overrides = [parse_assignment(r) for r in rules]
        return resolve(list(presets), [("players", players), *overrides])
    except UnosimError as e:
        field_name = key if not rules else f"{key} (or its rules)"
        raise _bad(where, field_name, str(e)) from None


def load_claim_file(path: str | Path) -> Claim:
    """The claim in a TOML file (a user's or the catalogue's)."""
    p = Path(path)
    c = parse_claim(read_toml(path), str(path), p.stem)
    return replace(c, path=str(p))


def catalogue() -> list[Claim]:
    """The claims shipped with unosim, by name."""
    folder = resources.files("unosim.studies.settle") / "claims"
    out = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
            c = parse_claim(data, f"claims/{entry.name}", entry.name[:-5])
            out.append(c)
    return out


def find_claims(items: tuple[str, ...] | list[str]) -> list[Claim]:
    """NAME (of the catalogue) or FILE.toml, each once, in the order given."""
    known = {c.name: c for c in catalogue()}
    out: list[Claim] = []
    for item in items:
        if item.endswith(".toml") or Path(item).is_file():
            c = load_claim_file(item)
        elif item in known:
            c = known[item]
        else:
            raise UnosimError(f"no claim {item!r}" + (did_you_mean(item, known) or
                              "; `unosim settle` lists them, or give a FILE.toml"))
        if any(o.name == c.name for o in out):
            raise UnosimError(f"claim {c.name!r} is given twice")
        out.append(c)
    return out
