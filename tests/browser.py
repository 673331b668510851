"""A headless Chromium driven over the DevTools protocol on a pipe (no extra package:
``--remote-debugging-pipe`` reads JSON messages on fd 3 and writes them on fd 4), to
open the HTML pages as a person's browser would and check what they show."""

from __future__ import annotations

import base64
import codecs
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
      const url = new URL(args[0], location.href);
      window.__size = [+url.searchParams.get("width"), +url.searchParams.get("height")];
    }
    send(data) {
      try {
        const m = JSON.parse(data);
        if (m[0] === "resize") window.__size = [m[1].width, m[1].height];
      } catch (e) {}
      return super.send(data);
    }
  };
})();"""


#: a control sequence of a terminal: CSI (with its parameters), OSC/DCS/APC strings, or
#: one character after ESC
ESCAPE = re.compile(r"\x1b\[([0-9;?<>=]*)([ -/]*)([@-~])|\x1b[\]PX^_].*?(?:\x1b\\|\x07)|\x1b.",
                    re.S)


class Screen:
    """The text a terminal shows after the output of a Textual app: enough of a
    terminal to read what textual-serve sends a page (the app moves the cursor,
    ``CSI row;col H``, before each run of text, and erases with ``CSI K``/``CSI J``);
    colours and modes are skipped."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.cells = [[" "] * width for _ in range(height)]
        self.row = self.col = 0

    def feed(self, text: str) -> None:
        pos = 0
        for m in ESCAPE.finditer(text):
            self._put(text[pos:m.start()])
            pos = m.end()
            final = m.group(3)
            if final is None or m.group(2) or (m.group(1) or "").startswith("?"):
                continue
            args = [int(a) if a.isdigit() else 0 for a in (m.group(1) or "").split(";")]
            if final in "Hf":
                self.row = max(args[0], 1) - 1
                self.col = (max(args[1], 1) if len(args) > 1 else 1) - 1
            elif final == "K":
                line = self.cells[self.row] if self.row < self.height else []
                lo, hi = {0: (self.col, self.width), 1: (0, self.col + 1)}.get(
                    args[0], (0, self.width))
                for c in range(lo, min(hi, len(line))):
                    line[c] = " "
            elif final == "J" and args[0] == 2:
                self.cells = [[" "] * self.width for _ in range(self.height)]
        self._put(text[pos:])

    def _put(self, text: str) -> None:
        for ch in text:
            if ch == "\n":
                self.row += 1
            elif ch == "\r":
                self.col = 0
            elif ch >= " ":
                if self.row < self.height and self.col < self.width:
                    self.cells[self.row][self.col] = ch
                self.col += 1

    def lines(self) -> list[str]:
        return ["".join(line).rstrip() for line in self.cells]


def socket_screen(url: str, needles: tuple[str, ...], width: int = 120, height: int = 40,
                  keys: str = "", timeout: float = 60.0,
                  then: Any = None, before: list[str] | None = None) -> list[str]:
    """Open the WebSocket of a page textual-serve serves (``url``), as the page's own
    script does but without a browser (aiohttp's client, which textual-serve brings):
    a terminal ``width`` x ``height``; wait until the screen shows every one of
    ``needles`` (its lines then are put in ``before``, if given), type ``keys`` one by
    one, and return the lines shown. ``then()``, if given, is called while the socket
    is still open (to stop the server, say)."""
    import asyncio

    import aiohttp

    ws_url = url.replace("http://", "ws://").rstrip("/") + f"/ws?width={width}&height={height}"
    screen = Screen(width, height)
    decode = codecs.getincrementaldecoder("utf-8")("replace").decode

    async def read_until(ws: Any, done: Any, end: float) -> None:
        while not done():
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{url} never showed {needles}: "
                                   f"{chr(10).join(screen.lines())}")
            try:
                msg = await ws.receive(timeout=left)
            except TimeoutError:
                continue
            if msg.type == aiohttp.WSMsgType.BINARY:
                screen.feed(decode(msg.data))
            elif msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSE,
                              aiohttp.WSMsgType.ERROR):
                raise RuntimeError(f"{url} closed the socket: "
                                   f"{chr(10).join(screen.lines())}")

    async def run() -> list[str]:
        end = time.monotonic() + timeout
        async with aiohttp.ClientSession() as session, session.ws_connect(ws_url) as ws:
            await ws.send_json(["resize", {"width": width, "height": height}])

            def shown() -> bool:
                text = "\n".join(screen.lines())
                return all(n in text for n in needles)

            await read_until(ws, shown, end)
            if before is not None:
                before.extend(screen.lines())
            for key in keys:
                await ws.send_json(["stdin", key])
                settle = time.monotonic() + 1.5
                await read_until_quiet(ws, settle)
            if then is not None:
                then()
            return screen.lines()

    async def read_until_quiet(ws: Any, until: float) -> None:
        while (left := until - time.monotonic()) > 0:
            try:
                msg = await ws.receive(timeout=left)
            except TimeoutError:
                return
            if msg.type == aiohttp.WSMsgType.BINARY:
                screen.feed(decode(msg.data))

    return asyncio.run(run())


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
        raw, _, png = self.terminal_raw(url, needles, timeout, keys)
        return ESCAPE.sub(" ", raw), png

    def terminal_raw(self, url: str, needles: tuple[str, ...], timeout: float = 60.0,
                     keys: str = "") -> tuple[str, tuple[int, int], bytes]:
        """As ``terminal``: (everything the page was sent, escape sequences and all,
        the terminal's size in columns and rows, the screenshot)."""
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"]

        def received() -> str:
            return self.call("Runtime.evaluate", {
                "expression": "window.__received || ''", "returnByValue": True},
                session)["result"].get("value") or ""

        try:
            self.call("Page.enable", {}, session)
            self.call("Page.addScriptToEvaluateOnNewDocument", {"source": LISTEN}, session)
            self.call("Page.navigate", {"url": url}, session)
            end = time.monotonic() + timeout
            text = ""
            while time.monotonic() < end:
                text = ESCAPE.sub(" ", received())
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
            raw = received()
            size = self.call("Runtime.evaluate", {
                "expression": "window.__size || [0, 0]", "returnByValue": True},
                session)["result"]["value"]
        finally:
            self.call("Target.closeTarget", {"targetId": target})
        return raw, (int(size[0]), int(size[1])), base64.b64decode(shot)

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
def serving(argv: list[str], cwd: str | None = None, timeout: float = 30.0,
            env: dict[str, str] | None = None) -> Iterator[str]:
    """Run ``python -m unosim ARGV --port P`` (a command that serves pages) on a free
    port P until the block ends, with ``env`` added to the environment; yields its
    address."""
    with socket.socket() as s:
        s.bind(("localhost", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "unosim", *argv, "--port", str(port)],
                            cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
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
