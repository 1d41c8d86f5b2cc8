"""Judgement for Pyramid Shambo bots: whom to challenge and which pieces to pay with.

A piece is worth its pips, less when its colour's player is close to being
knocked out (every piece of that colour then leaves the game, whoever holds
it); pieces of your own colour are safe (they only leave with you).  Throws are
not judged here: the uniform throw is the game-theoretic optimum, and the
throwers live in ``bots.py``.

The scores are functions of the table (``*_from`` take its parts, the others an
observation); ``smart_rival`` and ``smart_plan`` are the smart chooser's picks.
"""

from __future__ import annotations

from validator.kit import Heuristic

from .constants import CHALLENGE, EXACT, PAY, PLAN, TARGET

RISK_WEIGHT = 0.8  # how much of a piece's value the risk of its colour leaving takes away
OUT_PENALTY = 100.0  # value of being knocked out
SURE = 1.0 - RISK_WEIGHT * 0.5  # a won fee's pieces, at half the risk


def risks(obs, me: int) -> list[float]:
    """Per colour: how likely its player is to be knocked out soon (0 for your own colour)."""
    return risks_from(obs.game, me, obs.pips, obs.alive)


def risks_from(g, me: int, pips, alive) -> list[float]:
    out = [0.0] * len(g.colors)
    for q, col in enumerate(g.player_color):
        if q == me or not alive[q]:
            continue
        out[col] = risk(g, pips[q])
    return out


def risk(g, pips: int) -> float:
    """How likely a player holding ``pips`` is to be knocked out soon."""
    return min(1.0, 2.0 * g.unit / (pips + g.unit))


def mask_value(g, mask: int, risk: list[float]) -> float:
    """The pieces of ``mask`` at their pips, less the risk of their colour leaving (``risk`` per colour)."""
    v = 0.0
    pips, color = g.PIPS, g.COLOR
    while mask:  # the pieces in index order
        low = mask & -mask
        i = low.bit_length() - 1
        v += pips[i] * (1.0 - RISK_WEIGHT * risk[color[i]])
        mask ^= low
    return v


def piece_values(g, me: int, pips, alive) -> list[float]:
    """Each piece's ``mask_value`` under the risks of ``risks_from``, indexed like the
    pieces of the players' colours (a piece of a colour nobody risks losing is worth its
    pips; the pieces of a player who is out are out of the game, so any value does for
    them): ``g.piece_risk_values[me]`` read at the pips of each piece's player."""
    colour = g.COLOR
    rows = g.piece_risk_values[me]
    return [rows[i][pips[colour[i]]] for i in range(g.color_span[g.players - 1][1])]


def piece_risk_values(g) -> list[list[tuple]]:
    """Per chooser, per piece: the piece's value by the pips of its colour's player (its pips
    less ``RISK_WEIGHT`` times the ``risk`` of its colour leaving), or its pips whatever they
    are for a piece of the chooser's own colour (built once per compiled game: what
    ``pick_plan`` and ``piece_values`` look a piece up in)."""
    factors = [1.0 - RISK_WEIGHT * risk(g, x) for x in range(g.total_pips + 1)]
    risky = [tuple(g.PIPS[i] * f for f in factors) for i in range(g.N)]
    return [[(g.PIPSF[i],) * len(factors) if g.COLOR[i] == g.player_color[me] else risky[i] for i in range(g.N)]
            for me in range(g.players)]


def plan_scores(obs, me: int, actions: list[int]) -> list[float]:
    """The acting player's gain in safe pips by each payment plan."""
    return plan_scores_from(obs.game, me, obs.pips, obs.alive, obs.hold, obs.debt, obs.plans, actions)


def plan_scores_from(g, me: int, pips, alive, hold, debt, plans, actions) -> list[float]:
    return _plan_gains(piece_values(g, me, pips, alive), me, hold[me], debt[1], debt[2],
                       [plans[a - PLAN] for a in actions], g.pieces_of)


def _plan_gains(values: list[float], me: int, mine: int, payer: int, payee: int, plans, pieces_of) -> list[float]:
    """``plan_scores``: each mask's value summed piece by piece in index order, as
    ``mask_value`` sums (``pieces_of[mask]``: the pieces of a mask in index order);
    a gain of 0 may come out as -0.0, which compares equal."""
    out = []
    if me == payee:
        for pk, give, back, maker, broken, pieces, paid in plans:
            v = w = 0.0
            for i in pieces_of[give]:
                v += values[i]
            if back:
                for i in pieces_of[back]:
                    w += values[i]
            out.append(v - w)
        return out
    if me != payer:
        for pk, give, back, maker, broken, pieces, paid in plans:
            v = w = 0.0
            if me == maker:
                for i in pieces_of[broken]:
                    v += values[i]
                for i in pieces_of[pieces]:
                    w += values[i]
                out.append(v - w)
            else:
                out.append(0.0)
        return out
    for pk, give, back, maker, broken, pieces, paid in plans:
        v = w = 0.0
        if back:
            for i in pieces_of[back]:
                v += values[i]
        for i in pieces_of[give]:
            w += values[i]
        gain = v - w
        if maker >= 0:
            v = w = 0.0
            for i in pieces_of[pieces]:
                v += values[i]
            for i in pieces_of[broken]:
                w += values[i]
            gain += v - w
        if not (back or pieces or mine & ~give & ~broken):  # nothing left: out
            gain -= OUT_PENALTY
        out.append(gain)
    return out


def rival_scores(obs, me: int, actions: list[int]) -> list[float]:
    """Expected gain of challenging each rival on the first throw's fee (each
    side wins half the time): pips won, the knock-out bonus if the fee knocks
    them out, less the pieces of their colour you hold; less what you risk."""
    return rival_scores_from(obs.game, me, obs.pips, obs.alive, obs.hold, obs.showdown, actions)


def rival_scores_from(g, me: int, pips, alive, hold, showdown: bool, actions) -> list[float]:
    return _rival_scores(g, me, pips, alive, hold, showdown, [a - TARGET for a in actions])


def _rival_scores(g, me: int, pips, alive, hold, showdown: bool, rivals) -> list[float]:
    fee = g.unit * (2 if showdown else 1)
    n_alive = sum(alive)
    lose = OUT_PENALTY if pips[me] <= fee else float(fee)
    out = []
    for q in rivals:
        pq = pips[q]
        gain = float(min(fee, pq)) * SURE
        if pq <= fee:
            gain += g.unit * (n_alive - 2)
            gain -= float(g.pips(hold[me] & g.colmask[g.player_color[q]]))  # pips are whole: the sum is exact
            if n_alive == 2:
                gain += OUT_PENALTY
        out.append(0.5 * gain - 0.5 * lose - 1e-3 * pq)  # ties: the weaker rival
    return out


def smart_rival(g, me: int, hold, alive, pips, showdown: bool) -> int:
    """The smart chooser's rival: the first of the best ``rival_scores``.

    When no rival can be knocked out by the fee, the scores differ only by their
    last term (``- 1e-3 * pips``, whole pips apart): the first of the weakest
    rivals is the best, found without the scores."""
    fee = g.unit * (2 if showdown else 1)
    q = -1
    low = 0
    for r in g.others[me]:
        if alive[r]:
            pr = pips[r]
            if pr <= fee:  # a knock-out is possible: the scores decide
                return best_rival(g, me, pips, alive, hold, fee)
            if q < 0 or pr < low:
                q, low = r, pr
    return q


def best_rival(g, me: int, pips, alive, hold, fee: int) -> int:
    """The first rival of the best ``_rival_scores`` (the same scores, kept as they come)."""
    n_alive = sum(alive)
    lose = OUT_PENALTY if pips[me] <= fee else float(fee)
    mine = hold[me]
    best = 0.0
    q = -1
    for r in g.others[me]:
        if alive[r]:
            pr = pips[r]
            gain = float(min(fee, pr)) * SURE
            if pr <= fee:
                gain += g.unit * (n_alive - 2)
                gain -= float(g.mask_pips[mine & g.colmask[g.player_color[r]]])
                if n_alive == 2:
                    gain += OUT_PENALTY
            score = 0.5 * gain - 0.5 * lose - 1e-3 * pr
            if q < 0 or score > best:
                best, q = score, r
    return q


def smart_plan(g, me: int, hold, alive, pips, debt, plans) -> int:
    """The smart chooser's payment plan: the index of the first of the best ``plan_scores``."""
    s = _plan_gains(piece_values(g, me, pips, alive), me, hold[me], debt[1], debt[2], plans, g.pieces_of)
    return s.index(max(s))


def pick_plan(g, me: int, mine: int, pips, payer: int, payee: int, plans) -> int:
    """``smart_plan`` for a debt of ``payer`` to ``payee`` when ``me`` holds ``mine``:
    the same gains added in the same order (so the same floats), the first best
    kept as they come, without the list of gains.  Plans in a row often pay with
    the same pieces (several ways to give change for one payment, to pay after one
    exchange): a sum the plan before made is not made again.  A piece's value is
    looked up as it is needed (``values[i]`` of ``piece_values`` is
    ``value[i][pips[colour[i]]]``)."""
    value, colour = g.piece_risk_values[me], g.COLOR
    pieces_of = g.pieces_of
    best = 0.0
    pick = -1
    last_give = -1  # the pieces paid by the plan before, and their value
    paid_value = 0.0
    if me == payee:  # what comes in, less the change given back
        for j, plan in enumerate(plans):
            give = plan[1]
            if give != last_give:
                last_give, paid_value = give, 0.0
                for i in pieces_of[give]:
                    paid_value += value[i][pips[colour[i]]]
            v = paid_value
            back = plan[2]
            if back:
                w = 0.0
                for i in pieces_of[back]:
                    w += value[i][pips[colour[i]]]
                v -= w
            if pick < 0 or v > best:
                best, pick = v, j
        return pick
    if me != payer:  # (a bystander: only a change-maker gains or loses)
        s = _plan_gains(piece_values(g, me, pips, None), me, mine, payer, payee, plans, pieces_of)
        return s.index(max(s))
    if plans[0][0] == EXACT:  # exact payments (a list is of one kind): nothing back, nobody changes
        for j, plan in enumerate(plans):
            give = plan[1]
            w = 0.0
            for i in pieces_of[give]:
                w += value[i][pips[colour[i]]]
            gain = 0.0 - w
            if not mine & ~give:  # nothing left: out
                gain -= OUT_PENALTY
            if pick < 0 or gain > best:
                best, pick = gain, j
        return pick
    last_broken = last_pieces = -1  # the exchange of the plan before, and what it gains
    change_value = 0.0
    for j, (pk, give, back, maker, broken, pieces, paid) in enumerate(plans):
        v = 0.0
        if back:
            for i in pieces_of[back]:
                v += value[i][pips[colour[i]]]
        if give != last_give:
            last_give, paid_value = give, 0.0
            for i in pieces_of[give]:
                paid_value += value[i][pips[colour[i]]]
        gain = v - paid_value
        if maker >= 0:
            if broken != last_broken or pieces != last_pieces:
                last_broken, last_pieces = broken, pieces
                v = w = 0.0
                for i in pieces_of[pieces]:
                    v += value[i][pips[colour[i]]]
                for i in pieces_of[broken]:
                    w += value[i][pips[colour[i]]]
                change_value = v - w
            gain += change_value
        if not (back or pieces or mine & ~give & ~broken):  # nothing left: out
            gain -= OUT_PENALTY
        if pick < 0 or gain > best:
            best, pick = gain, j
    return pick


def scores(obs, actions: list[int]) -> list[float]:
    """The greedy bot's scores: rivals and plans judged, throws all equal (uniform)."""
    me = obs.player
    if obs.phase == CHALLENGE:
        return rival_scores(obs, me, actions)
    if obs.phase == PAY:
        return plan_scores(obs, me, actions)
    return [0.0] * len(actions)


def evaluate(state, player: int) -> float:
    """A position for the search bot: 1 won, 0 lost, else the share of the pips in play held."""
    if state.is_terminal():
        return 1.0 / len(state.winners) if player in state.winners else 0.0
    if not state.alive[player]:
        return 0.0
    total = sum(state.pips)
    return state.pips[player] / total if total else 0.0


HEURISTIC = Heuristic(scores=scores, evaluate=evaluate)
