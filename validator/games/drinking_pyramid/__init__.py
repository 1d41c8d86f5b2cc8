"""Pyramid, the drinking card game (2-10 players): a 6-5-4-3-2-1 pyramid of
face-down cards, hands remembered for 15 seconds, drinks given for matching
cards, and the exploration.

Skeleton: ``constants`` (rows, actions, rules options) - ``game`` (the 52
cards from cards.csv) - ``state`` (the rules) - ``heuristics`` and ``bots``
(memory levels and drinks policies) - ``fast`` (a whole game in one loop) -
``checks`` - ``stats`` and ``report`` (sips, the worst case, the explorer).
Every reading of a silent rule: docs/rules-notes.md.
"""

from __future__ import annotations

from validator.kit import Figure, GameSpec

from .bots import BOTS
from .checks import static_checks
from .constants import END_REASONS, PARAMS, STANDING
from .fast import fast_play
from .game import PyramidGame, make
from .heuristics import HEURISTIC
from .report import THRESHOLDS, sections, verdicts
from .state import COUNTERS
from .stats import COUNTER_HELP, PER_PLAYER, DrinkStats, csv_files

SPEC = GameSpec(
    slug="drinking-pyramid",
    title="Pyramid: the Drinking Card Game",
    min_players=2,
    max_players=10,
    params=PARAMS,
    make=make,
    package=__name__,
    end_reasons=END_REASONS,
    elimination_causes={},
    standing=STANDING,
    score_name="sips",
    counters={k: COUNTER_HELP[k] for k in COUNTERS},
    per_player=PER_PLAYER,
    stalls=("turn-cap", "loop", "stuck"),
    static_checks=static_checks,
    heuristic=HEURISTIC,
    bots=BOTS,
    skill_bots=("tipsy", "average", "sharp"),
    default_bots="average",
    skill_games=1000,  # fast games, three pairings: enough to tell the memory levels apart by a few points
    stats=DrinkStats,
    sections=sections,
    verdicts=verdicts,
    thresholds=THRESHOLDS,
    time={"seconds_per_turn": 40.0, "seconds_per_action": 10.0, "setup_minutes": 2.0},
    csv_files=csv_files,
    fast_play=fast_play,
    figures=(Figure("worst-sips-p95", "the heaviest drinker's sips in 1 game of 20 (95th percentile)", kind="p95",
                    counter="max_sips", unit="sips", check="worst case"),
             Figure("empty-rows", "rows nobody laid a card on, per game", counter="empty_rows", unit="rows")),
)
PyramidGame.spec = SPEC
