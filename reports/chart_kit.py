"""What every chart shares: the style, the colour of each variant, the Agg figure,
the SVG ids of a variant's artists, the sample-size text and the margin band's
colour, so the charts of every study read alike; and a figure written as PNG and
SVG."""

from __future__ import annotations

import io
import itertools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from unosim.common import write_bytes_atomic

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_IDS = itertools.count()

#: one colour per variant, the same in every chart (Okabe-Ito, colour-blind safe)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442")

SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "unosim"}
STYLE = {"font.size": 10, "axes.titlesize": 10, "figure.titlesize": 12,
         "axes.spines.top": False, "axes.spines.right": False}
#: the band of differences too small to matter (±margin), in every chart that draws it
MARGIN_COLOUR = "#56B4E9"
#: the zero line of a difference
ZERO_COLOUR = "#222222"


def gid(vi: int) -> str:
    """A unique SVG id for an artist of variant ``vi``: ``series-<vi>-<k>``."""
    return f"series-{vi}-{next(_IDS)}"


def mark_id(kind: str) -> str:
    """A unique SVG id for a mark that is no variant's (``zero-<k>``, ``margin-<k>``)."""
    return f"{kind}-{next(_IDS)}"


def _agg() -> tuple[Any, Any, Any]:
    """matplotlib's style context, Agg canvas and figure, imported when a chart is
    drawn: a command that draws none starts half a second sooner without them."""
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    return rc_context, FigureCanvasAgg, Figure


def new_figure(w: float = 8.0, h: float = 4.8, ncols: int = 1) -> tuple[Figure, list[Any]]:
    rc_context, FigureCanvasAgg, Figure = _agg()
    with rc_context(STYLE):
        fig = Figure(figsize=(w, h), dpi=100, layout="constrained")
        FigureCanvasAgg(fig)
        axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
    return fig, axes


def grid_figure(panels: int, ncols: int, w: float, h: float, extra_h: float = 0.9
                ) -> tuple[Figure, list[Any]]:
    """A figure of ``panels`` axes, ``ncols`` to a row, each ``w`` x ``h`` inches."""
    nrows = (panels + ncols - 1) // ncols
    rc_context, FigureCanvasAgg, Figure = _agg()
    with rc_context(STYLE):
        fig = Figure(figsize=(w * ncols + 0.6, h * nrows + extra_h), dpi=100,
                     layout="constrained")
        FigureCanvasAgg(fig)
        axes = [fig.add_subplot(nrows, ncols, i + 1) for i in range(panels)]
    return fig, axes


def n_text(cmp: Any) -> str:
    each = " per variant" if len(cmp.variants) > 1 else ""
    return f"n = {cmp.games:,} {cmp.unit}{each}"


def tag_errorbar(cont: Any, vi: int) -> None:
    """Give the marker line, caps and bars of an errorbar series the gid ``series-vi``."""
    data, caps, bars = cont.lines
    for artist in [data, *caps, *bars]:
        if artist is not None:
            artist.set_gid(gid(vi))


def svg_text(fig: Figure) -> str:
    buf = io.StringIO()
    rc_context = _agg()[0]
    with rc_context(SVG_RC):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def png_bytes(fig: Figure, dpi: int = 120) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


def save_figures(figs: dict[str, Figure], out_dir: Path) -> dict[str, str]:
    """Write ``NAME.png`` and ``NAME.svg`` for each figure (atomically); return the SVG
    text of each (for embedding in report.html)."""
    svgs = {}
    for name, fig in figs.items():
        svg = svg_text(fig)
        write_bytes_atomic(out_dir / f"{name}.svg", svg.encode("utf-8"))
        # the layout the SVG was drawn with serves the PNG too: laying the figure out
        # again (constrained layout measures every label) took half of each drawing
        engine = fig.get_layout_engine()
        fig.set_layout_engine("none")
        try:
            write_bytes_atomic(out_dir / f"{name}.png", png_bytes(fig))
        finally:
            fig.set_layout_engine(engine)
        svgs[name] = svg
    return svgs
