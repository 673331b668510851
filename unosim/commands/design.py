"""``unosim design``: the house rules that give the game a table wants, searched on
Optuna (NSGA-II) with the figures of compare and skill, the front re-measured on
fresh deals (the study, its report and its files are studies/design/)."""

from __future__ import annotations

from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="Find the house rules that give the game you want (a Pareto front).")
@click.option("--maximize", multiple=True, metavar="METRIC",
              help="A metric to raise (repeatable): any round metric of compare, or "
                   "skill_edge, e.g. comeback.")
@click.option("--minimize", multiple=True, metavar="METRIC",
              help="A metric to lower (repeatable), e.g. turns.")
@click.option("--require", multiple=True, metavar="METRIC<=X",
              help="A requirement (repeatable): METRIC<=X or METRIC>=X, rates as fractions "
                   "or in percent (\"turns<=30\", \"comeback>=50%\"). Met when the whole 95% "
                   "interval lies beyond X by more than the metric's margin.")
@click.option("--question", "question_file", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.toml",
              help="The question in a TOML file (maximize, minimize, require, players, base, "
                   "keys ...; docs: Design); options given on the command line come first.")
@click.option("--base", multiple=True, metavar="VARIANT", shell_complete=opt.complete_variant,
              help="The variant the rules change (presets or a TOML file, repeatable; "
                   "default official).")
@opt.rule
@click.option("--keys", multiple=True, metavar="KEYS",
              help="The rule keys that may change (repeatable): names separated by commas "
                   "(jump_in,seven_o), or one KEY=VALUES (hand_size=5..9). Default: the house "
                   "rules that shape a round, and hand_size 4..10.")
@opt.players
@click.option("--trials", type=click.IntRange(1, 100_000), default=None,
              help="Candidates the search proposes (the refused and repeated ones count); "
                   "default 200.")
@click.option("--games", "games_text", default=None, metavar="N",
              help="Games per candidate in the first pass, e.g. 2e4 (the default); the second "
                   "pass and the re-measurement play 4 times as many.")
@click.option("--strategy", default=None, metavar="NAME",
              shell_complete=opt.complete_strategy,
              help="skill_edge: the strategy whose edge is measured, one seat against random "
                   "(default offensive).")
@opt.play_options(out_dir="front-N.toml (each front member, ready for --variant), "
                          "design.json, design.csv, the Pareto chart as PNG and SVG, "
                          "design.html and the study (design.db) that --resume continues")
@resume_option("design")
@click.pass_context
def design(ctx: click.Context, **params: Any) -> None:
    """Search the house rules (on top of --base) for the game you want: objectives to
    raise (--maximize) or lower (--minimize) and requirements to meet (--require), on
    the metrics of compare and skill. Every candidate plays the same deals as the base;
    Optuna's NSGA-II proposes them; the best third plays a second, longer pass; its
    front is re-measured on fresh deals, paired with the base, with 95% intervals and a
    verdict per requirement. Combinations the rules refuse are skipped and counted.
    Ctrl-C or SIGTERM keeps every finished trial; with --out DIR the study is kept
    there, and --resume DIR continues it to the same front."""
    start(ctx, "design", params, _design)


def _design(maximize: tuple[str, ...], minimize: tuple[str, ...], require: tuple[str, ...],
            question_file: str | None, base: tuple[str, ...], rule: tuple[str, ...],
            keys: tuple[str, ...], players: int | None, trials: int | None,
            games_text: str | None, strategy: str | None, seed: int | None,
            workers: int | None, fmt: str, out: str | None,
            progress: bool | None, backend: str, scheduler: str | None,
            saved: dict[str, Any], stages: dict[str, Any] | None) -> None:
    from unosim.api import plan_design, play_design_plan, write_design_files

    plan = plan_design(maximize, minimize, require, question_file, base, rule, keys, players,
                       trials, games_text, strategy)
    out_dir = opt.prepare_out(out)
    inputs.check_backend(backend, workers, scheduler)
    if dry_run.requested():
        _dry_run(plan, seed, out_dir, workers, backend)
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("design", out_dir, saved, seed, stages)
    report = play_design_plan(plan, seed, out_dir=out_dir, resumed=stages is not None,
                              keep=keep, workers=workers, backend=backend,
                              scheduler=scheduler, progress=opt.show_progress(progress))
    text = report.summary()
    click.echo(report.to_json() if fmt == "json" else text)
    if out_dir is not None and report.to_dict()["front"]:
        from unosim.output import report_files

        with report_files(out_dir, keep, "design", report.partial):
            write_design_files(report, out_dir, text)
    c = report.to_dict()["counts"]
    finish(keep, report.partial, "design", f"{c['trials']} of {plan.trials} trials")


def _dry_run(plan: Any, seed: int | None, out_dir: Any, workers: int | None,
             backend: str) -> None:
    """--dry-run: the question, the space and the games at most (every trial played,
    the second pass and the re-measurement)."""
    from unosim.strategies.registry import parse_strategy

    q, space = plan.question, plan.space
    p = space.players
    goals = ", ".join(g.text for g in q.goals)
    reqs = ", ".join(r.text for r in q.requirements) or "none"
    seats = [parse_strategy("random")] * p
    works = [dry_run.Work(plan.official_rounds, seats, p)]
    dry_run.show(dry_run.Plan("design")
                 .add("base", dry_run.rules_text(space.base_label, space.resolve({})))
                 .add("question", f"{goals}; require {reqs}")
                 .add("space", f"{len(space.keys)} keys, {space.size:,} combinations: "
                               + ", ".join(space.keys))
                 .add("trials", f"{plan.trials:,}, {plan.games:,} games each; then a second "
                                "pass and the front re-measured on fresh deals")
                 .add("games", f"about {plan.most_games:,} at most")
                 .add("seed", dry_run.seed_text(seed))
                 .add("out", out_dir or "none (no --out)")
                 .timed(works, workers, backend))
