"""The placement and swap rules as plain functions over a pyramid's arrays, shared by
the state (legality) and the heuristics (which read only an observation's copies).

A pyramid is four lists indexed by position (see ``game.Geometry``): ``board`` (card
or -1), ``bkind`` (0 empty, or the card's kind), ``bnum`` (its number once placed,
NONUM for none) and ``btype`` (its medicine type once placed, FLEX for an `any`
medicine under wild-type=flexible, -1 for no type)."""

from __future__ import annotations

from .spec import FLEX, MEDICINE, NONUM, OPERATION, PATIENT

BIG = 1 << 20


def bounds(SUP, board, bnum, pos: int) -> tuple[int, int]:
    """The lowest and highest number among the supports of ``pos`` (BIG, -1 when
    none has a number): a medicine fits if its number is below the first or above
    the second ("higher than all or lower than all")."""
    lo, hi = BIG, -1
    for s in SUP[pos]:
        if board[s] >= 0:
            n = bnum[s]
            if n >= 0:
                if n < lo:
                    lo = n
                if n > hi:
                    hi = n
    return lo, hi


def fits(n: int, lo: int, hi: int) -> bool:
    return n == NONUM or n < lo or n > hi


def supported(SUP, board, pos: int) -> bool:
    for s in SUP[pos]:
        if board[s] >= 0:
            return True
    return False


def path_ok(NB, bkind, btype, start: int, need, nwild: int, extra: bool) -> bool:
    """Is there a path from ``start`` (the patient's position) through touching cards
    that visits exactly the required medicine - ``need[t]`` of each type t and
    ``nwild`` of any type - and never turns back on either axis (once up, never down;
    once left, never right; ``NB`` says which steps count on which axis: the rule
    backward)?  With ``extra`` it may also cross patients and operations.

    A medicine of a needed type always meets that need before a ? need: any card
    used for a ? could swap roles with it, so this never loses a path."""
    total = sum(need) + nwild
    if total == 0:
        return True
    if total == 1 and not extra:  # one step: a touching medicine of the type (the common case)
        for q, _, _ in NB[start]:
            if bkind[q] == MEDICINE:
                t = btype[q]
                if nwild or t < 0 or need[t]:
                    return True
        return False
    return _walk(NB, bkind, btype, start, 0, 0, total, nwild, list(need), extra)


def _walk(NB, bkind, btype, p, dv, dh, left, w, need, extra) -> bool:
    for q, sv, sh in NB[p]:
        if sh and dh and sh != dh or sv and dv and sv != dv:
            continue
        k = bkind[q]
        if k == 0:
            continue
        nv = sv or dv
        sh = sh or dh  # (a step without a horizontal direction keeps the path's: rule backward=vertical)
        if k == MEDICINE:
            t = btype[q]
            if t >= 0:
                if need[t]:
                    if left == 1:
                        return True
                    need[t] -= 1
                    ok = _walk(NB, bkind, btype, q, nv, sh, left - 1, w, need, extra)
                    need[t] += 1
                    if ok:
                        return True
                elif w:
                    if left == 1 or _walk(NB, bkind, btype, q, nv, sh, left - 1, w - 1, need, extra):
                        return True
                continue
            # an `any` medicine under wild-type=flexible meets any one need
            if left == 1:
                return True
            for t2 in range(len(need)):
                if need[t2]:
                    need[t2] -= 1
                    ok = _walk(NB, bkind, btype, q, nv, sh, left - 1, w, need, extra)
                    need[t2] += 1
                    if ok:
                        return True
            if w and _walk(NB, bkind, btype, q, nv, sh, left - 1, w - 1, need, extra):
                return True
        elif extra and _walk(NB, bkind, btype, q, nv, sh, left, w, need, extra):
            return True
    return False


def is_type(bkind, btype, q: int, t: int) -> bool:
    return bkind[q] == MEDICINE and (btype[q] == t or btype[q] == FLEX)


def wanted(bkind, btype, q: int, want: int) -> bool:
    if bkind[q] != MEDICINE:
        return False
    t = btype[q]
    return t == FLEX or t >= 0 and (want >> t) & 1 == 1


def pair_ok(g, bkind, btype, c: int, a: int, b: int) -> bool:
    """May cards at ``a`` and ``b`` be swapped after revealing hand card ``c``
    (-1: an operation's free swap)?  A patient allows only cards of types it
    wants; a medicine needs one of the two to be of its type (an `any` medicine
    names a type: one of the two must be medicine); an operation shown allows any
    two under reveal-operation=free."""
    if a == b or bkind[a] == 0 or bkind[b] == 0:
        return False
    if c < 0:
        return True
    k = g.KIND[c]
    if k == MEDICINE:
        t = g.TYPE[c]
        if t == FLEX:
            return bkind[a] == MEDICINE or bkind[b] == MEDICINE
        return is_type(bkind, btype, a, t) or is_type(bkind, btype, b, t)
    if k == PATIENT:
        w = g.WANT[c]
        return wanted(bkind, btype, a, w) and wanted(bkind, btype, b, w)
    return g.reveal_op


def holds(SUP, board, bkind, bnum, p: int) -> bool:
    """Does the card at ``p`` follow the number rule against its supports now?
    (True for an empty position, the starting row, patients and blank numbers.)"""
    if board[p] < 0 or not SUP[p] or bkind[p] == PATIENT:
        return True
    n = bnum[p]
    if n == NONUM:
        return True
    lo, hi = bounds(SUP, board, bnum, p)
    return n < lo or n > hi


def keeps_rule(SUP, OUT, board, bkind, bnum, a: int, b: int) -> bool:
    """swap-check=keep: may ``a`` and ``b`` be swapped?  Both moved cards must follow
    the number rule in their new places, and every card resting on either that
    followed it before still does."""
    resting = [p for p in (*OUT[a], *OUT[b]) if holds(SUP, board, bkind, bnum, p)]
    arrays = (board, bkind, bnum)
    swap_arrays(arrays, a, b)
    ok = holds(SUP, board, bkind, bnum, a) and holds(SUP, board, bkind, bnum, b) and \
        all(holds(SUP, board, bkind, bnum, p) for p in resting)
    swap_arrays(arrays, a, b)
    return ok


def swap_arrays(arrays, a: int, b: int) -> None:
    for arr in arrays:
        arr[a], arr[b] = arr[b], arr[a]


def numbered(kind: int) -> bool:
    return kind == MEDICINE or kind == OPERATION
