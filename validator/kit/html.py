"""Pieces of report.html an engine's report sections are built from: escaped
text, percentages and intervals, tables, and matplotlib figures as inline SVG
(deterministic: the same figures draw the same bytes).

The report's stylesheet knows the classes used here: ``muted`` (grey text),
``dead`` (a highlighted row), ``plot`` (a figure's box), ``grid`` (boxes side
by side), ``matrix`` (centred cells)."""

from __future__ import annotations

import html
import io

#: the size of every plot's text in points; the report shows plots at their own size (1 pt = 1 px), so
#: labels read at 11 px or more
FONT_SIZE = 11

# the report's palette
BLUE, GREY, GREEN, RED, PURPLE, ORANGE = "#4c6ef5", "#868e96", "#2b8a3e", "#c92a2a", "#7950f2", "#d9822b"

__all__ = ["BLUE", "GREY", "GREEN", "RED", "PURPLE", "ORANGE", "esc", "pct", "ci", "num", "table", "plt", "svg", "bars",
           "intervals", "whole_numbers"]


def esc(x) -> str:
    """``x`` as escaped HTML text."""
    return html.escape(str(x))


def pct(x, digits=1) -> str:
    """A share as a percentage ('-' when missing)."""
    return "-" if x is None else f"{x * 100:.{digits}f}%"


def ci(r: dict) -> str:
    """A rate with its 95% interval (a dict with rate, low, high, as ``kit.stats.rate`` makes)."""
    if r.get("rate") is None:
        return "-"
    return f"{r['rate'] * 100:.1f}% <span class='muted'>[{r['low'] * 100:.1f}, {r['high'] * 100:.1f}]</span>"


def num(x, digits=1) -> str:
    """A number with ``digits`` decimals ('-' when missing)."""
    return "-" if x is None else f"{x:.{digits}f}"


def table(header: list[str], rows: list[list], left: int = 1, cls: str = "", row_cls=None) -> str:
    """An HTML table: ``header`` is escaped here, the cells of ``rows`` must be HTML
    already; the first ``left`` columns are aligned left, the rest right.  A table wider than the page
    scrolls within it (in a ``wide`` box), rather than running off its edge."""
    out = [f"<div class='wide'><table class='{cls}'><tr>"]
    out += [f"<th class='{'l' if i < left else ''}'>{esc(h)}</th>" for i, h in enumerate(header)]
    out.append("</tr>")
    for j, r in enumerate(rows):
        rc = row_cls[j] if row_cls else ""
        out.append(f"<tr class='{rc}'>" + "".join(f"<td class='{'l' if i < left else ''}'>{v}</td>"
                                                   for i, v in enumerate(r)) + "</tr>")
    out.append("</table></div>")
    return "".join(out)


def plt():
    """matplotlib's pyplot, set up for the report (Agg, SVG text as text, fixed hash salt)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    matplotlib.rcParams.update({"svg.hashsalt": "pnp-validate", "svg.fonttype": "none", "font.size": FONT_SIZE,
                                "font.family": "DejaVu Sans", "axes.spines.top": False, "axes.spines.right": False})
    return pyplot


def svg(fig) -> str:
    """A matplotlib figure as an inline ``<svg>`` element (the figure is closed)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt().close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


# A report draws each of its charts once, in the time a quick run waits for: a chart's cost is mostly matplotlib's
# per-artist work (an artist per bar, per line, per dot), so the helpers below draw many marks as few artists.

def bars(ax, xs, heights, width: float = 0.8, color: str = BLUE, align: str = "center", bottom=None,
         label: str | None = None):
    """Vertical bars on ``ax`` as ``ax.bar`` draws them (no edge, the value axis starting from the bars' feet),
    but as one filled path rather than a patch per bar: the same picture, and a histogram of a hundred bars draws
    in half the time.  ``align``: "center" or "edge" (the bar's left side at x); ``bottom``: each bar's foot
    (stacked bars); ``label``: the bars' name in a legend."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    xs, heights = list(xs), list(heights)
    feet = [0.0] * len(xs) if bottom is None else [float(b) for b in bottom]
    vertices, codes = [], []
    for x, h, foot in zip(xs, heights, feet):
        left = x - width / 2 if align == "center" else x
        vertices += [(left, foot), (left + width, foot), (left + width, foot + h), (left, foot + h), (left, foot)]
        codes += [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    patch = PathPatch(Path(vertices or [(0, 0)], codes or [Path.MOVETO]), facecolor=color, edgecolor="none",
                      linewidth=0, label=label)
    patch.sticky_edges.y.extend(sorted(set(feet)))
    ax.add_artist(patch)
    if vertices:
        px, py = [v[0] for v in vertices], [v[1] for v in vertices]
        ax.update_datalim([(min(px), min(py)), (max(px), max(py))])
    ax.autoscale_view()
    return patch


def whole_numbers(ax, xs, span: float = 6.0, least: float = 0) -> None:
    """The x axis of a histogram of counts (turns, sips, lead changes: ``least`` or more): whole-number ticks,
    and at least ``span`` units shown, none below ``least``, so that a narrow histogram (every game six turns
    long) is a bar or two with room beside them rather than one bar filling the axes over ticks at 5.6, 5.8..."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    xs = list(xs)
    if xs and max(xs) - min(xs) < span - 1:
        low = max((max(xs) + min(xs) - span) / 2, least - 0.75)
        ax.set_xlim(low, low + span)


def intervals(ax, ys, lows, highs, values, colours, lw: float = 1.2, ms: float = 3):
    """A forest plot on ``ax``: at each height ``ys[i]`` a horizontal line from ``lows[i]`` to ``highs[i]`` and a
    dot at ``values[i]``, in ``colours[i]``; drawn as one line and one set of dots per colour."""
    nan = float("nan")
    groups: dict[str, list] = {}
    for y, lo, hi, v, c in zip(ys, lows, highs, values, colours):
        groups.setdefault(c, []).append((y, lo, hi, v))
    for c, rows in groups.items():
        line_x = [x for _, lo, hi, _ in rows for x in (lo, hi, nan)]
        line_y = [y for y, *_ in rows for y in (y, y, nan)]
        ax.plot(line_x, line_y, color=c, lw=lw)
    for c, rows in groups.items():
        ax.plot([v for *_, v in rows], [y for y, *_ in rows], "o", ls="none", color=c, ms=ms)
