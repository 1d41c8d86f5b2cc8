"""Tiny Tombs' own figures: what happened to each relic, and whether curses bite."""

from collections import Counter

from validator.kit import ReportSection, Verdict
from validator.kit.html import esc, table

WHAT = ("played", "stolen", "swapped", "cursed", "kept")


class Stats:
    """Counts per (what happened, card id) over all games; merging adds them, so any worker count agrees."""

    def __init__(self):
        self.used = Counter()

    def add(self, record, bots):
        self.used.update(record.details.get("used", {}))

    def merge(self, other):
        self.used.update(other.used)

    def summarize(self, game, tally, th):
        games = tally.games
        relics = [{"id": game.ids[d], "value": game.value[d], "copies": game.box.count(d),
                   **{w: round(self.used[(w, game.ids[d])] / games, 3) for w in WHAT}}
                  for d in range(game.designs) if game.power[d] != "curse"]
        curses = tally.counts["curses"]
        harmless = tally.counts["curses_harmless"]
        return {"relics": relics, "curses": {"played": curses, "harmless": harmless,
                                             "harmless_share": round(harmless / curses, 4) if curses else None}}


def sections(s):
    rows = [[esc(r["id"]), r["value"], r["copies"], *(f"{r[w]:.2f}" for w in WHAT)] for r in s["relics"]]
    body = table(["relic", "value", "copies", *(f"{w} per game" for w in WHAT)], rows)
    return [ReportSection("relics", "Relics", "Relics nobody keeps, or that change hands all the time.", body)]


def verdicts(s, th):
    share = s["curses"]["harmless_share"]
    if share is None:
        return []
    warn = th.get("tombs", "harmless_curse_warn")
    text = f"{share * 100:.0f}% of the curses played found an empty hoard and cost nothing"
    return [Verdict("WARN" if share > warn else "PASS", "curses", text)]
