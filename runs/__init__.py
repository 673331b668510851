"""The run layer: what turns a table and a range of games into totals (the table and
its game template, the entry points' batches, the backend, the totals and their
checkpoints), and the Python driver of one game (``game.Game``)."""
