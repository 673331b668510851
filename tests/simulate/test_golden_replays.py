"""Golden replay traces: a few seeded ``unosim replay`` games, kept move by move in
tests/simulate/golden/, must come out exactly the same.

The other tests check invariants (legal moves, conserved cards, Python and compiled
engines agree), which a rule change that stays self-consistent passes. These traces
pin what the rules actually do on the table, so any drift (a different deal, another
effect of a card, a changed score, a changed rendering) shows as a readable diff.

When a change of behaviour is intended, regenerate the files on purpose and review
the diff in git::

    UNOSIM_UPDATE_GOLDEN=1 python3 -m pytest -p no:cacheprovider \
        tests/simulate/test_golden_replays.py

(the tests then rewrite their files and report themselves skipped).
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from unosim import provenance
from unosim.cli import cli

GOLDEN = Path(__file__).resolve().parent / "golden"
#: set to 1 to rewrite the golden files instead of comparing against them
UPDATE = os.environ.get("UNOSIM_UPDATE_GOLDEN") == "1"
#: the longest a trace may be: small enough to review by eye
MAX_LINES = 400
#: diff lines shown on a mismatch: the first differences are the informative ones
SHOWN_DIFF_LINES = 40

#: golden file name -> ``unosim replay`` arguments
CASES: dict[str, list[str]] = {
    "official-4p-seed7-game3.txt": ["--seed", "7", "--game", "3"],
    "stacking-3p-seed7-game3.txt": ["--seed", "7", "--game", "3", "--variant", "stacking",
                                    "--players", "3"],
    "jump-in-seed11-game0.txt": ["--seed", "11", "--game", "0", "--variant", "jump-in"],
    "seven-o-seed3-game1.txt": ["--seed", "3", "--game", "1", "--variant", "seven-o"],
    "two-players-seed7-game2.txt": ["--seed", "7", "--game", "2", "--players", "2"],
    "two-players-seed7-game2.json": ["--seed", "7", "--game", "2", "--players", "2",
                                     "--format", "json"],
    "strategy-first-seed9-game0.txt": ["--seed", "9", "--game", "0", "--strategy", "first"],
}


def replay_trace(args: list[str]) -> str:
    """The trace as the command prints it (stdout only, through the real CLI)."""
    result = CliRunner().invoke(cli, ["replay", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    if "json" in args:
        return without_provenance(result.stdout)
    return result.stdout


def without_provenance(text: str) -> str:
    """A JSON trace without its provenance, the rest byte for byte: the engine
    fingerprint changes with every edit of the compiled sources, the game must not
    (the provenance itself is checked to be the current one)."""
    doc = json.loads(text)
    assert json.dumps(doc, indent=2) + "\n" == text, "not plain indented JSON"
    assert doc.pop("provenance") == provenance()
    return json.dumps(doc, indent=2) + "\n"


def first_differences(expected: str, actual: str, name: str, command: str) -> str:
    """A unified diff of the first differing lines, cut short to stay readable."""
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                     fromfile=f"tests/simulate/golden/{name}", tofile=command,
                                     lineterm="", n=2))
    shown = diff[:SHOWN_DIFF_LINES]
    if len(diff) > SHOWN_DIFF_LINES:
        shown.append(f"... ({len(diff) - SHOWN_DIFF_LINES} more diff lines)")
    if expected.splitlines() == actual.splitlines():  # only line endings or the last newline
        shown.append("(the lines agree; the line endings or the final newline differ)")
    return "\n".join(shown)


@pytest.mark.parametrize("name", sorted(CASES))
def test_replay_matches_its_golden_trace(name: str) -> None:
    args = CASES[name]
    actual = replay_trace(args)
    path = GOLDEN / name
    if UPDATE:
        path.write_text(actual, encoding="utf-8", newline="")
        pytest.skip(f"rewrote {path.name} (UNOSIM_UPDATE_GOLDEN=1)")
    assert path.exists(), (f"no golden file {path}; create it with UNOSIM_UPDATE_GOLDEN=1 "
                           "(see this module's docstring)")
    expected = path.read_bytes().decode("utf-8")  # as written: line endings count
    command = "unosim replay " + " ".join(args)
    if actual != expected:
        pytest.fail(f"`{command}` no longer prints tests/simulate/golden/{name}: the rules or the "
                    "replay drifted. If that is intended, regenerate with "
                    "UNOSIM_UPDATE_GOLDEN=1 and review the diff.\n"
                    + first_differences(expected, actual, name, command), pytrace=False)


def test_golden_files_are_all_used_and_small() -> None:
    """No stale golden file lingers, and each stays small enough to review."""
    on_disk = {p.name for p in GOLDEN.iterdir() if p.suffix in (".txt", ".json")}
    assert on_disk == set(CASES)
    for name in CASES:
        lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
        assert 0 < len(lines) <= MAX_LINES, (name, len(lines))
