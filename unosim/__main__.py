"""Allow ``python -m unosim``."""

from unosim.cli import main

main()
