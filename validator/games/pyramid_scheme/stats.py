"""Pyramid Scheme's own statistics over many games: per-card usage and impact,
goals, rewards, and how the deck-exhausted games were decided.

Counts only, so merging is exact and the figures are the same for any worker
count.  ``summarize`` adds the ``cards``, ``goals`` and ``rewards`` blocks to
summary.json, and the deck-exhaustion figures to its ``outcome`` block.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from validator.kit.stats import diff_interval, hist_summary, rate


@dataclass
class CardStats:
    cards: dict = field(default_factory=dict)  # id -> [drawn, placed, flipped, player-games placed, wins placed]
    player_games: int = 0
    player_wins: int = 0
    goals: dict = field(default_factory=dict)  # id -> [dealt, claimed, sum of claim turns]
    rewards: dict = field(default_factory=dict)  # word -> [gained, had an effect]
    deck_scores: Counter = field(default_factory=Counter)  # winning smart-ass count when the deck ran out

    def add(self, record, bots: tuple[str, ...]) -> None:
        d = record.details
        winners = record.winners
        if record.end in ("deck", "deck-tie"):
            self.deck_scores[max(s for s in record.scores if s is not None)] += 1
        cards = self.cards
        for cid, (drawn, placed, flipped) in d["cards"].items():
            if not (drawn or placed or flipped):  # a missing row counts as zeros
                continue
            row = cards.get(cid)
            if row is None:
                row = cards[cid] = [0, 0, 0, 0, 0]
            row[0] += drawn
            row[1] += placed
            row[2] += flipped
        self.player_games += len(record.seats)
        self.player_wins += len(winners)
        for p, ids in enumerate(d["placed_by"]):
            won = p in winners
            for cid in ids:
                row = cards.get(cid)
                if row is None:
                    row = cards[cid] = [0, 0, 0, 0, 0]
                row[3] += 1
                row[4] += won
        for gid in d["goals_open"]:
            row = self.goals.setdefault(gid, [0, 0, 0])
            row[0] += 1
        for gid, _p, turn in d["goals_claimed"]:
            row = self.goals.setdefault(gid, [0, 0, 0])
            row[1] += 1
            row[2] += turn
        for word, (gained, effect) in d["rewards"].items():
            row = self.rewards.setdefault(word, [0, 0])
            row[0] += gained
            row[1] += effect

    def merge(self, other: "CardStats") -> None:
        self.player_games += other.player_games
        self.player_wins += other.player_wins
        self.deck_scores.update(other.deck_scores)
        for table in ("cards", "goals", "rewards"):
            mine = getattr(self, table)
            for key, row in getattr(other, table).items():
                if key in mine:
                    mine[key] = [a + b for a, b in zip(mine[key], row)]
                else:
                    mine[key] = list(row)

    def summarize(self, game, tally, th) -> dict:
        n_games = tally.games
        outcome = {
            "deck_end_winning_smart_asses": hist_summary(self.deck_scores) if self.deck_scores else None,
            "deck_end_smart_ass_histogram": {str(k): v for k, v in sorted(self.deck_scores.items())},
            "deck_exhausted": rate(tally.ends["deck"] + tally.ends["deck-tie"], n_games),
        }
        goals = []
        for d in game.goal_designs:
            dealt, claimed, turn_sum = self.goals.get(d.id, [0, 0, 0])
            r = rate(claimed, dealt)
            goals.append({"id": d.id, "name": d.name, "requires": d.requires, "dealt": dealt, "claimed": claimed,
                          "rate": r["rate"], "low": r["low"], "high": r["high"],
                          "mean_turn": round(turn_sum / claimed, 2) if claimed else None})
        rewards = []
        for word, (gained, effect) in sorted(self.rewards.items()):
            rewards.append({"reward": word, "gained": gained, "per_game": round(gained / n_games, 4),
                            "had_effect": effect, "effect_rate": round(effect / gained, 4) if gained else None})
        min_sample = int(th.get("deck", "min_sample"))
        cards = []
        for d in game.designs:
            if d.deck not in ("victim", "founder"):
                continue
            drawn, placed, flipped, pg, pw = self.cards.get(d.id, [0, 0, 0, 0, 0])
            row = {"id": d.id, "name": d.name, "deck": d.deck, "color": d.color, "number": d.number,
                   "requires": d.requires, "effect": d.effect, "drawn": drawn, "placed": placed, "flipped": flipped,
                   "placed_per_game": round(placed / n_games, 4),
                   "flip_rate": round(flipped / placed, 4) if placed else None,
                   "player_games_placed": pg, "win_rate_placed": round(pw / pg, 4) if pg else None}
            rest_n, rest_k = self.player_games - pg, self.player_wins - pw
            row["win_rate_not_placed"] = round(rest_k / rest_n, 4) if rest_n else None
            if pg >= min_sample and rest_n >= min_sample:
                diff, lo, hi = diff_interval(pw, pg, rest_k, rest_n)
                row.update(win_diff=round(diff, 4), diff_low=round(lo, 4), diff_high=round(hi, 4))
            else:
                row.update(win_diff=None, diff_low=None, diff_high=None)
            row["dead"] = (d.deck == "victim" and (placed == 0 or (flipped == 0 and bool(d.requires))))
            cards.append(row)
        return {"outcome": outcome, "goals": goals, "rewards": rewards, "cards": cards}
