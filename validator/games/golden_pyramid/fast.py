"""A whole Golden Pyramid game in one loop: the runner's fast path (``SPEC.fast_play``).

``run(game, chance, bots, turn_cap, loop_after)`` plays the game the runner's
protocol loop plays with the same bots - the same questions to the same bots,
so the same draws and the same record - and counts the same play statistics
(decisions, choices, legal actions, turns with a choice), without the
per-step protocol work: the generic greedy bot's choice is made here from the
rules' own legal actions and the heuristic's ratings read straight from the
position (``heuristics.seat_scores``: the ratings its observation gives, from
what its seat sees, without copying one), ties broken with the bot's own
generator as its ``step`` breaks them, and the generic random bot's pick drawn
as its ``step`` draws it.  Any other bot (the search bot, a bot of another
kind) is asked through its ``step`` with its seat's view, as the runner asks
it.  The rules are the state's: the loop calls its rule methods and lists.
(A one-pass list of the main actions with their ratings, which repeated the
rules' list, was about an eighth faster and was folded back into this path:
``bench/fast_loops.py`` measures both ways side by side.)
``tests/games/test_golden_pyramid_play.py`` checks the records and statistics
against the runner's protocol loop.
"""

from __future__ import annotations

from validator.kit import TurnGuard, View

from .constants import MAIN, OVER
from .heuristics import scores, seat_scores
from .state import State

GREEDY, RANDOM, STEP = 0, 1, 2  # how a bot decides: the greedy rating here, a random pick here, its step


def fast_play(game, chance, bots, opts):
    """The runner's hook: ``(state, play statistics)`` of one game (None: every seat is asked through its
    step anyway, which the protocol loop does as well)."""
    modes = _modes(bots)
    if all(m == STEP for m in modes):
        return None
    return run(game, chance, bots, opts.turn_cap, opts.loop_after, modes)


def _modes(bots) -> list[int]:
    """Per bot: the validator's generic greedy bot rating with this engine's heuristic (GREEDY), its
    generic random bot (RANDOM), or any other (STEP)."""
    out = []
    for b in bots:
        cls = type(b)
        generic = cls.__module__ == "validator.bots"
        if generic and cls.__name__ == "GreedyBot" and b.__dict__.get("scores") is scores:
            out.append(GREEDY)
        elif generic and cls.__name__ == "RandomBot":
            out.append(RANDOM)
        else:
            out.append(STEP)
    return out


def run(game, chance, bots, turn_cap: int = 400, loop_after: int = 150, modes=None):
    """One game: ``(finished state, play statistics)`` as the runner's ``play`` gives them."""
    s = State(game, chance)
    if modes is None:
        modes = _modes(bots)
    views = [View(s, p) if m == STEP else None for p, m in enumerate(modes)]
    rngs = [b.rng for b in bots]
    legal_actions, apply = s.legal_actions, s.apply_unchecked
    decisions = singles = legal_sum = with_choice = 0  # singles: decisions with a single legal action
    choice_turn = -1
    last_turn = s.turns
    guard = TurnGuard(turn_cap, loop_after)
    watch = guard.watch_from  # before this turn the guard never stops a game
    while s.phase != OVER:
        main = s.phase == MAIN
        if main:  # a turn begins only with the main phase (the rules' _begin_turn)
            turn = s.turns
            if turn != last_turn:
                last_turn = turn
                if turn >= watch and guard.stops(s, turn):
                    break
        turn = last_turn
        p = s.cur
        mode = modes[p]
        actions = legal_actions()
        n = len(actions)
        if mode == GREEDY:
            if n > 1:  # as GreedyBot.step: the best rating, ties broken with the bot's generator
                rated = seat_scores(s, p, actions)
                decisions += 1
                legal_sum += n
                if choice_turn != turn:
                    choice_turn = turn
                    with_choice += 1
                best = max(rated)
                ties = rated.count(best)
                i = rated.index(best)
                if ties > 1:  # the tied actions in order, one of them drawn
                    k = int(rngs[p].random() * ties)
                    while k:
                        i = rated.index(best, i + 1)
                        k -= 1
                apply(actions[i])
                continue
        if n == 0:
            s.stop("stuck")
            break
        decisions += 1
        legal_sum += n
        if n == 1:
            singles += 1
            apply(actions[0])
            continue
        if choice_turn != turn:
            choice_turn = turn
            with_choice += 1
        if mode == RANDOM:  # as RandomBot.step
            apply(actions[int(rngs[p].random() * n)])
        else:
            apply(bots[p].step(views[p], actions))
    return s, {"decisions": decisions, "choices": decisions - singles, "legal_sum": legal_sum,
               "turns_with_choice": with_choice, "standings": []}
