"""The one exception type the CLI turns into a one-line message and exit code 2."""


class UnosimError(ValueError):
    """Bad user input: a rule, a variant, a strategy, an option value."""
