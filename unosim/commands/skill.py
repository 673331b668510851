"""``unosim skill``: how much a rule rewards skill, as the skill edge of one strategy
against a field (``random`` unless ``--field`` names another) under each variant,
paired on the same deals (the skill edge of the docs' Metrics page)."""

from __future__ import annotations

from typing import Any

import click

from unosim import dry_run
from unosim import options as opt
from unosim.progress import on_backend
from unosim.resuming import finish, keeper, resume_option, start
from unosim.runs import inputs


@click.command(short_help="The skill edge of a strategy under each variant, with verdicts.")
@click.argument("variant_names", nargs=-1, metavar="VARIANT...",
                shell_complete=opt.complete_variant)
@click.option("--strategy", default=None, metavar="NAME",
              help="The strategy whose skill edge is measured (built-in, NAME:params or a "
                   "plug-in), one seat against the field (--field, default random) in every "
                   "other seat.")
@opt.lineup_options(with_variant=False)
@opt.play_options(out_dir="skill.json and skill.csv")
@resume_option("skill study")
@click.pass_context
def skill(ctx: click.Context, **params: Any) -> None:
    """The skill edge of --strategy under each VARIANT (presets, NAME+NAME or TOML files;
    the first is the baseline): one seat of the strategy against the field (--field,
    default random) in the others, its seat rotated, every rotation and every variant
    on the same deals. Skill edge = (win rate - 1/P) / (1 - 1/P): 0 is chance, 1 always
    wins; it is measured against the field, so another field gives another edge (e.g.
    `skill official --strategy offensive --field attacker`). Paired differences from
    the baseline with 95% intervals, and a verdict per variant. Ctrl-C or SIGTERM stops
    between blocks of deals with the partial result (the same deals in every variant);
    with --out DIR a checkpoint is kept there, and --resume DIR finishes it."""
    start(ctx, "skill", params, _skill)


def _skill(variant_names: tuple[str, ...], strategy: str | None, players: int | None,
           games_text: str, rule: tuple[str, ...], seed: int | None, workers: int | None,
           fmt: str, out: str | None, progress: bool | None, backend: str,
           scheduler: str | None, saved: dict[str, Any], stages: dict[str, Any] | None,
           field: str | None = None) -> None:
    # field defaults to None: a checkpoint kept before --field existed resumes as random
    from unosim.api import check_request, play_skill, players_of, skill_games
    from unosim.common import write_text_atomic
    from unosim.reports.render import render_json
    from unosim.runs.variants import build_variants
    from unosim.strategies.registry import parse_strategy

    check_request(variant_names, strategy)
    games = inputs.parse_games(games_text)
    strat = parse_strategy(strategy)
    against = inputs.parse_field(field if field is not None else "random")
    variants = build_variants(variant_names,
                              lambda presets: inputs.resolve_rules(presets, rule, players),
                              lambda n: [])
    inputs.check_skill_games(games, players_of(variants))
    out_dir = opt.prepare_out(out)
    inputs.check_backend(backend, workers, scheduler)
    if dry_run.requested():
        total = skill_games(variants, games)
        p = players_of(variants)
        dry_run.show(dry_run.Plan("skill")
                     .add("variants", dry_run.variants_text(variants))
                     .add("seats", f"{strat.label()} in one seat (rotated), {against.label()} "
                                   "in the others")
                     .add("games", f"{total:,} rounds in all ({total // len(variants):,} "
                                   "per variant)")
                     .add("seed", dry_run.seed_text(seed))
                     .add("out", out_dir or "none (no --out)")
                     .timed([dry_run.Work(total, [strat, *[against] * (p - 1)], p)],
                            workers, backend))
        return
    seed = inputs.pick_seed(seed, opt.announce_seed if stages is None else None)
    keep = keeper("skill", out_dir, saved, seed, stages)
    report = on_backend(backend, workers, scheduler, opt.show_progress(progress),
                        skill_games(variants, games),
                        lambda cb, where: play_skill(variants, strat, games, seed, field=against,
                                                     backend=where, workers=workers,
                                                     on_batch=cb, keep=keep))
    summary = report.to_dict()
    click.echo(report.to_json() if fmt == "json" else report.summary())
    if out_dir is not None:
        from unosim.output import report_files
        from unosim.reports.export import summary_csv

        with report_files(out_dir, keep, "skill", report.partial):
            write_text_atomic(out_dir / "skill.json", render_json(summary) + "\n")
            write_text_atomic(out_dir / "skill.csv", summary_csv(_flat(summary)))
    finish(keep, report.partial, "skill", f"{summary['deals']:,} of "
           f"{summary['deals_requested']:,} deals")


def _flat(summary: dict) -> dict:
    """One CSV key per variant and figure."""
    flat = {k: v for k, v in summary.items() if k != "variants"}
    for row in summary["variants"]:
        for k, v in row.items():
            if k not in ("variant", "rules_changed"):
                flat[f"{row['variant']}.{k}"] = v
    return flat
