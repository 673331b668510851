"""``unosim play --serve``: the same table in a browser, served on localhost by
textual-serve, which starts the command anew (a fresh table) for each page opened.

A table ends with its page, by two ways that do not depend on each other:

- the server: when a page's socket closes (the tab closed, the browser gone) or the
  server stops, it tells the page's table to quit, closes the table's input, and
  kills the table if it has not ended ``QUIT_S`` seconds later (textual-serve alone
  waits for the table's output to end, without limit: a table that missed or did not
  act on the quit ran on, spinning, after its page had gone);
- the table (``watch_server``): it is told the server's process id (``SERVER_ENV``)
  and quits when its input is closed or its server is gone, however that ended
  (killed too), and ends at once if quitting takes over ``GIVE_UP_S`` seconds.

A served table skips the interpreter's teardown when it ends (``end_quickly``): the
engine loaded, that alone took half a second of a busy machine, for each table."""

from __future__ import annotations

import asyncio
import errno
import os
import select
import shlex
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unosim.errors import UnosimError

EXTRA = "unosim play --serve needs textual-serve: pip install 'unosim[play]'"
#: where a served table finds the process id of the server that started it
SERVER_ENV = "UNOSIM_PLAY_SERVER"
#: how long the server lets a table quit, its page gone or the server stopping,
#: before it kills the table
QUIT_S = 1.2
#: how long a table whose input closed or whose server is gone tries to quit as q
#: does before it ends at once (less than QUIT_S: it then removes its unused file)
GIVE_UP_S = 0.8


def table_command(argv: list[str]) -> str:
    """The shell command line textual-serve runs for each page: ``argv`` told this
    process's id, through ``exec`` so the table's parent is this process, not a shell."""
    return f"{SERVER_ENV}={os.getpid()} exec {shlex.join(argv)}"


def serve(argv: list[str], port: int, host: str = "localhost") -> int | None:
    """Serve the table ``argv`` opens (a command line) until Ctrl+C or SIGTERM, which
    it returns (each table open is told to quit as the server stops); a port another
    program holds is refused in one line before anything is served."""
    try:
        from textual_serve.app_service import AppService
        from textual_serve.server import Server
    except ImportError:
        raise UnosimError(EXTRA) from None
    check_port(host, port)

    class Noting(Server):
        """textual-serve's server, noting which signal stopped it, and ending every
        table it started with its page or with the server (``Table.stop``)."""

        signum: int | None = None
        #: the handlers of the pages open now, ended when the server stops: aiohttp
        #: would otherwise wait for each open page's socket, up to a minute
        pages: set[asyncio.Task[Any]] = set()
        #: the tables running now
        tables: set[Table] = set()

        async def handle_websocket(self, request: Any) -> Any:
            """textual-serve's handler of a page's socket, with ``Table`` for its
            table: started as the socket opens, stopped (for sure) as it closes."""
            from aiohttp import web
            from textual_serve.server import to_int

            task = asyncio.current_task()
            if task is not None:
                self.pages.add(task)
            # timeout: how long a socket closed by the server waits for the page to
            # answer (aiohttp's 10 s kept a stopped server waiting on a page that was
            # not reading)
            websocket = web.WebSocketResponse(heartbeat=15, timeout=QUIT_S)
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            table: Table | None = None
            try:
                await websocket.prepare(request)
                table = Table(self.command, write_bytes=websocket.send_bytes,
                              write_str=websocket.send_str, close=websocket.close,
                              download_manager=self.download_manager, debug=self.debug)
                self.tables.add(table)
                await table.start(width, height)
                try:
                    await self._process_messages(websocket, table)
                finally:
                    await table.stop()
            except asyncio.CancelledError:  # the server stops
                if table is not None:
                    await table.stop()
                await websocket.close()
            except Exception as error:
                from textual_serve.server import log

                log.exception(error)
            finally:
                if table is not None:
                    await table.stop()
                    self.tables.discard(table)
                self.pages.discard(task)  # type: ignore[arg-type]
            return websocket

        async def on_shutdown(self, app: Any) -> None:
            """End each open page's handler, which stops its table (within QUIT_S),
            then closes the page's socket: a stop takes a moment, not the socket's
            heartbeat time; a table whose handler is gone is stopped all the same."""
            open_pages = list(self.pages)
            for task in open_pages:
                task.cancel()
            await asyncio.gather(*(t.stop() for t in list(self.tables)),
                                 return_exceptions=True)
            await asyncio.gather(*open_pages, return_exceptions=True)

        def serve(self, debug: bool = False) -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            add = loop.add_signal_handler

            def noted(sig: int, callback: Any, *args: Any) -> None:
                def fire(*a: Any) -> None:
                    self.signum = self.signum or sig
                    callback(*a)

                add(sig, fire, *args)

            loop.add_signal_handler = noted  # type: ignore[method-assign]
            super().serve(debug)

    class Table(AppService):
        """textual-serve's process of one page's table, whose ``stop`` ends it for
        sure: textual-serve's own sends the table a quit and waits for its output to
        end, without limit."""

        async def stop(self) -> None:
            """Tell the table to quit, close its input (it quits then too: the quit
            may be missed), and kill it if it has not ended within QUIT_S seconds.
            Called again, or by another task, it waits for the same end."""
            if self._task is None:
                return
            ending = getattr(self, "_ending", None)
            if ending is None:
                ending = self._ending = asyncio.ensure_future(self._end())
            await asyncio.shield(ending)
            self._task = None

        async def _end(self) -> None:
            process, reading = self._process, self._task
            assert process is not None and reading is not None
            loop = asyncio.get_running_loop()
            deadline = loop.time() + QUIT_S
            await self._download_manager.cancel_app_downloads(
                app_service_id=self.app_service_id)
            try:  # a table stuck with its input full takes no quit
                await asyncio.wait_for(self.send_meta({"type": "quit"}), QUIT_S)
            except TimeoutError:
                pass
            if self._stdin is not None:
                self._stdin.close()
            try:
                await asyncio.wait_for(process.wait(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                try:
                    process.kill()
                except ProcessLookupError:
                    pass
                await process.wait()
            try:  # the rest of its output passed on, for a moment: the page's socket
                # may wait for a close the page never answers (the server stopping)
                await asyncio.wait_for(asyncio.shield(reading), 0.25)
            except TimeoutError:
                reading.cancel()

    server = Noting(table_command(argv), host=host, port=port, title="unosim play")
    try:
        server.serve()
    except OSError as e:  # taken between the check and the server's own bind
        if e.errno != errno.EADDRINUSE:
            raise
        raise UnosimError(in_use(host, port)) from None
    return server.signum


def check_port(host: str, port: int) -> None:
    """Bind ``host:port`` as the server will (every address of ``host``, the address
    reused as aiohttp does): one line, exit code 2, if another program holds it."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise UnosimError(f"cannot serve on {host}: {e.strerror}") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                s.bind(address)
            except OSError as e:
                if e.errno == errno.EADDRINUSE:
                    raise UnosimError(in_use(host, port)) from None
                if e.errno != errno.EADDRNOTAVAIL:  # an address this machine lacks
                    raise UnosimError(f"cannot serve on {host}:{port}: "
                                      f"{e.strerror or e}") from None


def in_use(host: str, port: int) -> str:
    return (f"--port {port}: another program is serving on {host}:{port}; choose "
            "another port with --port")


def watch_server(server: int, cleanup: Callable[[], None] = lambda: None) -> None:
    """In a served table: quit when the server closes the table's input (its page went,
    or the server stopped) or the server is gone (killed, say), as q does, through a
    SIGTERM of its own; if that has not ended it ``GIVE_UP_S`` seconds later (a table
    stuck), ``cleanup()`` and end at once. Without this a table whose input closed
    runs on (Textual does not end at the end of its input), spinning on a dead pipe."""

    def gone() -> None:
        hangs = select.poll()
        hangs.register(sys.stdin.fileno(), 0)  # only the hang-up: no input is read here
        while os.getppid() == server and not hangs.poll(200):
            pass

    def watch() -> None:
        try:
            gone()
        except (OSError, ValueError):  # no input to watch: the server alone
            while os.getppid() == server:
                time.sleep(0.2)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(GIVE_UP_S)
        try:
            cleanup()
        finally:
            end_quickly(128 + signal.SIGTERM)

    threading.Thread(target=watch, name="unosim-served-by", daemon=True).start()


def end_quickly(code: int) -> None:
    """End a served table now, its output flushed, with the exit code ``code``: the
    interpreter's teardown, which a served table gains nothing from, takes about half
    a second with the engine loaded, more on a busy machine, for every table."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def saved_since(start: float, save: str | None, folder: Path) -> Path | None:
    """Where the tables served since ``start`` (a ``time.time()``) saved rounds: the
    file ``save``, or ``folder`` (a file per table), or None if no table saved one."""
    if save is not None:
        files = [Path(save)]
    else:
        files = list(folder.glob("unosim-play-*.json")) if folder.is_dir() else []
    for f in files:
        try:
            st = f.stat()
        except OSError:
            continue
        if st.st_size > 0 and st.st_mtime >= start:
            return f if save is not None else folder
    return None
