"""Strategy names, descriptions and parameters, mapped to compiled ids.

A seat's strategy is written ``NAME`` or ``NAME:key=value,...`` with keys
``bluff`` (chance to bluff a Wild Draw Four when it would be illegal),
``challenge`` (when to challenge a Wild Draw Four: ``never``, ``always``, a
probability, or ``informed`` by the cards seen) and ``forget`` (chance to forget
calling UNO; defaults to the table's ``uno_forget_prob``). ``NAME`` is a built-in
or a plug-in registered from a ``--strategy-file`` (strategies/plugins.py).
``search`` also takes ``rollouts`` (per decision) and ``policy`` (the built-in
that plays the rollouts), declared in ``SEARCH_PARAMS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from unosim.errors import UnosimError, did_you_mean
from unosim.simulate import layout as L
from unosim.simulate.rng_nb import probability_threshold
from unosim.strategies import builtin_nb as B

#: the search's own parameters and their defaults (the best measured against random,
#: tuned and mixed fields within 50 games a second on one core: docs/findings-search.md;
#: ``value=learned`` gained about a point against random, tuned and the card counter at
#: no cost in speed, and measured level elsewhere)
SEARCH_DEFAULTS: dict[str, Any] = {"rollouts": 800, "policy": "random", "model": "random",
                                   "infer": 1, "depth": 16, "halving": 1,
                                   "tree": 0, "value": "learned"}
_SD = SEARCH_DEFAULTS

BUILTINS: dict[str, tuple[int, str]] = {
    "random": (
        B.RANDOM,
        "The reference baseline: plays a uniformly random playable "
        "card (each physical card counted once), never bluffs or challenges, draws only "
        "without a play and plays a playable drawn card, stacks whenever it can, and names "
        "the colour it holds most of (ties at random).",
    ),
    "random-colour": (
        B.RANDOM_COLOUR,
        "chausner/UnoAI's random bot: like random, a uniformly random playable card (each "
        "physical card counted once), drawing only without a play and playing a playable "
        "drawn card, but a uniformly random colour for a wild. Where nobody may challenge "
        "(wd4_challenge=false) a Wild Draw Four counts as playable at any time, as in UnoAI; "
        "elsewhere it bluffs as its bluff parameter says. For a first flipped Wild it names "
        "the colour of a random card of its hand (UnoAI leaves that Wild colourless). Other "
        "decisions as random.",
    ),
    "first": (
        B.FIRST,
        "Deterministic: plays the first legal card in hand order (red, yellow, green, blue; "
        "0-9, Skip, Reverse, Draw Two, then wilds) and names the lowest colour it holds most "
        "of. Useful as a fixed opponent and for golden traces.",
    ),
    "defensive": (
        B.DEFENSIVE,
        "Dumps high-value cards first: plays the legal card worth the most points (wilds 50, "
        "action cards 20, numbers face value), ties at random, to cut what an opponent can "
        "score.",
    ),
    "offensive": (
        B.OFFENSIVE,
        "Holds Wilds and Wild Draw Fours for the end: plays a random coloured card when it "
        "has one and a wild only when nothing else is playable.",
    ),
    "colour-keeper": (
        B.COLOUR_KEEPER,
        "Keeps the current colour: plays a card of it when it can, a 0 first (there is one "
        "0 per colour, so it is the hardest card to follow by number); without one, changes "
        "by number to the colour it holds most; a Wild, then a Wild Draw Four, only as a "
        "last resort, naming the colour it holds most.",
    ),
    "attacker": (
        B.ATTACKER,
        "Saves action cards for a player close to going out: when the next player holds 2 "
        "cards or fewer it plays Draw Two / Wild Draw Four, then Skip, then Reverse, and "
        "names a colour that player was seen to lack (it drew for want of it and has not "
        "received a card since); otherwise it plays numbers, colours the next player lacks "
        "first, and keeps action cards and wilds.",
    ),
    "weighted": (
        B.WEIGHTED,
        "Scores every legal play by a weighted sum of features of the move and the table "
        "and plays the best (ties at random over physical cards); drawing, or keeping a "
        "drawn card, scores the weight `draw`; a wild names the colour with the best "
        "col_held x cards held of it + col_lack x (next player seen lacking it). The "
        "weights are its parameters (see below); other decisions (stacking, jump-ins, "
        "targets) as offensive.",
    ),
    "adaptive": (
        B.ADAPTIVE,
        "Seed 001's switch: plays offensive (holds wilds) until a trigger, then defensive "
        "(dumps high cards): an opponent holds `cards` cards or fewer, or its own hand is "
        "worth `points` points or more.",
    ),
    "gang-up": (
        B.GANG_UP,
        "Seed 001's fashion: when some opponent holds `cards` cards or fewer (the leader: "
        "fewest cards, lowest seat on a tie, so every gang-up seat picks the same one from "
        "what the table shows), aims at it: Draw Two / Wild Draw Four, then Skip, then "
        "Reverse when the leader is next, no Reverse that would make it next, and colours "
        "it was seen to lack; otherwise plays offensive.",
    ),
    "tuned": (
        B.TUNED,
        "`weighted` with the weights found by `unosim tune` (docs: Tuning results): one weight "
        "set heads-up, one for 3 or more players (the table size is public). Its "
        "parameters override single weights.",
    ),
    "card-counter": (
        B.COUNTER,
        "Counts cards: it hears every play and draw of every seat and keeps, for each "
        "opponent, how many cards of each kind it may still hold; it ranks its plays by card "
        "type (Draw Two, Skip, number, Reverse, then wilds; other ranks when the next player "
        "holds one card), holds a Wild until it has 2 other cards or fewer and a Wild Draw "
        "Four until 4 (drawing instead, even holding one), prefers the colour it holds most, "
        "and breaks ties by what the next player can least follow. A drawn wild is kept "
        "while the hand holds more than 2 cards. Where nobody may challenge it treats a Wild "
        "Draw Four as always playable. Other decisions (challenges, stacking, house rules) "
        "as offensive. MixBot2 of chausner/UnoAI, written from its description.",
    ),
    "search": (
        B.SEARCH,
        "Looks ahead with the engine itself (flat Monte Carlo): at each decision with a real "
        "choice it deals the cards it has not seen at random to the other hands and the draw "
        "pile (a player whose last draw showed it held no card of a colour or rank, or no "
        "wild, gets none), plays each candidate move and rolls the round out, and plays the "
        "move that won most often. Dominated moves are pruned first (voluntary draws, "
        "keeping a playable drawn card, a Wild while a coloured card fits, naming a colour "
        "it does not hold). It maximises the chance to win the round, in match mode too: "
        "under winner_takes the round's winner is the only one who scores. Parameters: "
        f"rollouts=N per decision (default {_SD['rollouts']}); policy=NAME, the built-in "
        f"that plays its own seat in the rollouts (default {_SD['policy']}), and "
        f"model=NAME, the one that plays every other seat (default {_SD['model']}): any "
        "built-in but search, a parametric one with its defaults, the card counter "
        "counting from what the rollout's world shows its seat; depth=N, the turns a "
        "rollout plays before it is valued by what each player holds (default "
        f"{_SD['depth']}; 0 plays to the end); value=learned values it by weights fitted to "
        "how rounds ended, value=cards by the cards each player has left alone (default "
        f"{_SD['value']}); "
        "halving=1 spends the rollouts by sequential "
        "halving, the worse half of the candidates dropped after each round (default "
        f"{_SD['halving']}; 0 splits them evenly); tree=1 spends them on a tree over its "
        "own decisions, one sampled world a rollout, the moves picked by upper confidence "
        f"bounds (default {_SD['tree']}: flat); infer=0 deals its worlds without the "
        "inference from draws (to measure what it is worth); bluff and forget as for "
        "every strategy; challenge=P or always challenges by chance, never (the default) or "
        "informed leave it to the search, which assumes players do not bluff and so accepts.",
    ),
}


@dataclass(frozen=True)
class Param:
    """A numeric parameter of a parametric strategy: ``lo..hi`` is its domain (what
    a strategy string may set) and the range ``unosim tune`` searches by default."""

    name: str
    slot: int  # index in the strategy's parameter slot (builtin_nb's W_*, A_*, GU_*)
    default: float
    lo: float
    hi: float
    help: str
    integer: bool = False


_W = [
    Param("points", B.W_POINTS, 0.02, -0.5, 0.5, "per point of the card played"),
    Param("action", B.W_ACTION, 0.5, -10, 10, "Skip, Reverse, Draw Two, Wild Draw Four"),
    Param("wild", B.W_WILD, -3.0, -10, 10, "any wild"),
    Param("wd4", B.W_WD4, -1.0, -10, 10, "Wild Draw Four (on top of wild and action)"),
    Param("keep", B.W_KEEP, 0.0, -10, 10, "keeps the current colour"),
    Param("colour", B.W_COLOUR_COUNT, 0.5, -5, 5,
          "per card of the resulting colour still held"),
    Param("by_number", B.W_BY_NUMBER, 0.0, -10, 10, "changes the colour by number or symbol"),
    Param("attack", B.W_ATTACK, 2.0, -10, 10,
          "action card while the next player holds 2 cards or fewer"),
    Param("next_lacks", B.W_NEXT_LACKS, 1.0, -10, 10,
          "the next player was seen lacking the resulting colour"),
    Param("mobility", B.W_MOBILITY, 0.3, -5, 5,
          "per card still held that could follow the card played"),
    Param("draw", B.W_DRAW, -10.0, -20, 20,
          "draw instead of playing (voluntary draw; keep a drawn card)"),
    Param("col_held", B.W_COL_HELD, 1.0, -5, 5, "wild colour: per card held of it"),
    Param("col_lack", B.W_COL_LACK, 0.5, -10, 10,
          "wild colour: the next player was seen lacking it"),
    Param("danger_points", B.W_DANGER_POINTS, 0.0, -0.5, 0.5,
          "per point of the card while an opponent holds 2 cards or fewer"),
]
#: numeric parameters of each parametric strategy, declared once (parse, lower, tune)
STRATEGY_PARAMS: dict[str, tuple[Param, ...]] = {
    "weighted": tuple(_W),
    "tuned": tuple(_W),
    "adaptive": (
        Param("cards", B.A_CARDS, 2, 0, 20, "switch when an opponent holds this many "
              "cards or fewer", integer=True),
        Param("points", B.A_POINTS, 150, 0, 600, "switch when its own hand is worth this "
              "many points or more", integer=True),
    ),
    "gang-up": (
        Param("cards", B.GU_CARDS, 2, 1, 20, "gang up on an opponent holding this many "
              "cards or fewer", integer=True),
    ),
}
#: the weights `tuned` plays (by table size: 2 = heads-up, 3 = three or more players),
#: found by `unosim tune weighted` (docs/findings-tuning.md); missing ones take the defaults
TUNED_WEIGHTS: dict[int, dict[str, float]] = {
    # study weighted-2p-vs-random-round-official, trial 176 (docs/findings-tuning.md)
    2: {
        "action": 1.398, "attack": 0.425, "by_number": -2.288, "col_held": 4.928,
        "col_lack": 1.718, "colour": 0.304, "danger_points": 0.012, "draw": -18.925,
        "keep": 3.384, "mobility": -0.344, "next_lacks": 9.743, "points": -0.043,
        "wd4": 0.084, "wild": -5.778,
    },
    # study weighted-4p-vs-random-round-official, trial 187 (docs/findings-tuning.md)
    3: {
        "action": 2.089, "attack": 4.203, "by_number": 7.345, "col_held": 2.748,
        "col_lack": 1.072, "colour": 3.145, "danger_points": 0.07, "draw": -19.282,
        "keep": 7.56, "mobility": 1.899, "next_lacks": 5.152, "points": -0.106,
        "wd4": -2.445, "wild": -8.867,
    },
}


def tuned_weights(players: int) -> dict[str, float]:
    """Every weight `tuned` plays at a table of ``players``."""
    out = {p.name: p.default for p in STRATEGY_PARAMS["tuned"]}
    out.update(TUNED_WEIGHTS[2 if players <= 2 else 3])
    return out


def tuned_label(players: int) -> str:
    """The `weighted:...` string equal to `tuned` at a table of ``players``."""
    w = tuned_weights(players)
    return "weighted:" + ",".join(f"{k}={w[k]:g}" for k in sorted(w))


def params_help(name: str) -> str:
    """One line per parameter of ``name``: key, default, range, meaning."""
    return "\n".join(f"{p.name}={p.default:g} ({p.lo:g}..{p.hi:g}"
                     f"{', whole' if p.integer else ''}): {p.help}"
                     for p in STRATEGY_PARAMS.get(name, ()))


def strategy_params(name: str) -> tuple[Param, ...]:
    """The numeric parameters ``name`` declares: a parametric built-in's, or a Python
    strategy's ``PARAMS`` (which reach its view, not the game array: slot -1)."""
    if name in STRATEGY_PARAMS:
        return STRATEGY_PARAMS[name]
    declared = getattr(getattr(PLUGINS.get(name), "fn", None), "params", None)
    if isinstance(declared, dict):
        return tuple(Param(k, -1, d, lo, hi, f"declared by {name}")
                     for k, (lo, hi, d) in declared.items())
    return ()


def _numeric_param(name: str, key: str, raw: str) -> float:
    spec = {p.name: p for p in strategy_params(name)}[key]
    try:
        v = float(raw)
    except ValueError:
        raise UnosimError(f"strategy {name}: {key} must be a number, got {raw!r}") from None
    if not spec.lo <= v <= spec.hi:
        raise UnosimError(f"strategy {name}: {key} must be within {spec.lo:g}..{spec.hi:g}, "
                          f"got {raw}")
    if spec.integer and v != int(v):
        raise UnosimError(f"strategy {name}: {key} must be a whole number, got {raw}")
    return int(v) if spec.integer else v


MAX_ROLLOUTS = 1_000_000
#: how the search values a rollout cut after ``depth`` turns (SP_VALUE is the index)
VALUES = ("cards", "learned")
MAX_DEPTH = 10_000


def _search_param(key: str, raw: str) -> Any:
    if key == "value":
        if raw not in VALUES:
            raise UnosimError(f"strategy search: value must be one of {', '.join(VALUES)}, "
                              f"got {raw!r}")
        return raw
    if key in ("infer", "halving", "tree"):
        if raw not in ("0", "1"):
            raise UnosimError(f"strategy search: {key} must be 0 or 1, got {raw!r}")
        return int(raw)
    if key == "depth":
        if not raw.isdigit() or not 0 <= int(raw) <= MAX_DEPTH:
            raise UnosimError(f"strategy search: depth must be a whole number of turns within "
                              f"0..{MAX_DEPTH} (0: roll out to the end), got {raw!r}")
        return int(raw)
    if key == "rollouts":
        try:
            v = int(float(raw))
        except ValueError:
            raise UnosimError(f"strategy search: rollouts must be a whole number, got {raw!r}"
                              ) from None
        if not 1 <= v <= MAX_ROLLOUTS or v != float(raw):
            raise UnosimError(f"strategy search: rollouts must be a whole number within "
                              f"1..{MAX_ROLLOUTS}, got {raw}")
        return v
    if raw not in ROLLOUT_POLICIES:
        # a parametric one plays with its defaults
        names = ", ".join(ROLLOUT_POLICIES)
        raise UnosimError(f"strategy search: {key} must be one of {names}, got {raw!r}")
    return raw


SEARCH_PARAMS_SHORT = ("rollouts=N, policy=NAME, model=NAME, depth=N, halving=0|1, infer=0|1, "
                       "tree=0|1, value=cards|learned")

#: the values ``challenge=`` takes besides a probability
CHALLENGE_WORDS = {"never": 0.0, "always": 1.0}
_PARAMS = {"bluff": L.SF_BLUFF, "challenge": L.SF_CHALLENGE, "forget": L.SF_UNO_FORGET}
PARAMS_HELP = (
    "Parameters for any strategy: NAME:bluff=P,challenge=C,forget=P, with P a probability "
    "0..1: bluff = chance to play a Wild Draw Four illegally (holding the current colour); "
    "challenge = never, always, a probability, or informed (challenge when the cards seen "
    "make it more likely than 1 in 5 that the player still held the colour); forget = "
    "chance to forget calling UNO (default: the rule uno_forget_prob). search also takes "
    + ", ".join(f"{k}={v}" for k, v in SEARCH_DEFAULTS.items())
    + " (its defaults; see `unosim strategies`)."
)

#: what a game with a Python seat costs, in the rollouts of a searched decision, so
#: that its batches take about a second (runs/runner.py ``batch_size``)
PYTHON_COST = 16

#: plug-ins registered in this process: name -> strategies.plugins.Plugin
PLUGINS: dict[str, Any] = {}

#: the kinds of seat, which decide where a table plays (runs/tiers.py): a built-in
#: without parameters, a parametric one, the search, a built-in that observes the
#: table's events (the card counter), a compiled plug-in, a Python strategy. A seat
#: says its kind (``SeatStrategy.kind``, ``kind_of``); nothing else asks
PLAIN = "plain"
PARAM = "param"
SEARCH = "search"
OBSERVER = "observer"
PLUGIN = "plug-in"
PYTHON = "python"
#: the kinds of the built-ins, and of the strategies a user brings
BUILTIN_KINDS = frozenset({PLAIN, PARAM, SEARCH, OBSERVER})
PLUGIN_KINDS = frozenset({PLUGIN, PYTHON})


def function_kind(fn: Any) -> str:
    """The kind of a user strategy's function: a compiled plug-in (a Numba
    dispatcher) or a Python strategy."""
    from numba.core.dispatcher import Dispatcher

    return PLUGIN if isinstance(fn, Dispatcher) else PYTHON


def kind_of(name: str, plugin: Any = None) -> str:
    """The kind of the strategy ``name`` (a built-in's), or of the user function
    ``plugin`` that plays under that name."""
    if plugin is not None:
        return function_kind(plugin)
    sid = BUILTINS[name][0]
    if sid == B.SEARCH:
        return SEARCH
    if B.observes(sid):
        return OBSERVER
    return PARAM if name in STRATEGY_PARAMS else PLAIN


#: the built-ins a search may roll out with (``policy=``, ``model=``): all but the
#: search itself; the card counter, which hears no events in a rollout, plays there
#: from what the world shows its seat (strategies/counter_nb.py)
ROLLOUT_POLICIES = tuple(n for n in BUILTINS if kind_of(n) in (PLAIN, PARAM, OBSERVER))


@dataclass(frozen=True)
class SeatStrategy:
    """A strategy as given on the command line, parsed and checked. ``plugin`` is
    the compiled function of a user plug-in (None for a built-in)."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    plugin: Any = field(default=None, compare=False, repr=False)

    @property
    def kind(self) -> str:
        """What plays this seat (``PLAIN``, ``PARAM``, ``SEARCH``, ``OBSERVER``,
        ``PLUGIN``, ``PYTHON``): the one place a seat's kind is asked."""
        return kind_of(self.name, self.plugin)

    @property
    def builtin(self) -> bool:
        """Whether a built-in plays this seat (not a user's plug-in or Python strategy)."""
        return self.kind in BUILTIN_KINDS

    @property
    def cost(self) -> int:
        """Rollouts per decision (0 for a strategy that does not search): what
        a game costs, for sizing batches so that progress stays visible."""
        kind = self.kind
        if kind == PYTHON:
            return PYTHON_COST  # a Python strategy: some ten thousand decisions a second
        if kind != SEARCH:
            return 0
        return int(self.params.get("rollouts", SEARCH_DEFAULTS["rollouts"]))

    @property
    def sid(self) -> int:
        """The built-in id (a plug-in's id depends on the table: ``strategy_ids``)."""
        if not self.builtin:
            return B.PLUGIN_BASE
        return BUILTINS[self.name][0]

    def label(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(
            f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in sorted(self.params.items())
        )


def register_plugin(plugin: Any) -> None:
    """Make a loaded plug-in (strategies.plugins.Plugin) known by its name."""
    if plugin.name in BUILTINS:
        raise UnosimError(f"plug-in name {plugin.name!r} is a built-in strategy; rename it")
    PLUGINS[plugin.name] = plugin


def strategy_names() -> list[str]:
    return [*BUILTINS, *PLUGINS]


def parse_strategy(text: str) -> SeatStrategy:
    name, _, rest = text.strip().partition(":")
    name = name.strip()
    if name not in BUILTINS and name not in PLUGINS:
        raise UnosimError(f"unknown strategy {name!r}{did_you_mean(name, strategy_names())}; "
                          f"known: {', '.join(strategy_names())}"
                          + ("" if PLUGINS else " (or load one with --strategy-file)"))
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = part.partition("=")
        key = key.strip()
        raw = raw.strip()
        if eq and key in params:
            raise UnosimError(f"strategy {name}: parameter {key} is given twice in {text!r}")
        if eq and key in {p.name for p in strategy_params(name)}:
            params[key] = _numeric_param(name, key, raw)
            continue
        if eq and name == "search" and key in SEARCH_DEFAULTS:
            params[key] = _search_param(key, raw)
            continue
        if getattr(PLUGINS.get(name), "python", False) and (not eq or key != "forget"):
            raise UnosimError(_python_param_error(name, part))
        if not eq or key not in _PARAMS:
            own = "".join(f"{p.name}=X, " for p in STRATEGY_PARAMS.get(name, ()))
            raise UnosimError(
                f"strategy {name}: bad parameter {part!r} (use {own}bluff=P, "
                "challenge=P|never|always|informed, forget=P with P in 0..1"
                + ("; " + SEARCH_PARAMS_SHORT if name == "search" else "") + ")"
            )
        if key == "challenge" and raw.lower() == "informed":
            params[key] = "informed"
            continue
        if key == "challenge" and raw.lower() in CHALLENGE_WORDS:
            params[key] = CHALLENGE_WORDS[raw.lower()]
            continue
        try:
            v = float(raw)
        except ValueError:
            what = "a number or never/always/informed" if key == "challenge" else "a number"
            raise UnosimError(f"strategy {name}: {key} must be {what}, got {raw!r}") from None
        if not 0.0 <= v <= 1.0:
            raise UnosimError(f"strategy {name}: {key} must be within 0..1, got {raw}")
        params[key] = v
    plugin = PLUGINS[name].fn if name in PLUGINS else None
    return SeatStrategy(name, params, plugin)


def _python_param_error(name: str, part: str) -> str:
    """A bad parameter of a plain Python strategy: the ones it declares, and forget,
    the one the engine applies to every seat (a Python strategy makes its own bluff
    and challenge decisions, so the built-ins' bluff= and challenge= mean nothing)."""
    own = strategy_params(name)
    if own:
        have = ", ".join(f"{p.name}=X ({p.lo:g}..{p.hi:g})" for p in own)
        said = f"it declares {have} in its PARAMS"
    else:
        said = ('it declares none (declare them in the strategy: PARAMS = {"name": (low, '
                "high, default)})")
    return (f"strategy {name}: bad parameter {part!r}: {said}; forget=P (0..1) sets how "
            "often it forgets to call UNO")


def plugin_functions(seats: list[SeatStrategy]) -> list[Any]:
    """The distinct plug-in functions of a table, in seat order: the k-th has id
    ``PLUGIN_BASE + k`` (see ``strategy_ids``)."""
    fns: list[Any] = []
    for s in seats:
        if not s.builtin and not any(s.plugin is f for f in fns):
            fns.append(s.plugin)
    return fns


def strategy_ids(seats: list[SeatStrategy]) -> list[int]:
    """The compiled id of each seat's strategy at this table."""
    fns = plugin_functions(seats)
    out = []
    for s in seats:
        if s.kind == PARAM:
            out.append(s.sid + B.SLOT_STRIDE * len(out))  # its parameters: slot = seat
        elif s.builtin:
            out.append(s.sid)
        else:
            out.append(B.PLUGIN_BASE + next(k for k, f in enumerate(fns) if f is s.plugin))
    return out


def seat_template(template: np.ndarray, seats: list[SeatStrategy], uno_forget_prob: float
                  ) -> np.ndarray:
    """A copy of the game array ``template`` with each seat's strategy id and
    parameters (as probability thresholds) filled in."""
    G = template.copy()
    ids = strategy_ids(seats)
    for p in range(L.MAX_PLAYERS):
        s = seats[p] if p < len(seats) else None
        G[L.OFF_STRAT + p] = ids[p] if s else 0
        params = {"forget": uno_forget_prob, **(s.params if s else {})}
        informed = params.get("challenge") == "informed"
        if informed:
            params["challenge"] = 0.0
        base = L.OFF_SEATF + p * L.N_SEATF
        for key, slot in _PARAMS.items():
            G[base + slot] = probability_threshold(params.get(key, 0.0))
        G[base + L.SF_INFORMED] = 1 if informed else 0
        if s is not None and s.kind == PARAM:
            _lower_params(G, p, s, int(template[L.R_PLAYERS]))
        searches = s is not None and s.kind == SEARCH
        sp = {**SEARCH_DEFAULTS, **(s.params if searches else {})}
        at = L.OFF_SP + p * L.N_SP
        G[at + L.SP_ROLLOUTS] = sp["rollouts"]
        for key, slot, block in (("policy", L.SP_POLICY, L.OFF_SPARAM),
                                 ("model", L.SP_MODEL, L.OFF_MPARAM)):
            sid = BUILTINS[sp[key]][0]
            if searches and kind_of(sp[key]) == PARAM:
                # a parametric policy's defaults go in the search seat's own slot (it
                # has no parameters of its own), a model's in the seat's slot of the
                # model block; the id carries the slot, as for any parametric seat
                _lower_params(G, p, SeatStrategy(sp[key]), int(template[L.R_PLAYERS]), block)
                sid += B.SLOT_STRIDE * p
            G[at + slot] = sid
        G[at + L.SP_INFER] = sp["infer"]
        G[at + L.SP_DEPTH] = sp["depth"]
        G[at + L.SP_HALVING] = sp["halving"]
        G[at + L.SP_TREE] = sp["tree"]
        G[at + L.SP_VALUE] = VALUES.index(sp["value"])
    return G


def _lower_params(G: np.ndarray, p: int, s: SeatStrategy, players: int,
                  block: int = L.OFF_SPARAM) -> None:
    """Write the numeric parameters of seat ``p``'s strategy into its slot of
    ``block`` (fixed point): its own values, else the defaults (for `tuned`, the
    table size's set)."""
    base = block + p * L.N_SPARAM
    values = (tuned_weights(players) if s.name == "tuned"
              else {q.name: q.default for q in STRATEGY_PARAMS[s.name]})
    for q in STRATEGY_PARAMS[s.name]:
        v = s.params.get(q.name, values[q.name])
        G[base + q.slot] = int(round(float(v) * L.SPARAM_SCALE))
