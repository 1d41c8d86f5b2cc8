"""Hostile: a rules engine that misbehaves on purpose, for pnp's tests of what a
rules engine must not be able to do to ``pnp validate``.

It plays the placeholder game of ``pnp new SLUG --rules`` (keep the card on top
of the pile or leave it; the highest total wins), and at action ``at`` of every
game it does what the rules option ``fault`` says: ``none``, ``raise`` (a
ValueError), ``exit`` (sys.exit), ``os-exit`` (os._exit), ``print``, ``stderr``
(a write to sys.stderr), ``sleep``, ``loop`` (a busy loop that swallows every
exception), ``interrupt`` (raises KeyboardInterrupt), ``random`` (draws from
Python's unseeded random), ``shared`` (keeps state on the compiled game, which
every state and clone shares, across games).
"""

from validator.kit import GameSpec, Heuristic, Param, sheet_checks


def make(data, players, keep=4, fault="none", at=5):
    from .game import KeepGame

    return KeepGame(SPEC, data, players, keep, fault, at)


def scores(seen, actions):
    """The greedy bot's rating of each action (higher is better), from what its seat sees."""
    from .game import KEEP

    worth = seen.game.worth[seen.offer] - seen.game.mean_worth
    return [worth if a == KEEP else 0.0 for a in actions]


def evaluate(state, player):
    """The search bot's rating of a position for ``player``."""
    points = state.standings()
    return points[player] - max(x for p, x in enumerate(points) if p != player)


def static_checks(data, players=None):
    """The sheet checks; add checks of your own (each a validator.kit.Problem naming file, row and column)."""
    return sheet_checks(data)


SPEC = GameSpec(
    slug="hostile",
    title='Hostile',
    min_players=2,
    max_players=4,
    params={"keep": Param(4, "cards each player may keep"),
            "fault": Param("none", "what the engine does wrong at action AT of every game",
                           ("none", "raise", "exit", "os-exit", "print", "stderr", "sleep", "loop", "interrupt",
                            "random", "shared")),
            "at": Param(5, "the action of every game at which the fault happens")},
    make=make,
    package=__name__,
    end_reasons={"highest": "the highest total won", "shared": "the highest totals tied and share the win",
                 "turn-cap": "stopped at the turn cap (no winner)", "loop": "stopped on a repeated position",
                 "stuck": "no legal action (no winner)"},
    score_name="total",
    standing="the total of the cards kept",
    counters={"left": "cards left on the pile's top"},
    static_checks=static_checks,
    heuristic=Heuristic(scores=scores, evaluate=evaluate),
)
