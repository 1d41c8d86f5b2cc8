"""The drinking Pyramid's part of the report: sips (by seat, by memory), the
worst case a host should plan for, the explorer's run, rows nobody laid on;
the verdicts on them (thresholds in the ``drinking`` section)."""

from __future__ import annotations

from validator.kit import ReportSection, Verdict
from validator.kit.html import BLUE, RED, bars, ci, esc, num, plt, svg, table, whole_numbers

PASS, WARN = "PASS", "WARN"

THRESHOLDS = {
    "drinking": {
        "worst_p95_warn": (60, "WARN when, in 1 game of 20, the player who drinks most drinks more sips than this "
                               "(a sip is a small mouthful; about 12-15 make a can)"),
        "empty_row_warn": (0.25, "WARN when nobody lays a card on a whole row of 3 or more cards (the 6-, 5-, 4- "
                                 "or 3-row) in more than this share of games"),
    },
}


def _hist_plot(hist: dict, label: str, colour: str, mark=None) -> str:
    if not hist:
        return ""
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(5.2, 2.4))
    xs = [int(k) for k in hist]
    bars(ax, xs, list(hist.values()), width=1.0, color=colour)
    whole_numbers(ax, xs)
    if mark is not None:
        ax.axvline(mark, color=RED, linestyle="--", linewidth=1)
    ax.set_xlabel(label)
    ax.set_ylabel("count")
    return "<div class='plot'>" + svg(fig) + "</div>"


def _row(name, r):
    return [esc(name), num(r.get("mean"), 1), num(r.get("median"), 0), num(r.get("p95"), 0), esc(r.get("max"))]


def sections(summary: dict) -> list[ReportSection]:
    d = summary.get("drinking")
    if not d or not d["sips"]:
        return []
    out = []
    w = d["worst"]
    body = f"<p><b>{esc(d['statement'])}</b></p>"
    body += table(["the player who drinks most", "sips"], [
        ["typical game (median)", num(w["p50"], 0)], ["1 game in 10", num(w["p90"], 0)],
        ["1 game in 20", num(w["p95"], 0)], ["1 game in 100", num(w["p99"], 0)], ["worst game", esc(w["max"])]])
    body += _hist_plot(d["worst_histogram"], "sips of the player who drank most, per game", RED, w["p95"])
    out.append(ReportSection("drinking-worst", "Worst case",
                             "What a host should plan for: the heaviest drinker's sips per game. Bots never "
                             "stop early; people can, and the house rules (no exploration, spreading drinks, a "
                             "cap) bring these numbers down.", body))
    rows = [_row("everyone", d["sips"])] + [_row(f"seat {r['seat']}", r) for r in d["by_seat"]]
    rows += [_row(f"memory: {lv}", r) for lv, r in d["by_memory"].items()]
    body = "<div class='grid'><div>" + table(["", "mean", "median", "95th pct", "max"], rows) + "</div><div>" \
        + _hist_plot(d["sips_histogram"], "sips per player per game", BLUE) + "</div></div>"
    if len(d["by_memory"]) > 1:
        body += table(["memory", "player-games", "explored"],
                      [[esc(lv), esc(r["player_games"]), ci(r["explored"])] for lv, r in d["by_memory"].items()])
    out.append(ReportSection("drinking-sips", "Sips per player",
                             "Sips per player per game, by seat (seat 1 acts first, the last seat deals) and by "
                             "memory: a poor memory means wrong cards and more cards left to explore with.", body))
    e = d["exploration"]
    rows = [["games with an exploration", ci(e["games"])],
            ["cards turned by the explorer (mean, 95th pct, max)",
             f"{num(e['turns']['mean'])}, {num(e['turns']['p95'], 0)}, {esc(e['turns']['max'])}" if e["turns"]
             else "-"],
            ["restarts on a royal card (mean, 95th pct)",
             f"{num(e['restarts']['mean'])}, {num(e['restarts']['p95'], 0)}" if e["restarts"] else "-"],
            ["sips the explorer drinks (mean, 95th pct, max)",
             f"{num(e['sips']['mean'])}, {num(e['sips']['p95'], 0)}, {esc(e['sips']['max'])}" if e["sips"] else "-"],
            ["explorations stopped by an empty stockpile", ci(e["stockpile_out"])]]
    body = table(["", ""], rows) + table(["seat"] + [str(s + 1) for s in range(len(e["by_seat"]))],
                                         [["explored"] + [esc(x) for x in e["by_seat"]]])
    out.append(ReportSection("drinking-exploration", "The explorer's run",
                             "How long the exploration lasts and what it costs the explorer: a royal card (A, J, "
                             "Q, K) sends them back to the 6-row after drinking its row value.", body))
    er = d["empty_rows"]
    body = table(["", ""], [["whole rows nobody laid a card on, per game", num(er["per_game"], 2)],
                            ["games with at least one such row", ci(er["games_with_one"])],
                            ["pyramid cards nobody laid on, per game (of 21)", num(d["empty_cards_per_game"], 1)]])
    body += table(["row", "row value", "games where nobody laid a card on it"],
                  [[f"{x['row']}-row", esc(x["value"]), ci(x)] for x in er["by_row"]])
    out.append(ReportSection("drinking-rows", "Rows nobody could lay on",
                             "A row where nobody lays a card is a row without drinks given: the dull stretches "
                             "of the game.", body))
    return out


def verdicts(s: dict, th) -> list[Verdict]:
    d = s.get("drinking")
    if not d or not d["worst"]:
        return []
    out = []
    limit = th.get("drinking", "worst_p95_warn")
    p95 = d["worst"]["p95"]
    out.append(Verdict(WARN if p95 > limit else PASS, "worst case",
                       f"in 1 game of 20 the heaviest drinker drinks {p95:.0f} sips or more (limit {limit})"))
    limit = th.get("drinking", "empty_row_warn")
    r = d["empty_rows"]["long_rows"]["rate"] or 0
    out.append(Verdict(WARN if r > limit else PASS, "empty rows",
                       f"{r * 100:.0f}% of games have a row of 3 or more cards nobody could lay on "
                       f"(limit {limit * 100:.0f}%)"))
    return out
