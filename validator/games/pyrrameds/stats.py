"""Pyrrameds' own statistics: patients placed and never placed, swaps and stalls,
operations, greedy against forgetful (the value of information), and a comparison
of box selections and player counts.

``Stats`` holds counts only (exact, order-free merging).  The comparisons are the
engine's studies (``sweep.studies``), played by the run's pool beside its own
games from fixed seeds (so the figures are the same for any worker count):
``sweep_games`` greedy games for every player count and every box selection the
rows allow, and ``info_games`` games at the run's own player count and boxes with
greedy and forgetful bots on alternate seats."""

from __future__ import annotations

import math
from collections import Counter

from .spec import COUNTERS

STALEMATES = ("stalemate", "stalemate-tie")
STALLS = ("turn-cap", "loop", "stuck")


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def th_get(th, section: str, key: str, default):
    try:
        return th.get(section, key)
    except Exception:  # noqa: BLE001 - thresholds not bound to this engine: the built-in default
        return default


class Stats:
    """Counts over the games of one run."""

    def __init__(self) -> None:
        self.games = 0
        self.turns = 0
        self.ends: Counter = Counter()
        self.counts: Counter = Counter()
        self.dealt: Counter = Counter()  # design -> times dealt into a hand
        self.placed: Counter = Counter()  # design -> times placed
        self.bot_seats: Counter = Counter()  # in games with different bots: bot -> seats played
        self.bot_wins: Counter = Counter()  # ... bot -> wins (a shared win counts for each)

    def add(self, record, bots: tuple[str, ...]) -> None:
        self.games += 1
        self.turns += record.turns
        self.ends[record.end] += 1
        for k, v in record.counters.items():
            self.counts[k] += v
        self.dealt.update(record.details.get("dealt", ()))
        self.placed.update(record.details.get("placed", ()))
        if len(set(bots)) > 1:
            for p, b in enumerate(bots):
                self.bot_seats[b] += 1
                if p in record.winners:
                    self.bot_wins[b] += 1

    def merge(self, other: "Stats") -> None:
        self.games += other.games
        self.turns += other.turns
        for name in ("ends", "counts", "dealt", "placed", "bot_seats", "bot_wins"):
            getattr(self, name).update(getattr(other, name))

    def summarize(self, game, tally=None, th=None) -> dict:
        return {"pyrrameds": summarize(self, game, th)}


def summarize(st: Stats, game, th=None) -> dict:
    g = game
    c = st.counts
    turns = max(1, st.turns)
    patients = []
    for d, design in enumerate(g.designs):
        if design.deck != "patient":
            continue
        dealt, placed = st.dealt.get(d, 0), st.placed.get(d, 0)
        patients.append({"id": design.id, "name": design.name, "box": design.box, "requires": design.requires,
                         "dealt": dealt, "placed": placed, "rate": round(placed / dealt, 4) if dealt else None})
    operations = []
    for d, design in enumerate(g.designs):
        if design.deck == "operation":
            operations.append({"id": design.id, "name": design.name, "effect": design.effect, "number": design.number,
                               "dealt": st.dealt.get(d, 0), "placed": st.placed.get(d, 0)})
    min_sample = int(th_get(th, "pyrrameds", "min_sample", 30))
    never = [p["id"] for p in patients if p["dealt"] >= min_sample and p["placed"] == 0]
    pt, pc = c.get("patient_turns", 0), c.get("patient_chances", 0)
    stalemates = sum(st.ends.get(e, 0) for e in STALEMATES)
    out = {
        "boxes": list(g.boxes),
        "row": g.row,
        "games": st.games,
        "per_game": {k: round(c.get(k, 0) / max(1, st.games), 3) for k in COUNTERS},
        "patients": {
            "turns_holding": pt,
            "turns_placeable": pc,
            "placeable_share": round(pc / pt, 4) if pt else None,
            "placeable_ci": [round(x, 4) for x in wilson(pc, pt)] if pt else None,
            "by_design": patients,
            "never_placed": never,
        },
        "swaps": {
            "turns": st.turns,
            "swap_only_turns": c.get("swap_only", 0),
            "swap_only_share": round(c.get("swap_only", 0) / turns, 4),
            "swap_only_ci": [round(x, 4) for x in wilson(c.get("swap_only", 0), turns)],
            "swaps_per_game": round(c.get("swaps", 0) / max(1, st.games), 3),
            "passes": c.get("passes", 0),
        },
        "stalls": {
            "ends": dict(sorted(st.ends.items())),
            "stalemates": stalemates,
            "stalemate_share": round(stalemates / max(1, st.games), 4),
            "stalemate_ci": [round(x, 4) for x in wilson(stalemates, st.games)],
            "no_result": sum(st.ends.get(e, 0) for e in STALLS),
        },
        "operations": operations,
        "mixed_bots": {b: {"seats": st.bot_seats[b], "wins": st.bot_wins[b],
                           "rate": round(st.bot_wins[b] / st.bot_seats[b], 4) if st.bot_seats[b] else None}
                       for b in sorted(st.bot_seats)},
    }
    out["by_box"] = []  # (the studies fill these in: sweep.studies)
    out["information"] = None
    return out
