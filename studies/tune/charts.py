"""A tuning study's charts: the optimisation history and the parameter importances."""

from __future__ import annotations

from typing import Any

import numpy as np


def history_figure(hist: Any, summary: dict[str, Any]) -> Any:
    """Every finished trial's win rate and the best so far (pruned trials at their
    last rung)."""
    fig, ax = _figure()
    if hist.finished:
        xs = [n for n, _ in hist.finished]
        ys = [100 * v for _, v in hist.finished]
        ax.plot(xs, ys, ".", label="trial (finished)")
        ax.plot(xs, np.maximum.accumulate(ys), "-", label="best so far")
    if hist.pruned:
        ax.plot([n for n, _ in hist.pruned], [100 * v for _, v in hist.pruned],
                "x", alpha=0.5, label="pruned (last rung)")
    ax.set_xlabel("trial")
    ax.set_ylabel("win rate, %")
    ax.set_title(f"Optimisation history: {summary['strategy']} ({summary['study']})")
    ax.legend()
    fig.tight_layout()
    return fig


def importance_figure(hist: Any) -> Any:
    """The parameters' importances (fANOVA), when there are enough finished trials."""
    fig, ax = _figure()
    imp = hist.importances
    if imp:
        names = list(imp)[::-1]
        ax.barh(names, [imp[k] for k in names])
        ax.set_xlabel("importance (fANOVA, share of the variance of the win rate)")
    else:
        ax.text(0.5, 0.5, "too few finished trials for importances", ha="center")
    ax.set_title("Parameter importances")
    fig.tight_layout()
    return fig


def tune_figures(hist: Any, summary: dict[str, Any]) -> dict[str, Any]:
    """The study's charts by file stem: ``history`` and ``importances``."""
    return {"history": history_figure(hist, summary), "importances": importance_figure(hist)}


def _figure() -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.5))
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()
