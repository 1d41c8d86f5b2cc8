"""Pyrrameds with the Operations and Intensive Care expansions (3-5 players).

Everything the engine plays with comes from the rows of the boxes in play
(``pnp validate pyrrameds --expansion NAME`` hands it those rows; the rules
option ``boxes`` picks among the rows it is given): medicine types and numbers,
patients' needs, operations' effects, the deal.  The readings of the rulebook
are in docs/rules-notes.md.

Modules: spec (constants, options, action codes) - game (compiled rows and the
pyramid's geometry) - rules (placement, path and swap rules) - state (the rules)
- views (observation, copies, record, invariants) - heuristics (greedy,
evaluation, the forgetful bot) - checks - stats - sweep (comparisons) - report."""

from __future__ import annotations

from validator.kit import Figure, GameSpec

from .checks import static_checks
from .game import Pyrrameds
from .heuristics import HEURISTIC, ForgetfulBot
from .report import card_effects, csv_files, sections, verdicts
from .spec import COUNTERS, END_REASONS, PARAMS, PER_PLAYER, STANDING
from .stats import Stats
from .sweep import studies


def make(data, players: int, **options):
    return Pyrrameds(data, players, **options)


THRESHOLDS = {
    "pyrrameds": {
        "sweep_games": (30, "greedy games per player count and box selection for the comparison of boxes "
                            "(0 skips it)"),
        "info_games": (200, "games of greedy against forgetful for the value of information (0 skips it)"),
        "min_sample": (30, "a patient dealt this often and never placed is reported"),
        "swap_only_warn": (0.25, "share of turns on which a swap is the only kind of move: above this WARN"),
        "stalemate_warn": (0.05, "share of games ended by a stalemate: above this WARN"),
        "stalemate_fail": (0.25, "... above this with 95% confidence: FAIL"),
        "patient_chance_warn": (0.2, "share of turns holding a patient on which one can be placed: below this WARN"),
    },
}

SPEC = GameSpec(
    slug="pyrrameds",
    title="Pyrrameds",
    min_players=3,
    max_players=5,
    params=PARAMS,
    make=make,
    package=__name__,
    end_reasons=END_REASONS,
    standing=STANDING,
    score_name="cards_left",
    counters=COUNTERS,
    per_player=PER_PLAYER,
    stalls=("turn-cap", "loop", "stuck"),
    static_checks=static_checks,
    heuristic=HEURISTIC,
    bots={"forgetful": ForgetfulBot},
    stats=Stats,
    sections=sections,
    verdicts=verdicts,
    thresholds=THRESHOLDS,
    time={"seconds_per_turn": 30.0, "seconds_per_action": 5.0},
    csv_files=csv_files,
    figures=(Figure("stalemate-rate", "games ended by a stalemate (our ending, not the rulebook's)", kind="rate",
                    ends=("stalemate", "stalemate-tie"), check="stalemates"),
             Figure("swap-only", "turns on which a swap was the only move, per game", counter="swap_only",
                    unit="turns", check="swap as the only move")),
    side_games=(("pyrrameds", "sweep_games"), ("pyrrameds", "info_games")),
    studies=studies,
    card_effects=card_effects,
)
Pyrrameds.spec = SPEC
