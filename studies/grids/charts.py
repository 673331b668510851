"""Charts of a sweep and of the atlas (matplotlib, PNG and SVG).

One swept dimension: a line per metric with its 95% band. Two: a heatmap per metric
with the value and the half-width of its 95% interval in each cell (refused points
grey). The atlas: presets x metrics coloured by the effect against official, each
column scaled to its largest effect, significant cells marked with a star.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib import colormaps
from matplotlib.figure import Figure

from unosim.reports.chart_kit import new_figure
from unosim.stats.numbers import decimals_for
from unosim.studies.grids import atlas as A
from unosim.studies.grids.sweep import KINDS, LABELS, SweepResult, shown_metrics

BLUE = "#0072B2"


def _scale(metric: str) -> float:
    return 100.0 if KINDS[metric] in ("rate", "pp") else 1.0


def _unit(metric: str) -> str:
    return {"rate": " (%)", "pp": " (pp)"}.get(KINDS[metric], "")


def _show(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def sweep_figures(r: SweepResult) -> dict[str, Figure]:
    """One figure per metric: ``sweep_<metric>``."""
    figs = {}
    for m in shown_metrics(r):
        figs[f"sweep_{m}"] = (_line(r, m) if len(r.dims) == 1 else _heatmap(r, m))
    return figs


def _line(r: SweepResult, metric: str) -> Figure:
    d = r.dims[0]
    fig, (ax,) = new_figure(6.4, 3.8)
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in d.values)
    xs, ys, lo, hi = [], [], [], []
    sc = _scale(metric)
    for i, (p, st) in enumerate(zip(r.points, r.stats, strict=True)):
        s = (st or {}).get(metric)
        if s is None or not math.isfinite(s["mean"]):
            continue
        xs.append(p.coords[d.key] if numeric else i)
        ys.append(s["mean"] * sc)
        lo.append(s["ci_low"] * sc)
        hi.append(s["ci_high"] * sc)
    ax.fill_between(xs, lo, hi, color=BLUE, alpha=0.25, linewidth=0, label="95% interval",
                    gid="band")
    ax.plot(xs, ys, marker="o", color=BLUE, label=LABELS[metric], gid="line")
    if not numeric:
        ax.set_xticks(range(len(d.values)), [_show(v) for v in d.values])
    ax.set_xlabel(d.key)
    ax.set_ylabel(LABELS[metric] + _unit(metric))
    ax.set_title(f"{LABELS[metric]} by {d.key}")
    ax.legend(loc="best", fontsize=8, frameon=False)
    fig.text(0.01, 0.01, f"n = {r.cmp.games:,} games per point", fontsize=8, color="#555")
    return fig


def heatmap_decimals(halves: list[float], metric: str) -> int:
    """One precision for every cell of a heatmap: the decimals the narrowest interval
    needs (its half-width in the chart's unit), so no cell hides its uncertainty and
    no two cells beside each other read at different precisions (``40 ±1`` beside
    ``42.4 ±1.0``). Rates keep at least one decimal, as in the table."""
    known = [h for h in halves if math.isfinite(h) and h > 0]
    dec = decimals_for(min(known)) if known else decimals_for(0.0)
    return max(1, dec) if KINDS[metric] in ("rate", "pp") else dec


def _cell_text(mean: float, half: float, metric: str, dec: int) -> str:
    """``mean`` over ``±half`` at ``dec`` decimals, in the chart's unit."""
    kind = KINDS[metric]
    if not math.isfinite(half):  # no interval: the value alone
        return _cell_text(mean, 0.0, metric, dec).split("\n")[0]
    if kind == "pp":
        return f"{mean:+.{dec}f} pp\n±{half:.{dec}f}"
    if kind == "rate":
        return f"{mean:.{dec}f}%\n±{half:.{dec}f}"
    return f"{mean:.{dec}f}\n±{half:.{dec}f}"


def _heatmap(r: SweepResult, metric: str) -> Figure:
    a, b = r.dims
    grid = np.full((len(a.values), len(b.values)), np.nan)
    halves = np.full(grid.shape, np.nan)
    text = [["refused"] * len(b.values) for _ in a.values]
    sc = _scale(metric)
    for p, st in zip(r.points, r.stats, strict=True):
        i, j = a.values.index(p.coords[a.key]), b.values.index(p.coords[b.key])
        s = (st or {}).get(metric)
        if st is None:
            continue
        if s is None or s["n"] == 0 or not math.isfinite(s["mean"]):
            text[i][j] = "n/a"
            continue
        grid[i, j] = s["mean"] * sc
        halves[i, j] = (s["ci_high"] - s["ci_low"]) / 2 * sc
    dec = heatmap_decimals([float(h) for h in halves[np.isfinite(grid)]], metric)
    for i, j in zip(*np.nonzero(np.isfinite(grid)), strict=True):
        text[i][j] = _cell_text(float(grid[i, j]), float(halves[i, j]), metric, dec)
    w = max(5.5, 1.0 + 1.05 * len(b.values))
    h = max(3.5, 1.2 + 0.62 * len(a.values))
    fig, (ax,) = new_figure(w, h)
    cmap = colormaps["viridis"].with_extremes(bad="#dddddd")
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, aspect="auto", origin="lower",
                   gid="heatmap")
    finite = grid[np.isfinite(grid)]
    mid = (finite.min() + finite.max()) / 2 if finite.size else 0
    for i in range(len(a.values)):
        for j in range(len(b.values)):
            v = grid[i, j]
            colour = "black" if (math.isfinite(v) and v > mid) or not math.isfinite(v) else "white"
            ax.text(j, i, text[i][j], ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(len(b.values)), [_show(v) for v in b.values])
    ax.set_yticks(range(len(a.values)), [_show(v) for v in a.values])
    ax.set_xlabel(b.key)
    ax.set_ylabel(a.key)
    ax.set_title(f"{LABELS[metric]}{_unit(metric)}: value ± 95% half-width")
    fig.colorbar(im, ax=ax, shrink=0.8)
    return fig


def atlas_heatmap(presets: list[str], metrics: list[str], labels: list[str],
                  effects: np.ndarray, texts: list[list[str]], significant: np.ndarray,
                  title: str) -> Figure:
    """Presets (rows) x metrics (columns) coloured by the effect against official; each
    column is scaled to its largest effect; a star marks an effect whose 95% interval
    excludes 0."""
    scaled = np.full(effects.shape, np.nan)
    for j in range(effects.shape[1]):
        col = effects[:, j]
        top = np.nanmax(np.abs(col)) if np.isfinite(col).any() else 0
        if top > 0:
            scaled[:, j] = col / top
    h = max(4.0, 1.4 + 0.34 * len(presets))
    w = max(7.0, 2.4 + 1.15 * len(metrics))
    fig, (ax,) = new_figure(w, h)
    cmap = colormaps["RdBu_r"].with_extremes(bad="#eeeeee")
    im = ax.imshow(np.ma.masked_invalid(scaled), cmap=cmap, vmin=-1, vmax=1, aspect="auto",
                   gid="atlas-heatmap")
    for i in range(len(presets)):
        for j in range(len(metrics)):
            star = "*" if significant[i, j] else ""
            dark = math.isfinite(scaled[i, j]) and abs(scaled[i, j]) > 0.6
            ax.text(j, i, texts[i][j] + star, ha="center", va="center", fontsize=7,
                    fontweight="bold" if star else "normal",
                    color="white" if dark else "black")
    ax.set_xticks(range(len(metrics)), labels, rotation=30, ha="right")
    ax.set_yticks(range(len(presets)), presets)
    ax.set_title(title)
    cb = fig.colorbar(im, ax=ax, shrink=0.7)
    cb.set_label("effect vs official, scaled per column")
    return fig


def atlas_figures(atlas: A.Atlas) -> dict[str, Figure]:
    """One heatmap per player count: ``atlas_<P>p``."""
    figs = {}
    for a in atlas.by_players:
        metrics = A.shown(a)
        presets = sorted(a.presets)
        eff = np.full((len(presets), len(metrics)), np.nan)
        sig = np.zeros(eff.shape, bool)
        texts = [["n/a"] * len(metrics) for _ in presets]
        for i, p in enumerate(presets):
            for j, m in enumerate(metrics):
                e = a.effects[p].get(m)
                if e is None or not math.isfinite(e.diff):
                    continue
                x, _, _ = e.scaled(A.KINDS[m])
                # colour: red where the preset raises the metric, blue where it lowers it
                eff[i, j] = x
                sig[i, j] = e.significant
                texts[i][j] = A.effect_text(e, m)
        figs[f"atlas_{a.players}p"] = atlas_heatmap(
            presets, metrics, [A.LABELS[m] for m in metrics], eff, texts, sig,
            f"{a.players} players: effect of each preset against official")
    return figs
