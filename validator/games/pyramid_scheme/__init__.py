"""Pyramid Scheme (2-4 players): the complete rules, compiled from the sheets.

* :mod:`.spec` - constants, the action encoding, end reasons, the rules options
* :mod:`.goals` - the goal words: each one's rule, heuristic reading and static check
* :mod:`.game` - the compiled game (card, token and goal tables from the sheets)
* :mod:`.pyramid` - one player's tree of cards
* :mod:`.state` - the rules (with :mod:`.rewards`; :mod:`.text`, :mod:`.accounts`,
  :mod:`.invariants`, :mod:`.positions` around it); :mod:`.observation` - what a seat sees
* :mod:`.heuristics` - the greedy scores and the search bot's evaluation
* :mod:`.checks` - static deck checks
* :mod:`.stats`, :mod:`.report` - per-card, goal and reward figures, report sections, verdicts, csv files
"""

from __future__ import annotations

from validator.kit import Figure, GameSpec

from . import report
from .checks import static_checks
from .game import PyramidScheme, make
from .heuristics import HEURISTIC
from .spec import COUNTERS, ELIMINATION_CAUSES, END_REASONS, PARAMS, STANDING
from .stats import CardStats

SPEC = GameSpec(
    slug="pyramid-scheme",
    title="Pyramid Scheme",
    min_players=2,
    max_players=4,
    params=PARAMS,
    make=make,
    package=__name__,
    end_reasons=END_REASONS,
    elimination_causes=ELIMINATION_CAUSES,
    standing=STANDING,
    score_name="smart_asses",
    counters=COUNTERS,
    static_checks=static_checks,
    heuristic=HEURISTIC,
    stats=CardStats,
    sections=report.sections,
    verdicts=report.verdicts,
    thresholds=report.THRESHOLDS,
    time={"seconds_per_turn": 15.0, "seconds_per_action": 5.0, "setup_minutes": 0.0},
    csv_files=report.csv_files,
    figures=(Figure("deck-exhausted", "games ended by an exhausted deck", kind="rate", ends=("deck", "deck-tie"),
                    check="deck exhaustion"),),
    card_effects=report.card_effects,
)
PyramidScheme.spec = SPEC

__all__ = ["SPEC"]
