"""Tiny Tombs' rules engine: ``pnp validate --data docs/example`` finds it here."""

from validator.kit import GameSpec, Param, Problem, sheet_checks

from .bots import HEURISTIC
from .game import POWERS, TombsGame
from .report import Stats, sections, verdicts


def make(data, players, expeditions=3):
    return TombsGame(SPEC, data, players, expeditions)


def static_checks(data, players=None):
    problems = sheet_checks(data)
    for card in data.deck("relic"):
        if card.id not in POWERS:
            problems.append(Problem(card.sheet, card.row, "id", f"relic '{card.id}' has no power in the rules "
                                    f"({', '.join(POWERS)}); it plays as a plain relic", "warning"))
    return problems


SPEC = GameSpec(
    slug="tiny-tombs",
    title="Tiny Tombs",
    min_players=2,
    max_players=5,
    params={"expeditions": Param(3, "expeditions played; the richest after the last one wins")},
    make=make,
    package=__name__,
    end_reasons={"richest": "the richest robber won", "shared": "the richest robbers tied and share the win",
                 "turn-cap": "stopped at the turn cap (no winner)", "loop": "stopped on a repeated position",
                 "stuck": "no legal action (no winner)"},
    score_name="points",
    standing="points banked plus the hoard on the table",
    counters={"curses": "curses played", "curses_harmless": "curses that found an empty hoard",
              "cursed_relics": "relics lost to curses", "steals": "relics stolen", "swaps": "relics swapped"},
    static_checks=static_checks,
    heuristic=HEURISTIC,
    stats=Stats,
    sections=sections,
    verdicts=verdicts,
    thresholds={"tombs": {"harmless_curse_warn": (0.5, "share of curses that cost nothing: above this WARN")}},
)
