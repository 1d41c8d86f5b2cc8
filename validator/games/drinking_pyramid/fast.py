"""A whole drinking Pyramid game in one loop, for the runner's hot path.

``play(game, chance, bots, turn_cap)`` plays the same game as the protocol
loop with the same bots (the same draws, so the same record): at each turned
pyramid card it asks every bot's memory directly instead of building an
observation per player; everything else goes through the state's own rules.
Returns None for bots that are not this engine's own.
"""

from __future__ import annotations

from validator.kit import View

from .bots import DrinkBot
from .constants import LAY, OVER
from .state import PyramidState


def play(game, chance, bots, turn_cap: int = 400, log: list | None = None):
    if not all(isinstance(b, DrinkBot) for b in bots):
        return None
    s = PyramidState(game, chance)
    if log is not None:
        s.log = log
    views = [View(s, p) for p in range(game.players)]
    for p, b in enumerate(bots):
        if b.mem is None:
            b._remember(s.observe(p))
    rank_of = game.rank
    hands, revealed = s.hands, s.revealed
    while True:
        ph = s.phase
        if ph == OVER:
            return s
        if s.turns > turn_cap:
            s.stop("turn-cap")
            return s
        if ph == LAY:
            rank = rank_of[s.pyramid[s.pos]]
            joint = {}
            for p in s.acting_players():
                mem = bots[p].mem
                for k, r in revealed[p].items():
                    mem[k] = r
                mask = 0
                for k, c in enumerate(hands[p]):
                    if c >= 0 and mem[k] == rank:
                        mask |= 1 << k
                if mask:
                    joint[p] = mask
            s.apply_actions(joint)
        else:
            p = s.current_player()
            acts = s.legal_actions()
            s.apply_unchecked(acts[0] if len(acts) == 1 else bots[p].step(views[p], acts))
