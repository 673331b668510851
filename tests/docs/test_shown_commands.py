"""Every ``unosim`` command line the documentation shows passes its options: each runs
with ``--dry-run`` added (in this process, through ``unosim.cli.main``), which checks
every option, file, variant, rule key, strategy and claim as the command does and
plays nothing. A line the page shows failing must fail with the same line.

The lines come from README.md, docs/*.md, the notebook and the package's docstrings
(tests/shown_commands.py); the lines that are not commands to run (synopses, report
headers) are said by ``why_not``, and the few that cannot run here are listed below
with the reason.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from docs_examples import _in_process, matches
from shown_commands import ROOT, Shown, collect, why_not

#: shown commands that cannot run here, and why
CANNOT_RUN = {
    "unosim --version": "the group's own option, which takes no command's options",
    "unosim replay --game": "prose naming the option, not a command",
    "unosim game records": "the format name of a --save-games file, not a command",
    "unosim --strategy-file mine.py:mine --seat 0=mine": "the reader's own strategy file",
    "unosim run --resume results/": "needs the folder of a stopped run",
    "unosim tournament --resume cup/": "needs the folder of a stopped tournament",
    "unosim replay ~/.local/share/unosim/play/unosim-play-7.json --game 0":
        "a file that unosim play saved in the reader's home",
    "unosim replay games.csv --game 12 --variant stacking":
        "the file the page's --save-games example writes",
    "unosim settle stacking-longer mostly-luck my-claim.toml": "the reader's own claim file",
    "unosim settle friday.toml": "the claim file the page shows how to write",
}
#: at least this many lines are checked (124 when this test was written)
FLOOR = 120

SHOWN = collect()
CHECKED = [s for s in SHOWN if why_not(s) is None and s.line not in CANNOT_RUN]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the example plug-ins where a clone has them."""
    tmp = tmp_path_factory.mktemp("shown")
    shutil.copytree(ROOT / "strategies" / "examples", tmp / "strategies" / "examples")
    return tmp


def test_how_many_lines_are_checked() -> None:
    skipped = {s.line: why_not(s) or CANNOT_RUN[s.line] for s in SHOWN if s not in CHECKED}
    print(f"{len(CHECKED)} shown command lines checked with --dry-run; "
          f"{len(SHOWN) - len(CHECKED)} not commands to run ({len(skipped)} distinct)")
    assert len(CHECKED) >= FLOOR
    # every entry of CANNOT_RUN is still shown somewhere (a fixed page drops its entry)
    assert set(CANNOT_RUN) <= {s.line for s in SHOWN}, set(CANNOT_RUN) - {s.line for s in SHOWN}


@pytest.mark.parametrize("shown", CHECKED, ids=lambda s: f"{s.where} {s.line}"[:120])
def test_shown_command_passes_the_dry_run(shown: Shown, sandbox: Path) -> None:
    code, out = _in_process([*shown.argv, "--dry-run"], sandbox)
    if shown.error is None:
        assert code == 0, f"{shown.where}: `{shown.line} --dry-run` exited {code}:\n{out}"
        assert "--dry-run: everything checked" in out or _listing(shown), out
    else:
        assert code == 2, f"{shown.where}: `{shown.line} --dry-run` exited {code}:\n{out}"
        assert matches([shown.error], out.splitlines()[-1:]), (shown.error, out)


def _listing(shown: Shown) -> bool:
    """The listings (variants, rules, strategies) and --help print what they always do."""
    words = shown.argv
    return bool(words) and (words[0] in ("variants", "rules", "strategies")
                            or "--help" in words or "-h" in words
                            or words == ["settle"])


def test_three_commands_that_once_failed_pass(sandbox: Path) -> None:
    """Three shown commands once failed as written; they pass as the pages show them."""
    for line in ("unosim play --variant jump-in --rule stacking=progressive",
                 "unosim compare official stacking --games 5000 --seed 1",
                 "unosim skill official --strategy keep_wilds --field random "
                 "--strategy-file strategies/examples/first.py:keep_wilds"):
        assert any(s.line == line for s in CHECKED), line
        code, out = _in_process([*line.split()[1:], "--dry-run"], sandbox)
        assert code == 0, out
