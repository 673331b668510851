"""The search's strength against its budget, or against its levers at one budget.

Each point plays ``search:rollouts=N`` (and any other search parameters given)
heads-up against an opponent, on duplicate deals: the same game indices twice, the
search in seat 0 and then in seat 1, so every deal is played from both sides and
every point of the curve plays the very same deals. It prints, per point, the
search's win rate over all games with its 95% Wilson interval, a 95% bootstrap
interval over deals (a deal's two games resampled together), the paired difference
from a reference point on the same deals (bootstrap over deals), and games a
second (both seats' games over the wall time: approximate on a loaded machine).

Usage (from the repository root):

    python bench/search_curve.py                       # the curve, 200 .. 20,000 rollouts
    python bench/search_curve.py --rollouts 200,800,3200 --deals 1000
    python bench/search_curve.py --levers "policy=tuned" "model=tuned" "depth=0" "infer=0"
    python bench/search_curve.py --opponent MixBot2 \\
        --strategy-file strategies/examples/mixbot2.py:MixBot2

``--levers`` measures search variants at one budget (``--rollouts`` gives it, first
value): the defaults first (the reference of the paired differences), then each
variant as ``key=value[,key=value]``; a variant that names its own ``rollouts=``
plays that budget instead (a slower lever at the defaults' time). ``--json PATH``
writes every figure.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from unosim.common import wilson
from unosim.runs.backend import use_workers
from unosim.runs.runner import play_records
from unosim.simulate import layout as L
from unosim.simulate.rules import resolve
from unosim.strategies.plugins import load_plugins
from unosim.strategies.registry import parse_strategy

BOOT = 2000  # bootstrap resamples


def play_point(search: str, opponent: str, variant: list[str], deals: int, seed: int,
               chunks: int) -> tuple[np.ndarray, float]:
    """The search's wins on ``deals`` deals, shape (deals, 2): column k the game with the
    search in seat k; and the seconds both seatings took."""
    rules = resolve(variant, [("players", 2)])
    s, o = parse_strategy(search), parse_strategy(opponent)
    won = np.zeros((deals, 2), np.int8)
    t0 = time.perf_counter()
    for k, seats in enumerate(([s, o], [o, s])):
        rec = play_records(rules, seats, seed, 0, deals, chunks)
        if int(rec[:, L.G_CAPPED].sum()):
            print(f"  {int(rec[:, L.G_CAPPED].sum())} capped rounds ({search}, seat {k})")
        won[:, k] = rec[:, L.G_WINNER] == k
    return won, time.perf_counter() - t0


def boot_interval(per_deal: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    """95% percentile interval of the mean of ``per_deal`` by resampling deals."""
    n = per_deal.shape[0]
    means = np.empty(BOOT)
    for b in range(BOOT):
        means[b] = per_deal[rng.integers(0, n, n)].mean()
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def summary(won: np.ndarray, ref: np.ndarray | None, seconds: float, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    games = won.size
    wins = int(won.sum())
    lo, hi = wilson(wins, games)
    per_deal = won.mean(axis=1)
    blo, bhi = boot_interval(per_deal, rng)
    out = {"games": games, "deals": won.shape[0], "wins": wins, "rate": wins / games,
           "wilson": [lo, hi], "bootstrap": [blo, bhi], "seconds": seconds,
           "games_per_s": games / seconds}
    if ref is not None:
        n = min(ref.shape[0], won.shape[0])  # the deals both points played
        diff = won[:n].mean(axis=1) - ref[:n].mean(axis=1)
        dlo, dhi = boot_interval(diff, rng)
        out["paired"] = {"deals": n, "diff": float(diff.mean()), "interval": [dlo, dhi]}
    return out


def spell(params: str) -> str:
    return f"search:{params}" if params else "search"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rollouts", default="200,400,800,1600,3200,6400,20000",
                    help="budgets, comma-separated (with --levers: the first is the budget)")
    ap.add_argument("--deals", type=int, default=1000,
                    help="deals per point (each played twice, seats swapped)")
    ap.add_argument("--deals-at", default="6400:1000,20000:500",
                    help="BUDGET:DEALS,...: DEALS deals from BUDGET rollouts up ('' for none)")
    ap.add_argument("--reference", type=int, default=800,
                    help="the budget that paired differences are taken from")
    ap.add_argument("--levers", nargs="*", default=None,
                    help="search variants at one budget, key=value[,key=value] each")
    ap.add_argument("--params", default="", help="other search parameters for every point")
    ap.add_argument("--opponent", default="card-counter")
    ap.add_argument("--variant", default="official")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="threads (default 1)")
    ap.add_argument("--strategy-file", action="append", default=[])
    ap.add_argument("--json", default=None, help="write every figure to this file")
    a = ap.parse_args()
    if a.strategy_file:
        load_plugins(a.strategy_file)
    chunks = use_workers(a.workers) * 8
    variant = [v for v in a.variant.split(",") if v]
    budgets = [int(float(x)) for x in a.rollouts.split(",")]
    fewer = sorted(tuple(int(float(x)) for x in part.split(":"))
                   for part in a.deals_at.split(",") if part)
    extra = [a.params] if a.params else []
    if a.levers is not None:
        base = f"rollouts={budgets[0]}"
        # a lever that sets its own budget (``rollouts=400,policy=...``: the same
        # time as the defaults for a slower variant) replaces the common one
        points = [(p, ",".join([*([] if "rollouts=" in p else [base]), *extra,
                                *([p] if p else [])]))
                  for p in ["", *a.levers]]
        reference_label = ""
    else:
        points = [(str(n), ",".join([f"rollouts={n}", *extra])) for n in budgets]
        reference_label = str(a.reference)
    play_point(spell(points[0][1]), a.opponent, variant, 2, a.seed, chunks)  # compile first
    print(f"search against {a.opponent}, heads-up, {a.variant}, duplicate deals (each deal "
          f"played from both seats), seed {a.seed}, {a.workers} worker(s)")
    print(f"{'point':<24} {'games':>6} {'win rate':>9} {'Wilson 95%':>17} "
          f"{'bootstrap 95%':>17} {'paired diff (bootstrap 95%)':>30} {'games/s':>8}")
    results: dict[str, dict] = {}
    wins: dict[str, np.ndarray] = {}
    order = sorted(points, key=lambda p: p[0] != reference_label)  # reference first
    for label, params in order:
        n = budgets[0] if a.levers is not None else int(label)
        deals = a.deals
        for at, d in fewer:
            if n >= at:
                deals = d
        won, secs = play_point(spell(params), a.opponent, variant, deals, a.seed, chunks)
        wins[label] = won
        ref = wins.get(reference_label) if label != reference_label else None
        results[label] = {"search": spell(params), **summary(won, ref, secs, a.seed)}
        print(line(label, results[label]), flush=True)
    print("in order:")
    for label, _ in points:
        print(line(label, results[label]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"opponent": a.opponent, "variant": a.variant, "seed": a.seed,
                       "points": results}, f, indent=1)


def line(label: str, r: dict) -> str:
    d = r.get("paired")
    paired = (f"{100 * d['diff']:+6.2f} [{100 * d['interval'][0]:+6.2f}, "
              f"{100 * d['interval'][1]:+6.2f}]" if d else "reference")
    name = label or "defaults"
    return (f"{name:<24} {r['games']:>6} {100 * r['rate']:>8.2f}% "
            f"[{100 * r['wilson'][0]:6.2f}, {100 * r['wilson'][1]:6.2f}] "
            f"[{100 * r['bootstrap'][0]:6.2f}, {100 * r['bootstrap'][1]:6.2f}] "
            f"{paired:>30} {r['games_per_s']:>8.1f}")


if __name__ == "__main__":
    main()
