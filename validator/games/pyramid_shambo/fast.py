"""A whole game of Pyramid Shambo in one loop, for the runner's hot path.

``play(game, chance, bots, turn_cap)`` plays the same game the protocol loop
plays (``current_player`` / ``legal_actions`` / ``step`` / ``apply``) with the
same bots - the same decisions from the same generators, so the same record -
but skips the per-step protocol work: a uniform thrower's throw is drawn
inline, ties are logged inline, and the state's own rules methods do the rest.
``tests/games/test_pyramid_shambo_rules.py`` checks both loops give identical
records.  It returns None for bots that are not this engine's own (the caller
then plays the protocol loop).
"""

from __future__ import annotations

from validator.kit import View

from .bots import ShamboBot
from .constants import BEATS, CHALLENGE, OVER, PLAN, TARGET, THROW
from .state import TIE_GUARD, ShamboState


def play(game, chance, bots, turn_cap: int = 400, log: list | None = None):
    """Play one game with this engine's bots; the finished state, or None."""
    if not all(isinstance(b, ShamboBot) for b in bots):
        return None
    s = ShamboState(game, chance)
    views = [View(s, p) for p in range(game.players)]
    if log is not None:
        s.log = log
        return _plain(s, bots, views, turn_cap)
    n = game.players
    hold, pips, alive, c, fees = s.hold, s.pips, s.alive, s.c, s.fees
    log_append = s.throw_log.append
    uniform = [b.thrower == "uniform" for b in bots]
    naive = [b.chooser == "naive" for b in bots]
    rngs = [b.rng.random for b in bots]
    own_plans = game.own_plans
    unit, esc, showdown = game.unit, game.escalation, game.showdown
    while True:
        ph = s.phase
        if ph == OVER:
            return s
        if s.turns > turn_cap:
            s.stop("turn-cap")
            return s
        if ph == THROW:
            a, b = s.turn_player, s.rival
            ua, ub = uniform[a], uniform[b]
            ra, rb = rngs[a], rngs[b]
            while True:
                ta = int(ra() * 3) if ua else bots[a].throw(views[a])
                tb = int(rb() * 3) if ub else bots[b].throw(views[b])
                if ta != tb or s.ties + 1 >= TIE_GUARD:
                    break
                log_append((s.turns, s.ties, a, ta, b, tb))
                c["throws"] += 1
                c["ties"] += 1
                s.n_actions += 1
                s.ties += 1
            if ta == tb:
                s.throw(ta, tb)
                continue
            if BEATS[ta] == tb:
                w, loser = a, b
            else:
                w, loser = b, a
            fee = unit + esc * s.ties
            two = showdown and s.n_alive == 2
            if two:
                fee *= 2
            hp = hold[loser]
            plans = own_plans(hp, fee)
            if plans is None or plans[0][1] == hp or (len(plans) > 1 and not naive[s.acting]):
                s.throw(ta, tb)  # change, a knock-out or a real choice: the state's own way
                continue
            log_append((s.turns, s.ties, a, ta, b, tb))
            c["throws"] += 1
            if fee > c["max_fee"]:
                c["max_fee"] = fee
            plan = plans[0] if len(plans) == 1 else plans[int(rngs[s.acting]() * len(plans))]
            give = plan[1]
            hold[loser] = hp & ~give
            hold[w] |= give
            pips[loser] -= fee
            pips[w] += fee
            s.n_actions += 2  # the throw and the payment
            fees.append((s.ties, fee, fee, 1 if two else 0))
            s._next_turn()
        else:
            p = s.acting
            if ph == CHALLENGE:
                me = s.turn_player
                acts = [TARGET + q for q in range(n) if q != me and alive[q]]
                act = acts[int(rngs[p]() * len(acts))] if naive[p] else bots[p].step(views[p], acts)
                s._challenge(act - TARGET)
            else:  # PAY
                acts = list(range(PLAN, PLAN + len(s.plans)))
                act = acts[int(rngs[p]() * len(acts))] if naive[p] else bots[p].step(views[p], acts)
                s.apply_unchecked(act)


def _plain(s, bots, views, turn_cap):
    """The same game step by step through the rules methods (with a replay log)."""
    while True:
        ph = s.phase
        if ph == OVER:
            return s
        if s.turns > turn_cap:
            s.stop("turn-cap")
            return s
        if ph == THROW:
            a, b = s.turn_player, s.rival
            s.throw(bots[a].throw(views[a]), bots[b].throw(views[b]))
        elif ph == CHALLENGE:
            p = s.acting
            me = s.turn_player
            acts = [TARGET + q for q in range(s.n) if q != me and s.alive[q]]
            s._challenge(bots[p].step(views[p], acts) - TARGET)
        else:
            p = s.acting
            s.apply_unchecked(bots[p].step(views[p], list(range(PLAN, PLAN + len(s.plans)))))
