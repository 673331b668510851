"""Checks of the engine's invariants on played games and random rule combinations
(``unosim selfcheck`` and the tests)."""
