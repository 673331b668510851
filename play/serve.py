"""``unosim play --serve``: the same table in a browser, served on localhost by
textual-serve, which starts the command anew (a fresh table) for each page opened.

Each table is told the server's process id (``SERVER_ENV``) and ends when the server
is gone, however it ended: a table whose server died would otherwise run on with
its input closed (commands/play.py ``watch_server``)."""

from __future__ import annotations

import asyncio
import errno
import os
import shlex
import socket
from typing import Any

from unosim.errors import UnosimError

EXTRA = "unosim play --serve needs textual-serve: pip install 'unosim[play]'"
#: where a served table finds the process id of the server that started it
SERVER_ENV = "UNOSIM_PLAY_SERVER"


def table_command(argv: list[str]) -> str:
    """The shell command line textual-serve runs for each page: ``argv`` told this
    process's id, through ``exec`` so the table's parent is this process, not a shell."""
    return f"{SERVER_ENV}={os.getpid()} exec {shlex.join(argv)}"


def serve(argv: list[str], port: int, host: str = "localhost") -> int | None:
    """Serve the table ``argv`` opens (a command line) until Ctrl+C or SIGTERM, which
    it returns (each table open is told to quit as the server stops); a port another
    program holds is refused in one line before anything is served."""
    try:
        from textual_serve.server import Server
    except ImportError:
        raise UnosimError(EXTRA) from None
    check_port(host, port)

    class Noting(Server):
        """textual-serve's server, noting which signal stopped it."""

        signum: int | None = None
        #: the handlers of the pages open now, ended when the server stops: aiohttp
        #: would otherwise wait for each open page's socket, up to a minute
        pages: set[asyncio.Task[Any]] = set()

        async def handle_websocket(self, request: Any) -> Any:
            task = asyncio.current_task()
            if task is not None:
                self.pages.add(task)
            try:
                return await super().handle_websocket(request)
            finally:
                self.pages.discard(task)  # type: ignore[arg-type]

        async def on_shutdown(self, app: Any) -> None:
            """End each open page's handler: it closes the page's socket and stops its
            table, so a stop takes a moment, not the socket's heartbeat time."""
            open_pages = list(self.pages)
            for task in open_pages:
                task.cancel()
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
