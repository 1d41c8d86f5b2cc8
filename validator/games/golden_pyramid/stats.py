"""The Golden Pyramid's own statistics, what its designer asks of a run:

* turns (and rounds) until each level of the pyramid is complete and until the end;
* victory points by source (levels, columns, neighbours, builder and forced-move
  penalties, VP spent, the end bonus), for every player and for the winners;
* tiles built without their symbol; the highest level players reach;
* market churn (replacements per game) and trading (offers, acceptance, who gains);
* the first player's advantage at this run's player count (seat 1's win rate
  against a fair share);
* stalls: rounds in which nobody could build, and the longest stretch without a tile.

``Stats`` holds counts only (ints and Counters of ints), so merging is exact and
the figures are the same for any worker count.  ``summarize`` writes the
``golden`` block of summary.json; report.py reads it.
"""

from __future__ import annotations

from collections import Counter

from validator.kit.stats import diff_interval, hist_summary, rate, rounded

from .constants import THRESHOLDS

SOURCES = ("vp_levels", "vp_columns", "vp_neighbours", "builder_penalties", "forced_penalties", "vp_spent",
           "vp_bonus")
NEGATIVE = ("builder_penalties", "forced_penalties", "vp_spent")
PYRAMID_ENDS = ("pyramid", "pyramid-level", "pyramid-resources", "pyramid-tie")
LEVELS = 4


def th_get(th, key: str, default=None):
    """A threshold of the ``golden`` section (the default when the thresholds are not bound to this engine)."""
    try:
        return th.get("golden", key)
    except Exception:  # noqa: BLE001 - thresholds without this engine's section
        return THRESHOLDS["golden"][key][0] if default is None else default


class Stats:
    """Counts over the games of one run."""

    def __init__(self) -> None:
        self.games = 0
        self.turns = 0
        self.players = 0
        self.ends: Counter = Counter()
        self.level_turns = [Counter() for _ in range(LEVELS)]  # level -> Counter(turn it was completed)
        self.level_rounds = [Counter() for _ in range(LEVELS)]
        self.source = Counter()  # VP source -> total over every player
        self.winner_source = Counter()  # ... over the winners
        self.winners = 0  # winner-places (a shared win counts for each)
        self.player_games = 0
        self.final_vp: Counter = Counter()  # final VP -> players
        self.winner_vp: Counter = Counter()
        self.top_level: Counter = Counter()  # highest level contributed to -> players
        self.winner_top: Counter = Counter()
        self.c = Counter()  # the record's counters, summed
        self.per_game = {k: Counter() for k in ("no_symbol", "market_replaced", "trades", "offers",
                                                "blocked_rounds", "longest_blocked", "longest_idle")}
        self.seat_games = 0  # games with a result, for the seat figures
        self.seat_wins: Counter = Counter()
        self.trades_decided = 0  # accepted trades in games with one winner
        self.offerer_won = 0
        self.accepter_won = 0
        self.trader = Counter()  # "in"/"out" -> player-games; "in_won"/"out_won" -> wins

    def add(self, record, bots=()) -> None:
        self.games += 1
        self.turns += record.turns
        n = len(record.seats)
        self.players = n
        self.ends[record.end] += 1
        c = record.counters
        self.c.update(c)
        for k, hist in self.per_game.items():
            hist[c.get(k, 0)] += 1
        if record.end not in PYRAMID_ENDS and record.end != "no-building":
            return  # a game without a result says nothing about scores and levels
        for level, turn in enumerate(record.details.get("level_turns", ())):
            if turn:
                self.level_turns[level][turn] += 1
                self.level_rounds[level][(turn - 1) // n + 1] += 1
        pp = record.per_player
        winners = set(record.winners)
        for p in range(n):
            won = p in winners
            self.player_games += 1
            self.final_vp[record.scores[p]] += 1
            self.top_level[pp["top_level"][p]] += 1
            for k in SOURCES:
                v = pp[k][p]
                self.source[k] += v
                if won:
                    self.winner_source[k] += v
            if won:
                self.winners += 1
                self.winner_vp[record.scores[p]] += 1
                self.winner_top[pp["top_level"][p]] += 1
            side = "in" if pp["traded"][p] else "out"
            self.trader[side] += 1
            if won:
                self.trader[side + "_won"] += 1
        self.seat_games += 1
        for w in winners:
            self.seat_wins[record.seats[w]] += 1
        if len(winners) == 1:
            (w,) = winners
            for offerer, accepter in record.details.get("trades", ()):
                self.trades_decided += 1
                self.offerer_won += offerer == w
                self.accepter_won += accepter == w

    def merge(self, other: "Stats") -> None:
        for name in ("games", "turns", "winners", "player_games", "seat_games", "trades_decided", "offerer_won",
                     "accepter_won"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.players = self.players or other.players
        for name in ("ends", "source", "winner_source", "final_vp", "winner_vp", "top_level", "winner_top", "c",
                     "seat_wins", "trader"):
            getattr(self, name).update(getattr(other, name))
        for mine, theirs in zip(self.level_turns, other.level_turns):
            mine.update(theirs)
        for mine, theirs in zip(self.level_rounds, other.level_rounds):
            mine.update(theirs)
        for k, hist in other.per_game.items():
            self.per_game[k].update(hist)

    def summarize(self, game, tally=None, th=None) -> dict:
        return {"golden": summarize(self, game, th)}


def _mean(total: int, n: int):
    return round(total / n, 3) if n else None


def summarize(st: Stats, game, th=None) -> dict:
    n = st.players or getattr(game, "players", 0)
    g = st.games
    c = st.c
    decided = sum(st.ends[e] for e in PYRAMID_ENDS) + st.ends["no-building"]
    levels = []
    for lv in range(LEVELS):
        hist = st.level_turns[lv]
        done = sum(hist.values())
        levels.append({"level": lv + 1, "completed": rate(done, decided),
                       "turns": hist_summary(hist) if done else None,
                       "rounds": hist_summary(st.level_rounds[lv]) if done else None,
                       "histogram": {str(k): v for k, v in sorted(hist.items())}})
    pg = st.player_games
    sources = {}
    for k in SOURCES:
        sign = -1 if k in NEGATIVE else 1
        sources[k] = {"per_player": _mean(sign * st.source[k], pg), "per_winner": _mean(sign * st.winner_source[k],
                                                                                       st.winners),
                      "total": sign * st.source[k]}
    builds = c["builds"]
    min_run = int(th_get(th, "blocked_run"))
    blocked_games = sum(v for k, v in st.per_game["longest_blocked"].items() if k >= min_run)
    seat = []
    for s in range(n):
        r = rate(st.seat_wins[s], st.seat_games)
        r["fair"] = round(1 / n, 4) if n else None
        seat.append(r)
    first = seat[0] if seat else None
    t_in, t_out = st.trader["in"], st.trader["out"]
    diff = diff_interval(st.trader["in_won"], t_in, st.trader["out_won"], t_out) if t_in and t_out else None
    return {
        "players": n,
        "games": g,
        "decided": decided,
        "levels": levels,
        "ends": dict(sorted(st.ends.items())),
        "vp_sources": sources,
        "final_vp": {"all": hist_summary(st.final_vp) if st.final_vp else None,
                     "winners": hist_summary(st.winner_vp) if st.winner_vp else None},
        "top_level": {"all": {str(k): v for k, v in sorted(st.top_level.items())},
                      "winners": {str(k): v for k, v in sorted(st.winner_top.items())}},
        "tiles": {"builds": builds, "per_game": _mean(builds, g),
                  "no_symbol": rate(c["no_symbol"], builds),
                  "no_symbol_per_game": hist_summary(st.per_game["no_symbol"]) if g else None,
                  "builder_penalties": rate(c["builder_penalties"], builds),
                  "forced_moves_per_game": _mean(c["forced_moves"], g)},
        "market": {"replaced_per_game": hist_summary(st.per_game["market_replaced"]) if g else None,
                   "replaced": c["market_replaced"], "stuck": c["market_stuck"],
                   "trades_per_game": _mean(c["market_trades"], g), "refreshes_per_game": _mean(c["refreshes"], g)},
        "trading": {"offers_per_game": _mean(c["offers"], g), "accepted": rate(c["trades"], c["offers"]),
                    "trades_per_game": _mean(c["trades"], g),
                    "games_with_a_trade": rate(g - st.per_game["trades"][0], g) if g else None,
                    "offerer_won": rate(st.offerer_won, st.trades_decided),
                    "accepter_won": rate(st.accepter_won, st.trades_decided),
                    "traders_win": rate(st.trader["in_won"], t_in), "others_win": rate(st.trader["out_won"], t_out),
                    "difference": [rounded(x) for x in diff] if diff else None},
        "seats": seat,
        "first_seat": {"rate": first, "advantage": rounded(first["rate"] - first["fair"]) if first and
                       first["rate"] is not None else None,
                       "low": rounded(first["low"] - first["fair"]) if first else None,
                       "high": rounded(first["high"] - first["fair"]) if first else None},
        "stalls": {"blocked_turns": rate(c["blocked_turns"], st.turns),
                   "blocked_rounds_per_game": hist_summary(st.per_game["blocked_rounds"]) if g else None,
                   "longest_blocked": hist_summary(st.per_game["longest_blocked"]) if g else None,
                   "blocked_run": min_run, "games_blocked": rate(blocked_games, g),
                   "longest_idle": hist_summary(st.per_game["longest_idle"]) if g else None,
                   "stall_ends": st.ends["no-building"], "passes": c["passes"],
                   "empty_draws_per_game": _mean(c["empty_draws"], g)},
    }
