"""Streaming statistics over simulated games.

A :class:`Tally` holds only counts (integers and histograms of integers), so
merging tallies is exact and order-free: the same games give the same figures
whatever the number of workers or batches, and memory does not grow with the
number of games.  Rates, percentiles and intervals are computed at the end.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from validator.kit.stats import (Z95, count_into, diff_interval, hist_mean, hist_percentile, hist_summary, percent,
                                 rate, rounded, wilson)

FAILURE_EXAMPLES = 10  # seeds kept per failure kind
STALLS = ("turn-cap", "loop", "stuck")  # end reasons without a result (an engine's spec may name others)

__all__ = ["Z95", "wilson", "diff_interval", "rate", "hist_percentile", "hist_mean", "hist_summary", "rounded",
           "percent", "game_quality", "TimeModel", "Tally", "new_tally"]


def game_quality(standings: list[list], winners: list[int]) -> dict:
    """Lead changes, drama and the moment of decision of one game, in the spirit
    of Ludii's game metrics, from its standings: one row per round (the last row
    at the end of the game), one value per player, None for a player who is out.

    * ``leaders``: per row the player strictly ahead of everyone else still in,
      None when the top is shared.
    * ``lead_changes``: how often the leader differs from the previous one
      (rows with a shared top are skipped); ``led``: rows with a leader.
    * With exactly one winner (else these are None): ``behind``, the rows in
      which someone still in was strictly ahead of the eventual winner;
      ``worst_place``, the winner's lowest place (1 + the players strictly ahead);
      ``deficit``, the largest gap between the leader and the winner;
      ``decided``, the 1-based row from which the winner led alone to the end
      (``rows`` when the winner did not lead alone at the end either).
    """
    leaders = []
    for row in standings:
        best, leader = None, None
        for p, x in enumerate(row):
            if x is None:
                continue
            if best is None or x > best:
                best, leader = x, p
            elif x == best:
                leader = None
        leaders.append(leader)
    changes = led = 0
    previous = None
    for leader in leaders:
        if leader is not None:
            led += 1
            if previous is not None and leader != previous:
                changes += 1
            previous = leader
    rows = len(standings)
    out = {"rows": rows, "leaders": leaders, "lead_changes": changes, "led": led,
           "behind": None, "worst_place": None, "deficit": None, "decided": None}
    if len(winners) != 1 or not rows:
        return out
    w = winners[0]
    behind = deficit = 0
    worst = 1
    for row in standings:
        mine = row[w]
        if mine is None:
            continue
        ahead, gap = 0, 0
        for x in row:
            if x is not None and x > mine:
                ahead += 1
                gap = max(gap, x - mine)
        if ahead:
            behind += 1
            worst = max(worst, 1 + ahead)
            deficit = max(deficit, gap)
    run = 0  # rows at the end in which the winner led alone
    while run < rows and leaders[rows - 1 - run] == w:
        run += 1
    out.update(behind=behind, worst_place=worst, deficit=deficit, decided=rows - run + 1 if run else rows)
    return out


@dataclass
class TimeModel:
    """Estimated table time: per turn plus per decision a player takes, plus setup."""

    seconds_per_turn: float = 15.0
    seconds_per_action: float = 5.0
    setup_minutes: float = 0.0

    def minutes(self, turns: int, actions: int) -> float:
        return self.setup_minutes + (turns * self.seconds_per_turn + actions * self.seconds_per_action) / 60.0


@dataclass
class Tally:
    """Counts over a set of games; ``merge`` adds another tally.  ``ext`` is the
    engine's own stats extension (``GameSpec.stats``), fed the same records."""

    players: int = 0
    games: int = 0
    turns: Counter = field(default_factory=Counter)
    rounds: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    tenths: Counter = field(default_factory=Counter)  # estimated minutes x 10, rounded
    seat_games: Counter = field(default_factory=Counter)
    seat_wins: Counter = field(default_factory=Counter)
    seat_solo: Counter = field(default_factory=Counter)
    win_sets: Counter = field(default_factory=Counter)  # the winning seats of a game (bit s: seat s+1; 0: none) -> games
    ties: int = 0
    no_winner: int = 0
    ends: Counter = field(default_factory=Counter)
    elim: Counter = field(default_factory=Counter)  # cause -> count
    elim_turns: Counter = field(default_factory=Counter)  # cause -> sum of turns
    elim_seat: Counter = field(default_factory=Counter)  # (cause, seat) -> count
    counts: Counter = field(default_factory=Counter)  # the record's counters: name -> total over games
    per_player: dict = field(default_factory=dict)  # per-player counter -> Counter(seat -> total)
    decisions: int = 0
    choices: int = 0
    legal_sum: int = 0
    turns_total: int = 0
    turns_with_choice: int = 0
    bot_seats: Counter = field(default_factory=Counter)  # bot -> seats played
    bot_wins: Counter = field(default_factory=Counter)  # bot -> seats that won (ties count for each)
    failures: dict = field(default_factory=dict)  # kind -> [count, [(game index, seed), ...]]
    # lead and drama (games whose rules engine reports standings; see game_quality)
    q_games: int = 0
    q_lead_changes: Counter = field(default_factory=Counter)  # lead changes -> games
    q_led: int = 0  # rows with a leader, summed over games
    q_transitions: int = 0  # rows with a leader after the first one, summed: where a lead change could happen
    q_decisive: int = 0  # games with one winner (the drama figures' base)
    q_behind_games: int = 0  # ... in which the winner was behind at some point
    q_wire: int = 0  # ... in which the winner led alone from the first standing to the end
    q_late: int = 0  # ... in which the winner did not lead alone before the last standing
    q_behind_rows: int = 0
    q_rows: int = 0  # rows of those games
    q_worst_place: Counter = field(default_factory=Counter)  # the winner's worst place -> games
    q_deficit: Counter = field(default_factory=Counter)  # largest gap overcome (comebacks only) -> games
    q_decided: Counter = field(default_factory=Counter)  # percent of the game after which the winner led -> games
    stalls: tuple = STALLS  # end reasons counted as failures
    ext: Any = None  # the engine's stats extension
    figure_defs: tuple = ()  # the engine's headline figures (GameSpec.figures)
    figures: dict = field(default_factory=dict)  # figure key -> Counter(value per game -> games)

    def add_game(self, index: int, seed: int, record, bots: tuple[str, ...], play: dict, model: TimeModel) -> tuple:
        """Count one game; returns its value of each of the engine's figures (``figure_defs``), for
        the per-game rows a paired comparison reads."""
        # (every count below is kept in the order a plain loop over the record adds it: same figures, same dicts)
        self.games += 1
        seats = record.seats
        n = self.players = len(seats)
        turns, actions = record.turns, record.actions
        self.turns[turns] += 1
        self.rounds[record.rounds] += 1
        self.actions[actions] += 1
        self.tenths[round(model.minutes(turns, actions) * 10)] += 1
        winners = record.winners
        count_into(self.seat_games, seats)  # (Counter.update)
        count_into(self.bot_seats, bots[:n])  # (bots[p] for each player p)
        if winners:
            solo = len(winners) == 1
            if not solo:
                self.ties += 1
            seat_wins, bot_wins, seat_solo = self.seat_wins, self.bot_wins, self.seat_solo
            mask = 0
            for p in winners if solo else [p for p in range(n) if p in winners]:  # (in player order)
                seat = seats[p]
                mask |= 1 << seat
                seat_wins[seat] += 1
                bot_wins[bots[p]] += 1
                if solo:
                    seat_solo[seat] += 1
            self.win_sets[mask] += 1
        else:
            self.no_winner += 1
            self.win_sets[0] += 1
        end = record.end
        self.ends[end] += 1
        if record.eliminations:
            elim, elim_turns, elim_seat = self.elim, self.elim_turns, self.elim_seat
            for p, cause, turn in record.eliminations:
                elim[cause] += 1
                elim_turns[cause] += turn
                elim_seat[(cause, seats[p])] += 1
        counts = self.counts
        if counts:  # Counter.update with a mapping, without its checks
            get = counts.get
            for name, v in record.counters.items():
                counts[name] = v + get(name, 0)
        else:
            counts.update(record.counters)
        per_player = self.per_player
        for name, values in record.per_player.items():
            by_seat = per_player.get(name)
            if by_seat is None:
                by_seat = per_player[name] = Counter()
            for p, v in enumerate(values):
                by_seat[seats[p]] += v
        if self.ext is not None:
            self.ext.add(record, bots)
        values = tuple(f.value(record) for f in self.figure_defs)
        if values:
            figures = self.figures
            for f, value in zip(self.figure_defs, values):
                hist = figures.get(f.key)
                if hist is None:
                    hist = figures[f.key] = Counter()
                hist[value] += 1
        self.decisions += play["decisions"]
        self.choices += play["choices"]
        self.legal_sum += play["legal_sum"]
        self.turns_total += turns
        self.turns_with_choice += play["turns_with_choice"]
        if end in self.stalls:
            self.add_failure(end, index, seed)
        if play.get("standings"):
            self.add_quality(game_quality(play["standings"], winners))
        return values

    def add_quality(self, q: dict) -> None:
        self.q_games += 1
        self.q_lead_changes[q["lead_changes"]] += 1
        self.q_led += q["led"]
        self.q_transitions += max(0, q["led"] - 1)
        if q["decided"] is None:
            return
        self.q_decisive += 1
        self.q_rows += q["rows"]
        self.q_behind_rows += q["behind"]
        self.q_worst_place[q["worst_place"]] += 1
        if q["behind"]:
            self.q_behind_games += 1
            self.q_deficit[q["deficit"]] += 1
        self.q_decided[percent(q["decided"], q["rows"])] += 1
        self.q_wire += q["decided"] == 1
        self.q_late += q["decided"] == q["rows"]

    def add_failure(self, kind: str, index: int, seed: int) -> None:
        row = self.failures.setdefault(kind, [0, []])
        row[0] += 1
        row[1].append((index, seed))
        row[1].sort()
        del row[1][FAILURE_EXAMPLES:]

    def merge(self, other: "Tally") -> None:
        self.players = self.players or other.players
        self.games += other.games
        for name in ("turns", "rounds", "actions", "tenths", "seat_games", "seat_wins", "seat_solo", "win_sets", "ends",
                     "elim",
                     "elim_turns", "elim_seat", "counts", "bot_seats", "bot_wins", "q_lead_changes",
                     "q_worst_place", "q_deficit", "q_decided"):
            getattr(self, name).update(getattr(other, name))
        for name in ("ties", "no_winner", "decisions", "choices", "legal_sum", "turns_total", "turns_with_choice",
                     "q_games", "q_led", "q_transitions", "q_decisive", "q_behind_games", "q_wire", "q_late",
                     "q_behind_rows", "q_rows"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name, by_seat in other.per_player.items():
            self.per_player.setdefault(name, Counter()).update(by_seat)
        self.figure_defs = self.figure_defs or other.figure_defs
        for key, hist in other.figures.items():
            self.figures.setdefault(key, Counter()).update(hist)
        for kind, (count, examples) in other.failures.items():
            row = self.failures.setdefault(kind, [0, []])
            row[0] += count
            row[1] = sorted(row[1] + list(examples))[:FAILURE_EXAMPLES]
        if other.ext is not None:
            if self.ext is None:
                self.ext = copy.deepcopy(other.ext)
            else:
                self.ext.merge(other.ext)


def new_tally(spec) -> Tally:
    """An empty tally for an engine: its stall reasons and a fresh stats extension."""
    return Tally(stalls=tuple(spec.stalls), ext=spec.stats() if spec.stats else None,
                 figure_defs=tuple(getattr(spec, "figures", ())))
