"""Constructed positions, for tests and the rulebook's examples."""

from __future__ import annotations

from validator.kit import Chance

from .pyramid import Pyramid
from .spec import FOUNDER, MAIN, POLICE, VICTIM


def build(cls, g, *, pyramids, hands=None, display=(), deck=None, discard=(), goals=None, reserved=None, resets=None,
          passes=None, limits=None, player=0, actions_left=None, seed=0, unused="deck"):
    """A constructed position of state class ``cls``.

    ``pyramids``: per player a list of ``(design_id, parent_node)`` (node 0 is
    the founder, parent None), optionally ``(id, parent, True)`` for a flipped
    card or ``(id, parent, flipped, limit_tokens)``.  Cards are given by
    design id; every component not named is put where setup would leave it
    (victims at the bottom of the deck - or out of the game with
    ``unused="out"`` - police and tokens in the supply, goals in the box).
    ``deck`` lists the deck from the bottom to the (face-up) top.
    """
    s = cls(g, Chance(seed), setup=False)
    n = len(pyramids)
    if n != g.players:
        raise ValueError(f"the game was compiled for {g.players} players, the position has {n}")
    s._blank(n)
    free: dict[str, list[int]] = {}
    for c in range(len(g.KIND)):
        free.setdefault(g.designs[g.DESIGN[c]].id, []).append(c)

    def take(design_id: str) -> int:
        try:
            return free[design_id].pop(0)
        except (KeyError, IndexError):
            raise ValueError(f"no copy of '{design_id}' left for the position") from None

    police_used = []
    for p, spec in enumerate(pyramids):
        pyr = None
        for i, item in enumerate(spec):
            did, parent, *rest = item
            flip = bool(rest[0]) if rest else False
            tokens = list(rest[1]) if len(rest) > 1 else []
            c = take(did)
            if i == 0:
                pyr = Pyramid(len(g.colors), c, g.NUM[c])
                v = 0
            else:
                v = pyr.add(g, c, parent)
            if g.KIND[c] == POLICE:
                police_used.append(c)
            for amount in tokens:
                s.sup_limit[amount] -= 1
                pyr.add_limit(v, amount)
            if flip:
                pyr.flip(g, v)
        s.pyr.append(pyr)
    s.police = [c for c in g.police if c not in set(police_used)]
    for p, h in enumerate(hands or [[] for _ in range(n)]):
        s.hands[p] = [take(d) for d in h]
    s.display = [take(d) if d else -1 for d in display]
    s.discard = [take(d) for d in discard]
    named_deck = [take(d) for d in (deck or [])]
    rest = sorted(c for cs in free.values() for c in cs if g.KIND[c] == VICTIM)
    if unused == "out":
        s.out.extend(rest)
        rest = []
    s.deck = rest + named_deck
    s.box.extend(c for cs in free.values() for c in cs if g.KIND[c] == FOUNDER)
    if goals is None:
        goals = []
    gid = {d.id: i for i, d in enumerate(g.goal_designs)}
    s.goals_open = sorted(next(i for i, (d, _) in enumerate(g.goals) if d == gid[x]) for x in goals)
    s.box.extend(("goal", i) for i in range(len(g.goals)) if i not in s.goals_open)
    for goal_id, p in (reserved or {}).items():
        s.reserved[next(i for i in s.goals_open if g.goals[i][0] == gid[goal_id])] = p
    s.resets = list(resets) if resets is not None else [g.start_resets] * n
    s.sup_reset -= sum(s.resets)
    s.passes = list(passes) if passes is not None else [0] * n
    s.sup_pass -= sum(s.passes)
    if limits is not None:
        s.limit = list(limits)
    s.start = s.turn_player = s.cur = player
    s.phase = MAIN
    s.actions_left = g.actions if actions_left is None else actions_left
    if s.actions_left > 0:
        s._main_or_crumble()  # as at any turn start: a player who cannot act crumbles
    return s
