"""The bots' judgement of Pyramid Scheme.

:func:`scores` rates each legal action for the greedy bot from the deciding
seat's :class:`~.observation.Observation` alone (its own hand and pyramid and
the public table): flip cards, complete goals, keep room for police, do not
block a card's condition.  :func:`evaluate` rates a position for the search
bot, which plays determinized copies (everything hidden from it drawn again).
"""

from __future__ import annotations

from validator.kit import Heuristic

from .goals import AFTER, MET, NEAR, PROGRESS, Placement
from .spec import (DISCARD, END, ENDTURN, FLIP, FLIP_POLICE, FLIP_SILENT, FOUNDER, HSTRIDE, LIMIT, MAIN, OFFER, OVER,
                   PLACE, POLICE, POLICE_PLACE, RESERVE, RESET, TAKE, TARGET, TRASH, VICTIM, YES)

# Greedy's value of each reward word (per unit of its argument where it has one).
REWARD_VALUE = {"hand": 4.0, "discard": 1.0, "reset": 3.0, "limit": 1.5, "pass": 2.0, "flip": 5.0,
                "flip-silent": 3.0, "trash-police": 3.0, "flip-police": 3.0, "reserve": 2.0}

_placement = tuple.__new__  # a Placement from a tuple, without NamedTuple's slower constructor


def reward_values(g) -> tuple[float, ...]:
    """Per card: what its rewards are worth to greedy (computed once per compiled game, kept on it)."""
    try:
        return g.greedy_reward_values
    except AttributeError:
        values = tuple(sum(REWARD_VALUE[w] * (a if w in ("hand", "limit") and a else 1) for w, a in rw)
                       for rw in g.REWARD)
        g.greedy_reward_values = values
        return values


# ------------------------------------------------------------------ greedy
def scores(obs, actions: list[int]) -> list[float]:
    """A score per legal action for the greedy bot (higher is better)."""
    ph = obs.phase
    if ph == MAIN:
        return _score_main(obs, actions)
    g = obs.g
    pyr = obs.pyr
    if ph == ENDTURN:
        return [-1.0 if a == RESET else 0.0 for a in actions]
    if ph == OFFER:
        return [1.0 if a == YES else 0.0 for a in actions]
    if ph == POLICE_PLACE:
        return [_score_police(g, pyr, a - TARGET) for a in actions]
    out = []
    for a in actions:
        if a == END:
            out.append(0.0 if ph != TRASH else 0.5)
            continue
        t = a - TARGET
        if ph == LIMIT:
            c = pyr.card[t]
            need = g.NEED_TOTAL[c] - pyr.nvict[t] if not pyr.flipped[t] and g.NEED_TOTAL[c] else 0
            short = need - pyr.cap[t] if need > 0 else 0
            out.append(1.0 + 3.0 * (short > 0) + 0.1 * pyr.cap[t] + (0.5 if g.KIND[c] == FOUNDER else 0.0))
        elif ph in (FLIP, FLIP_SILENT):
            c = pyr.card[t]
            k = g.KIND[c]
            val = 2.0
            if ph == FLIP:
                val += reward_values(g)[c]
            if k == POLICE:
                val += 2.5
            elif k == VICTIM:
                val += 0.5 * (len(pyr.card) - t > 1)
            out.append(val)
        elif ph == TRASH:
            out.append(3.0 if not pyr.flipped[t] else 0.0)
        elif ph == FLIP_POLICE:
            out.append(2.0)
        elif ph == RESERVE:
            out.append(1.0 + goal_progress(obs, obs.goals_open[t]))
        elif ph == DISCARD:
            c = obs.hand[t]
            out.append(-0.5 if _placeable(obs, c) else 1.0)
        else:
            out.append(0.0)
    return out


def _placeable(obs, c: int) -> bool:
    """Whether card ``c`` fits anywhere in the seat's pyramid now."""
    pyr = obs.pyr
    n = obs.g.NUM[c]
    b = 0 if obs.passes else obs.g.CBIT[c]
    cap, mask = pyr.cap, pyr.mask
    for v in range(len(cap)):
        if cap[v] >= n and not mask[v] & b:
            return True
    return False


def _police_spots(g, pyr) -> int:
    """Cards with room for a police below them."""
    n = g.police_number
    spots = 0
    for k in pyr.cap:
        if k >= n:
            spots += 1
    return spots


def _score_police(g, pyr, v: int) -> float:
    c = pyr.card[v]
    n = g.police_number
    left = pyr.cap[v] - n
    s = 0.2 * left
    if g.KIND[c] == FOUNDER:
        s += 0.5
    if g.NEED_TOTAL[c] and not pyr.flipped[v]:
        s -= 2.0 if left < g.NEED_TOTAL[c] - pyr.nvict[v] else 0.5
    return s


def _score_main(obs, actions: list[int]) -> list[float]:
    g = obs.g
    pyr = obs.pyr
    hand = obs.hand
    NUM, CBIT, NEED_TOTAL = g.NUM, g.CBIT, g.NEED_TOTAL
    try:
        RVAL = g.greedy_reward_values
    except AttributeError:
        RVAL = reward_values(g)
    cap, mask, cards, nvict, fxf, fxh = pyr.cap, pyr.mask, pyr.card, pyr.nvict, pyr.fxf, pyr.fxh
    pn = g.police_number
    if max(actions) >= PLACE:  # placements are judged by these, takes are not
        spots = _police_spots(g, pyr)
        open_goals = near_goals(obs)
    out = []
    base = -HSTRIDE  # PLACE + HSTRIDE * the hand index of the card being placed
    stuck = None  # whether no card of the hand can be placed: found out when it matters
    nodes = None  # set at the first take, with the rest of what takes are judged by
    for a in actions:
        if a >= PLACE:
            v = a - base
            if not 0 <= v < HSTRIDE:  # the next card of the hand
                h, v = divmod(a - PLACE, HSTRIDE)
                base = a - v
                c = hand[h]
                n = NUM[c]
                b = CBIT[c]
                own = 1.0 + (0.3 * RVAL[c] if NEED_TOTAL[c] else 0.0)
            if fxf[v] & b:
                flips = True
                sc = own + 12.0 + RVAL[cards[v]]
            else:
                flips = False
                k = fxh[v]
                if k and cap[v] - n < NEED_TOTAL[cards[v]] - nvict[v] - 1:
                    sc = own - 5.0  # leaves too little room to ever flip the card above
                else:
                    sc = own + (3.0 if k & b else 0.0)
            if mask[v] & b:
                sc -= 3.0  # spends a colour pass
            k = cap[v]
            after = spots - (k >= pn > k - n) + (n >= pn)
            if after <= 0:
                sc -= 20.0
            elif after == 1:
                sc -= 2.0
            if open_goals:
                sc += 8.0 * goals_completed(obs, c, v, flips, open_goals)
            out.append(sc)
        elif a == RESET:
            out.append(-3.0)
        else:  # take: worth what the card would do in its best spot (flip the card above, help it, fit)
            if nodes is None:
                nodes = range(len(cap))
                colour_rule = 0 if obs.passes else -1  # a colour pass lifts the colour rule
                fills_hand = len(hand) + 1 >= obs.limit
                room_left = obs.actions_left > 1 or len(hand) < obs.limit - 1
            c = obs.display[a - TAKE]
            n = NUM[c]
            b = CBIT[c]
            free = b & colour_rule
            sc = 0.5 + 0.15 * n
            best = None
            for v in nodes:
                if cap[v] >= n and not mask[v] & free:
                    val = 6.0 + 0.5 * RVAL[cards[v]] if fxf[v] & b else (1.5 if fxh[v] & b else 0.0)
                    if best is None or val > best:
                        best = val
            if best is None:
                sc -= 4.0
                if fills_hand:
                    if stuck is None:
                        stuck = not any(_placeable(obs, x) for x in hand)
                    if stuck:
                        sc -= 30.0
            else:
                sc += best
                if room_left:
                    sc += 0.5
            out.append(sc)
    return out


def near_goals(obs) -> list[int]:
    """Open goals (not reserved by others) one placement and its flip could complete."""
    p = obs.player
    pyr = obs.pyr
    goals_open, reserved = obs.goals_open, obs.reserved
    key = (len(pyr.card), pyr.flips, len(goals_open), len(reserved))
    memo = obs.memo
    hit = memo.get(p)
    if hit is not None and hit[0] == key:
        return hit[1]
    g = obs.g
    goals = g.goals
    out = []
    for gi in goals_open:
        if reserved and reserved.get(gi, p) != p:
            continue
        for kind, n, col, num in goals[gi][1]:
            near = NEAR[kind]
            if near is None or not near(pyr, n, col, num, g):
                break
        else:
            out.append(gi)
    memo[p] = (key, out)
    return out


def goals_completed(obs, c: int, v: int, flips: bool, open_goals: list[int]) -> int:
    """How many of ``open_goals`` placing card ``c`` below node ``v`` would complete (its flip included)."""
    pyr = obs.pyr
    g = obs.g
    pc = pyr.card[v]
    place = _placement(Placement, (g.COL[c], g.NUM[c], pyr.depth[v] + 1, v, flips,
                                   g.COL[pc] if flips and g.KIND[pc] == VICTIM else -2, g.NUM[pc] if flips else None))
    goals = g.goals
    done = 0
    for gi in open_goals:
        for kind, n, col, num in goals[gi][1]:
            after = AFTER[kind]
            if after is None:  # a placement does not change it
                if not MET[kind](pyr, n, col, num, g, obs.resets):
                    break
            elif not after(pyr, n, col, num, g, place):
                break
        else:
            done += 1
    return done


def goal_progress(obs, gi: int) -> float:
    """0..1: how close the seat is to goal ``gi`` (for reserving)."""
    pyr, g, resets = obs.pyr, obs.g, obs.resets
    fr = [PROGRESS[kind](pyr, n, col, num, g, resets) for kind, n, col, num in g.goals[gi][1]]
    return min(1.0, min(fr)) if fr else 0.0


# ------------------------------------------------------------------ search
def strength(state, q: int) -> float:
    """What a position is worth to player ``q`` (see ``spec.STANDING``)."""
    flips, spots, room, goals, resets, hand = state.assets(q)
    return 1.0 * flips + 1.5 * spots + 0.3 * room + 2.0 * goals + 0.5 * resets + 0.5 * hand


def evaluate(state, p: int) -> float:
    """Value of a (determinized) position for player ``p`` in [0, 1] (search
    leaves): its strength against the strongest opponent's, around a fair share."""
    if state.phase == OVER:
        r = state.returns()
        return r[p] if state.winners else 1.0 / state.n
    if not state.alive[p]:
        return 0.0
    mine = strength(state, p)
    best_other = None
    alive = 0
    for q in range(state.n):
        if state.alive[q]:
            alive += 1
            if q != p:
                other = strength(state, q)
                if best_other is None or other > best_other:
                    best_other = other
    x = (mine - (best_other or 0.0)) / 10.0
    share = 1.0 / alive
    return max(0.01, min(0.99, share + x * share))


HEURISTIC = Heuristic(scores=scores, evaluate=evaluate)
