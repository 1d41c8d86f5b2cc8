"""Judgement for Pyramid Shambo bots: whom to challenge and which pieces to pay with.

A piece is worth its pips, less when its colour's player is close to being
knocked out (every piece of that colour then leaves the game, whoever holds
it); pieces of your own colour are safe (they only leave with you).  Throws are
not judged here: the uniform throw is the game-theoretic optimum, and the
throwers live in ``bots.py``.
"""

from __future__ import annotations

from validator.kit import Heuristic

from .constants import CHALLENGE, PAY, PLAN, TARGET

RISK_WEIGHT = 0.8  # how much of a piece's value the risk of its colour leaving takes away
OUT_PENALTY = 100.0  # value of being knocked out


def risks(obs, me: int) -> list[float]:
    """Per colour: how likely its player is to be knocked out soon (0 for your own colour)."""
    g = obs.game
    unit = g.unit
    out = [0.0] * len(g.colors)
    for q, col in enumerate(g.player_color):
        if q == me or not obs.alive[q]:
            continue
        out[col] = min(1.0, 2.0 * unit / (obs.pips[q] + unit))
    return out


def mask_value(g, mask: int, risk: list[float]) -> float:
    v = 0.0
    pips, color = g.PIPS, g.COLOR
    i = 0
    while mask:
        if mask & 1:
            v += pips[i] * (1.0 - RISK_WEIGHT * risk[color[i]])
        mask >>= 1
        i += 1
    return v


def plan_scores(obs, me: int, actions: list[int]) -> list[float]:
    """The acting player's gain in safe pips by each payment plan."""
    g = obs.game
    risk = risks(obs, me)
    kind, payer, payee, due = obs.debt
    out = []
    for a in actions:
        pk, give, back, maker, broken, pieces, paid = obs.plans[a - PLAN]
        gain = 0.0
        if me == payer:
            gain += mask_value(g, back, risk) - mask_value(g, give, risk)
            if maker >= 0:
                gain += mask_value(g, pieces, risk) - mask_value(g, broken, risk)
            if ((obs.hold[me] & ~give & ~broken) | back | pieces) == 0:
                gain -= OUT_PENALTY
        elif me == payee:
            gain += mask_value(g, give, risk) - mask_value(g, back, risk)
        elif me == maker:
            gain += mask_value(g, broken, risk) - mask_value(g, pieces, risk)
        out.append(gain)
    return out


def rival_scores(obs, me: int, actions: list[int]) -> list[float]:
    """Expected gain of challenging each rival on the first throw's fee (each
    side wins half the time): pips won, the knock-out bonus if the fee knocks
    them out, less the pieces of their colour you hold; less what you risk."""
    g = obs.game
    fee = g.unit * (2 if obs.showdown else 1)
    alive = sum(obs.alive)
    my_pips = obs.pips[me]
    lose = OUT_PENALTY if my_pips <= fee else float(fee)
    out = []
    for a in actions:
        q = a - TARGET
        gain = float(min(fee, obs.pips[q])) * (1.0 - RISK_WEIGHT * 0.5)
        if obs.pips[q] <= fee:
            gain += g.unit * (alive - 2)
            gain -= mask_value(g, obs.hold[me] & g.colmask[g.player_color[q]], [0.0] * len(g.colors))
            if alive == 2:
                gain += OUT_PENALTY
        out.append(0.5 * gain - 0.5 * lose - 1e-3 * obs.pips[q])  # ties: the weaker rival
    return out


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
