"""One module per command body; unosim/cli.py loads each when it is called."""
