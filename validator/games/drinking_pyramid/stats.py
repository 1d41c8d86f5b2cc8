"""The drinking Pyramid's own statistics: sips per player (by seat and by memory
level), the worst case per game, the explorer's run, rows nobody could lay on.

Counts only (histograms of whole numbers), so merging is exact and the
figures are the same for any worker count.  ``summarize`` adds the
``drinking`` block to summary.json.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from validator.kit.stats import hist_mean, hist_percentile, hist_summary, rate

from .constants import ROW_SIZES, ROW_VALUES
from .state import COUNTERS

COUNTER_HELP = {
    "cards_laid": "cards laid on a matching pyramid card",
    "wrong_cards": "wrong cards laid (taken back, row value drunk)",
    "sips": "sips drunk by everyone",
    "max_sips": "sips of the player who drank most",
    "empty_cards": "pyramid cards nobody laid a matching card on",
    "empty_rows": "rows nobody laid a matching card on",
    "questions": "questions put to a player",
    "refusals": "questions refused (drinks doubled)",
    "dealer_questions": "questions the dealer asked of a player who laid two or more cards",
    "explore_turns": "cards the explorer turned",
    "explore_restarts": "royal cards that sent the explorer back to the 6-row",
    "explore_sips": "sips the explorer drank",
    "stockpile_out": "1 when the stockpile ran out during the exploration",
    "exploration": "1 when somebody explored",
}
assert set(COUNTER_HELP) == set(COUNTERS)
PER_PLAYER = {
    "sips": "sips drunk",
    "cards_laid": "cards laid on a matching pyramid card",
    "wrong_cards": "wrong cards laid",
    "sips_given": "sips this player made others drink",
    "explored": "1 for the explorer",
}


def level(bot: str) -> str:
    return bot.split("@")[0]


@dataclass
class DrinkStats:
    games: int = 0
    players: int = 0
    sips: Counter = field(default_factory=Counter)  # sips -> player-games
    by_seat: dict = field(default_factory=dict)  # seat -> Counter
    by_level: dict = field(default_factory=dict)  # memory level (bot name) -> Counter
    worst: Counter = field(default_factory=Counter)  # most sips of one player in a game -> games
    explore_turns: Counter = field(default_factory=Counter)
    explore_sips: Counter = field(default_factory=Counter)
    restarts: Counter = field(default_factory=Counter)
    explorations: int = 0
    stockpile_out: int = 0
    explorer_seat: Counter = field(default_factory=Counter)
    explorer_level: Counter = field(default_factory=Counter)
    empty_rows: Counter = field(default_factory=Counter)
    empty_cards: Counter = field(default_factory=Counter)
    level_games: Counter = field(default_factory=Counter)
    empty_by_row: Counter = field(default_factory=Counter)  # row (0 = the 6-row) -> games nobody laid on it
    long_empty: int = 0  # games with a row of 3 or more cards nobody laid on

    def add(self, record, bots: tuple[str, ...]) -> None:
        self.games += 1
        n = len(record.seats)
        self.players = max(self.players, n)
        sips = record.per_player["sips"]
        for p in range(n):
            self.sips[sips[p]] += 1
            self.by_seat.setdefault(record.seats[p], Counter())[sips[p]] += 1
            if bots:
                lv = level(bots[p])
                self.by_level.setdefault(lv, Counter())[sips[p]] += 1
                self.level_games[lv] += 1
        self.worst[max(sips)] += 1
        c = record.counters
        self.empty_rows[c["empty_rows"]] += 1
        for r in record.details["empty_rows"]:
            self.empty_by_row[r] += 1
        self.long_empty += any(ROW_SIZES[r] >= 3 for r in record.details["empty_rows"])
        self.empty_cards[c["empty_cards"]] += 1
        if c["exploration"]:
            self.explorations += 1
            self.explore_turns[c["explore_turns"]] += 1
            self.explore_sips[c["explore_sips"]] += 1
            self.restarts[c["explore_restarts"]] += 1
            self.stockpile_out += c["stockpile_out"]
            e = record.details["explorer"]
            self.explorer_seat[record.seats[e]] += 1
            if bots:
                self.explorer_level[level(bots[e])] += 1

    def merge(self, other: "DrinkStats") -> None:
        self.games += other.games
        self.players = max(self.players, other.players)
        for name in ("sips", "worst", "explore_turns", "explore_sips", "restarts", "explorer_seat", "explorer_level",
                     "empty_rows", "empty_cards", "level_games", "empty_by_row"):
            getattr(self, name).update(getattr(other, name))
        for name in ("by_seat", "by_level"):
            mine = getattr(self, name)
            for k, h in getattr(other, name).items():
                mine.setdefault(k, Counter()).update(h)
        self.explorations += other.explorations
        self.long_empty += other.long_empty
        self.stockpile_out += other.stockpile_out

    def summarize(self, game, tally, th) -> dict:
        n = self.games

        def figures(h):
            if not h:
                return None
            return {"mean": round(hist_mean(h), 3), "p95": hist_percentile(h, 95), "max": max(h),
                    "median": hist_percentile(h, 50)}

        worst = {"p50": hist_percentile(self.worst, 50), "p90": hist_percentile(self.worst, 90),
                 "p95": hist_percentile(self.worst, 95), "p99": hist_percentile(self.worst, 99),
                 "max": max(self.worst) if self.worst else None} if self.worst else None
        seats = [dict(seat=s + 1, **(figures(self.by_seat.get(s, Counter())) or {}))
                 for s in range(self.players)]
        levels = {lv: dict(player_games=self.level_games[lv], explored=rate(self.explorer_level[lv],
                                                                             self.level_games[lv]),
                           **(figures(h) or {})) for lv, h in sorted(self.by_level.items())}
        statement = None
        if worst:
            statement = (f"In a {self.players}-player game the player who drinks most drinks {worst['p50']:.0f} "
                         f"sips in a typical game; in 1 game of 20, {worst['p95']:.0f} or more; in 1 of 100, "
                         f"{worst['p99']:.0f} or more; the most in {n:,} games was {worst['max']} sips.")
        return {"drinking": {
            "games": n,
            "sips": figures(self.sips),
            "sips_histogram": {str(k): v for k, v in sorted(self.sips.items())},
            "by_seat": seats,
            "by_memory": levels,
            "worst": worst,
            "worst_histogram": {str(k): v for k, v in sorted(self.worst.items())},
            "statement": statement,
            "exploration": {
                "games": rate(self.explorations, n),
                "turns": hist_summary(self.explore_turns) if self.explore_turns else None,
                "restarts": hist_summary(self.restarts) if self.restarts else None,
                "sips": hist_summary(self.explore_sips) if self.explore_sips else None,
                "stockpile_out": rate(self.stockpile_out, self.explorations),
                "by_seat": [self.explorer_seat[s] for s in range(self.players)],
            },
            "empty_rows": {"per_game": round(hist_mean(self.empty_rows), 4) if self.empty_rows else None,
                           "games_with_one": rate(sum(v for k, v in self.empty_rows.items() if k), n),
                           "histogram": {str(k): v for k, v in sorted(self.empty_rows.items())},
                           "by_row": [dict(row=ROW_SIZES[r], cards=ROW_SIZES[r], value=ROW_VALUES[r],
                                           **rate(self.empty_by_row[r], n)) for r in range(len(ROW_SIZES))],
                           "long_rows": rate(self.long_empty, n)},
            "empty_cards_per_game": round(hist_mean(self.empty_cards), 4) if self.empty_cards else None,
        }}


def csv_files(summary: dict) -> dict:
    """sips.csv: per seat and per memory level, mean, median, 95th percentile and maximum sips."""
    d = summary.get("drinking") or {}
    rows = [[f"seat {r['seat']}", r.get("mean"), r.get("median"), r.get("p95"), r.get("max")]
            for r in d.get("by_seat", [])]
    rows += [[f"memory {lv}", r.get("mean"), r.get("median"), r.get("p95"), r.get("max")]
             for lv, r in d.get("by_memory", {}).items()]
    return {"sips.csv": (["group", "mean", "median", "p95", "max"], rows)}
