"""A whole drinking Pyramid game in one loop: the runner's fast path (``SPEC.fast_play``).

``run(game, chance, bots, turn_cap, loop_after)`` plays the game the runner's
protocol loop plays with the same bots - the same questions to the same bots,
so the same draws and the same record - and counts the same play statistics
(decisions, choices, legal actions, turns with a choice), without the
per-step protocol work: this engine's bots decide from the table through
their own methods (``lay``, ``target``, ``answer``: what their ``step`` calls)
instead of an observation per player and step, and the legal actions are
counted rather than listed.  Any other bot is asked through its ``step``, as
the runner asks it.  The rules are the state's: the loop calls its rule
methods (``apply_actions``, ``apply_unchecked``).
``tests/validator/test_fast_play.py`` checks the records and statistics
against the runner's protocol loop.
"""

from __future__ import annotations

from validator.kit import TurnGuard, View

from .bots import DrinkBot
from .constants import ANSWERING, ASK, ASK_NONE, ASKING, GIVE, GIVING, LAY, OVER
from .state import PyramidState


def fast_play(game, chance, bots, opts):
    """The runner's hook: ``(state, play statistics)`` of one game."""
    return run(game, chance, bots, opts.turn_cap, opts.loop_after)


def play(game, chance, bots, turn_cap: int = 400, log: list | None = None):
    """One game with these bots; the finished state (with ``log``: the replay lines)."""
    return run(game, chance, bots, turn_cap, log=log)[0]


def _own(bots) -> list[bool]:
    """Per bot: is it one of this engine's, deciding as ``DrinkBot`` does."""
    classes = tuple(map(type, bots))
    got = _OWN.get(classes)
    if got is None:
        got = _OWN[classes] = [issubclass(c, DrinkBot) and c.step is DrinkBot.step and c.lay is DrinkBot.lay
                               and c.target is DrinkBot.target and c.answer is DrinkBot.answer
                               and c.remember is DrinkBot.remember for c in classes]
    return got


_OWN: dict = {}


def run(game, chance, bots, turn_cap: int = 400, loop_after: int = 150, log: list | None = None):
    """One game: ``(finished state, play statistics)`` as the runner's ``play`` gives them."""
    s = PyramidState(game, chance)
    if log is not None:
        s.log = log
    n = game.players
    own = _own(bots)
    views = None if all(own) else [View(s, p) for p in range(n)]
    for p, b in enumerate(bots):
        if own[p] and b.mem is None:  # what it recalls of the hand it was shown (its first step would recall it)
            b.remember(s.shown[p])
    rank_of = game.rank
    hands, revealed, left, sips, given = s.hands, s.revealed, s.left, s.sips, s.given
    held, counted = [0] * n, [-1] * n  # per player: the slots holding a card (a bit mask), for how many cards
    lays = [b.lay if own[p] else None for p, b in enumerate(bots)]
    decisions = choices = legal_sum = with_choice = 0
    choice_turn = -1
    last_turn = s.turns
    guard = TurnGuard(turn_cap, loop_after)
    while True:
        ph = s.phase
        if ph == OVER:
            break
        turn = s.turns
        if turn != last_turn:
            last_turn = turn
            if guard.stops(s, turn):
                break
        if ph == LAY:  # everybody with cards and not barred lays at once: one choice among the subsets of the hand
            rank = rank_of[s.pyramid[s.pos]]
            barred = s.barred
            joint = {}
            for p in range(n):
                k = left[p]
                if not k or barred >> p & 1:
                    continue
                legal_sum += 1 << k
                lay = lays[p]
                if lay is not None:
                    if counted[p] != k:  # cards only leave a hand
                        m = 0
                        for x, card in enumerate(hands[p]):
                            if card >= 0:
                                m |= 1 << x
                        held[p], counted[p] = m, k
                    joint[p] = lay(held[p], revealed[p], rank)
                else:
                    joint[p] = bots[p].step(views[p], s.legal_actions(p))
            if not joint:
                s.stop("stuck")
                break
            decisions += len(joint)
            choices += len(joint)
            if choice_turn != turn:
                choice_turn = turn
                with_choice += 1
            s.apply_actions(joint)
            continue
        p = s.current_player()
        if ph == GIVING:
            k = n - 1
        elif ph == ANSWERING:
            k = 2 if s.tasks[0][5] >= 0 else 1  # (a dealer's question may not be refused: dealer-refusal=answer)
        elif ph == ASKING:
            k = s.pos + 2
        else:
            k = len(s.legal_actions())
        decisions += 1
        legal_sum += k
        if k < 2:
            if not k:
                s.stop("stuck")
                break
            s.apply_unchecked(s.legal_actions()[0])
            continue
        choices += 1
        if choice_turn != turn:
            choice_turn = turn
            with_choice += 1
        b = bots[p]
        if not own[p]:
            s.apply_unchecked(b.step(views[p], s.legal_actions()))
        elif ph == GIVING:
            s.apply_unchecked(GIVE + b.target(p, n, given, sips, [q for q in range(n) if q != p]))
        elif ph == ANSWERING:
            s.apply_unchecked(b.answer())
        else:
            s.apply_unchecked(ASK_NONE if b.policy == "spread" else ASK + s.pos)
    return s, {"decisions": decisions, "choices": choices, "legal_sum": legal_sum, "turns_with_choice": with_choice,
               "standings": []}
