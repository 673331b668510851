"""``settle --resume`` is exact: stopped at any task, inside a look or between two,
the resumed run reports exactly what the uninterrupted run does, figures and game
counts included.

The stop is requested by game count, not by time: the backend's ``map`` is wrapped so
that the command's stop request (what Ctrl-C sets) is set once N tasks have merged,
and the run ends at that task boundary as after a real signal. (A look's partial
games used to decide a place, saved as decided: the resumed report then showed an
interval of the partial games beside the look's full game count.) In process, through
the command line's ``main``, so that a stop and its resume take seconds. The PNG cards
that every ``--out`` run writes are not drawn here (a placeholder of the same name is
written): drawing them took about 2 of the 2.5 s of each stopped or resumed run, and
tests/reports/test_settle_cards.py draws them.
"""

from __future__ import annotations

import json
import signal

import pytest
from cli_helpers import invoke

from unosim.runs import backend, stopping

TIMING = ("elapsed_s", "compile_s", "games_per_sec", "matches_per_sec")


def _strip(x: object) -> object:
    if isinstance(x, dict):
        return {k: _strip(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [_strip(v) for v in x]
    return x


@pytest.fixture(autouse=True)
def undrawn_cards(monkeypatch):
    """Each claim's card is written as a few placeholder bytes, not drawn."""
    from unosim.studies.settle import cards

    monkeypatch.setattr(cards, "card_png", lambda v: b"card " + v.name.encode())


@pytest.fixture
def stop_after(monkeypatch):
    """``stop_after(n)``: from now on, the command stops once ``n`` tasks have merged
    (the tasks that ran are counted in ``.ran``)."""
    real = backend.LocalBackend.map

    class Stop:
        n = 0
        ran = 0

        def __call__(self, n: int) -> None:
            self.n, self.ran = n, 0

    stop = Stop()

    def map(self, fn, tasks, request=None):  # noqa: ANN001, ANN202
        for item in real(self, fn, tasks, request):
            yield item
            stop.ran += 1
            if stop.ran == stop.n:
                stopping.current().set(signal.SIGINT)

    monkeypatch.setattr(backend.LocalBackend, "map", map)
    return stop


def _json(capsys, argv: list[str], code: int = 0) -> dict:
    got, out, err = invoke(capsys, [*argv, "--format", "json", "--no-progress"])
    assert got == code, err[-3000:]
    assert "Traceback" not in out + err
    return json.loads(out)


def _stopped_then_resumed(capsys, stop_after, argv: list[str], n: int, folder) -> dict:
    stop_after(n)
    partial = _json(capsys, [*argv, "--out", str(folder)], code=130)
    assert partial["partial"] is True and stop_after.ran == n
    stop_after(0)
    done = _json(capsys, ["settle", "--resume", str(folder)])
    assert done["partial"] is False
    return done


#: drawing until playable: decided at the first look, which holds 5 tasks of 8,192
#: games (so a stop after 1 to 4 tasks is inside it)
LONGER = ["settle", "draw-until-playable-longer", "--games", "40960", "--seed", "1"]


#: the uninterrupted result of LONGER, played once for every stop
_WHOLE: list[dict] = []


@pytest.mark.parametrize("n", [1, 2, 4])
def test_a_stop_inside_the_deciding_look_resumes_exactly(capsys, stop_after, tmp_path, n):
    if not _WHOLE:
        _WHOLE.append(_json(capsys, LONGER))
    whole = _WHOLE[0]
    (v,) = whole["verdicts"]
    assert v["verdict"] == "TRUE" and v["cells"][0]["look"] == 1
    assert v["cells"][0]["games"] == v["games_played"] == 40960
    stop_after(n)
    partial = _json(capsys, [*LONGER, "--out", str(tmp_path / "out")], code=130)
    (p,) = partial["verdicts"]
    # the look's partial games decide nothing (they would have: the effect is huge)
    assert p["partial"] is True and p["verdict"] != "TRUE"
    assert p["cells"][0]["games"] == p["games_played"] == n * 8192
    stop_after(0)
    done = _json(capsys, ["settle", "--resume", str(tmp_path / "out")])
    assert _strip(done) == _strip(whole)


CLAIM = """
claim = "Stacking makes rounds longer by more than 2.1 turns"
source = "a test"
study = "compare"
metric = "turns"
direction = "higher"
variant = ["stacking"]
players = [2, 3]
margin = 2.1
games = 20480
looks = 3
"""


@pytest.mark.slow
def test_stops_inside_every_look_of_a_claim_that_plays_them_all(capsys, stop_after, tmp_path):
    """A claim at two player counts decided only at its last look, if at all (TRUE at
    2 players, NOT SHOWN at 3 with the games that would likely decide it). Each player
    count plays 5 tasks of 4,096 games at the first look, 5 more at the second and 10
    at the third: stopped inside each look, at a look's end (a stop between two looks
    used to judge the finished look's games at the next look's z, and decide 2 players
    there) and at the second player count, then resumed."""
    f = tmp_path / "close.toml"
    f.write_text(CLAIM)
    argv = ["settle", str(f), "--seed", "2"]
    stop_after(0)
    whole = _json(capsys, argv)
    (v,) = whole["verdicts"]
    assert v["verdict"] == "NOT SHOWN" and v["games_needed"] > 0
    assert [(c["look"], c["games"], c["verdict"]) for c in v["cells"]] == [
        (3, 81920, "TRUE"), (3, 81920, "NOT SHOWN")]
    assert stop_after.ran == 40
    for n in (2, 5, 8, 10, 13, 20, 23, 30, 33):
        done = _stopped_then_resumed(capsys, stop_after, argv, n, tmp_path / f"out{n}")
        assert _strip(done) == _strip(whole), n


@pytest.fixture
def two_of_each_study(monkeypatch):
    """The catalogue cut to its first two claims of each study (compare, skill, sweep,
    tournament), so that ``--all`` stays quick."""
    from unosim.studies.settle import claims

    chosen = []
    for c in claims.catalogue():
        if sum(x.study == c.study for x in chosen) < 2:
            chosen.append(c)
    assert {c.study for c in chosen} == {"compare", "skill", "sweep", "tournament"}
    monkeypatch.setattr(claims, "catalogue", lambda: list(chosen))
    return chosen


@pytest.mark.slow
def test_settle_all_resumes_exactly(capsys, stop_after, two_of_each_study, tmp_path):
    """``--all`` at a small --games, stopped at several tasks across its claims."""
    argv = ["settle", "--all", "--games", "100", "--seed", "4"]
    stop_after(0)
    whole = _json(capsys, argv)
    assert len(whole["verdicts"]) == len(two_of_each_study)
    assert whole["family"] is not None
    tasks = stop_after.ran
    for n in sorted({1, tasks // 3, tasks // 2, tasks - 1}):
        done = _stopped_then_resumed(capsys, stop_after, argv, n, tmp_path / f"out{n}")
        assert _strip(done) == _strip(whole), n


def test_a_stopped_settle_all_states_the_error_its_lines_were_read_at(
        capsys, stop_after, two_of_each_study, tmp_path):
    """A partial ``--all`` reads each line at the family's share of the error, so its
    summary names the whole family too, not only the claims played so far."""
    argv = ["settle", "--all", "--games", "100", "--seed", "4"]
    stop_after(0)
    whole = _json(capsys, argv)
    stop_after(1)
    partial = _json(capsys, [*argv, "--out", str(tmp_path / "out")], code=130)
    assert len(partial["verdicts"]) < len(whole["verdicts"])
    assert partial["error"] == whole["error"] and partial["family"] == whole["family"]
