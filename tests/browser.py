"""A headless Chromium driven over the DevTools protocol on a pipe (no extra package:
``--remote-debugging-pipe`` reads JSON messages on fd 3 and writes them on fd 4), to
open the HTML pages as a person's browser would and check what they show."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: what the page shows: every image loaded, every inline SVG drawn, some text
CHECK = """JSON.stringify({
  images: Array.from(document.images).map(i => i.complete && i.naturalWidth > 0),
  svgs: Array.from(document.querySelectorAll('body svg')).filter(s => !s.closest('svg svg'))
    .map(s => { const r = s.getBoundingClientRect();
                return {w: r.width, h: r.height,
                        drawn: s.querySelectorAll('path, rect, text, use, line').length}; }),
  text: document.body.innerText.trim().length,
  title: document.title})"""


#: before a page's own scripts: every WebSocket keeps the text it receives
LISTEN = """(() => {
  const decoder = new TextDecoder();
  window.__received = "";
  window.WebSocket = class extends window.WebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        window.__received += typeof e.data === "string" ? e.data
          : decoder.decode(e.data, {stream: true});
      });
    }
  };
})();"""


def find_browser() -> str | None:
    path = os.environ.get("UNOSIM_BROWSER")
    if path:
        return path
    return next((p for p in map(shutil.which, NAMES) if p), None)


class Browser:
    """One headless browser; ``open(url)`` returns what the page shows and a screenshot."""

    def __init__(self, exe: str, width: int = 1200, height: int = 900) -> None:
        r1, w1 = os.pipe()  # this process writes, the browser reads fd 3
        r2, w2 = os.pipe()  # the browser writes fd 4, this process reads

        def fds() -> None:
            a, b = os.dup(r1), os.dup(w2)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [exe, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--remote-debugging-pipe", f"--window-size={width},{height}", "about:blank"],
            preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r1)
        os.close(w2)
        self.wfd, self.rfd = w1, r2
        self.buf = b""
        self.n = 0

    def call(self, method: str, params: dict[str, Any] | None = None,
             session: str | None = None, timeout: float = 60.0) -> dict[str, Any]:
        self.n += 1
        msg: dict[str, Any] = {"id": self.n, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        end = time.monotonic() + timeout
        while True:
            while b"\0" not in self.buf:
                if time.monotonic() > end:
                    raise TimeoutError(f"no answer to {method}")
                chunk = os.read(self.rfd, 1 << 20)
                if not chunk:
                    raise RuntimeError("the browser closed its pipe")
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self.n:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def _load(self, url: str) -> tuple[str, str]:
        """Open ``url`` in a new tab and wait until it has loaded: (target, session)."""
        target = self.call("Target.createTarget", {"url": url})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"]
        want = json.dumps(url + " complete")
        for _ in range(300):
            got = self.call("Runtime.evaluate", {
                "expression": "JSON.stringify(location.href + ' ' + document.readyState)",
                "returnByValue": True}, session)["result"].get("value")
            if got == want:
                break
            time.sleep(0.05)
        else:
            raise TimeoutError(f"{url} did not finish loading")
        return target, session

    def open(self, url: str) -> tuple[dict[str, Any], bytes]:
        target, session = self._load(url)
        shown = self.call("Runtime.evaluate", {"expression": CHECK, "returnByValue": True},
                          session)["result"]["value"]
        shot = self.call("Page.captureScreenshot", {"format": "png"}, session)["data"]
        self.call("Target.closeTarget", {"targetId": target})
        return json.loads(shown), base64.b64decode(shot)

    def evaluate(self, url: str, expression: str, timeout: float = 60.0) -> Any:
        """The value of a JavaScript ``expression`` (a promise is awaited) on the loaded
        page ``url``."""
        target, session = self._load(url)
        try:
            reply = self.call("Runtime.evaluate", {
                "expression": expression, "returnByValue": True, "awaitPromise": True},
                session, timeout=timeout)
        finally:
            self.call("Target.closeTarget", {"targetId": target})
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{url}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def terminal(self, url: str, needles: tuple[str, ...], timeout: float = 60.0,
                 keys: str = "") -> tuple[str, bytes]:
        """Open ``url``, a terminal app served over a WebSocket (textual-serve), and
        wait until the text it has been sent holds every one of ``needles``: (that
        text, without escape sequences, and a screenshot of the page), after typing
        ``keys`` one by one. The terminal draws on a canvas, so the text is read
        from the socket, as the page got it."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"]
        try:
            self.call("Page.enable", {}, session)
            self.call("Page.addScriptToEvaluateOnNewDocument", {"source": LISTEN}, session)
            self.call("Page.navigate", {"url": url}, session)
            end = time.monotonic() + timeout
            text = ""
            while time.monotonic() < end:
                got = self.call("Runtime.evaluate", {
                    "expression": "window.__received || ''", "returnByValue": True},
                    session)["result"].get("value") or ""
                text = re.sub(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[PX^_].*?\x1b\\|\x1b.", " ",
                              got)
                if all(n in text for n in needles):
                    break
                time.sleep(0.25)
            else:
                raise TimeoutError(f"{url} never showed {needles}: {text[-300:]!r}")
            if keys:
                self.call("Runtime.evaluate", {"expression": "document.querySelector("
                          "'.xterm-helper-textarea').focus()"}, session)
            for key in keys:
                for kind in ("keyDown", "keyUp"):
                    self.call("Input.dispatchKeyEvent", {"type": kind, "text": key,
                                                         "key": key}, session)
                time.sleep(1.0)
            time.sleep(1.0)  # the last frame drawn on the canvas
            shot = self.call("Page.captureScreenshot", {"format": "png"}, session)["data"]
        finally:
            self.call("Target.closeTarget", {"targetId": target})
        return text, base64.b64decode(shot)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
        os.close(self.wfd)
        os.close(self.rfd)


def not_blank(png: bytes) -> None:
    """A screenshot that shows something: large, many colours, some dark ink."""
    import io

    import numpy as np
    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    assert img.shape[0] > 100 and img.shape[1] > 100
    colours = np.unique(img.reshape(-1, 3), axis=0)
    assert len(colours) > 50, "the screenshot is (nearly) one colour"
    assert (img < 128).any(axis=2).mean() > 0.005, "almost nothing dark is drawn"


@contextlib.contextmanager
def serving(argv: list[str], cwd: str | None = None, timeout: float = 30.0
            ) -> Iterator[str]:
    """Run ``python -m unosim ARGV --port P`` (a command that serves pages) on a free
    port P until the block ends; yields its address."""
    with socket.socket() as s:
        s.bind(("localhost", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "unosim", *argv, "--port", str(port)],
                            cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        end = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("localhost", port), 0.2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    err = proc.stderr.read().decode() if proc.poll() is not None else ""
                    raise RuntimeError(f"{argv} served nothing on port {port}: {err}"
                                       ) from None
                time.sleep(0.1)
        yield f"http://localhost:{port}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
