"""Sitting at the table: one person in seat 0 against built-in or Python strategies.

``table`` holds the game and what the person's seat may know (no Textual there, so
it is tested and reused without a screen); ``app`` draws it with Textual, an
optional extra, drawn at once while ``warmup`` compiles the engine beside it on a
first run. ``hints`` and ``review`` run the search player at the person's
decisions (``history`` keeps their states, which undo restores); ``coaching`` draws
them."""
