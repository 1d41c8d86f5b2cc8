"""The generic game record: what one finished game tells the metrics, games.csv,
summary.json, thresholds and the report, without their knowing the game.

Everything game-specific travels in two places the engine's spec declares:
``counters`` (named whole numbers per game, e.g. ``challenges`` or ``sips``;
the metrics keep a histogram of each and the report tables them) and
``details`` (structured data only the engine's own stats extension reads,
e.g. per-card usage).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class GameRecord:
    seats: list[int]  # seat of each player: 0 is the start player
    winners: list[int]  # players who won (several: a shared win; none: no result)
    turns: int
    rounds: int
    actions: int  # decisions taken (the time model charges each)
    end: str  # a key of the spec's ``end_reasons``
    eliminations: list[tuple[int, str, int]] = field(default_factory=list)  # (player, cause, turn)
    scores: list[Any] = field(default_factory=list)  # final standing value per player (None: out)
    counters: dict[str, int] = field(default_factory=dict)  # keys declared in the spec's ``counters``
    per_player: dict[str, list[int]] = field(default_factory=dict)  # named counter per player, e.g. sips
    details: dict[str, Any] = field(default_factory=dict)  # for the engine's own stats extension

    @property
    def players(self) -> int:
        return len(self.seats)

    def __getitem__(self, key: str):
        """Mapping-style access (``record["turns"]``) for code written against dict records."""
        if key in self.details:
            return self.details[key]
        if key == "score":
            return self.scores
        return getattr(self, key)
