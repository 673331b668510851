"""``unosim play --serve`` stopped while a page is open: the server and the table it
started for the page both end, whether ``timeout -s TERM`` signals the server's whole
process group, SIGTERM reaches the server alone, or the server is killed outright
(SIGKILL, which it cannot catch: the table sees its server gone and ends). A table
stuck (stopped by SIGSTOP: deaf to the quit the server sends, to its closed input and
to its server's end) is ended all the same when its page closes or the server stops.
The page is a WebSocket client opened as the page's own script does (tests/browser.py)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("textual_serve")
if not os.path.isdir("/proc"):
    pytest.skip("needs /proc to list the processes left", allow_module_level=True)


def _left(seed: str) -> list[tuple[int, str]]:
    """The processes of ``unosim play --seed SEED``, the server and its tables."""
    out = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"unosim" in argv and seed.encode() in argv and b"--seed" in argv:
            out.append((int(pid), b" ".join(argv).decode(errors="replace")))
    return out


@pytest.mark.subprocess
@pytest.mark.parametrize("how", ["timeout -s TERM", "SIGTERM to the server",
                                 "SIGKILL to the server"])
def test_stopping_the_server_leaves_no_table_running(tmp_path, how):
    from browser import socket_screen

    seed = str(random.randrange(10**9, 2 * 10**9))  # names this test's processes
    with socket.socket() as s:
        s.bind(("localhost", 0))
        port = s.getsockname()[1]
    argv = [sys.executable, "-m", "unosim", "play", "--players", "2", "--seed", seed,
            "--serve", "--port", str(port)]
    if how.startswith("timeout"):
        if shutil.which("timeout") is None:
            pytest.skip("no timeout command")
        argv = ["timeout", "-s", "TERM", "600", *argv]
    server = subprocess.Popen(argv, cwd=tmp_path, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    try:
        end = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("localhost", port), 0.2).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < end, \
                    server.stderr.read().decode()
                time.sleep(0.1)
        tables: list[tuple[int, str]] = []

        def stop() -> None:
            """With the page still open: the table runs, then the server is stopped."""
            tables.extend(p for p in _left(seed) if "--serve" not in p[1])
            if how.startswith("timeout"):
                # timeout passes a SIGTERM on as when its time is up: to its child,
                # then to the whole process group it made
                os.kill(server.pid, signal.SIGTERM)
            elif how.startswith("SIGTERM"):
                [(pid, _)] = [p for p in _left(seed) if "--serve" in p[1]]
                os.kill(pid, signal.SIGTERM)
            else:
                [(pid, _)] = [p for p in _left(seed) if "--serve" in p[1]]
                os.kill(pid, signal.SIGKILL)
            server.wait(timeout=30)

        socket_screen(f"http://localhost:{port}/", ("your hand", "last moves"),
                      timeout=180, then=stop)
        assert len(tables) == 1, tables  # the page's table was running
        end = time.monotonic() + 15
        while _left(seed) and time.monotonic() < end:
            time.sleep(0.25)
        assert _left(seed) == [], f"left running after {how}: {_left(seed)}"
        if how.startswith("SIGTERM"):  # the server says so, where the rounds are
            err = server.stderr.read().decode()
            assert server.returncode == 128 + signal.SIGTERM, err
            # no round was finished at the table: the server says nothing is saved
            assert ("unosim: the server stopped (SIGTERM); no table finished a round: "
                    "none is saved") in err, err
    finally:
        for pid, _ in _left(seed):
            os.kill(pid, signal.SIGKILL)
        if server.poll() is None:
            server.kill()
            server.wait()


def _start(tmp_path, seed: str, *extra: str) -> tuple[subprocess.Popen, int]:
    """``unosim play --serve`` on a free port, once it answers: (the process, the port)."""
    with socket.socket() as s:
        s.bind(("localhost", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "unosim", "play", "--players", "2", "--seed", seed, *extra,
         "--serve", "--port", str(port)], cwd=tmp_path, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)})
    end = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("localhost", port), 0.2).close()
            return server, port
        except OSError:
            assert server.poll() is None and time.monotonic() < end, \
                server.stderr.read().decode()
            time.sleep(0.1)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


@pytest.mark.subprocess
@pytest.mark.parametrize("how", ["its page closes", "the server stops"])
def test_a_stuck_table_still_ends_with_its_page_or_server(tmp_path, how):
    """A table that acts on nothing (SIGSTOP) is killed by the server QUIT_S seconds
    after its page closed, or after the server was stopped: before, the server waited
    on such a table without end, and a stopped server left it behind for good. A few
    seconds of slack over QUIT_S for a busy machine."""
    from browser import socket_screen

    from unosim.play.serve import QUIT_S

    seed = str(random.randrange(10**9, 2 * 10**9))
    server, port = _start(tmp_path, seed)
    stuck: list[int] = []
    try:
        def stop() -> None:
            [(pid, _)] = [p for p in _left(seed) if "--serve" not in p[1]]
            os.kill(pid, signal.SIGSTOP)
            stuck.append(pid)
            if how == "the server stops":
                server.send_signal(signal.SIGINT)
                server.wait(timeout=30)

        socket_screen(f"http://localhost:{port}/", ("your hand", "last moves"),
                      timeout=180, then=stop)  # the page closes as this returns
        end = time.monotonic() + QUIT_S + 4
        while _state(stuck[0]) not in ("Z", "") and time.monotonic() < end:
            time.sleep(0.1)
        left = [p for p in _left(seed) if _state(p[0]) not in ("Z", "")]
        if how == "its page closes":
            assert server.poll() is None  # the server serves on
            left = [p for p in left if p[0] in stuck]
        assert left == [], f"a stuck table outlived {how}: {left}"
    finally:
        for pid in stuck:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid, _ in _left(seed):
            os.kill(pid, signal.SIGKILL)
        if server.poll() is None:
            server.kill()
        server.wait()


def test_the_stop_line_says_where_rounds_were_saved_or_that_none_was(tmp_path):
    """The server's stop line names the file (or folder) only where a table saved a
    round while it served: an older file, an empty name a table reserved, or no file
    at all is "none is saved"."""
    from unosim.play.serve import saved_since

    start = time.time()
    folder = tmp_path / "play"
    assert saved_since(start, None, folder) is None  # no folder yet
    folder.mkdir()
    (folder / "unosim-play-5.json").write_text("")  # reserved by a table, never used
    assert saved_since(start, None, folder) is None
    (folder / "unosim-play-6.json").write_text("{}")
    assert saved_since(start, None, folder) == folder
    old = tmp_path / "old.json"
    old.write_text("{}")
    os.utime(old, (start - 60, start - 60))  # saved by an earlier session
    assert saved_since(start, str(old), folder) is None
    assert saved_since(start, str(tmp_path / "none.json"), folder) is None
    old.write_text('{"rounds": []}')
    assert saved_since(start, str(old), folder) == old
