"""The lineups: strategies seated against each other, every seat played equally often on
the same deals. The tournament (strategies head to head, or each against a field) and
the skill study (one strategy's skill edge against a field under each variant): their
seating, plays, totals, results, charts and report objects live here.
"""
