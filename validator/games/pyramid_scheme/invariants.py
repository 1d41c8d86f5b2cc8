"""Pyramid Scheme's invariants beyond the kit's conservation check (``--strict``):
hand limits, players who are out, the goals, and every pyramid's placement
restrictions and bookkeeping."""

from __future__ import annotations

from .spec import FOUNDER, POLICE, VICTIM


def check(state) -> None:
    """Raise AssertionError naming the first broken invariant."""
    g = state.g
    for p in range(state.n):
        if state.alive[p] and len(state.hands[p]) > state.limit[p]:
            raise AssertionError(f"P{p + 1} holds {len(state.hands[p])} victims, over the limit {state.limit[p]}")
        if not state.alive[p] and (state.hands[p] or state.pyr[p].card):
            raise AssertionError(f"P{p + 1} is out but still has cards")
    for gi in state.reserved:
        if gi not in state.goals_open:
            raise AssertionError(f"goal {g.goal_designs[g.goals[gi][0]].name} is reserved but not open")
    for p in range(state.n):
        if state.alive[p]:
            check_pyramid(state, p)


def check_pyramid(state, p: int) -> None:
    g = state.g
    pyr = state.pyr[p]
    who = f"P{p + 1}'s pyramid"
    if g.KIND[pyr.card[0]] != FOUNDER:
        raise AssertionError(f"{who} has no founder at the top")
    below = [0] * len(pyr.card)
    kids = [0] * len(pyr.card)
    for v, c in enumerate(pyr.card):
        if c < 0 or v == 0:
            continue
        u = pyr.parent[v]
        if pyr.card[u] < 0:
            raise AssertionError(f"{who}: {g.card_label(c)} hangs below a removed card")
        below[u] += g.NUM[c]
        kids[u] += 1
        if g.KIND[pyr.card[u]] == POLICE and not pyr.flipped[u]:
            raise AssertionError(f"{who}: {g.card_label(c)} is below an unflipped police")
        if g.KIND[c] == VICTIM and v not in pyr.passed:
            w = u
            while w >= 0:
                a = pyr.card[w]
                if g.KIND[a] == VICTIM and g.COL[a] == g.COL[c] and not pyr.flipped[w]:
                    raise AssertionError(f"{who}: {g.card_label(c)} is below {g.card_label(a)} of the same "
                                         "colour, which is not flipped")
                w = pyr.parent[w]
    for v, c in enumerate(pyr.card):
        if c < 0:
            continue
        room = g.NUM[c] + sum(pyr.tok[v])
        if below[v] > room:
            raise AssertionError(f"{who}: the numbers below {g.card_label(c)} add up to {below[v]}, more than "
                                 f"{room}")
        hosts = g.KIND[c] != POLICE or pyr.flipped[v]
        expect = room - below[v] if hosts else -1
        if pyr.cap[v] != expect:
            raise AssertionError(f"{who}: room below {g.card_label(c)} is {pyr.cap[v]}, should be {expect}")
        if kids[v] != pyr.nchild[v]:
            raise AssertionError(f"{who}: child count of {g.card_label(c)} is off")
        if pyr.tok[v] and g.KIND[c] == POLICE and not pyr.flipped[v]:
            raise AssertionError(f"{who}: a limit token sits on an unflipped police")

