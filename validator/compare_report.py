"""compare.html: this deck against its reference, figure by figure (with the paired difference and its 95%
interval), the verdicts that changed, and the cards whose effect moved."""

from __future__ import annotations

from validator.kit.html import GREEN, GREY, RED, esc, intervals, plt, svg, table

from .figures import gate_interval, unpaired_reasons
from .report import badge, page
from .sweep_report import MORE_CSS


def _num(x, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _signed(x, digits: int = 2) -> str:
    return "-" if x is None else f"{x:+.{digits}f}"


def _interval(lo, hi) -> str:
    return "-" if lo is None else f"[{lo:+.2f}, {hi:+.2f}]"


def plot_differences(figures: dict) -> str:
    """Each figure's difference with its interval, scaled by the reference value's size so that figures of
    different units share one axis: percent of the reference (points and percent figures: their own unit)."""
    rows = [(k, f) for k, f in figures.items() if f.get("difference") is not None]
    if not rows:
        return ""
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(7.2, 0.42 * len(rows) + 1.1))
    shown = [f for _, f in reversed(rows)]
    colours = [GREY if f["low"] <= 0 <= f["high"] else (RED if f["difference"] > 0 else GREEN) for f in shown]
    intervals(ax, range(len(shown)), [f["low"] for f in shown], [f["high"] for f in shown],
              [f["difference"] for f in shown], colours, lw=2, ms=5)
    ax.axvline(0, color="#1d1d1f", lw=0.8)
    ax.set_yticks(range(len(rows)), [f"{k} ({f['unit']})" if f["unit"] else k for k, f in reversed(rows)])
    ax.set_xlabel("this deck minus the reference, 95% interval (each in its own unit)")
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.grid(axis="x", color="#eee")
    ax.set_axisbelow(True)
    return svg(fig)


def render_compare(c) -> str:
    run, ref_run = c.summary["run"], c.reference["run"]
    worse = c.worse
    better = [v for v in c.verdicts if v["change"] == "better"]
    noise = [v for v in c.verdicts if v["change"] == "within noise"]
    status = "FAIL" if worse else "PASS"
    parts = [f"<h1>{esc(c.title)}: this deck against {esc(c.ref.label)}</h1>",
             f"<p class='sub'>{run['games']:,} games on each side, {run['players']} players, bots "
             f"{esc(', '.join(sorted(set(run['bots']))))}, master seed {run['master_seed']}.</p>",
             f"<p><span class='badge big {status}'>{len(worse)} verdict{'s' if len(worse) != 1 else ''} worse"
             f"</span> <span class='muted'>{len(better)} better, {len(noise)} within noise; pnp validate exits with "
             "1 when a verdict got worse</span></p>"]
    paired = any(f.get("paired") for f in c.figures.values())
    if paired:
        narrower = [1 - (f["high"] - f["low"]) / (f["unpaired_high"] - f["unpaired_low"])
                    for f in c.figures.values() if f.get("paired") and f["unpaired_high"] > f["unpaired_low"]]
        gain = sum(narrower) / len(narrower) if narrower else 0.0
        how = ("Both decks played the same game seeds, so each difference is paired: its 95% interval comes from a "
               f"bootstrap that resamples the same games on both sides (on average {gain * 100:.0f}% narrower "
               "than resampling each side on its own).")
    else:
        how = ""
    for why, keys in unpaired_reasons(c.figures).items():
        how += (f" Unpaired ({', '.join(keys)}): {why}, so each difference comes from the two runs' own intervals: "
                "wider than a paired one.")
    how += (" Pairing narrows an interval only where the two decks deal alike: a changed count reshuffles every "
            "deal, and its games pair no better than two separate runs.")
    rows = []
    for k, f in c.figures.items():
        kind = "paired" if f.get("paired") else "unpaired"
        rows.append([f"<code>{esc(k)}</code>", esc(f["label"]), esc(f["unit"]), _num(f["reference"]),
                     _num(f["value"]), f"<b>{_signed(f['difference'])}</b>", _interval(f["low"], f["high"]), kind])
    parts.append("<h2>Headline figures</h2><p class='look'>" + esc(how) + " An interval that leaves out 0 is a "
                 "difference the games show, not noise.</p>"
                 + table(["figure", "what it measures", "unit", "reference", "this deck", "difference",
                          "95% interval", ""], rows, left=2)
                 + f"<div class='plot'>{plot_differences(c.figures)}</div>")
    rows, cls = [], []
    for v in c.verdicts:
        f = c.figures.get(v.get("figure") or "")
        behind = "-" if f is None else (f"<code>{esc(v['figure'])}</code> {_signed(f['difference'])} "
                                        f"{_interval(*gate_interval(f))} "
                                        f"<span class='muted'>({f.get('gate', 0.95) * 100:.1f}%)</span>")
        rows.append([esc(v["check"]), badge(v["reference"]) if v["reference"] else "-",
                     badge(v["now"]) if v["now"] else "-", esc(v["change"]), behind,
                     esc(v["message"] or v["reference_message"] or "")])
        cls.append("dead" if v["change"] == "worse" else "")
    parts.append("<h2>Verdicts</h2><p class='look'>Each check on the reference (judged with this run's "
                 "thresholds) and on this deck; a worse one is highlighted. A check that got worse counts only when "
                 "it does not depend on chance (static checks, sample) or the figure behind it moved beyond its "
                 "interval; any other flip is <i>within noise</i> and leaves the exit code 0. The checks a figure "
                 "measures share the exit code's 5% error, so the interval read here is wider than 95% when there "
                 "are several: two runs of one deck exit 1 at most 5% of the time.</p>"
                 + table(["check", "reference", "this deck", "change", "figure behind it", "this deck's finding"],
                         rows, left=6, row_cls=cls))
    if c.cards:
        rows = []
        for r in c.cards:
            a, b = r["reference"], r["now"]
            rows.append([esc(r["name"]), f"<code>{esc(r['id'])}</code>",
                         "-" if not a or a["value"] is None else f"{a['value']:.1f} [{a['low']:.1f}, {a['high']:.1f}]",
                         "-" if not b or b["value"] is None else f"{b['value']:.1f} [{b['low']:.1f}, {b['high']:.1f}]",
                         f"<b>{_signed(r['difference'], 1)}</b>" if r["difference"] is not None else "-",
                         _interval(r["low"], r["high"]) if r["difference"] is not None else "-",
                         "yes" if r["clear"] else ""])
        parts.append(f"<h2>Cards whose effect moved</h2><p class='look'>{esc(c.cards[0]['measure'])}: the cards "
                     "that moved most, largest first; <i>clear</i> when the difference's interval leaves out 0.</p>"
                     + table(["card", "id", "reference", "this deck", "difference", "95% interval", "clear"], rows,
                             left=2))
    rows = [["", "reference", "this deck"],
            ["deck hash", f"<code>{esc(ref_run['deck_hash'])}</code>", f"<code>{esc(run['deck_hash'])}</code>"],
            ["rules hash", f"<code>{esc(ref_run['rules_hash'])}</code>", f"<code>{esc(run['rules_hash'])}</code>"],
            ["games", f"{ref_run['games']:,}", f"{run['games']:,}"],
            ["master seed", esc(ref_run["master_seed"]), esc(run["master_seed"])],
            ["verdict", badge(c.reference.get("verdict") or "PASS"), badge(c.summary["verdict"])]]
    parts.append("<h2>Run record</h2>" + table(rows[0], rows[1:], left=1)
                 + "<p class='muted'>This deck's full report: <a href='report.html'>report.html</a>.</p>")
    return page(f"{c.title}: compared with {c.ref.label}", parts, MORE_CSS)
