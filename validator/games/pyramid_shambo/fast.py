"""A whole game of Pyramid Shambo in one loop: the runner's fast path (``SPEC.fast_play``).

``run(game, chance, bots, turn_cap, loop_after)`` plays the game the runner's
protocol loop plays with the same bots - the same questions to the same bots,
so the same draws and the same record - and counts the same play statistics
(decisions, choices, legal actions, turns with a choice), without the
per-step protocol work: no legal-action lists where the count is enough, no
observation per step, a uniform thrower's throw and a naive chooser's pick
drawn from the bot's own generator as its ``step`` would draw them, the smart
chooser's pick from the functions its ``step`` calls (``smart_rival``,
``smart_plan``, or ``pick_plan``, which picks the same).  Any other bot is asked
through its ``step``, as the runner asks it.

When every bot throws uniformly and chooses naively or smartly (the default
``smart`` bots, ``naive``) and nobody logs, ``_run_in_locals`` plays the game
with the ordinary turn's rules applied to local variables and hands the rare
events to the state's methods; otherwise the loop calls the state's rule
methods (``_challenge``, ``throw``, ``apply_actions``, ``apply_unchecked``).
``tests/validator/test_fast_play.py`` checks the records and statistics
against the runner's protocol loop.

The in-locals loop repeats the ordinary turn's rules, so a change to them must
be made here too (the bonus a knock-out sets, for one).  It stays because it
is what holds the game's speed target: side by side, the general loop alone
played five-player games about 22% slower (1,950 against 2,512 games a second
on the shared reference machine), which would put the idle figure near 4,000,
under the 5,000 a second ``bench/validate.py`` asks for.
"""

from __future__ import annotations

from validator.kit import TurnGuard, View

from .bots import THIRD, TWO_THIRDS, ShamboBot, uniform_throw
from .constants import (BEATS, BONUS, CHALLENGE, CHANGE_OTHER, CHANGE_PAYEE, EXACT, FEE, OVER, PAY, PLAN, SHORT,
                        TARGET, THROW)
from .heuristics import best_rival, pick_plan, smart_plan, smart_rival
from .state import TIE_GUARD, ShamboState

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
    if own and log is None:
        return _run_in_locals(s, game, chooses, rnd, TurnGuard(turn_cap, loop_after))
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


def _run_in_locals(s, game, chooses, rnd, guard):
    """``run`` when every bot throws uniformly and chooses inline (naive) or by
    its own method (smart), and nobody logs: a turn is played in local variables.

    The ordinary turn - a rival, the throws, the fee settled, the next seat -
    applies the rules of ``ShamboState._challenge``, ``throw``, ``_owe``,
    ``_settle``, ``_advance`` and ``_begin_turn`` step for step on locals (the
    holdings, pips and who is in are the state's own lists); the smart chooser's
    picks are ``smart_rival``'s and ``pick_plan``'s.  Whatever is rare - a fee
    that knocks the loser out (``_paid_out``: the knock-out, a colour leaving,
    the bonus queued, the end of the game), the turn guard, the tie guard - is
    handed to the state's own methods once the turn fields are written back
    (``_sync_out``); the bonus debts are settled by ``_settle_debts``.
    """
    g = game
    hold, alive, pips = s.hold, s.alive, s.pips
    log_throw = s.throw_log.append
    add_fee = s.fees.append
    memo1 = g.own_plans_memo  # holding | due << N -> own plans (g.own_plans)
    others, seats_after = g.others, g.seats_after
    unit, escalation, shift = g.unit, g.escalation, g.N
    watch = guard.watch_from
    choices = legal_sum = with_choice = 0
    c_ties = c_max_fee = 0
    # the state's turn fields, in locals (written back by _sync_out; the state's methods called
    # afterwards change none of them but the players still in and the showdown)
    turns, p, rival, ties, rounds = s.turns, s.turn_player, s.rival, s.ties, s.rounds
    c_challenges, c_showdown_challenges = s.c_challenges, s.c_showdown_challenges
    n_alive, doubled = s.n_alive, s.doubled
    last_turn = turns
    while True:  # one turn, from its start (the rival already challenged when only two are in)
        if turns >= watch and turns != last_turn:
            last_turn = turns
            _sync_out(s, turns, p, rival, ties, rounds, c_challenges, c_showdown_challenges,
                      THROW if n_alive == 2 else CHALLENGE)
            if guard.stops(s, turns):
                break
        if n_alive > 2:  # a rival to choose (two in: challenged at the turn's start)
            k = n_alive - 1
            legal_sum += k
            choices += 1
            if chooses[p] == OWN:  # smart_rival: the weakest rival unless a knock-out is possible
                rival = -1
                low = 0
                for r in others[p]:
                    if alive[r]:
                        pr = pips[r]
                        if pr <= unit:  # a knock-out is possible (three or more in: no showdown, the fee is a unit)
                            rival = best_rival(g, p, pips, alive, hold, unit)
                            break
                        if rival < 0 or pr < low:
                            rival, low = r, pr
            else:
                rival = [q for q in others[p] if alive[q]][int(rnd[p]() * k)]
            c_challenges += 1
            if doubled:
                c_showdown_challenges += 1
        with_choice += 1
        ra, rb = rnd[p], rnd[rival]  # uniform_throw, inline
        while True:
            x, y = ra(), rb()
            ta = 0 if x < THIRD else 1 if x < TWO_THIRDS else 2
            tb = 0 if y < THIRD else 1 if y < TWO_THIRDS else 2
            log_throw((turns, ties, p, ta, rival, tb))
            if ta != tb:
                break
            ties += 1
            c_ties += 1
            if ties >= TIE_GUARD:
                break
        if ta == tb:  # the tie guard
            _sync_out(s, turns, p, rival, ties, rounds, c_challenges, c_showdown_challenges, THROW)
            s.stop("loop")
            break
        if BEATS[ta] == tb:
            payee, payer = p, rival
        else:
            payee, payer = rival, p
        fee = unit + escalation * ties
        if doubled:
            fee *= 2
        if fee > c_max_fee:
            c_max_fee = fee
        hp = hold[payer]  # _owe: own plans (None: change is needed)
        try:
            plans = memo1[hp | fee << shift]
        except KeyError:
            plans = g.own_plans(hp, fee)
        if plans is None:
            plans = g.change_plans(hold, payer, payee, fee, alive)
        k = len(plans)
        if k == 1:
            plan = plans[0]
        else:  # the turn player picks the plan
            legal_sum += k
            choices += 1
            plan = plans[_pick(g, chooses, rnd, p, hold, pips, payer, payee, plans)]
        pk, give, back, maker, broken, pieces, paid = plan  # _settle
        if pk != EXACT:
            if pk == CHANGE_PAYEE:
                s.c_change_payee += 1
            elif pk == CHANGE_OTHER:
                s.c_change_other += 1
                hp = (hp & ~broken) | pieces
                hold[maker] = (hold[maker] & ~pieces) | broken
            elif pk == SHORT:
                s.c_short_payments += 1
            else:
                s.c_no_change += 1
        left = hold[payer] = (hp & ~give) | back
        hold[payee] = (hold[payee] & ~back) | give
        pips[payer] -= paid
        pips[payee] += paid
        add_fee((ties, fee, paid, doubled))
        if not left:  # a knock-out: the state's own, then the bonus it queues, settled here
            _sync_out(s, turns, p, rival, ties, rounds, c_challenges, c_showdown_challenges, THROW)
            if k > 1:
                s.debt = (FEE, payer, payee, fee)
            s._paid_out(FEE, payer, payee)
            if s.phase != OVER:
                got = _settle_debts(s, g, chooses, rnd)
                choices += got[0]
                legal_sum += got[1]
            if s.phase == OVER:
                break
            n_alive, doubled = s.n_alive, s.doubled
        for q in seats_after[p]:  # _advance: the next turn, the next seat still in
            if alive[q]:
                break
        else:  # not reached: the turn player is still in
            _sync_out(s, turns, p, rival, ties, rounds, c_challenges, c_showdown_challenges, THROW)
            s._finish([], "stuck")
            break
        if q <= p:
            rounds += 1
        p = q  # _begin_turn
        turns += 1
        ties = 0
        rival = -1
        if n_alive == 2:  # the only rival: challenged at once
            for r in others[p]:
                if alive[r]:
                    rival = r
                    break
            c_challenges += 1
            if doubled:
                c_showdown_challenges += 1
    s.c_throws = t = len(s.throw_log)  # each throw: two decisions among three throws
    s.c_ties = c_ties
    s.c_max_fee = c_max_fee
    return s, {"decisions": choices + 2 * t, "choices": choices + 2 * t, "legal_sum": legal_sum + 6 * t,
               "turns_with_choice": with_choice, "standings": []}


def _pick(g, chooses, rnd, me: int, hold, pips, payer: int, payee: int, plans) -> int:
    """The index of the payment plan ``me``'s bot picks (two or more plans): the smart chooser's
    ``pick_plan``, or the naive chooser's draw from its generator."""
    if chooses[me] == OWN:
        return pick_plan(g, me, hold[me], pips, payer, payee, plans)
    return int(rnd[me]() * len(plans))


def _sync_out(s, turns, p, rival, ties, rounds, c_challenges, c_showdown_challenges, phase) -> None:
    """Write ``_run_in_locals``' turn fields back to the state (before its methods take over)."""
    s.turns, s.turn_player, s.acting, s.rival, s.ties, s.rounds = turns, p, p, rival, ties, rounds
    s.c_challenges, s.c_showdown_challenges = c_challenges, c_showdown_challenges
    s.phase = phase


def _settle_debts(s, g, chooses, rnd) -> tuple:
    """The debts a knock-out queued (``s.debts``: the bonus), settled as ``ShamboState._advance``
    settles them, short of starting the next turn: a payment with a choice is taken by the acting
    player's bot as ``run`` takes it, and paid by the state's ``_settle``.  ``(choices, legal actions
    summed)`` of those payments."""
    choices = legal_sum = 0
    hold, alive, pips, debts = s.hold, s.alive, s.pips, s.debts
    while debts:  # (emptied when the game ends)
        kind, payer, payee, due = debts.pop(0)
        if not (alive[payer] and alive[payee]):
            continue
        if kind == BONUS:  # _owe
            due = s._bonus_due(payer, due)
            if due is None:
                continue
        plans = g.plans(hold, payer, payee, due, alive)
        k = len(plans)
        if k == 1:
            plan = plans[0]
        else:  # the acting player picks the plan
            legal_sum += k
            choices += 1
            s.debt = (kind, payer, payee, due)
            plan = plans[_pick(g, chooses, rnd, s.acting, hold, pips, payer, payee, plans)]
        s._settle(plan, kind, payer, payee, due)
    if s.phase != OVER:
        s.debt = None
        s.plans = None
    return choices, legal_sum
