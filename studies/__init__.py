"""Studies: what to play and how to pair it (compare, sweep, atlas, skill, tournament,
tune). Each runs its games through one backend (runs/backend.py) and returns a
result object that reports/ renders."""
