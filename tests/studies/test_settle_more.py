"""``unosim settle`` as the other commands are checked: settle.html in headless
Chromium, a real SIGTERM then ``--resume`` to the uninterrupted verdicts, and the same
verdicts on a Dask cluster.

One signal: SIGINT and SIGTERM reach the same handler (see test_interrupt_studies.py),
and SIGINT stops ``settle --error-rate`` in test_error_rate_mode.py. As there, only the
stopped run has a process of its own; its resume and the uninterrupted run play here."""

from __future__ import annotations

import contextlib
import json
import signal

import pytest
from browser import Browser, find_browser
from test_interrupt_studies import EXIT, files_whole, in_process, same, stop_midway

CLAIMS = ["stacking-longer", "hold-wilds-wins-rounds", "seven-o-luckier"]


@pytest.mark.browser
@pytest.mark.skipif(find_browser() is None, reason="no Chromium or Chrome found (apt-get "
                    "install chromium, or set UNOSIM_BROWSER)")
def test_settle_html_shows_every_card_in_a_browser(tmp_path):
    from browser import not_blank as _not_blank

    from unosim.cli import main

    out = tmp_path / "out"
    with contextlib.suppress(SystemExit):
        main(["settle", "stacking-longer", "first-uno-wins", "--games", "1500", "--seed", "2",
              "--no-progress", "--out", str(out)])
    b = Browser(find_browser())
    try:
        shown, png = b.open((out / "settle.html").resolve().as_uri())
    finally:
        b.close()
    assert shown["title"] == "unosim settle"
    assert len(shown["images"]) == 2 and all(shown["images"]), "a card did not load"
    assert shown["text"] > 200
    _not_blank(png)


#: 33 tasks of 1,024 games for the first claim's first look (a look above 16,384 games
#: is cut into tasks of its greatest common divisor with 16,384): the stopped process
#: has at least 30 tasks left to play after its first checkpoint
ARGV = ["settle", *CLAIMS, "--games", "33792", "--seed", "5", "--format", "json",
        "--no-progress"]


@pytest.mark.subprocess
def test_a_stopped_settle_resumes_to_the_uninterrupted_verdicts(tmp_path, capsys,
                                                                monkeypatch):
    out = tmp_path / "out"
    sig = signal.SIGTERM
    code, stdout, err, _ = stop_midway([*ARGV, "--out", str(out)], sig,
                                       out / "checkpoint.json", 1000)
    assert code == EXIT[sig], err[-3000:]
    assert "Traceback" not in stdout + err
    partial = json.loads(stdout)
    assert partial["partial"] is True
    assert len(partial["verdicts"]) < len(CLAIMS) or partial["verdicts"][-1]["partial"]
    assert "interrupted after" in err and f"unosim settle --resume {out}" in err
    files_whole(out)
    code, done, err = in_process(capsys, monkeypatch, ["settle", "--resume", str(out),
                                                       "--format", "json", "--no-progress"],
                                 3001)
    assert code == 0, err[-3000:]
    assert "Traceback" not in done + err
    assert not (out / "checkpoint.json").exists()
    resumed = json.loads(done)
    assert resumed["partial"] is False
    code, whole, err = in_process(capsys, monkeypatch, ARGV, 1000)
    assert code == 0, err[-3000:]
    assert same(resumed["verdicts"], json.loads(whole)["verdicts"])


@pytest.mark.cluster
def test_settle_gives_the_same_verdicts_on_dask(capsys):
    distributed = pytest.importorskip("distributed")
    from unosim.cli import main

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, env={"NUMBA_NUM_THREADS": "1"})
    try:
        outs = []
        base = ["settle", "stacking-longer", "hold-wilds-wins-rounds", "seven-o-luckier",
                "more-players-first-edge-vanishes", "--games", "1500", "--seed", "6",
                "--format", "json", "--no-progress"]
        for extra in ([], ["--backend", "dask", "--scheduler", cluster.scheduler_address]):
            with pytest.raises(SystemExit) as e:
                main([*base, *extra])
            assert e.value.code == 0
            outs.append(json.loads(capsys.readouterr().out))
    finally:
        cluster.close()
    assert same(outs[1]["verdicts"], outs[0]["verdicts"])
    assert [v["verdict"] for v in outs[0]["verdicts"]] == [v["verdict"]
                                                          for v in outs[1]["verdicts"]]
