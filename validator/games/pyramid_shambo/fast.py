"""A whole game of Pyramid Shambo in one loop: the runner's fast path (``SPEC.fast_play``).

``run(game, chance, bots, turn_cap, loop_after)`` plays the game the runner's
protocol loop plays with the same bots - the same questions to the same bots,
so the same draws and the same record - and counts the same play statistics
(decisions, choices, legal actions, turns with a choice), without the
per-step protocol work: no legal-action lists where the count is enough, no
observation per step, a uniform thrower's throw and a naive chooser's pick
drawn from the bot's own generator as its ``step`` would draw them, the smart
chooser's pick from the functions its ``step`` calls (``smart_rival``,
``smart_plan``).  Any other bot is asked through its ``step``, as the runner asks it.

The rules are the state's: the loop calls its rule methods (``_challenge``,
``throw``, ``apply_actions``, ``apply_unchecked``) and never repeats them.
(A second loop that applied the ordinary turn's rules to local variables was
about a fifth faster and was folded back into this one: ``bench/fast_loops.py``
measures both ways side by side; this one plays the default bots at well over
the 5,000 games a second the game's target asks.)
``tests/validator/test_fast_play.py`` checks the records and statistics
against the runner's protocol loop.
"""

from __future__ import annotations

from validator.kit import TurnGuard, View

from .bots import THIRD, TWO_THIRDS, ShamboBot, uniform_throw
from .constants import CHALLENGE, OVER, PAY, PLAN, TARGET, THROW
from .heuristics import smart_plan, smart_rival
from .state import ShamboState

INLINE, OWN, STEP = 0, 1, 2  # how a bot decides: drawn here, by its own method, by its step


def fast_play(game, chance, bots, opts):
    """The runner's hook: ``(state, play statistics)`` of one game."""
    return run(game, chance, bots, opts.turn_cap, opts.loop_after)


def play(game, chance, bots, turn_cap: int = 400, log: list | None = None):
    """One game with these bots; the finished state (with ``log``: the replay lines)."""
    return run(game, chance, bots, turn_cap, log=log)[0]


def _modes(bots):
    """Per bot: how it throws and how it chooses (rivals and payments), by its class."""
    classes = tuple(map(type, bots))
    got = _MODES.get(classes)
    if got is None:
        throws, chooses = [], []
        for cls in classes:
            own = issubclass(cls, ShamboBot) and cls.step is ShamboBot.step
            if own and cls.throw is ShamboBot.throw:
                throws.append(INLINE if cls.thrower == "uniform" else OWN)
            else:
                throws.append(STEP)
            chooses.append(STEP if not own else INLINE if cls.chooser == "naive" else OWN if cls.chooser == "smart"
                           else STEP)
        got = _MODES[classes] = (throws, chooses, all(t == INLINE for t in throws) and STEP not in chooses)
    return got


_MODES: dict = {}


def run(game, chance, bots, turn_cap: int = 400, loop_after: int = 150, log: list | None = None):
    """One game: ``(finished state, play statistics)`` as the runner's ``play`` gives them."""
    s = ShamboState(game, chance)
    if log is not None:
        s.log = log
    n = game.players
    throws, chooses, own = _modes(bots)
    rnd = [b.rng.random if throws[p] == INLINE or chooses[p] == INLINE else None for p, b in enumerate(bots)]
    views = None if own else [View(s, p) for p in range(n)]  # the bots' views, for those asked through them
    hold, alive, pips = s.hold, s.alive, s.pips
    throw, challenge, apply = s.throw, s._challenge, s.apply_unchecked
    uniform = INLINE == throws[0] and len(set(throws)) == 1  # every bot throws uniformly, drawn here
    choices = forced = legal_sum = with_choice = 0
    last_turn = s.turns
    guard = TurnGuard(turn_cap, loop_after)
    watch = guard.watch_from
    while True:  # one turn: a rival chosen, the throws, the payments that need a decision
        ph = s.phase
        if ph == OVER:
            break
        turn = s.turns
        if turn >= watch and turn != last_turn:
            last_turn = turn
            if guard.stops(s, turn):
                break
        if ph == CHALLENGE:
            p = s.acting
            k = s.n_alive - 1  # the rivals still in
            legal_sum += k
            if k < 2:  # not reached: the rules challenge a lone rival themselves
                if not k:
                    s.stop("stuck")
                    break
                forced += 1
                apply(s.legal_actions()[0])
            else:
                choices += 1
                m = chooses[p]
                if m == OWN:
                    challenge(smart_rival(game, p, hold, alive, pips, False))  # three or more in: no showdown
                elif m == INLINE:
                    challenge([q for q in range(n) if q != p and alive[q]][int(rnd[p]() * k)])
                else:
                    apply(bots[p].step(views[p], [TARGET + q for q in range(n) if q != p and alive[q]]))
        # the challenger and the rival throw at once (three throws each, counted below), again on a tie
        with_choice += 1
        if uniform:  # (uniform_throw, inline)
            ra, rb = rnd[s.turn_player], rnd[s.rival]
            x, y = ra(), rb()
            ta = 0 if x < THIRD else 1 if x < TWO_THIRDS else 2
            tb = 0 if y < THIRD else 1 if y < TWO_THIRDS else 2
            throw(ta, tb)
            while ta == tb and s.phase == THROW:
                x, y = ra(), rb()
                ta = 0 if x < THIRD else 1 if x < TWO_THIRDS else 2
                tb = 0 if y < THIRD else 1 if y < TWO_THIRDS else 2
                throw(ta, tb)
        else:
            a, b = s.turn_player, s.rival
            while s.phase == THROW and s.turns == turn:
                ta = uniform_throw(rnd[a]()) if throws[a] == INLINE else bots[a].throw(views[a]) \
                    if throws[a] == OWN else bots[a].step(views[a], [0, 1, 2])
                tb = uniform_throw(rnd[b]()) if throws[b] == INLINE else bots[b].throw(views[b]) \
                    if throws[b] == OWN else bots[b].step(views[b], [0, 1, 2])
                s.apply_actions({a: ta, b: tb})
        while s.phase == PAY:  # the acting player picks a payment plan
            p = s.acting
            plans = s.plans
            k = len(plans)
            legal_sum += k
            if k < 2:  # not reached: the rules settle a lone plan themselves
                if not k:
                    s.stop("stuck")
                    break
                forced += 1
                apply(PLAN)
                continue
            choices += 1
            m = chooses[p]
            if m == OWN:
                apply(PLAN + smart_plan(game, p, hold, alive, pips, s.debt, plans))
            elif m == INLINE:
                apply(PLAN + int(rnd[p]() * k))
            else:
                apply(bots[p].step(views[p], list(range(PLAN, PLAN + k))))
    t = s.c_throws  # each throw: two decisions among three throws
    return s, {"decisions": choices + forced + 2 * t, "choices": choices + 2 * t, "legal_sum": legal_sum + 6 * t,
               "turns_with_choice": with_choice, "standings": []}
