"""Design: the house rules that give the game a table wants. The question (objectives
to raise or lower, requirements to meet), the space of rule keys that may change,
the multi-objective search on Optuna (NSGA-II), the cheap first pass and the longer
second one, the front re-measured on fresh deals, and the report, chart, page and
variant files live here.
"""
