"""The face as a newcomer meets it: shared options worded once, a mistyped name
pointed at the near one, a variant file labelled by its name, not its path."""

from __future__ import annotations

import json

import click
import pytest
from cli_helpers import assert_one_line_error, invoke

from unosim.cli import COMMANDS, cli

#: options that share a name but not a meaning: replay's --seed names the run to replay
#: (required), selfcheck's seeds a stream of tables and plays --games per table, bench
#: times --games per measurement, skill's and atlas's --strategy is the one strategy whose
#: skill edge they measure, sweep's --rule and --players and atlas's --players take VALUES,
#: settle's --games is each claim's first look (default: the claim's own)
OWN_MEANING = {("replay", "--seed"), ("selfcheck", "--seed"), ("selfcheck", "--games"),
               ("settle", "--games"), ("bench", "--games"), ("skill", "--strategy"),
               ("sweep", "--rule"), ("sweep", "--players"), ("atlas", "--players"),
               ("atlas", "--strategy"), ("design", "--games"), ("design", "--strategy")}
SHARED = ("--games", "--players", "--variant", "--rule", "--strategy", "--seat", "--seed",
          "--workers", "--format", "--progress", "--strategy-file", "--out", "--save-games")


def _options(command: str) -> dict[str, click.Option]:
    cmd = cli.get_command(click.Context(cli), command)
    return {o: p for p in cmd.params if isinstance(p, click.Option) for o in p.opts}


def test_every_command_loads():
    for name in COMMANDS:
        assert cli.get_command(click.Context(cli), name).name == name


@pytest.mark.parametrize("option", SHARED)
def test_a_shared_option_reads_the_same_in_every_command(option):
    seen = {name: _options(name)[option] for name in COMMANDS
            if option in _options(name) and (name, option) not in OWN_MEANING}
    assert len(seen) >= 2 or option in ("--variant", "--save-games", "--out"), seen
    helps = {name: o.help for name, o in seen.items()}
    if option == "--out":  # one declaration (options.out_option); each names its own files
        assert all(h.startswith("Directory for ") for h in helps.values()), helps
        assert len(set(helps.values())) == len(helps), helps
    else:
        assert len(set(helps.values())) == 1, helps
    kinds = {name: (o.default, o.multiple, str(o.type)) for name, o in seen.items()}
    assert len(set(kinds.values())) == 1, kinds


def test_run_compare_and_tournament_help_show_the_same_words(capsys):
    texts = {}
    for name in ("run", "compare", "tournament"):
        code, out, _ = invoke(capsys, [name, "--help"])
        assert code == 0
        texts[name] = " ".join(out.split())
    games_help = " ".join(_options("run")["--games"].help.split())
    seed_help = " ".join(_options("run")["--seed"].help.split())
    for text in texts.values():
        assert games_help in text and seed_help in text


@pytest.mark.parametrize("argv, near", [
    (["--variant", "stackin"], "'stacking'"),
    (["--rule", "stackng=progressive"], "'stacking'"),
    (["--rule", "stacking=progresive"], "'progressive'"),
    (["--strategy", "ofensive"], "'offensive'"),
    (["--seat", "1=defensiv"], "'defensive'"),
    (["comapre", "official", "stacking"], "'compare'"),
    (["tournamnet", "random"], "'tournament'"),
    (["compare", "official", "sevn-o"], "'seven-o'"),
])
def test_a_mistyped_name_points_at_the_near_one(capsys, argv, near):
    code, out, err = invoke(capsys, [*argv, "--games", "10", "--seed", "1"])
    assert_one_line_error(code, out, err, f"did you mean {near}")


def test_a_name_far_from_every_choice_gets_no_guess(capsys):
    code, out, err = invoke(capsys, ["xyzzy"])
    assert_one_line_error(code, out, err, "no such command 'xyzzy'", "compare")
    assert "did you mean" not in err
    code, out, err = invoke(capsys, ["--strategy", "qqqq", "--games", "10"])
    assert_one_line_error(code, out, err, "unknown strategy 'qqqq'", "known: random")
    assert "did you mean" not in err


def _variant_file(folder, name: str, rules: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f'description = "a test variant"\n[rules]\n{rules}\n')
    return str(path)


def test_a_variant_file_is_labelled_by_its_stem(capsys, tmp_path):
    mine = _variant_file(tmp_path / "deep" / "folder", "my-rules.toml", 'stacking = "progressive"')
    code, out, err = invoke(capsys, ["compare", "official", mine, "--games", "2000", "--seed",
                                     "3", "--no-progress"])
    assert code == 0, err
    assert "my-rules" in out and str(tmp_path) not in out
    assert "my-rules: " in out  # the verdicts name it too
    code, out, err = invoke(capsys, ["compare", "official", mine, "--games", "2000", "--seed",
                                     "3", "--no-progress", "--format", "json"])
    names = [v["name"] for v in json.loads(out)["variants"]]
    assert names == ["official", "my-rules"]
    code, out, err = invoke(capsys, ["run", "--variant", mine, "--games", "2000", "--seed", "3",
                                     "--no-progress", "--format", "json"])
    assert json.loads(out)["variant"] == "my-rules"


def test_two_files_with_one_stem_keep_their_paths(capsys, tmp_path):
    a = _variant_file(tmp_path / "a", "x.toml", 'stacking = "progressive"')
    b = _variant_file(tmp_path / "b", "x.toml", "seven_o = true")
    code, out, err = invoke(capsys, ["compare", "official", a, b, "--games", "1000", "--seed",
                                     "3", "--no-progress", "--format", "json"])
    assert code == 0, err
    names = [v["name"] for v in json.loads(out)["variants"]]
    assert names == ["official", a, b]
