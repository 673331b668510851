"""``unosim bench``: the benchmark report. Timings are measured here, never
asserted in tests (they depend on the machine).

Figures: games per second on one core and on all cores for official, stacking,
seven-o and jump-in at 2, 4 and 6 players (random strategy), parallel efficiency,
JIT compile time with a cold and a warm cache, the time from command start to
the first simulated game, and peak memory of whole runs of two sizes (flat
memory is the point: runs keep totals, not games). Each rate is the median of
``repeat`` runs, one-core and all-core runs alternated, and the JSON keeps every
run. A separate section measures the ``search`` strategy (one search seat,
at its defaults, against random, on one core): games, searched decisions and
rollouts per second, and the time per searched decision. Then a Python strategy's
decisions a second, and the vector environment's learner steps a second (4,096
games, 2 players against random, one thread; measured only with the rl extra).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import click

from unosim import dry_run, interrupt
from unosim import options as opt
from unosim.common import module_command
from unosim.runs import inputs
from unosim.runs.stopping import Stopped

TARGETS = {
    "games_per_sec_1_core": 400_000,  # official, 4 players, random (issue 6; issue 2: 350,000)
    "speedup_2_cores": 1.8,
    "start_to_first_game_s": 1.0,
}
VARIANTS = ("official", "stacking", "seven-o", "jump-in")
SEARCH_TARGET_GAMES_PER_SEC = 50  # 4 players, one search seat at its default parameters
#: what a trivial Python strategy should decide a second on one core, the table included
PYTHON_TARGET_DECISIONS_PER_SEC = 50_000
PLAYERS = (2, 4, 6)
#: the vector environment's learner steps a second: 4,096 games, 2 players against random
VECTOR_ENV_TARGET_STEPS_PER_SEC = 1_000_000

_FIRST_GAME = (
    "import time; t = time.perf_counter(); "
    "from unosim.runs.runner import warm_up; warm_up(); "
    "print(time.perf_counter() - t)"
)
_PEAK_RSS = (
    "import resource, sys; from unosim.cli import main; "
    "sys.argv = ['unosim', '--games', sys.argv[1], '--seed', '1', '--no-progress', "
    "'--format', 'json']\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "print('PEAK_RSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
)


def _subprocess_seconds(env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds from process start to first game, seconds inside Python)."""
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _FIRST_GAME], env=env, check=True,
                         capture_output=True, text=True).stdout
    return time.perf_counter() - t0, float(out.strip().splitlines()[-1])


#: the command paths whose cold compile ``unosim bench`` times, in this order, each
#: in a fresh process on the cache the ones before it filled: what a user meets
#: running a plain round first, then a match, a search seat and a plug-in
COLD_PATHS = ("rounds", "matches", "rounds/search", "plug-ins")
_COMPILE_PATH = (
    "import sys, time; t = time.perf_counter(); "
    "from unosim.runs.prebuild import compile_paths; "
    "compile_paths([sys.argv[1]], lambda *a: None); print(time.perf_counter() - t)"
)


def cold_compile(env: dict[str, str]) -> dict[str, Any]:
    """Seconds each of ``COLD_PATHS`` adds on first use, in a fresh cache (wall, from
    process start, so imports count), and which kernel modules the first path (a
    plain run) left in the cache: it must hold neither the search nor matches."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in COLD_PATHS:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", _COMPILE_PATH, path],
                           env=dict(env, NUMBA_CACHE_DIR=tmp), check=True,
                           capture_output=True, text=True)
            out[path] = time.perf_counter() - t0
            if path == "rounds":
                names = {f.split("-")[0] for _, _, files in os.walk(tmp) for f in files
                         if f.endswith(".nbi")}
                out["plain_run_compiled"] = sorted({n.split(".")[0] for n in names})
                out["plain_run_compiled_search"] = any(
                    n.startswith(("search_nb.search_move", "search_nb.choose")) for n in names)
                out["plain_run_compiled_matches"] = any(n.startswith("match_nb.")
                                                        for n in names)
    return out


def peak_memory_mb(games: int) -> tuple[float, float]:
    """(peak resident memory in MB, wall seconds) of a whole ``unosim run``."""
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", _PEAK_RSS, str(games)], check=True,
                         capture_output=True, text=True)
    line = [x for x in res.stderr.splitlines() if x.startswith("PEAK_RSS_KB")][-1]
    return int(line.split()[1]) / 1024, time.perf_counter() - t0


def _rate(variant: str, players: int, games: int, workers: int) -> tuple[float, Any]:
    from unosim.api import play_run
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import parse_strategy

    rules = resolve([variant], [("players", players)])
    res = play_run(rules, [parse_strategy("random")] * players, games, seed=1, workers=workers)
    if res.partial:  # a stop between its batches: the rate of a cut run means nothing
        raise Stopped
    return res.agg.games / res.elapsed_s, res.agg


def _paired_rates(variant: str, players: int, games: int, cores: int,
                  repeat: int) -> tuple[list[float], list[float], bool]:
    """``repeat`` one-core and all-core runs, alternated so that whatever else the
    machine is doing weighs on both alike (one run's rate moves by a few per
    cent); every rate of each, and whether all runs gave identical totals."""
    ones, alls, first, same = [], [], None, True
    for _ in range(repeat):
        for workers, rates in ((1, ones), (cores, alls)):
            rate, agg = _rate(variant, players, games, workers)
            rates.append(rate)
            first = agg if first is None else first
            same = same and agg.same_as(first)
    return ones, alls, same


def search_rates(players: int, games: int, spec: str = "search") -> dict[str, Any]:
    """One ``spec`` seat (the search at its defaults) against random seats, ``games``
    rounds played one after another on one core (``search_nb.play_counted``, which
    counts the searched decisions and the rollouts)."""
    import numpy as np

    from unosim.runs.runner import base_seed, game_template
    from unosim.simulate import layout as L
    from unosim.simulate.rules import resolve
    from unosim.strategies.registry import SEARCH_DEFAULTS, parse_strategy
    from unosim.strategies.search_nb import play_counted

    rules = resolve([], [("players", players)])
    seats = [parse_strategy(spec)] + [
        parse_strategy("random")] * (players - 1)
    template = game_template(rules, seats)
    G = np.empty(L.G_SIZE, np.int64)
    RNG = np.zeros(8, np.uint64)
    play_counted(template, base_seed(1), 0, 1, G, RNG)  # compile or load
    t0 = time.perf_counter()
    decisions, rollouts_done = play_counted(template, base_seed(1), 0, games, G, RNG)
    secs = time.perf_counter() - t0
    return {
        "players": players,
        "strategy": spec,
        "parameters": {**SEARCH_DEFAULTS, **seats[0].params},
        "games": games,
        "games_per_sec_1_core": games / secs,
        "decisions_per_sec": decisions / secs,
        "rollouts_per_sec": rollouts_done / secs,
        "searched_decisions_per_game": decisions / games,
        "ms_per_decision": 1000 * secs / max(1, decisions),
    }


def python_rates(players: int, games: int) -> dict[str, Any]:
    """A trivial Python strategy (the first legal move) in seat 0 against random
    seats, ``games`` rounds on one core: its decisions a second, the whole table's
    work included (the compiled seats, the events it is handed, the views)."""
    import numpy as np

    from unosim.runs.python_batch import python_batch
    from unosim.runs.runner import base_seed, game_template
    from unosim.simulate import layout as L
    from unosim.simulate.rules import resolve
    from unosim.strategies.plugins import plugin
    from unosim.strategies.registry import parse_strategy

    asked = [0]

    def first_legal(view: Any) -> str:
        asked[0] += 1
        return view.legal[0]  # type: ignore[no-any-return]

    plugin(first_legal, "bench-first-legal")
    rules = resolve([], [("players", players)])
    seats = [parse_strategy("bench-first-legal")] + [parse_strategy("random")] * (players - 1)
    batch = python_batch(seats, 1)
    template = game_template(rules, seats)
    batch(template, base_seed(1), 0, np.zeros((1, L.N_G), np.int32), 1)  # compile or load
    asked[0] = 0
    t0 = time.perf_counter()
    batch(template, base_seed(1), 0, np.zeros((games, L.N_G), np.int32), 1)
    secs = time.perf_counter() - t0
    return {"players": players, "games": games, "games_per_sec_1_core": games / secs,
            "decisions_per_sec": asked[0] / secs, "decisions_per_game": asked[0] / games,
            "target_decisions_per_sec": PYTHON_TARGET_DECISIONS_PER_SEC}


def vector_env_rates(repeat: int, steps: int = 200) -> dict[str, Any]:
    """The vector environment at 4,096 games, 2 players against random, a random
    legal learner, ``steps`` steps, one thread: ``python -m unosim.env.speed`` run
    ``repeat`` times
    (the first also compiles or loads its kernels, untimed), the median reported. A
    program, not an import: the simulator never imports an environment, whose extra
    (gymnasium) may be missing; then the report says so."""
    import importlib.util

    out: dict[str, Any] = {"envs": 4096, "players": 2, "opponents": "random",
                           "target_steps_per_sec": VECTOR_ENV_TARGET_STEPS_PER_SEC}
    if importlib.util.find_spec("gymnasium") is None:
        out["missing"] = "the rl extra is not installed (pip install 'unosim[rl]')"
        return out
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    runs = []
    for _ in range(repeat):
        p = subprocess.run(module_command("unosim.env.speed", "--json", "--steps", str(steps)),
                           env=env, capture_output=True, text=True)
        if p.returncode != 0:
            out["failed"] = (p.stderr.strip().splitlines() or ["no output"])[-1]
            return out
        runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
    out["runs"] = runs
    for key in ("steps_per_sec", "steps_per_sec_cpu", "steps_per_sec_with_policy"):
        out[key] = statistics.median(r[key] for r in runs)
    return out


def run_bench(games: int, measure_cold: bool = True, matrix: bool = True,
              memory_games: int | None = None, repeat: int = 3) -> dict[str, Any]:
    """Every measurement, in order, into one report. A stop (Ctrl-C, SIGTERM) ends it
    there: the report keeps the measurements finished before it, marked partial."""
    from unosim import provenance
    from unosim.runs.runner import max_workers

    cores = max_workers()
    report: dict[str, Any] = {"provenance": provenance(),
                              "setup": "random strategy", "games": games, "cores": cores,
                              "repeat": repeat, "targets": TARGETS, "rows": [],
                              "partial": False}
    try:
        _measure(report, games, measure_cold, matrix, memory_games, repeat)
    except (KeyboardInterrupt, Stopped):  # a signal mid-compile, or a cut run
        report["partial"] = True
    return report


def _measure(report: dict[str, Any], games: int, measure_cold: bool, matrix: bool,
             memory_games: int | None, repeat: int) -> None:
    from unosim.runs.prebuild import compile_paths
    from unosim.runs.runner import warm_up

    cores = report["cores"]
    env = dict(os.environ)
    if measure_cold:
        report["compile_cold_paths_s"] = cold_compile(env)
        report["compile_cold_s"] = report["compile_cold_paths_s"]["rounds"]
    # the cache is filled before a warm start is timed, with the plain round path
    # itself: a first run's quick kernel (runs/quick.py) is not what the rates measure
    compile_paths(["rounds"], lambda *a: None)
    warm_up()
    wall, inner = _subprocess_seconds(env)
    report["compile_warm_s"] = inner
    report["start_to_first_game_s"] = wall
    rows = report["rows"]
    for variant in VARIANTS if matrix else ("official",):
        for players in PLAYERS if matrix else (4,):
            ones, alls, same = _paired_rates(variant, players, games, cores, repeat)
            one, alln = statistics.median(ones), statistics.median(alls)
            rows.append({
                "variant": variant,
                "players": players,
                "games_per_sec_1_core": one,
                "games_per_sec_all_cores": alln,
                "runs_1_core": ones,
                "runs_all_cores": alls,
                "speedup": alln / one,
                "parallel_efficiency": alln / one / cores,
                "identical_results": same,
            })
            if variant == "official" and players == 4:
                report["games_per_sec_1_core"] = one
                report["games_per_sec_all_cores"] = alln
                report["speedup"] = alln / one
    report["identical_results"] = all(r["identical_results"] for r in rows)
    search_games = max(20, min(200, games // 2500))
    report["search"] = []
    for p in (2, 4):
        report["search"].append(search_rates(p, search_games))
    report["search_target_games_per_sec"] = SEARCH_TARGET_GAMES_PER_SEC
    report["python"] = [python_rates(p, max(200, min(20_000, games // 25))) for p in (2, 4)]
    report["vector_env"] = vector_env_rates(repeat, max(20, min(200, games // 2500)))
    if memory_games:
        small = min(1_000_000, memory_games)
        report["peak_rss_mb"] = {}
        for n in sorted({small, memory_games}):
            mb, secs = peak_memory_mb(n)
            report["peak_rss_mb"][str(n)] = {"peak_rss_mb": mb, "wall_s": secs}


def render_bench(r: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(r, indent=2)
    cores = r["cores"]
    lines = [f"unosim bench: random strategy, {r['games']:,} games per measurement, "
             f"median of {r['repeat']} runs, {cores} cores"
             + (" (PARTIAL: stopped; the measurements finished before the stop)"
                if r.get("partial") else "")]
    lines.append(f"  {'variant':<10}{'players':>8}{'1 core':>14}{f'{cores} cores':>14}"
                 f"{'speedup':>9}{'efficiency':>12}  identical")
    for row in r["rows"]:
        lines.append(
            f"  {row['variant']:<10}{row['players']:>8}{row['games_per_sec_1_core']:>14,.0f}"
            f"{row['games_per_sec_all_cores']:>14,.0f}{row['speedup']:>8.2f}x"
            f"{100 * row['parallel_efficiency']:>11.0f}%  {row['identical_results']}"
        )
    t = r["targets"]
    lines.append("")
    head = next((x for x in r["rows"] if x["variant"] == "official" and x["players"] == 4),
                None)
    if head is not None:
        runs = ", ".join(f"{x:,.0f}" for x in head["runs_1_core"])
        lines.append(f"  official, 4 players: {r['games_per_sec_1_core']:,.0f} games/s per "
                     f"core (target {t['games_per_sec_1_core']:,}), x{r['speedup']:.2f} on "
                     f"{cores} cores (target x{t['speedup_2_cores']} on 2)")
        lines.append(f"    its one-core runs: {runs} games/s")
    cold = r.get("compile_cold_paths_s")
    if cold:
        lines.append("  JIT compile on first use, cold cache (wall, from process start):")
        for path in COLD_PATHS:
            lines.append(f"    {path:<14}{cold[path]:6.1f} s")
        lines.append("    a plain run compiled the search: "
                     f"{'yes' if cold['plain_run_compiled_search'] else 'no'}, matches: "
                     f"{'yes' if cold['plain_run_compiled_matches'] else 'no'}")
    if "compile_warm_s" in r:
        lines.append(f"  JIT load, warm cache         {r['compile_warm_s']:6.2f} s")
        lines.append(f"  command start to first game  {r['start_to_first_game_s']:6.2f} s "
                     f"(target under {t['start_to_first_game_s']} s)")
    for s in r.get("search", []):
        given = ",".join(f"{k}={v}" for k, v in s["parameters"].items())
        lines.append(f"  {s['strategy']} ({given}), {s['players']} players (one search seat, "
                     f"the others random), 1 core: {s['games_per_sec_1_core']:,.0f} games/s"
                     + (f" (target {r['search_target_games_per_sec']})"
                        if s["players"] == 4 else ""))
        lines.append(f"    {s['decisions_per_sec']:,.0f} searched decisions/s "
                     f"({s['ms_per_decision']:.2f} ms each, "
                     f"{s['searched_decisions_per_game']:.1f} per game), "
                     f"{s['rollouts_per_sec']:,.0f} rollouts/s")
    for s in r.get("python", []):
        lines.append(f"  a Python strategy (the first legal move), {s['players']} players, the "
                     f"others random, 1 core: {s['decisions_per_sec']:,.0f} of its decisions/s "
                     f"(target {s['target_decisions_per_sec']:,}), "
                     f"{s['games_per_sec_1_core']:,.0f} games/s")
    v = r.get("vector_env")
    if v:
        head = (f"  the vector environment, {v['envs']:,} games, {v['players']} players "
                f"against {v['opponents']}, a random learner, 1 thread: ")
        if "steps_per_sec" in v:
            lines.append(head + f"{v['steps_per_sec']:,.0f} learner steps/s in env.step "
                         f"(target {v['target_steps_per_sec']:,}; "
                         f"{v['steps_per_sec_cpu']:,.0f} by its CPU time), "
                         f"{v['steps_per_sec_with_policy']:,.0f} with the learner's numpy "
                         "policy")
        else:
            lines.append(head + "not measured: " + v.get("missing", v.get("failed", "")))
    for n, m in r.get("peak_rss_mb", {}).items():
        lines.append(f"  peak memory, unosim run --games {int(n):,}: {m['peak_rss_mb']:.0f} MB "
                     f"({m['wall_s']:.0f} s)")
    return "\n".join(lines)


def _plan(games: int, measure_cold: bool, matrix: bool, memory_games: int | None,
          repeat: int) -> None:
    """--dry-run: the measurements ``run_bench`` would take, and about how long."""
    from unosim.runs.compile_notice import ESTIMATE_S
    from unosim.runs.runner import max_workers
    from unosim.strategies.registry import parse_strategy

    cores = max_workers()
    rows = [(v, p) for v in (VARIANTS if matrix else ("official",))
            for p in (PLAYERS if matrix else (4,))]
    random = parse_strategy("random")
    search = parse_strategy("search")
    one = sum(dry_run.seconds_per_game(dry_run.Work(games, [random] * p, p)) * games
              for _, p in rows) * repeat
    search_games = max(20, min(200, games // 2500))
    rest = sum(dry_run.seconds_per_game(dry_run.Work(search_games, [search, random],
                                                     p, "round")) * search_games
               for p in (2, 4))
    if memory_games:
        rest += sum(n * dry_run.SECONDS["table"] / cores
                    for n in {min(1_000_000, memory_games), memory_games})
    cold = sum(ESTIMATE_S[p][1] for p in COLD_PATHS) if measure_cold else 0
    plan = (dry_run.Plan("bench")
            .add("rates", (f"{len(VARIANTS)} variants at {len(PLAYERS)} player counts"
                           if matrix else "official at 4 players")
                 + f", {games:,} games each on 1 core and on {cores}, {repeat} times")
            .add("also", "the search, Python strategies, the vector environment"
                 + (f", peak memory at {memory_games:,} games" if memory_games else ""))
            .add("compile", "cold compile of " + ", ".join(COLD_PATHS) if measure_cold
                 else "not measured (--skip-compile)"))
    plan.time = dry_run.about(one * (1 + 1 / cores) + rest + cold + 10)
    dry_run.show(plan)


@click.command()
@click.option("--games", "games_text", default="5e5", show_default=True,
              help="Games per measurement.")
@opt.fmt
@click.option("--skip-compile", is_flag=True, help="Do not measure cold compile time.")
@click.option("--quick", is_flag=True, help="Official rules at 4 players only.")
@click.option("--memory-games", default=None, metavar="N",
              help="Also measure peak memory of `unosim run` at 1e6 and at N games (e.g. 1e8).")
@click.option("--repeat", type=click.IntRange(1, 99), default=3, show_default=True,
              help="Runs per measurement; the median is reported.")
@opt.dry_run
def bench(games_text: str, fmt: str, skip_compile: bool, quick: bool,
          memory_games: str | None, repeat: int) -> None:
    """Benchmark report: games/s on 1 and all cores (official, stacking, seven-o,
    jump-in at 2, 4, 6 players), parallel efficiency, JIT times, the search, Python
    strategies and the vector environment, peak memory."""
    mem = inputs.parse_games(memory_games, "--memory-games") if memory_games else None
    games = inputs.parse_games(games_text)
    if dry_run.requested():
        _plan(games, not skip_compile, not quick, mem, repeat)
        return
    report = run_bench(games, measure_cold=not skip_compile,
                       matrix=not quick, memory_games=mem, repeat=repeat)
    click.echo(render_bench(report, fmt))
    if report["partial"]:
        # timings taken at another moment do not add up, so a benchmark is not resumed
        click.echo("unosim: bench interrupted; the report above (marked PARTIAL) holds the "
                   "measurements finished before the stop; run it again for all of them",
                   err=True)
        sys.exit(interrupt.exit_code())
