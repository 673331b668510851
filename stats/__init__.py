"""Statistics below the studies and the reports: intervals, confidence sequences and
verdict rules, and how a figure is written to its precision."""
