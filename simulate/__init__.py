"""The engine: the rules (schema, lowering), the game array's layout and the compiled
step, round, match, feel and fold kernels (the ``*_nb`` modules).

It knows nothing of how games are batched, checkpointed or compiled ahead of time
(``unosim.runs``, ``unosim.compiler``), nor of the studies, reports or commands.
"""
