"""``unosim play --serve``: the same table in a browser, served on localhost by
textual-serve, which starts the command anew (a fresh table) for each page opened."""

from __future__ import annotations

from unosim.errors import UnosimError

EXTRA = "unosim play --serve needs textual-serve: pip install 'unosim[play]'"


def serve(command: str, port: int, host: str = "localhost") -> None:
    """Serve ``command`` (a shell command line that opens the table) until Ctrl+C."""
    try:
        from textual_serve.server import Server
    except ImportError:
        raise UnosimError(EXTRA) from None
    Server(command, host=host, port=port, title="unosim play").serve()
