"""Tuning: a parametric strategy's parameters searched on Optuna. The search space, the
trials' play (common random numbers, racing), the study and its storage, the
re-evaluation on fresh deals, and the result's summary, charts, files and report object
live here.
"""
