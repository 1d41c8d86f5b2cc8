"""Pyramid Shambo's own statistics over many games: fees and ties, the showdown,
cascades and change-making, the order players go out in by seat, and
kingmaking (who profits from the knock-out that starts the showdown).

Counts only, so merging is exact and the figures are the same for any worker
count.  ``summarize`` adds the ``shambo`` block to summary.json.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import count
from operator import itemgetter

from validator.kit.stats import count_into, hist_mean, hist_summary, rate

from .state import COUNTERS

COUNTER_HELP = {
    "challenges": "challenges (one per turn)",
    "throws": "rock-paper-scissors throws",
    "ties": "tied throws (each raises the fee)",
    "max_fee": "largest fee of the game, in pips",
    "showdown": "1 when the game reached the showdown (two players left of more)",
    "showdown_challenges": "challenges thrown in the showdown (doubled fees)",
    "knockouts": "players knocked out by a challenge",
    "cascades": "players knocked out by a bonus payment or a colour leaving (no bonus)",
    "self_eliminations": "active players knocked out in their own challenge",
    "bonus_paid": "knock-out bonus payments made",
    "bonus_skipped": "bonuses not paid for want of a small pyramid (rule option)",
    "change_payee": "payments where the player being paid made change",
    "change_other": "payments where an uninvolved player made change",
    "no_change": "payments nobody could make change for (over- or underpaid)",
    "short_payments": "fees larger than everything the loser held",
}
assert set(COUNTER_HELP) == set(COUNTERS)
PER_PLAYER = {
    "knockouts": "players this player knocked out by a challenge",
    "place": "finishing place (1 = winner; 0 for a game stopped without a result)",
    "final_pips": "pips held at the end",
}


_CAUSE = itemgetter(2)


@dataclass
class ShamboStats:
    games: int = 0
    players: int = 0
    fees: Counter = field(default_factory=Counter)  # (ties, showdown) -> challenges
    paid: Counter = field(default_factory=Counter)  # paid - owed -> challenges
    place: Counter = field(default_factory=Counter)  # (seat, place) -> games
    out_order: Counter = field(default_factory=Counter)  # (k-th out, cause) -> count
    showdown_games: int = 0
    ko_start: Counter = field(default_factory=Counter)  # how the showdown began: cause -> games
    ko_start_won: Counter = field(default_factory=Counter)  # ... and the player who profited won
    victim_choice: int = 0  # showdowns begun by the victim's own challenge (the victim chose the beneficiary)
    victim_choice_won: int = 0
    cascade_games: int = 0
    wipeouts: int = 0
    by_bot_place: Counter = field(default_factory=Counter)  # (bot, place) -> player-games

    def add(self, record, bots: tuple[str, ...]) -> None:
        self.games += 1
        n = len(record.seats)
        if n > self.players:
            self.players = n
        d = record.details
        kinds = {}  # each kind of fee (ties, owed, paid, showdown) -> how often, in the order first met
        count_into(kinds, d["fees"])
        by_ties, paid_more = self.fees, self.paid  # (the counts a loop over the fees adds, in its order)
        for fee, k in kinds.items():
            ties, due, paid, sd = fee
            by_ties[(ties, sd)] += k  # (ties, showdown) per fee
            if paid != due:
                paid_more[paid - due] += k
        places = record.per_player.get("place", [0] * n)
        count_into(self.place, zip(record.seats, places))  # (seat, place) per player
        if bots:
            count_into(self.by_bot_place, zip(bots, places))
        kos = d["kos"]
        count_into(self.out_order, zip(count(), map(_CAUSE, kos)))  # (k-th out, cause)
        if record.counters.get("cascades"):
            self.cascade_games += 1
        if record.end == "wipe-out":
            self.wipeouts += 1
        if n > 2:
            start = _showdown_start(kos)
            if start is not None:
                q, knocker, cause, turn, before = start
                self.showdown_games += 1
                self.ko_start[cause] += 1
                won = knocker >= 0 and knocker in record.winners
                if won:
                    self.ko_start_won[cause] += 1
                if cause == "own-challenge":
                    self.victim_choice += 1
                    self.victim_choice_won += won

    def merge(self, other: "ShamboStats") -> None:
        self.games += other.games
        self.players = max(self.players, other.players)
        for name in ("fees", "paid", "place", "out_order", "ko_start", "ko_start_won", "by_bot_place"):
            getattr(self, name).update(getattr(other, name))
        for name in ("showdown_games", "victim_choice", "victim_choice_won", "cascade_games", "wipeouts"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def summarize(self, game, tally, th) -> dict:
        n = self.games
        players = self.players or game.players
        challenges = sum(self.fees.values())
        by_ties = Counter()
        for (ties, sd), k in self.fees.items():
            by_ties[ties] += k
        unit = game.unit
        fee_rows = []
        for ties in sorted(by_ties):
            k = by_ties[ties]
            expected = (1 / 3) ** ties * (2 / 3)
            fee_rows.append({"ties": ties, "fee": unit + game.escalation * ties, "challenges": k,
                             "share": round(k / challenges, 4) if challenges else None,
                             "uniform_share": round(expected, 4)})
        sd_fees = Counter()
        for (ties, sd), k in self.fees.items():
            sd_fees[(unit + game.escalation * ties) * (2 if sd else 1)] += k
        place_rows = []
        for seat in range(players):
            row = [self.place[(seat, k)] for k in range(1, players + 1)]
            total = sum(self.place[(seat, k)] for k in range(0, players + 1))
            mean = sum(k * c for k, c in zip(range(1, players + 1), row)) / sum(row) if sum(row) else None
            place_rows.append({"seat": seat + 1, "places": row, "games": total,
                               "mean_place": round(mean, 3) if mean is not None else None})
        order = {}
        for (k, cause), c in sorted(self.out_order.items()):
            order.setdefault(str(k + 1), {})[cause] = c
        starts = {cause: {"games": c, "profiter_won": rate(self.ko_start_won[cause], c)}
                  for cause, c in sorted(self.ko_start.items())}
        bots = sorted({b for b, _ in self.by_bot_place})
        by_bot = {}
        for b in bots:
            games_b = sum(c for (x, _), c in self.by_bot_place.items() if x == b)
            by_bot[b] = {"player_games": games_b, "wins": rate(self.by_bot_place[(b, 1)], games_b)}
        counts = tally.counts if hasattr(tally, "counts") else {}
        per_challenge = {}
        for key in ("change_payee", "change_other", "no_change", "short_payments"):
            per_challenge[key] = round(counts.get(key, 0) / challenges, 4) if challenges else None
        return {"shambo": {
            "games": n,
            "challenges": challenges,
            "mean_fee": round(hist_mean(sd_fees), 4) if sd_fees else None,
            "fee_summary": hist_summary(sd_fees) if sd_fees else None,
            "fees_by_ties": fee_rows,
            "fees_in_pips": {str(k): v for k, v in sorted(sd_fees.items())},
            "paid_minus_owed": {str(k): v for k, v in sorted(self.paid.items())},
            "payments": per_challenge,
            "showdown": rate(self.showdown_games, n) if players > 2 else None,
            "cascade_games": rate(self.cascade_games, n),
            "wipeouts": rate(self.wipeouts, n),
            "places_by_seat": place_rows,
            "out_order": order,
            "showdown_start": starts,
            "kingmaking": {
                "showdowns": self.showdown_games,
                "profiter_won": rate(sum(self.ko_start_won.values()), self.showdown_games),
                "victim_chose": rate(self.victim_choice, self.showdown_games),
                "victim_chose_profiter_won": rate(self.victim_choice_won, self.victim_choice),
            },
            "by_bot": by_bot,
        }}


def _showdown_start(kos):
    """The elimination that left two players (in a game of three or more), if any."""
    for q, knocker, cause, turn, before in kos:
        if before == 3:
            return (q, knocker, cause, turn, before)
    return None


def csv_files(summary: dict) -> dict:
    """fees.csv: challenges by ties before the win, against the uniform throwers' share."""
    s = summary.get("shambo") or {}
    rows = [[r["ties"], r["fee"], r["challenges"], r["share"], r["uniform_share"]] for r in s.get("fees_by_ties", [])]
    return {"fees.csv": (["ties", "fee", "challenges", "share", "uniform_share"], rows)}
