"""The run study (``unosim run``, ``api.simulate``): one table over game ranges, its
report of rounds or of matches, and with per-game totals its charts and records."""
