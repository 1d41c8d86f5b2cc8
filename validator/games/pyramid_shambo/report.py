"""Pyramid Shambo's part of the report: fees and change, the showdown and
cascades, the order players go out in by seat, kingmaking, and the verdicts on
them (thresholds in the ``shambo`` section)."""

from __future__ import annotations

from validator.kit import ReportSection, Verdict
from validator.kit.html import BLUE, GREY, ORANGE, bars, ci, esc, num, pct, plt, svg, table

PASS, WARN = "PASS", "WARN"

THRESHOLDS = {
    "shambo": {
        "kingmaker_warn": (0.75, "WARN when the player who makes the knock-out that leaves two goes on to win "
                                 "more often than this (the whole 95% interval above it): the game is decided "
                                 "by who gets the last bonus, not by the showdown"),
        "no_change_warn": (0.02, "WARN when more than this share of challenges end in a payment nobody can make "
                                 "change for (the rulebook does not say what happens then)"),
        "wipeout_warn": (0.01, "WARN when more than this share of games end with the last players going out "
                               "together (the rulebook names one winner)"),
    },
}


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def plot_fees(s: dict) -> str:
    rows = s["fees_by_ties"]
    if not rows:
        return ""
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(5.2, 2.6))
    xs = [r["ties"] for r in rows]
    bars(ax, [x - 0.2 for x in xs], [r["share"] for r in rows], width=0.4, color=BLUE, label="simulated")
    bars(ax, [x + 0.2 for x in xs], [r["uniform_share"] for r in rows], width=0.4, color=GREY,
         label="uniform throws: (1/3)^k x 2/3")
    ax.set_xlabel("ties before the challenge was won")
    ax.set_ylabel("share of challenges")
    ax.legend(frameon=False, loc="upper right")  # (the shares fall with the ties: the right is empty)
    return "<div class='plot'>" + svg(fig) + "</div>"


def plot_places(s: dict) -> str:
    rows = s["places_by_seat"]
    if not rows or not rows[0]["places"]:
        return ""
    pyplot = plt()
    fig, ax = pyplot.subplots(figsize=(5.2, 2.6))
    k = len(rows[0]["places"])
    bottom = [0.0] * len(rows)
    colours = [BLUE, "#748ffc", "#91a7ff", "#bac8ff", "#dbe4ff", GREY, "#adb5bd", "#ced4da", "#dee2e6", "#f1f3f5"]
    for j in range(k):
        vals = [(r["places"][j] / r["games"]) if r["games"] else 0 for r in rows]
        bars(ax, [r["seat"] for r in rows], vals, bottom=bottom, color=colours[j % len(colours)],
             label=_ordinal(j + 1))
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xlabel("seat (1 starts)")
    ax.set_ylabel("share of games")
    # beside the bars, which fill the axes from 0 to 1 and leave no room inside them
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0), title="place")
    return "<div class='plot'>" + svg(fig) + "</div>"


def sections(summary: dict) -> list[ReportSection]:
    s = summary.get("shambo")
    if not s:
        return []
    out = []
    # fees
    rows = [[esc(r["ties"]), esc(r["fee"]), esc(r["challenges"]), pct(r["share"]), pct(r["uniform_share"])]
            for r in s["fees_by_ties"]]
    pay = s["payments"]
    body = (f"<p>{esc(s['challenges'])} challenges; mean fee {num(s['mean_fee'], 2)} pips (showdown doubling "
            f"included), largest {esc((s['fee_summary'] or {}).get('max'))}.</p>"
            + "<div class='grid'><div>" + table(["ties", "fee (pips)", "challenges", "share", "uniform throws"],
                                                rows) + "</div><div>" + plot_fees(s) + "</div></div>"
            + table(["per challenge", "share"], [
                ["change made by the player being paid", pct(pay.get("change_payee"))],
                ["change made by an uninvolved player", pct(pay.get("change_other"))],
                ["nobody could make change", pct(pay.get("no_change"))],
                ["fee larger than everything the loser held", pct(pay.get("short_payments"))]]))
    out.append(ReportSection("shambo-fees", "Fees and change",
                             "Ties escalate the fee: with uniform throwers 2 challenges in 3 are won on the first "
                             "throw. Change-making is where players stop and count: look at how often it is needed.",
                             body))
    # showdown and cascades
    order_rows = []
    for k, causes in s["out_order"].items():
        total = sum(causes.values())
        order_rows.append([esc(_ordinal(int(k)) + " out")] + [esc(causes.get(c, 0)) for c in
                                                              ("challenge", "own-challenge", "bonus", "colour")]
                          + [esc(total)])
    body = table(["", "games"], [
        ["reached the showdown (two left of three or more)", ci(s["showdown"]) if s["showdown"] else "-"],
        ["had a cascade (a knock-out without a bonus)", ci(s["cascade_games"])],
        ["ended with the last players going out together", ci(s["wipeouts"])]])
    body += "<h3>Who goes out, in order, and how</h3>" + table(
        ["", "lost a challenge", "lost own challenge", "paying a bonus", "colour left", "all"], order_rows)
    out.append(ReportSection("shambo-showdown", "Showdown and cascades",
                             "The showdown doubles fees once two remain; cascades knock players out without a "
                             "bonus. Frequent cascades mean pieces of doomed colours pile up in few hands.", body))
    # places by seat
    rows = []
    for r in s["places_by_seat"]:
        g = r["games"] or 1
        rows.append([esc(r["seat"])] + [pct(x / g) for x in r["places"]] + [num(r["mean_place"], 2)])
    k = len(s["places_by_seat"][0]["places"]) if s["places_by_seat"] else 0
    body = "<div class='grid'><div>" + table(["seat"] + [_ordinal(j + 1) for j in range(k)] + ["mean place"], rows) \
        + "</div><div>" + plot_places(s) + "</div></div>"
    out.append(ReportSection("shambo-places", "Elimination order by seat",
                             "Each seat's finishing places (1st = winner). The start player throws first, so a "
                             "seat that goes out early more often than others shows a turn-order effect.", body))
    # kingmaking
    km = s["kingmaking"]
    start_rows = [[esc(c), esc(v["games"]), ci(v["profiter_won"])] for c, v in s["showdown_start"].items()]
    body = table(["", ""], [
        ["showdowns", esc(km["showdowns"])],
        ["the player who made the knock-out that left two then won", ci(km["profiter_won"])],
        ["... that knock-out was the victim losing their own challenge (they chose whom to enrich)",
         ci(km["victim_chose"])],
        ["... and then the player they chose won", ci(km["victim_chose_profiter_won"])]])
    body += "<h3>How the showdown began</h3>" + table(["cause", "games", "the knocker won"], start_rows)
    if len(s["by_bot"]) > 1:
        body += "<h3>Bots in the main games</h3>" + table(
            ["bot", "player-games", "win rate"], [[esc(b), esc(v["player_games"]), ci(v["wins"])]
                                                  for b, v in s["by_bot"].items()])
    out.append(ReportSection("shambo-kingmaking", "Kingmaking",
                             "The knock-out bonus and the pieces of the knocked-out player go to the winner of "
                             "the knock-out. If whoever makes the knock-out that leaves two nearly always wins, "
                             "the player who goes out third-last decides the game.", body))
    return out


def verdicts(s: dict, th) -> list[Verdict]:
    sh = s.get("shambo")
    if not sh:
        return []
    out = []
    km = sh["kingmaking"]["profiter_won"]
    limit = th.get("shambo", "kingmaker_warn")
    if km["rate"] is not None:
        text = (f"the player who made the knock-out that left two won {km['rate'] * 100:.0f}% of showdowns "
                f"[{km['low'] * 100:.0f}, {km['high'] * 100:.0f}] (limit {limit * 100:.0f}% with 95% confidence)")
        if km["rate"] > limit >= km["low"]:
            text += "; above the limit, but the interval reaches below it"
        out.append(Verdict(WARN if km["low"] > limit else PASS, "kingmaking", text))
    nc = sh["payments"].get("no_change")
    limit = th.get("shambo", "no_change_warn")
    if nc is not None:
        out.append(Verdict(WARN if nc > limit else PASS, "change-making",
                           f"{nc * 100:.2f}% of challenges end in a payment nobody can make change for "
                           f"(limit {limit * 100:.0f}%)"))
    w = sh["wipeouts"]
    limit = th.get("shambo", "wipeout_warn")
    out.append(Verdict(WARN if (w["rate"] or 0) > limit else PASS, "one winner",
                       f"{(w['rate'] or 0) * 100:.2f}% of games end with the last players going out together "
                       f"(limit {limit * 100:.0f}%)"))
    return out


__all__ = ["THRESHOLDS", "sections", "verdicts", "ORANGE"]
