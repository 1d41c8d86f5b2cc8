"""Judgement for the generic bots in the drinking Pyramid: a perfect memory (the
cards as shown), drinks to whoever drinks least, questions answered."""

from __future__ import annotations

from validator.kit import Heuristic

from .constants import ANSWER, ASK_NONE, GIVE, GIVING, LAY


def scores(obs, actions: list[int]) -> list[float]:
    if obs.phase == LAY:
        rank, revealed, shown = obs.rank, obs.revealed, obs.shown
        slot = [1.0 if revealed.get(k, r) == rank else -2.0 for k, r in enumerate(shown[:8])]  # each card alone
        out = []
        for m in actions:
            v = 0.0
            k = 0
            m &= 255  # the first eight slots
            while m:
                if m & 1:
                    v += slot[k]
                m >>= 1
                k += 1
            out.append(v)
        return out
    if obs.phase == GIVING:
        return [-float(obs.sips[a - GIVE]) for a in actions]
    return [1.0 if a in (ANSWER, ASK_NONE) else 0.0 for a in actions]


def evaluate(state, player: int) -> float:
    """1 for the fewest sips at the end; else fewer sips is better."""
    if state.is_terminal():
        return 1.0 / len(state.winners) if player in state.winners else 0.0
    return 1.0 / (1.0 + state.sips[player] - min(state.sips))


HEURISTIC = Heuristic(scores=scores, evaluate=evaluate)
