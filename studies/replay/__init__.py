"""Replay: one game of a run, move by move, played again from its seed and index (or
from a file of --save-games or of unosim play) and checked against the record it
must end with. ``play`` is the typed entry, ``moves`` the trace of a game's decisions
and their effects, ``files`` the replays from files, ``text`` the text report,
``report`` the result object, ``charts`` its figure."""
