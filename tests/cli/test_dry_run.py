"""``--dry-run``: every command takes it; it checks the whole input as the command does
(bad input: the same one line and exit code 2 as without it, over the bad-input
sweep's table of wrong values), and on good input prints what it would play and about
how long it would take, then exits 0 with nothing played, compiled or written."""

from __future__ import annotations

import click
import pytest
from cli_helpers import invoke
from test_bad_input_sweep import BASE, CLI_CASES, bad_files  # noqa: F401,F811 - a fixture

from unosim import dry_run
from unosim.cli import COMMANDS, cli


@pytest.mark.parametrize(("label", "argv", "words"), CLI_CASES,
                         ids=[c[0][:80] for c in CLI_CASES])
def test_bad_input_gives_the_same_line_with_and_without_dry_run(capsys, bad_files, label,  # noqa: F811
                                                                argv, words):
    argv = [a.replace("{tmp}", str(bad_files)) for a in argv]
    code, out, err = invoke(capsys, argv)
    dry_code, dry_out, dry_err = invoke(capsys, [*argv, "--dry-run"])
    assert (dry_code, dry_err) == (code, err), label
    assert dry_code == 2 and len(dry_err.splitlines()) == 1, (label, dry_err)


def test_every_command_takes_dry_run():
    ctx = click.Context(cli)
    for name in COMMANDS:
        opts = {o for p in cli.get_command(ctx, name).params for o in p.opts}
        assert "--dry-run" in opts, name


#: the base command lines of the sweep that the dry run answers with a plan
PLANNED = sorted(set(BASE) - {"rules", "variants", "strategies"})


@pytest.mark.parametrize("name", PLANNED)
def test_dry_run_plans_and_plays_nothing(capsys, tmp_path, name, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out_dir = tmp_path / "out"
    argv = [a.replace("{tmp}", str(tmp_path)) for a in BASE[name]]
    takes_out = "--out" in {o for p in cli.get_command(click.Context(cli), name).params
                            for o in p.opts}
    if takes_out:
        argv += ["--out", str(out_dir)]
    code, out, err = invoke(capsys, [*argv, "--dry-run"])
    assert code == 0, err
    assert out.startswith(f"unosim {name} --dry-run: everything checked"), out
    assert "\n  time " in out, out
    assert err == "", err  # no seed line, no compile notice
    assert list(tmp_path.iterdir()) == [], "a dry run wrote nothing"


def test_the_estimate_is_said_roughly():
    assert dry_run.about(0.2) == "under a second"
    assert dry_run.about(3.4) == "about 3 s"
    assert dry_run.about(1234) == "about 21 min"
    assert dry_run.about(7200) == "about 2 h"


def test_the_estimate_grows_with_the_games_and_the_search():
    from unosim.strategies.registry import parse_strategy

    random, search = parse_strategy("random"), parse_strategy("search")
    plain = dry_run.seconds_per_game(dry_run.Work(1, [random] * 4))
    searched = dry_run.seconds_per_game(dry_run.Work(1, [search, *[random] * 3]))
    assert 1 / 500_000 < plain < 1 / 250_000
    assert 1 / 200 < searched < 1 / 80  # one search seat: about 126 games a second
    assert dry_run.seconds_per_game(dry_run.Work(1, [random] * 4, mode="match")) > 5 * plain


def test_a_dry_run_of_a_resume_reads_the_checkpoint(capsys, tmp_path):
    """--resume DIR with --dry-run loads the checkpoint's settings and plans them."""
    code, _, err = invoke(capsys, ["run", "--resume", str(tmp_path / "none"), "--dry-run"])
    assert code == 2 and "--dry-run" not in err, err


def test_the_out_folder_is_checked_without_being_made(capsys, tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    for out in (a_file, a_file / "sub"):
        real = invoke(capsys, ["run", "--games", "10", "--out", str(out)])
        dry = invoke(capsys, ["run", "--games", "10", "--out", str(out), "--dry-run"])
        assert dry == real and real[0] == 2, (real, dry)
    code, _, _ = invoke(capsys, ["run", "--out", str(tmp_path / "new" / "deep"), "--dry-run"])
    assert code == 0 and not (tmp_path / "new").exists()
