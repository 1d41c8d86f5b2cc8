"""Tiny Tombs' own figures: what becomes of each relic, and whether curses bite."""

from collections import Counter

from validator.kit import ReportSection, Verdict
from validator.kit.html import esc, pct, table

LOST = ("stolen", "swapped", "cursed")


class Stats:
    """Counts per (what happened, card id) over all games; merging adds them, so any worker count agrees."""

    def __init__(self):
        self.used = Counter()

    def add(self, record, bots):
        self.used.update(record.details["used"])

    def merge(self, other):
        self.used.update(other.used)

    def summarize(self, game, tally, th):
        relics = []
        for d in range(game.designs):
            if game.power[d] != "curse":
                card = game.ids[d]
                relics.append({"id": card, "value": game.value[d], "copies": game.box.count(d),
                               **{w: round(self.used[(w, card)] / tally.games, 3) for w in ("played", *LOST)}})
        played, harmless = tally.counts["curses"], tally.counts["curses_harmless"]
        return {"relics": relics, "curses": {"played": played, "harmless": harmless,
                                             "harmless_share": round(harmless / played, 4) if played else None}}


def sections(s):
    rows = [[esc(r["id"]), r["value"], r["copies"], f"{r['played']:.1f}", *(f"{r[w]:.2f}" for w in LOST),
             pct((r["stolen"] + r["swapped"]) / r["played"] if r["played"] else None)] for r in s["relics"]]
    body = table(["relic", "value", "copies", "played", "stolen", "swapped away", "cursed away", "changed hands"],
                 rows)
    return [ReportSection("relics", "Relics", "Per game: how often each relic was played, stolen, swapped away "
                          "and lost to a curse. A relic that changes hands all the time, or never, shapes the game "
                          "more than its value says.", body)]


def verdicts(s, th):
    share = s["curses"]["harmless_share"]
    if share is None:
        return []
    text = f"{pct(share)} of the curses played found an empty hoard and cost nothing"
    return [Verdict("WARN" if share > th.get("tombs", "harmless_curse_warn") else "PASS", "curses", text)]
