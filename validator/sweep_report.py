"""The pages of ``pnp sweep`` and ``pnp tune``: self-contained HTML with inline SVG plots, built from the
evaluated variants alone (the same variants draw the same bytes, whatever the workers)."""

from __future__ import annotations

from typing import NamedTuple

from validator.kit.spec import option_text
from validator.kit.html import BLUE, GREEN, GREY, ORANGE, PURPLE, RED, esc, plt, svg, table

from .figures import describe
from .report import badge, page

SERIES = (BLUE, ORANGE, GREEN, PURPLE, RED, GREY, "#0b7285", "#862e9c")
MAX_SERIES = len(SERIES)
MORE_CSS = """
.vmap td{text-align:center}.vmap td.l{text-align:left}.cur{background:#eef6ff}
.small .badge{min-width:0;padding:0 4px;font-size:.72rem}
.plots{display:flex;flex-wrap:wrap;gap:12px 24px}.plots>div{flex:0 0 auto;max-width:100%}
"""


def fmt(f: dict | None, digits: int = 1) -> str:
    """A headline figure with its interval, as HTML."""
    if not f or f.get("value") is None:
        return "-"
    lo, hi = f.get("low"), f.get("high")
    interval = "" if lo is None else f" <span class='muted'>[{lo:.{digits}f}, {hi:.{digits}f}]</span>"
    return f"{f['value']:.{digits}f}{interval}"


def _cells(v, n_axes: int) -> list[str]:
    """A variant's number and its value of each varied parameter, as the first cells of its row."""
    return [str(v.index + 1)] + ([esc(x) for x in v.values] or ["as it is"] + [""] * (n_axes - 1))


def verdict_map(results, checks: list[str], axes_names: list[str]) -> str:
    """Rows: variants; columns: the varied values, the overall verdict, then every check's."""
    rows, cls = [], []
    for r in results:
        v = r.variant
        status = {x.check: x.status for x in r.verdicts}
        rows.append(_cells(v, len(axes_names)) + [badge(r.status)] +
                    [badge(status[c]) if c in status else "" for c in checks])
        cls.append("cur" if v.current else "")
    return table(["#"] + axes_names + ["verdict"] + checks, rows, left=1, cls="vmap small", row_cls=cls)


def figures_table(results, spec, axes_names: list[str]) -> str:
    keys = list(describe(spec))
    rows, cls = [], []
    for r in results:
        v = r.variant
        rows.append(_cells(v, len(axes_names)) + [fmt(r.headline.get(k)) for k in keys])
        cls.append("cur" if v.current else "")
    units = describe(spec)
    header = ["#"] + axes_names + [f"{k} ({units[k][1]})" if units[k][1] else k for k in keys]
    return table(header, rows, left=1, row_cls=cls)


def _numeric(labels) -> list[float] | None:
    try:
        return [float(x) for x in labels]
    except ValueError:
        return None


def plot_figure(results, axes, a: int, key: str, label: str, unit: str) -> str:
    """One figure against axis ``a``: a series per combination of the other axes' values (their mean when
    there are more than the palette holds), each point with its 95% interval."""
    axis = axes[a]
    labels = list(axis.labels)
    xs = _numeric(labels)
    pos = xs if xs is not None else list(range(len(labels)))
    series: dict[tuple, list] = {}
    for r in results:
        values = r.variant.values
        if not values:
            continue
        rest = values[:a] + values[a + 1:]
        x = labels.index(values[a])
        series.setdefault(rest, []).append((x, r.headline.get(key) or {}))
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(4.8, 2.9))
    many = len(series) > MAX_SERIES
    if many:  # too many lines to tell apart: every variant as a grey dot, the mean over them as the line
        dots = [(x, f["value"]) for pts in series.values() for x, f in pts if f.get("value") is not None]
        ax.plot([pos[x] for x, _ in dots], [y for _, y in dots], "o", ls="none", color=GREY, ms=3, alpha=0.5)
        means: dict = {}
        for x, y in dots:
            means.setdefault(x, []).append(y)
        mx = sorted(means)
        ax.plot([pos[x] for x in mx], [sum(means[x]) / len(means[x]) for x in mx], "-o", color=BLUE, ms=4,
                label=f"mean of {len(series)} combinations of the other parameters")
    else:
        width = (max(pos) - min(pos)) if len(pos) > 1 else 1.0
        shift = 0.012 * width
        for j, (rest, pts) in enumerate(sorted(series.items())):
            pts = sorted((x, f) for x, f in pts if f.get("value") is not None)
            if not pts:
                continue
            off = (j - (len(series) - 1) / 2) * shift
            px = [pos[x] + off for x, _ in pts]
            ys = [f["value"] for _, f in pts]
            err = [[y - (f["low"] if f.get("low") is not None else y) for y, (_, f) in zip(ys, pts)],
                   [(f["high"] if f.get("high") is not None else y) - y for y, (_, f) in zip(ys, pts)]]
            ax.errorbar(px, ys, yerr=err, fmt="-o", ms=4, capsize=3, color=SERIES[j % len(SERIES)], lw=1.2,
                        label=", ".join(rest) or None)
    ax.set_xticks(pos, labels)
    ax.set_xlabel(axis.name)
    ax.set_ylabel(f"{key} ({unit})" if unit else key)
    ax.set_title(label, loc="left")
    names = ax.get_legend_handles_labels()[1]
    if names and any(names):  # below the plot, so every plot keeps the same width
        others = ", ".join(b.name for i, b in enumerate(axes) if i != a)
        ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(0.0, -0.3), ncol=min(3, len(names)),
                  title=None if many else others, alignment="left")
    return svg(fig)


def plots(results, spec, axes, plotters=None) -> str:
    """A plot of every headline figure against every varied parameter (drawn by ``plotters``,
    validator.plotters.Plotters, where given: many at once)."""
    calls = []
    for key, (label, unit, _) in describe(spec).items():
        if all((r.headline.get(key) or {}).get("value") is None for r in results):
            continue
        points = [_Point(_Values(r.variant.values), {key: r.headline.get(key)}) for r in results]
        calls += [(points, axes, a, key, label, unit) for a in range(len(axes))]
    drawn = plotters.map(_plot_call, calls) if plotters is not None else [_plot_call(c) for c in calls]
    return "<div class='plots'>" + "".join(f"<div class='plot'>{svg_}</div>" for svg_ in drawn) + "</div>"


class _Values(NamedTuple):
    values: tuple


class _Point(NamedTuple):
    """What a plot reads of a variant (sweep.Evaluated): its values of the axes and the one headline figure
    it draws (a small thing to send to a plotting process)."""

    variant: _Values
    headline: dict


def _plot_call(call: tuple) -> str:
    points, axes, a, key, label, unit = call
    return plot_figure(points, axes, a, key, label, unit)


def run_table(record: dict) -> str:
    rows = [["game", f"{esc(record['title'])} (<code>{esc(record['game'])}</code>)"],
            ["games per variant", f"{record['games']:,}"], ["players", esc(record["players"])],
            ["bots", esc(record["bots"])], ["master seed", esc(record["master_seed"])],
            ["rules options", esc(", ".join(f"{k}={option_text(v)}"
                                            for k, v in record["rules_options"].items()))],
            ["thresholds", esc(record["thresholds_source"])]]
    if record.get("expansions"):
        rows.append(["boxes", esc(", ".join(record["expansions"]))])
    return table(["", ""], rows, left=2)


def axes_table(record: dict) -> str:
    """What was varied: each parameter, its values and its value as it is."""
    rows = [[f"<code>{esc(a['name'])}</code>", esc(", ".join(a["values"])), esc(a["as_is"] or "-")]
            for a in record["axes"]]
    return "<h2>What was varied</h2>" + table(["parameter", "values", "as it is"], rows, left=3)


def check_names(results: list) -> list[str]:
    """Every verdict check any variant (``sweep.Evaluated``) has, in the order they first appear."""
    names: list[str] = []
    for r in results:
        for v in r.verdicts:
            if v.check not in names:
                names.append(v.check)
    return names


def render_sweep(record: dict, spec, axes, results, plotters=None) -> str:
    names = [a.name for a in axes]
    n = len(results)
    grid = record.get("grid", n)
    which = f"{n} of {grid} variants sampled" if n < grid else f"{n} variant{'s' if n != 1 else ''}"
    games = (f"{record['games']:,} games per variant, then looks of twice as many until each variant's verdicts are "
             f"sure or {record['until_sure']['max_games']:,} games are played" if record.get("until_sure") else
             f"{record['games']:,} games per variant")
    parts = [f"<h1>{esc(record['title'])}: sweep of {which}</h1>",
             f"<p class='sub'>{games}, every variant on the same game seeds (master "
             f"seed {record['master_seed']}): game <i>i</i> is dealt and drawn alike wherever the variants allow, "
             "so differences between variants are less noisy than between separate runs.</p>"]
    parts.append(axes_table(record))
    unsure = [[str(r.variant.index + 1), f"{r.tally.games:,}", esc("; ".join(f"{u['check']}: {u['why']}"
                                                                          for u in r.unsure))]
              for r in results if r.unsure]
    if unsure:
        parts.append("<h2>Still unsure</h2><p class='look'>The variants whose verdicts the budget left unsure, and "
                     "why.</p>" + table(["#", "games", "unsure"], unsure, left=3))
    parts.append("<h2>Verdict map</h2><p class='look'>Each variant's verdicts (the deck as it is, when it is "
                 "among the variants, is highlighted). Verdicts near a threshold may flip with noise: read them "
                 "with the intervals below.</p>" + verdict_map(results, check_names(results), names))
    parts.append("<h2>Figures</h2><p class='look'>Every headline figure with its 95% interval.</p>"
                 + figures_table(results, spec, names))
    parts.append("<h2>Each figure against each parameter</h2><p class='look'>Points are variants with their 95% "
                 "intervals; a line joins the variants that differ only in the parameter on the x axis.</p>"
                 + plots(results, spec, axes, plotters))
    changes = [[str(r.variant.index + 1), esc(r.variant.label), "<br>".join(esc(c) for c in r.variant.changes)
                or "<span class='muted'>none: the deck as it is</span>"] for r in results]
    parts.append("<h2>Changes per variant</h2><p class='look'>The rows and options to change to play a variant.</p>"
                 + table(["#", "variant", "changes"], changes, left=3))
    parts.append("<h2>Run record</h2>" + run_table(record))
    return page(f"{record['title']}: sweep", parts, MORE_CSS)


def _goal_cell(j: dict) -> str:
    if j.get("value") is None:
        return "-"
    if isinstance(j["value"], str):
        return esc(j["value"])
    mark = "met surely" if j["sure"] else "met by the estimate only" if j["met"] else "not met"
    cls = "PASS" if j["sure"] else "WARN" if j["met"] else "FAIL"
    return (f"{j['value']:.1f} <span class='muted'>[{j['low']:.1f}, {j['high']:.1f}]</span> "
            f"<span class='badge {cls}'>{mark}</span>")


def render_tune(record: dict, spec, result) -> str:
    """The tuning page: the goals, the best variants with their figures and the changes that make them, the
    deck as it is for comparison, the rounds of the search and every variant tried."""
    goals = result.goals
    parts = [f"<h1>{esc(record['title'])}: tuning for {esc(', '.join(g.text for g in goals))}</h1>",
             f"<p class='sub'>{len(result.ranked)} variants (the deck as it is among them), successive halving from "
             f"{record['start']:,} to {record['games']:,} games, every variant on the same game seeds (master seed "
             f"{record['master_seed']}); {result.games_played:,} games in all.</p>"]
    best = result.best
    top = best[0] if best else None
    if top is not None and top.met:
        lead = ("The best variant meets every goal " + ("surely: every interval lies inside its goal" if top.sure
                else "by its estimates only (an interval reaches outside its goal: more games, or --until-sure, "
                     "would tell)") + ".")
    else:
        lead = "No variant tried meets every goal; the closest are below."
    parts.append(f"<h2>Best variants</h2><p class='look'>{esc(lead)} Each goal: the figure, its 95% interval and "
                 "whether the whole interval (met surely) or only the estimate (met by the estimate only) lies "
                 "inside the goal.</p>")
    rows = []
    shown = list(best) + ([result.as_is] if result.as_is is not None and result.as_is not in best else [])
    for t in shown:
        v = t.evaluated.variant
        rows.append([esc(v.label) + (" <span class='muted'>(as it is)</span>" if v.current else ""),
                     "<br>".join(esc(c) for c in v.changes) or "<span class='muted'>none</span>",
                     f"{t.evaluated.tally.games:,}", badge(t.evaluated.status)]
                    + [_goal_cell(j) for j in t.goals])
    parts.append(table(["variant", "change to make", "games", "verdict"] + [g.text for g in goals], rows, left=2))
    if top is not None:
        keys = list(describe(spec))
        rows = [[esc(k), esc(describe(spec)[k][1])] + [fmt(t.evaluated.headline.get(k)) for t in shown]
                for k in keys]
        parts.append("<h2>Every figure of these variants</h2>"
                     + table(["figure", "unit"] + [f"#{t.evaluated.variant.index + 1}" +
                                                   (" (as it is)" if t.evaluated.variant.current else "")
                                                   for t in shown], rows, left=2))
    rows = [[str(r["round"]), f"{r['games']:,}", str(len(r["variants"])),
             esc(", ".join(f"#{i + 1}" for i in r["variants"][:8]) + (" ..." if len(r["variants"]) > 8 else ""))]
            for r in result.rounds]
    parts.append("<h2>Rounds</h2><p class='look'>Each round's variants, best first; the best third (at least "
                 f"{record['keep']}, and the deck as it is) play on with more games.</p>"
                 + table(["round", "games per variant", "variants", "ranking"], rows, left=1))
    rows, cls = [], []
    for rank, t in enumerate(result.ranked, 1):
        v = t.evaluated.variant
        rows.append([str(rank), f"#{v.index + 1}", esc(v.label), str(t.round + 1), f"{t.evaluated.tally.games:,}",
                     f"{t.score[0]:.2f}"] + [_goal_cell(j) for j in t.goals])
        cls.append("cur" if v.current else "")
    parts.append("<h2>Every variant tried</h2><p class='look'>Ranked by the round reached, then by the distance "
                 "from the goals (0: the estimates meet every goal; in units of each goal's own size).</p>"
                 + table(["rank", "#", "variant", "round", "games", "distance"] + [g.text for g in goals], rows,
                         left=3, row_cls=cls))
    parts.append(axes_table(record))
    parts.append("<h2>Run record</h2>" + run_table(record))
    return page(f"{record['title']}: tuning", parts, MORE_CSS)
