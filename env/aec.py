"""UNO as a PettingZoo AEC environment: one round of any preset or rule values, 2 to
10 players, some seats learners (agents) and the others built-in strategies played
inside ``step`` until an agent is to act.

Rules follow PettingZoo's classic environments: observations are
``{"observation", "action_mask"}``, every agent is terminated when the round ends
(truncated when it hits the turn cap), rewards come at the end. An illegal action is
refused with ``IllegalAction`` (nothing is applied), so a learner's bug never passes
for a lost game. ``encoding`` picks unosim's observation and actions or RLCard's
(encodings.py). The game's generators live in the engine's arrays, which no
observation reads: a policy cannot see or steer the dealing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from unosim.env.encodings import Encoding, encoding_of
from unosim.errors import UnosimError, is_whole
from unosim.runs.game import Game
from unosim.simulate import layout as L
from unosim.simulate.cards import COLOURS, card_name
from unosim.simulate.moves import PHASES, move_name, parse_move
from unosim.simulate.rules import Rules, resolve
from unosim.simulate.step_nb import cap_round, legal_moves
from unosim.strategies.plugins import chooser_for, python_seats
from unosim.strategies.registry import SeatStrategy, parse_strategy

REWARDS = ("win", "points")


class IllegalAction(UnosimError, ValueError):
    """An action the action mask does not allow now, or no action at all (a float, a
    string, several numbers): nothing is applied."""


def whole_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` as an int: a whole number 0 or more, a Python or NumPy integer. A float,
    a string, a bool or a negative number is refused in one line naming ``name``, never
    rounded (1.5 would play seed 1) or parsed."""
    if not is_whole(seed):
        raise UnosimError(f"{name} must be a whole number 0 or more, not {seed!r} "
                          f"({type(seed).__name__})")
    if seed < 0:
        raise UnosimError(f"{name} must be a whole number 0 or more, not {int(seed)}")
    return int(seed)


def action_index(action: Any, agent: str) -> int:
    """``action`` as an int: one Python or NumPy integer (a 0-d integer array too). None,
    a float, a string, a bool or several numbers is an ``IllegalAction`` naming it;
    the mask decides whether the number is legal."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    if not is_whole(action):
        what = (f"an array of {action.dtype} and shape {action.shape}"
                if isinstance(action, np.ndarray)
                else f"{action!r} ({type(action).__name__})")
        raise IllegalAction(f"action for {agent} must be one whole number, an index of its "
                            f"action space, not {what}")
    return int(action)


def player_count(players: Any) -> int:
    """``players`` checked as a whole number of seats the engine deals for (a float or
    a word would otherwise be cut or fail inside numpy)."""
    if not is_whole(players) or not 2 <= players <= L.MAX_PLAYERS:
        raise UnosimError(f"players must be a whole number 2 to {L.MAX_PLAYERS}, "
                          f"not {players!r}")
    return int(players)


def table_rules(variant: str | Sequence[str], rule: Mapping[str, Any] | None,
                players: int, between: Mapping[str, Any] | None = None) -> Rules:
    """The rules of a table: presets in order, then the ``between`` values (an
    encoding's), then rule values, then the player count."""
    if not isinstance(variant, str) and not (
            isinstance(variant, Sequence) and all(isinstance(v, str) for v in variant)):
        raise UnosimError(f"variant must be a preset name or a list of them, not {variant!r}")
    if rule is not None and not isinstance(rule, Mapping):
        raise UnosimError(f"rule must be a mapping of rule keys to values, not {rule!r}")
    names = [variant] if isinstance(variant, str) else list(variant)
    overrides = [*(between or {}).items(), *(rule or {}).items()]
    return resolve(names, [*overrides, ("players", players)])


class UnoAEC(AECEnv):
    """One UNO round per episode; agents ``player_<seat>`` for the learner seats."""

    metadata = {"render_modes": ["ansi"], "name": "unosim_uno_v0", "is_parallelizable": False}

    def __init__(self, rules: Rules, opponents: Mapping[int, SeatStrategy], reward: str,
                 render_mode: str | None, seed: int | None,
                 encoding: Encoding | None = None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise UnosimError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise UnosimError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.enc = encoding or encoding_of("unosim")
        self.enc.check(rules)
        self.rules = rules
        self.n = int(rules["players"])
        placeholder = parse_strategy("random")
        self.seats = [opponents.get(p, placeholder) for p in range(self.n)]
        self._agent_seats = [p for p in range(self.n) if p not in opponents]
        if not self._agent_seats:
            raise UnosimError("every seat has an opponent strategy: leave at least one seat "
                              "to the learner")
        self.possible_agents = [f"player_{p}" for p in self._agent_seats]
        self._is_agent = [p not in opponents for p in range(self.n)]
        self._python = python_seats(self.seats) != 0
        self._choose = chooser_for(self.seats)
        self.reward_kind = reward
        self.render_mode = render_mode
        k = self.enc.n_actions
        obs = spaces.Dict({
            "observation": self.enc.space(rules),
            "action_mask": spaces.Box(0, 1, (k,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = {a: spaces.Discrete(k) for a in self.possible_agents}
        self._seed = None if seed is None else whole_seed(seed, "aec_env(seed=...)")
        self._index = -1
        self._mask = np.zeros(k, np.int8)
        self._game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new round: game ``k`` of the seed (``seed`` restarts at game 0; without
        one the next game of the last seed is dealt, as unosim seeds a run)."""
        if seed is not None:
            self._seed, self._index = whole_seed(seed, "reset(seed=...)"), -1
        if self._seed is None:
            self._seed = int(np.random.SeedSequence().entropy % (1 << 63))
        self._index += 1
        self._game = Game(self.rules, self.seats, seed=self._seed, game_index=self._index)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._advance()

    def _playing(self, call: str) -> None:
        """Refuse ``call`` before the first ``reset`` and once every agent is done (the
        round's agents are gone then: ``last`` and ``step`` have nobody to speak of)."""
        if self._game is None:
            raise UnosimError(f"call reset() before {call}")
        if not self.agents:
            raise UnosimError(f"{call}: the round is over and every agent is done; call "
                              "reset() to deal the next")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._playing("last()")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self._game is None:
            raise UnosimError("call reset() before observe()")
        if agent not in self.possible_agents:
            raise UnosimError(f"observe(agent): {agent!r} is not an agent of this "
                              f"environment ({', '.join(self.possible_agents)})")
        seat = int(agent.rpartition("_")[2])
        G = self._game.G
        mine = (agent == self.agent_selection and G[L.S_PHASE] != L.PH_OVER
                and int(G[L.S_ACTOR]) == seat)
        return {"observation": self.enc.encode(G, seat),
                "action_mask": self._mask.copy() if mine else np.zeros_like(self._mask)}

    def step(self, action: int | None) -> None:
        self._playing("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalAction(f"action for {agent} must be None: its round is over "
                                    f"(not {action!r})")
            self._was_dead_step(action)
            return
        a = action_index(action, agent)
        if not (0 <= a < self._mask.size and self._mask[a]):
            raise IllegalAction(f"action {a} is not legal for {agent} now "
                                f"(legal: {np.flatnonzero(self._mask).tolist()})")
        G = self._game.G
        self._game.apply(self.enc.to_move(a, int(G[L.S_ACTOR]), self.n))
        self._cumulative_rewards[agent] = 0
        self._advance()
        self._accumulate_rewards()

    def _advance(self) -> None:
        """Play the opponents, and the moves the encoding takes for an agent, until an
        agent is to act or the round ends."""
        game = self._game
        G, RNG = game.G, game.RNG
        cap = int(self.rules["turn_cap"])
        while G[L.S_PHASE] != L.PH_OVER:
            if G[L.S_TURNS] >= cap:
                cap_round(G)
                break
            p = int(G[L.S_ACTOR])
            if self._is_agent[p]:
                m = self.enc.auto_move(G, RNG)
                if m >= 0:
                    game.apply(m)
                    continue
                n = int(legal_moves(G))
                self.enc.fill_mask(self._mask, G[L.OFF_MOVES:L.OFF_MOVES + n], p, self.n)
                self.agent_selection = f"player_{p}"
                return
            if self._python or not getattr(self, "_warm", False):
                game.apply(parse_move(game.choose()))
                self._warm = True
            else:
                game.apply(int(self._choose(G, RNG)))
        self._finish()

    def _finish(self) -> None:
        """The round is over: every agent is done, and the rewards are handed out."""
        G = self._game.G
        self._mask[:] = 0
        winner = int(G[L.S_WINNER])
        capped = winner < 0
        for agent in self.agents:
            seat = int(agent.rpartition("_")[2])
            if capped:
                r = 0.0
            elif self.reward_kind == "win":
                r = 1.0 if seat == winner else -1.0
            else:
                r = float(self._game.winner_points() if seat == winner
                          else -self._game.hand_value(seat))
            self.rewards[agent] = r
            self.terminations[agent] = not capped
            self.truncations[agent] = capped
        self.agent_selection = self.agents[0]

    # ------------------------------------------------------------ showing
    def render(self) -> str | None:
        """The table as the acting seat sees it (ansi)."""
        if self.render_mode is None or self._game is None:
            return None
        g = self._game
        G = g.G
        seat = int(G[L.S_ACTOR])
        phase = PHASES[int(G[L.S_PHASE])]
        counts = ", ".join(f"{p}:{g.hand_size(p)}" for p in range(self.n))
        lines = [f"seat {seat} to act ({phase}); top {card_name(int(G[L.S_TOP]))}, colour "
                 f"{COLOURS[int(G[L.S_COLOUR])]}, direction {int(G[L.S_DIR]):+d}, "
                 f"pending {int(G[L.S_PENDING])}",
                 f"cards by seat: {counts}",
                 f"hand of seat {seat}: {' '.join(g.hand(seat))}"]
        if phase != "over":
            moves = [move_name(self.enc.to_move(a, seat, self.n))
                     for a in np.flatnonzero(self._mask)]
            lines.append(f"legal: {' '.join(moves)}")
        else:
            lines.append(f"round over; winner seat {int(G[L.S_WINNER])}")
        return "\n".join(lines)

    def close(self) -> None:
        self._game = None


def aec_env(variant: str | Sequence[str] = "official", *, rule: Mapping[str, Any] | None = None,
            players: int = 2, opponents: Mapping[int, str] | Sequence[str | None] | None = None,
            reward: str = "win", render_mode: str | None = None,
            seed: int | None = None, encoding: str = "unosim") -> UnoAEC:
    """A PettingZoo AEC environment of UNO.

    ``variant``: a preset name or several, applied in order; ``rule``: rule values on
    top ({"stacking": "progressive", ...}); ``players``: 2 to 10; ``opponents``: the
    strategy of every seat that is not a learner ({seat: "heuristic"}, or a list by
    seat with None for a learner seat; seats not given are agents); ``reward``: "win"
    (+1 to the winner, -1 to every other agent) or "points" (the winner gets the
    round's points, every other agent minus what its hand scores); ``seed``: the seed
    of the first ``reset`` without one; ``encoding``: "unosim" (every rule and
    decision) or "rlcard" (RLCard's observation and 61 actions, 2 players, RLCard's
    rule values on top of the variant, rlcard_encoding.py)."""
    players = player_count(players)
    enc = encoding_of(encoding)
    rules = table_rules(variant, rule, players, enc.rules)
    if opponents is None:
        given: dict[int, str] = {}
    elif isinstance(opponents, Mapping):
        given = {int(k): v for k, v in opponents.items()}
    else:
        given = {p: s for p, s in enumerate(opponents) if s is not None}
    bad = [p for p in given if not 0 <= p < players]
    if bad:
        raise UnosimError(f"opponent seat {bad[0]} is not a seat of {players} players")
    seats = {p: parse_strategy(s) if isinstance(s, str) else s for p, s in given.items()}
    return UnoAEC(rules, seats, reward, render_mode, seed, enc)
