"""``unosim play --serve`` stopped while a page is open: the server and the table it
started for the page both end, whether ``timeout -s TERM`` signals the server's whole
process group, SIGTERM reaches the server alone, or the server is killed outright
(SIGKILL, which it cannot catch: the table sees its server gone and ends). The page
is a WebSocket client opened as the page's own script does (tests/browser.py)."""

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
            assert (f"unosim: the server stopped (SIGTERM); the tables' finished rounds are "
                    f"saved in {tmp_path / 'unosim' / 'play'}, a file per table") in err, err
    finally:
        for pid, _ in _left(seed):
            os.kill(pid, signal.SIGKILL)
        if server.poll() is None:
            server.kill()
            server.wait()
