"""Pyramid Shambo (2-5 players; 6-10 with a second stash): tournament rock-paper-scissors
with pyramids as scoring chips.

Skeleton: ``constants`` (actions, phases, rules options) - ``game`` (the pieces
from cards.csv, payment plans) - ``state`` (the rules) - ``heuristics`` and
``bots`` (choosers and throwers) - ``fast`` (a whole game in one loop, for the
runner) - ``checks`` (static checks) - ``stats`` and ``report`` (what the report
says about fees, showdowns, cascades, eliminations and kingmaking).  Every
reading of a silent rule: docs/rules-notes.md.
"""

from __future__ import annotations

from validator.kit import Figure, GameSpec

from .bots import BOTS
from .checks import static_checks
from .constants import ELIMINATION_CAUSES, END_REASONS, PARAMS, STANDING
from .fast import fast_play
from .game import ShamboGame, make
from .heuristics import HEURISTIC
from .report import THRESHOLDS, sections, verdicts
from .state import COUNTERS
from .stats import COUNTER_HELP, PER_PLAYER, ShamboStats, csv_files

SPEC = GameSpec(
    slug="pyramid-shambo",
    title="Pyramid Shambo",
    min_players=2,
    max_players=10,
    params=PARAMS,
    make=make,
    package=__name__,
    end_reasons=END_REASONS,
    elimination_causes=ELIMINATION_CAUSES,
    standing=STANDING,
    score_name="pips",
    counters={k: COUNTER_HELP[k] for k in COUNTERS},
    per_player=PER_PLAYER,
    stalls=("turn-cap", "loop", "stuck"),
    static_checks=static_checks,
    heuristic=HEURISTIC,
    bots=BOTS,
    skill_bots=("naive", "smart"),
    default_bots="smart",
    skill_games=2000,  # fast games; the gap between the choosers is a few points: it takes thousands to tell
    stats=ShamboStats,
    sections=sections,
    verdicts=verdicts,
    thresholds=THRESHOLDS,
    time={"seconds_per_turn": 8.0, "seconds_per_action": 3.0, "setup_minutes": 1.0},
    csv_files=csv_files,
    fast_play=fast_play,
    figures=(Figure("change-by-bystander", "payments an uninvolved player made change for, per game",
                    counter="change_other", unit="payments"),
             Figure("wipe-out", "games whose last players went out together", kind="rate", ends=("wipe-out",),
                    check="one winner")),
)
ShamboGame.spec = SPEC
