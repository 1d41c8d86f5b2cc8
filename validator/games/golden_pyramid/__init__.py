"""The Golden Pyramid (2-6 players): the 3D pyramid, columns, market, trading and scoring.

Everything the engine plays with comes from the sheet's rows: the playing cards
(colours, values, symbols, counts), the tiles per symbol and the column pieces
per colour.  The readings of unclear rules are in docs/rules-notes.md.
"""

from __future__ import annotations

from validator.kit import Figure, GameSpec

from .checks import static_checks
from .constants import COUNTERS, END_REASONS, PARAMS, PER_PLAYER, STANDING, THRESHOLDS, TIME
from .fast import fast_play
from .game import GoldenPyramid, make
from .heuristics import HEURISTIC
from .report import sections, verdicts
from .stats import Stats

SPEC = GameSpec(
    slug="golden-pyramid",
    title="The Golden Pyramid",
    min_players=2,
    max_players=6,
    params=PARAMS,
    make=make,
    package=__name__,
    end_reasons=END_REASONS,
    standing=STANDING,
    score_name="vp",
    counters=COUNTERS,
    per_player=PER_PLAYER,
    static_checks=static_checks,
    heuristic=HEURISTIC,
    stats=Stats,
    sections=sections,
    verdicts=verdicts,
    thresholds=THRESHOLDS,
    time=TIME,
    fast_play=fast_play,
    figures=(Figure("no-symbol-tiles", "tiles built without their symbol, per game", counter="no_symbol",
                    unit="tiles", check="tiles without symbol"),
             Figure("builder-penalties", "tiles built with the builder out of place (-1 VP), per game",
                    counter="builder_penalties", unit="tiles")),
)
GoldenPyramid.spec = SPEC

__all__ = ["SPEC", "GoldenPyramid", "make"]
