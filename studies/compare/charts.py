"""Charts of a comparison (or of one run): matplotlib figures, PNG and SVG.

A comparison's main chart is the paired difference of each variant from the baseline
(``differences.py``): the figure the verdicts read. The others show each variant's
own level; every panel holds 0 or shares its scale with the others. Every chart
shows its sample size and its uncertainty: win rates with Wilson 95% error bars,
distributions with a 95% band (the Dvoretzky-Kiefer-Wolfowitz band of an ECDF, or
Wilson per histogram bin), means with their 95% interval in the legend. Each variant
keeps one colour in every chart (``chart_kit.PALETTE``), and every artist of variant
``i`` carries the gid ``series-i`` so it can be found in the SVG. Figures are built
with the object API on the Agg canvas, so no window, global pyplot state or display
is needed.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from unosim.common import DOCS_URL
from unosim.reports.chart_kit import STYLE, gid, n_text, new_figure, tag_errorbar
from unosim.studies.compare.differences import caption, fig_differences


def _tag(bars: Any, vi: int) -> None:
    """Give every artist of a bar series (bars, error bars) the gid ``series-vi``."""
    for patch in bars.patches:
        patch.set_gid(gid(vi))
    if bars.errorbar is not None:  # caps and bars (its data line is not drawn)
        _, caps, lines = bars.errorbar.lines
        for artist in [*caps, *lines]:
            artist.set_gid(gid(vi))


def dkw(n: int, alpha: float = 0.05) -> float:
    """Half-width of the 95% Dvoretzky-Kiefer-Wolfowitz band of an ECDF of n values."""
    return math.sqrt(math.log(2 / alpha) / (2 * n)) if n > 0 else math.nan


def _upper(cmp: Any, metric: str, q: float = 0.995, only: list[int] | None = None) -> int:
    """A shared x limit: the q quantile over all variants (so long tails do not squash)."""
    top = 1
    for vi, mo in enumerate(cmp.moments):
        if only is not None and vi not in only:
            continue
        h = mo.hist.get(metric)
        if h is None or h.sum() == 0:
            continue
        c = np.cumsum(h)
        top = max(top, int(np.searchsorted(c, q * c[-1])) + 1)
    return top


def _mean_label(cmp: Any, vi: int, metric: str) -> str:
    from unosim.stats.numbers import decimals_for

    s = cmp.stat(vi, metric)
    halves = [cmp.stat(i, metric)["ci_high"] - cmp.stat(i, metric)["mean"]
              for i in range(len(cmp.variants))]
    dec = decimals_for(min(h for h in halves if math.isfinite(h)) if any(
        math.isfinite(h) for h in halves) else math.nan)
    return (f"{cmp.names[vi]}: mean {s['mean']:.{dec}f} "
            f"(95% CI {s['ci_low']:.{dec}f} to {s['ci_high']:.{dec}f})")


def fig_win_rates(cmp: Any) -> Figure:
    """Win rate by seat (rounds) or by player (matches): a dot per variant with its
    Wilson 95% error bar (dots, not bars, since the axis does not start at zero)."""
    from unosim.runs import modes

    prefix = "player_win_" if modes.of(cmp.mode).by_rounds else "seat_win_"
    fig, (ax,) = new_figure(max(8.0, 1.1 * cmp.players + 4), 4.8)
    k = len(cmp.variants)
    step = min(0.18, 0.7 / k)
    lows, highs = [], []
    for vi in range(k):
        p = cmp.variants[vi].rules["players"]
        x = np.arange(p) + (vi - (k - 1) / 2) * step
        stats = [cmp.stat(vi, f"{prefix}{s}") for s in range(p)]
        y = np.array([100 * s["mean"] for s in stats])
        lo = np.array([100 * s["ci_low"] for s in stats])
        hi = np.array([100 * s["ci_high"] for s in stats])
        lows += list(lo)
        highs += list(hi)
        cont = ax.errorbar(x, y, yerr=np.vstack([y - lo, hi - y]), fmt="o", markersize=7,
                           capsize=4, elinewidth=1.6, color=cmp.colours[vi],
                           label=cmp.names[vi])
        tag_errorbar(cont, vi)
    fair = sorted({100 / v.rules["players"] for v in cmp.variants})
    for f in fair:
        ax.axhline(f, color="#555555", linestyle="--", linewidth=1, zorder=0)
    ax.set_xticks(np.arange(cmp.players))
    if not modes.of(cmp.mode).by_rounds:
        ax.set_xticklabels([f"seat {s}" + (" (first)" if s == 0 else "")
                            for s in range(cmp.players)])
        ax.set_xlabel("seat (seat 0 sits left of the dealer and plays first)")
        ax.set_ylabel("rounds won (%)")
        title = "Round win rate by seat"
    else:
        ax.set_xticklabels([f"player {p}" for p in range(cmp.players)])
        ax.set_xlabel("player (numbered by first-round seat; player 0 leads round 1)")
        ax.set_ylabel("matches won (%)")
        title = "Match win rate by player"
    lo_all = min(lows + fair)
    hi_all = max(highs + fair)
    pad = max(0.3, 0.12 * (hi_all - lo_all))
    ax.set_ylim(max(0.0, lo_all - pad), min(100.0, hi_all + pad))
    ax.set_xlim(-0.6, cmp.players - 0.4)
    fig.suptitle(title)
    ax.set_title(f"{n_text(cmp)} · error bars: 95% Wilson interval · dashed: equal share")
    ax.legend(title="variant", loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    return fig


def _ecdf(ax: Any, cmp: Any, metric: str, xmax: int) -> None:
    for vi in range(len(cmp.variants)):
        h = cmp.moments[vi].hist.get(metric)
        if h is None or h.sum() == 0:
            continue
        n = int(h.sum())
        x = np.arange(xmax + 1)
        y = 100 * np.cumsum(h[: xmax + 1]) / n
        eps = 100 * dkw(n)
        band = ax.fill_between(x, np.clip(y - eps, 0, 100), np.clip(y + eps, 0, 100),
                               step="post", color=cmp.colours[vi], alpha=0.25, linewidth=0)
        band.set_gid(gid(vi))
        (line,) = ax.step(x, y, where="post", color=cmp.colours[vi], linewidth=1.6,
                          label=_mean_label(cmp, vi, metric))
        line.set_gid(gid(vi))
    ax.set_ylim(0, 100)
    ax.set_xlim(0, xmax)
    ax.grid(alpha=0.3)


def _hist_lines(ax: Any, cmp: Any, metric: str, xmax: int, width: int,
                only: list[int] | None = None, xmin: int = 0) -> None:
    """Share of values per bin of ``width`` from ``xmin`` to ``xmax``: an outline per
    variant (``stairs``) over a band of the 95% Wilson interval of each bin."""
    from unosim.stats.intervals import wilson

    xmin = (xmin // width) * width
    edges = np.arange(xmin, xmax + width, width)
    for vi in only if only is not None else range(len(cmp.variants)):
        h = cmp.moments[vi].hist.get(metric)
        if h is None or h.sum() == 0:
            continue
        n = int(h.sum())
        padded = np.zeros(len(edges) * width + xmin, np.int64)
        m = min(len(padded), len(h))
        padded[:m] = h[:m]
        counts = padded[xmin:].reshape(-1, width).sum(1)[: len(edges) - 1]
        share = 100 * counts / n
        ci = np.array([wilson(int(c), n) for c in counts]) * 100
        band = ax.stairs(ci[:, 1], edges, baseline=ci[:, 0], fill=True,
                         color=cmp.colours[vi], alpha=0.3, linewidth=0)
        band.set_gid(gid(vi))
        line = ax.stairs(share, edges, color=cmp.colours[vi], linewidth=1.6,
                         label=_mean_label(cmp, vi, metric))
        line.set_gid(gid(vi))
    ax.set_xlim(edges[0], edges[-1])
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)


def _lower(cmp: Any, metric: str, q: float, only: list[int]) -> int:
    low = None
    for vi in only:
        h = cmp.moments[vi].hist.get(metric)
        if h is None or h.sum() == 0:
            continue
        c = np.cumsum(h)
        v = int(np.searchsorted(c, q * c[-1]))
        low = v if low is None else min(low, v)
    return low or 0


def _bin_width(xmax: int, bins: int = 40) -> int:
    raw = max(1, xmax / bins)
    for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if w >= raw:
            return w
    return int(raw)


def _label(fig: Figure, ax: Any, title: str, subtitle: str, xlabel: str, ylabel: str,
           legend_at: str) -> Figure:
    fig.suptitle(title)
    ax.set_title(subtitle)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(title="variant", loc=legend_at, fontsize=9)
    return fig


def fig_ecdf(cmp: Any, metric: str, title: str, xlabel: str, what: str) -> Figure:
    fig, (ax,) = new_figure()
    _ecdf(ax, cmp, metric, _upper(cmp, metric))
    return _label(fig, ax, title,
                  f"{n_text(cmp)} · shaded: 95% DKW band · legend: mean with 95% CI",
                  xlabel, f"{what} with at most x (%)", "lower right")


def fig_hist(cmp: Any, metric: str, title: str, xlabel: str, what: str) -> Figure:
    fig, (ax,) = new_figure()
    xmax = _upper(cmp, metric)
    width = _bin_width(xmax)
    _hist_lines(ax, cmp, metric, xmax, width)
    return _label(fig, ax, title,
                  f"{n_text(cmp)} · bins of {width} · shaded: 95% Wilson band per bin",
                  xlabel, f"share of {what} per bin (%)", "upper right")


def fig_final_scores(cmp: Any) -> Figure:
    """The match winner's final score: one panel per variant, since scoring methods
    differ in scale and unit (points, or round wins under ``lazy``)."""
    k = len(cmp.variants)
    ncols = min(k, 4)
    nrows = (k + ncols - 1) // ncols
    with rc_context(STYLE):
        fig = Figure(figsize=(3.6 * ncols + 0.8, 3.6 * nrows + 0.6), dpi=100,
                     layout="constrained")
        FigureCanvasAgg(fig)
        axes = [fig.add_subplot(nrows, ncols, i + 1) for i in range(k)]
    for vi, ax in enumerate(axes):
        r = cmp.variants[vi].rules
        xmax = _upper(cmp, "winner_score", only=[vi])
        xmin = _lower(cmp, "winner_score", 0.005, [vi])
        if xmax - xmin < 6:  # a narrow (lazy: constant) distribution: show its neighbours
            xmin, xmax = max(0, xmin - 3), xmax + 3
        w = _bin_width(xmax - xmin, 30)
        _hist_lines(ax, cmp, "winner_score", xmax + w, w, only=[vi], xmin=xmin)
        unit = "round wins" if r["scoring"] == "lazy" else "points"
        ax.set_title(f"{cmp.names[vi]}: {r['scoring']} to {r['target_score']:,}", fontsize=9)
        ax.set_xlabel(f"winner's final score ({unit})")
        ax.set_ylabel(f"share of decided matches per bin of {w} (%)")
        ax.legend([_mean_label(cmp, vi, "winner_score").split(": ", 1)[1]],
                  loc="upper right", fontsize=7, handlelength=1)
    fig.suptitle(f"Match winner's final score\n{n_text(cmp)} · shaded: 95% Wilson band "
                 "per bin")
    return fig


def fig_cards_drawn(cmp: Any) -> Figure:
    """Mean cards drawn per round by kind (95% CI bars) and the distribution of all draws."""
    fig, (ax, ax2) = new_figure(12.0, 4.8, ncols=2)
    kinds = [("drawn_no_play", "no play"), ("penalty_drawn", "penalty"),
             ("cards_drawn", "both")]
    k = len(cmp.variants)
    width = 0.8 / k
    for vi in range(k):
        x = np.arange(len(kinds)) + (vi - (k - 1) / 2) * width
        st = [cmp.stat(vi, m) for m, _ in kinds]
        y = np.array([s["mean"] for s in st])
        err = np.vstack([y - [s["ci_low"] for s in st], [s["ci_high"] for s in st] - y])
        bars = ax.bar(x, y, width * 0.92, color=cmp.colours[vi], label=cmp.names[vi],
                      yerr=err, capsize=3, error_kw={"elinewidth": 1.2, "ecolor": "#222222"})
        _tag(bars, vi)
    ax.set_xticks(np.arange(len(kinds)))
    ax.set_xticklabels([f"{lab}" for _, lab in kinds])
    ax.set_xlabel("why the cards were drawn")
    ax.set_ylabel("cards drawn per round (mean)")
    ax.set_title("mean per round · error bars: 95% CI")
    ax.legend(title="variant", loc="upper left", fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    xmax = _upper(cmp, "cards_drawn")
    w = _bin_width(xmax)
    _hist_lines(ax2, cmp, "cards_drawn", xmax, w)
    ax2.set_xlabel("cards drawn in a round, no play + penalty (cards)")
    ax2.set_ylabel("share of rounds per bin (%)")
    ax2.set_title(f"distribution · bins of {w} cards · shaded: 95% Wilson band")
    ax2.legend(title="variant", loc="upper right", fontsize=8)
    fig.suptitle(f"Cards drawn per round ({n_text(cmp)})")
    return fig


FEEL_PANELS = ("lead_changes", "winner_max_deficit", "comeback", "winner_mean_deficit",
               "winner_behind_share", "lock_in", "first_uno_wins", "rival_on_uno", "leader_gap",
               "seat_balance")


def fig_feel(cmp: Any) -> Figure:
    """How the round unfolds (docs/metrics.md#game-feel): one panel per metric, a dot
    per variant with its 95% interval (Wilson for rates, normal for means), on an axis
    from 0, so no panel magnifies a small difference."""
    names = [m for m in FEEL_PANELS if not cmp.absent(m)]
    ncols = 5
    nrows = (len(names) + ncols - 1) // ncols
    with rc_context(STYLE):
        fig = Figure(figsize=(3.0 * ncols + 0.6, 3.0 * nrows + 0.9), dpi=100,
                     layout="constrained")
        FigureCanvasAgg(fig)
        axes = [fig.add_subplot(nrows, ncols, i + 1) for i in range(len(names))]
    k = len(cmp.variants)
    for ax, name in zip(axes, names, strict=True):
        m = cmp.metric(name)
        sc = 100.0 if m.rate else 1.0
        for vi in range(k):
            st = cmp.stat(vi, name)
            if st["n"] == 0 or not math.isfinite(st["mean"]):
                continue
            y, lo, hi = st["mean"] * sc, st["ci_low"] * sc, st["ci_high"] * sc
            cont = ax.errorbar([vi], [y], yerr=[[max(0.0, y - lo)], [max(0.0, hi - y)]],
                               fmt="o", markersize=7, capsize=4, elinewidth=1.6,
                               color=cmp.colours[vi], label=cmp.names[vi])
            tag_errorbar(cont, vi)
        ax.set_ylim(min(0.0, ax.get_ylim()[0]), max(0.0, ax.get_ylim()[1]))  # holds 0
        ax.set_xticks(range(k))
        ax.set_xticklabels([n[:12] for n in cmp.names], rotation=30, ha="right", fontsize=8)
        ax.set_xlim(-0.6, k - 0.4)
        ax.set_xlabel("variant")
        unit = "%" if m.rate else (m.unit or "value")
        ax.set_ylabel(f"{'rate' if m.rate else 'mean'} ({unit})")
        ax.set_title(m.label, fontsize=9)
        ax.grid(axis="y", alpha=0.3)
    if axes:
        axes[0].legend(title="variant", loc="best", fontsize=7)
    fig.suptitle(f"How the round unfolds (game feel, {DOCS_URL}metrics.html#game-feel)\n"
                 f"{n_text(cmp)} · "
                 "rounds with a winner · dots: mean or rate · bars: each variant's own 95% CI · "
                 "axes from 0")
    return fig


def fig_comeback(cmp: Any) -> Figure:
    """The winner's largest deficit behind the leader (cards): its distribution per
    variant, with a 95% Wilson band per value; 3 or more is a comeback."""
    fig, (ax,) = new_figure()
    xmax = max(8, _upper(cmp, "winner_max_deficit", q=0.999))
    _hist_lines(ax, cmp, "winner_max_deficit", xmax, 1)
    ax.axvline(3, color="#444444", linestyle="--", linewidth=1)
    ax.text(3.1, ax.get_ylim()[1] * 0.95, "comeback: 3 or more", fontsize=8, va="top")
    fig.suptitle("The round winner's largest deficit behind the leader")
    ax.set_title(f"{n_text(cmp)} · rounds with a winner · shaded: 95% Wilson band per value")
    ax.set_xlabel("winner's largest deficit over the round (cards)")
    ax.set_ylabel("share of rounds with a winner (%)")
    ax.legend(title="variant", loc="upper right", fontsize=9)
    return fig


def figures(cmp: Any) -> dict[str, Figure]:
    """Every chart of a comparison (or of a one-variant run), by file stem; a
    comparison's first is the main one, the paired differences from the baseline."""
    from unosim.runs import modes

    main = {"differences": fig_differences(cmp)} if len(cmp.variants) > 1 else {}
    if not modes.of(cmp.mode).by_rounds:
        figs = {
            **main,
            "seat_win_rates": fig_win_rates(cmp),
            "round_length": fig_ecdf(cmp, "turns", "Round length", "turns per round (turns)",
                                     "share of rounds"),
            "winner_points": fig_hist(cmp, "winner_points", "Points scored by the round winner",
                                      "winner points per round (points)", "rounds with a winner"),
            "cards_drawn": fig_cards_drawn(cmp),
        }
        if not cmp.absent("comeback"):  # the engine's records hold the game feel
            figs["feel"] = fig_feel(cmp)
            figs["comeback"] = fig_comeback(cmp)
        return figs
    return {
        **main,
        "match_win_rates": fig_win_rates(cmp),
        "rounds_per_match": fig_ecdf(cmp, "rounds", "Match length", "rounds per match (rounds)",
                                     "share of matches"),
        "final_scores": fig_final_scores(cmp),
    }


#: what the charts of each variant's own level show, under each in report.html
LEVELS = ("each variant's own level with its own 95% interval: overlapping bars do not "
          "mean no difference, nor do separate ones mean one; the differences chart holds "
          "the paired intervals the verdicts read")


def captions(cmp: Any) -> dict[str, str]:
    """A caption per chart for report.html: what the dots, bars and bands are."""
    out = {name: f"{name.replace('_', ' ')}: {LEVELS}" for name in (
        "seat_win_rates", "match_win_rates", "cards_drawn", "feel")}
    if len(cmp.variants) > 1:
        out["differences"] = caption(cmp)
    return out
