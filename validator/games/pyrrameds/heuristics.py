"""The greedy heuristic (rates actions from an observation only), the evaluation for
the search bot, and the engine's own bots.

Greedy places whenever it can: first a card that wins, then patients (hard to place
later, and each need makes someone show it a card), hard middle numbers before easy
extreme ones and wildcards, operations by their effect; it avoids taking the only
spot of another card of its own, and - using what it remembers of the others'
hands - avoids opening spots for their known cards (most of all the next player's
and those close to winning) and likes taking the only spot one of them had.  It
swaps only when it cannot place, choosing the swap that gives its own cards spots.
The forgetful bot is the same player without memory of shown cards: the value of
information is greedy's edge over it."""

from __future__ import annotations

from validator.kit import Bot, Heuristic

from .rules import BIG, bounds, pair_ok, path_ok
from .spec import CHOOSE, DISCARD, GIVE, MAIN, NONUM, OPERATION, PATIENT, PEEK, PICK, SHOW, SWAP_A, SWAP_B

EFFECT_VALUE = {"again": 6.0, "swap": 0.5, "give": 9.0, "peek": 1.0, "show": 1.0, "discard": 9.0, "skip": 3.0}
WIN = 1000.0


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


HAS = tuple((1.0 if f > 0 else 0.0) + 0.1 * min(f, 3) for f in range(200))  # the worth of a card having f spots


def fitmask(lo: int, hi: int) -> int:
    """The numbers (as bits) that fit between supports lo..hi: below lo or above hi."""
    below = (1 << lo) - 1 if lo < 64 else (1 << 64) - 1
    return below | (((1 << 64) - 1) & ~((1 << (hi + 1)) - 1))


class _Table:
    """What one scoring call reads from an observation, computed once: for every
    open position the numbers that fit there (a bit mask), and for every number
    held by me or known in another hand how many spots it has and what it weighs."""

    __slots__ = ("g", "o", "me", "n", "nxt", "board", "bnum", "fm", "before", "wmine", "wtheirs", "interest", "cache",
                 "interest_all")

    def __init__(self, o):
        g = self.g = o.game
        self.o = o
        me = self.me = o.player
        n = self.n = len(o.sizes)
        self.nxt = (me + 1) % n
        self.board, self.bnum = o.board, o.bnum
        self.fm = fm = {p: _fm(lo, hi) for p, (lo, hi) in o.bounds.items()}
        self.cache = {}
        NUM, KIND, WNUM = g.NUM, g.KIND, g.WNUM
        size = g.numbers[-1] + 2
        wmine = [0.0] * size
        wtheirs = [0.0] * size
        interest = 0
        for c in o.hand:
            if KIND[c] != PATIENT and not WNUM[c]:
                wmine[NUM[c]] += 1.0
                interest |= 1 << NUM[c]
        for q in range(n):
            if q == me or not o.known[q]:
                continue
            w = (2.0 if q == self.nxt else 1.0) * (1.0 + 2.0 / max(1, o.sizes[q]))
            for c in _bits(o.known[q]):
                if KIND[c] != PATIENT and not WNUM[c]:
                    wtheirs[NUM[c]] += w
                    interest |= 1 << NUM[c]
        self.wmine, self.wtheirs = wmine, wtheirs
        before = [0] * size
        for m in fm.values():
            m &= interest
            while m:
                low = m & -m
                before[low.bit_length() - 1] += 1
                m ^= low
        self.before = before
        # a placement closes one spot: a number with 4 or more keeps 3 or more, worth the same
        self.interest_all = interest
        for x in range(size):
            if before[x] >= 4:
                interest &= ~(1 << x)
        self.interest = interest

    def spots(self, num: int) -> int:
        if self.interest_all >> num & 1:
            return self.before[num]
        return sum(1 for m in self.fm.values() if m >> num & 1)

    def delta(self, changed, skip: int = -1) -> tuple[float, float]:
        """(my gain, their gain) when open positions' masks change: ``changed`` is
        [(old mask or 0, new mask or 0)]; ``skip`` is the number of the card being
        placed (one copy of it leaves my hand)."""
        diff = 0
        for old, new in changed:
            diff |= old ^ new
        diff &= self.interest_all
        mine = theirs = 0.0
        before, wmine, wtheirs = self.before, self.wmine, self.wtheirs
        while diff:
            low = diff & -diff
            x = low.bit_length() - 1
            diff ^= low
            b = before[x]
            a = b
            for old, new in changed:
                if new & low:
                    a += 1
                if old & low:
                    a -= 1
            v = HAS[a] - HAS[b]
            mine += (wmine[x] - (x == skip)) * v
            theirs += wtheirs[x] * v
        return mine, theirs


def _static(g) -> tuple:
    """Per card, the part of a placement's score that depends on the card alone:
    patients by their needs, numbers by how hard they are to place later (middle
    numbers are), wildcards kept for later, operations by their effect.  Kept on
    the compiled game after the first call."""
    got = getattr(g, "greedy_static", None)
    if got is not None:
        return got
    lo, hi = g.numbers[0], g.numbers[-1]
    out = []
    for c in range(g.NC):
        k, num = g.KIND[c], g.NUM[c]
        s = 10.0
        if k == PATIENT:
            s += 3.0 + 1.5 * g.NREQ[c]
        else:
            if g.WNUM[c]:
                s -= 1.0
            elif num != NONUM and hi > lo:
                s += 1.5 * min(num - lo, hi - num) / ((hi - lo) / 2)
            for word, x in g.EFFECT[c]:
                s += EFFECT_VALUE.get(word, 0.0) * (x or 1)
        out.append(s)
    g.greedy_static = tuple(out)
    return g.greedy_static


FITMASK: dict = {}
ALL = (1 << 64) - 1


def _fm(lo: int, hi: int) -> int:
    m = FITMASK.get((lo, hi))
    if m is None:
        m = FITMASK[(lo, hi)] = fitmask(lo, hi)
    return m


def _opening(t: _Table, pos: int, num: int, skip: int) -> float:
    """What placing a card numbered ``num`` at ``pos`` does to the spots of my other
    cards and of the cards I know the others hold (cached per position and number):
    ``pos`` closes, and the empty positions it supports open or narrow."""
    key = (pos, num, skip)
    cache = t.cache
    got = cache.get(key)
    if got is not None:
        return got
    outs = cache.get(pos)
    if outs is None:  # per empty position it supports: its mask now, its other support's number
        geo = t.g.geo
        board, bnum = t.board, t.bnum
        outs = []
        for q in geo.OUT[pos]:
            if board[q] < 0:
                other = -1
                for x in geo.SUP[q]:
                    if x != pos and board[x] >= 0 and bnum[x] >= 0:
                        other = bnum[x]
                outs.append((t.fm.get(q, 0), other))
        cache[pos] = outs
    changed = [(t.fm[pos], 0)]
    for old, other in outs:
        if num < 0:
            new = _fm(other, other) if other >= 0 else ALL
        elif other < 0:
            new = _fm(num, num)
        else:
            new = _fm(num, other) if num < other else _fm(other, num)
        changed.append((old, new))
    diff = 0
    for old, new in changed:
        diff |= old ^ new
    diff &= t.interest
    mine = theirs = 0.0
    if diff:
        before, wmine, wtheirs = t.before, t.wmine, t.wtheirs
        while diff:
            low = diff & -diff
            x = low.bit_length() - 1
            diff ^= low
            b = before[x]
            a = b
            for old, new in changed:
                if new & low:
                    a += 1
                if old & low:
                    a -= 1
            v = HAS[a] - HAS[b]
            mine += (wmine[x] - (x == skip)) * v
            theirs += wtheirs[x] * v
    v = cache[key] = 1.5 * mine - theirs
    return v


def _place_scores(t: _Table, actions: list[int]) -> list[float]:
    """Every placement's score (a reveal, offered beside placements, gets -5)."""
    g, o = t.g, t.o
    cd = g.codes
    PL, P = cd.PLACE, g.geo.P
    KIND, NUM, WNUM = g.KIND, g.NUM, g.WNUM
    decoded = []
    spots: dict[int, set] = {}
    for a in actions:
        if a < PL:
            decoded.append(None)
            continue
        c, pos = divmod(a - PL, P)
        decoded.append((c, pos))
        spots.setdefault(c, set()).add(pos)
    only: dict[int, list] = {}
    for c, sp in spots.items():
        if len(sp) == 1:
            only.setdefault(next(iter(sp)), []).append(c)
    static = _static(g)
    hand = len(o.hand)
    interest = t.interest
    out = []
    for d in decoded:
        if d is None:
            out.append(-5.0)
            continue
        c, pos = d
        s = static[c]
        if KIND[c] == OPERATION:
            for word, k in g.EFFECT[c]:
                if word in ("give", "discard") and k >= hand - 1:
                    s += WIN / 2
        blocked = only.get(pos)
        if blocked:  # another of my cards has this as its only spot
            s -= 2.5 * (len(blocked) - (c in blocked))
        if interest and not (WNUM[c] and g.choose_number):
            num = NUM[c]
            s += _opening(t, pos, num, num if KIND[c] != PATIENT and not WNUM[c] else -1)
        out.append(s)
    nxt = t.nxt
    if o.known[nxt] and o.sizes[nxt] <= ENDGAME:
        _endgame(t, decoded, out)
    return out


ENDGAME = 2  # the next player holds this many cards or fewer: keep their known cards from a spot


def _spots_for(g, board, bkind, bnum, btype, opened, c: int) -> bool:
    """Has card c a legal spot among the open positions ``opened``?"""
    geo = g.geo
    if g.KIND[c] == PATIENT:
        need, nw, extra = g.NEED[c], g.NWILD[c], g.path_extra
        return any(path_ok(geo.NB, bkind, btype, p, need, nw, extra) for p in opened)
    n = g.NUM[c]
    if n == NONUM or g.WNUM[c]:
        return bool(opened)
    for p in opened:
        lo, hi = bounds(geo.SUP, board, bnum, p)
        if n < lo or n > hi:
            return True
    return False


def _endgame(t: _Table, decoded: list, out: list) -> None:
    """The next player is about to win and I know some of their cards: prefer the
    placement after which those cards have nowhere to go (what memory is for)."""
    g, o = t.g, t.o
    geo = g.geo
    nxt = t.nxt
    theirs = list(_bits(o.known[nxt]))
    board, bkind, bnum, btype = list(o.board), list(o.bkind), list(o.bnum), list(o.btype)
    opened = set(o.open)
    free_before = sum(1 for c in theirs if _spots_for(g, board, bkind, bnum, btype, opened, c))
    weight = 6.0 / o.sizes[nxt]
    seen: dict = {}
    for i, d in enumerate(decoded):
        if d is None:
            continue
        c, pos = d
        tt, num = g.effective(c, 0) if not g.NAMED[c] else (g.TYPE[c], NONUM)
        key = (pos, g.KIND[c], tt, num)
        v = seen.get(key)
        if v is None:
            board[pos], bkind[pos], bnum[pos], btype[pos] = c, g.KIND[c], num, tt
            after = opened - {pos}
            after.update(q for q in geo.OUT[pos] if board[q] < 0)
            free = sum(1 for k in theirs if _spots_for(g, board, bkind, bnum, btype, after, k))
            board[pos], bkind[pos], bnum[pos], btype[pos] = -1, 0, NONUM, -1
            v = seen[key] = weight * (free_before - free)
        out[i] += v


def _choice_scores(t: _Table, actions: list[int]) -> list[float]:
    """Naming a wildcard: a type my patients need, a number that opens spots for my cards."""
    g, o = t.g, t.o
    c, pos = o.swap_card, o.swap_a
    out = []
    for a in actions:
        tt, num = g.effective(c, a - g.codes.CHOOSE)
        s = 0.0
        if g.TYPE[c] == -2 and tt >= 0:
            s += 0.5 * sum(1 for c2 in o.hand if g.KIND[c2] == PATIENT and g.NEED[c2][tt])
        if t.interest and num >= 0:
            s += _opening(t, pos, num, -1)
        out.append(s)
    return out


def _swap_value(t: _Table, a: int, b: int) -> float:
    """What swapping the cards at a and b does to the spots of my cards and of the
    cards I know the others hold."""
    g = t.g
    geo = g.geo
    bnum, board, fm = t.bnum, t.board, t.fm
    na, nb = bnum[a], bnum[b]
    if na == nb or not t.interest_all:
        return 0.0
    changed = []
    for p in (*geo.OUT[a], *geo.OUT[b]):
        old = fm.get(p)
        if old is None:
            continue
        lo, hi = BIG, -1
        for x in geo.SUP[p]:
            if board[x] < 0:
                continue
            v = nb if x == a else na if x == b else bnum[x]
            if v >= 0:
                lo = v if v < lo else lo
                hi = v if v > hi else hi
        changed.append((old, _fm(lo, hi)))
    if not changed:
        return 0.0
    mine, theirs = t.delta(changed)
    return 1.5 * mine - theirs


def _swap_best(t: _Table, c: int, firsts=None) -> dict:
    """For each first card a: the best value of a swap allowed by revealing c (-1: free)."""
    g, o = t.g, t.o
    filled = [p for p in range(g.geo.P) if o.board[p] >= 0]
    frontier = set()
    for p in o.open:
        frontier.update(x for x in g.geo.SUP[p] if o.board[x] >= 0)
    best = {}
    for a in (firsts if firsts is not None else filled):
        v = 0.0
        if t.interest_all and (a in frontier or firsts is not None):
            for b in filled:
                if (a in frontier or b in frontier) and pair_ok(g, o.bkind, o.btype, c, a, b):
                    x = _swap_value(t, a, b)
                    if x > v:
                        v = x
        best[a] = v
    return best


def scores(o, actions: list[int]) -> list[float]:
    g = o.game
    cd = g.codes
    ph = o.phase
    if ph == PICK or ph == PEEK:
        nxt = (o.player + 1) % len(o.sizes)
        out = []
        for a in actions:
            q = a - cd.PICK
            unknown = o.sizes[q] - bin(o.known[q]).count("1")
            out.append(5.0 - o.sizes[q] + 0.5 * unknown + (1.0 if q == nxt else 0.0) - (5.0 if unknown <= 0 else 0.0))
        return out
    if ph == SHOW:
        p = o.picker
        masks = [_fm(lo, hi) for lo, hi in o.bounds.values()]
        out = []
        for a in actions:
            c = a - cd.SHOWC
            s = 3.0 if (o.exposed[p] >> c) & 1 else 0.0
            if g.KIND[c] != PATIENT and not g.WNUM[c]:
                x = g.NUM[c]
                s += 0.2 * sum(1 for m in masks if m >> x & 1)
            out.append(s)
        return out
    t = _Table(o)
    if ph == MAIN:
        if actions[-1] >= cd.PLACE:
            if len(o.hand) == 1:
                return [WIN if a >= cd.PLACE else -5.0 for a in actions]
            return _place_scores(t, actions)
        if actions[0] == cd.PASS:
            return [0.0]
        out = []
        for a in actions:
            c = a - cd.REVEAL
            best = max(_swap_best(t, c).values(), default=0.0)
            known = 0.0 if (o.revealed[o.player] >> c) & 1 else 0.5
            out.append(best - known)
        return out
    if ph == CHOOSE:
        return _choice_scores(t, actions)
    if ph == SWAP_A:
        firsts = [a - cd.POS for a in actions]
        best = _swap_best(t, o.swap_card, firsts)
        return [best[a] for a in firsts]
    if ph == SWAP_B:
        return [_swap_value(t, o.swap_a, a - cd.POS) for a in actions]
    if ph == GIVE or ph == DISCARD:
        out = []
        for a in actions:
            if ph == GIVE:
                c, q = divmod(a - cd.GIVE, t.n)
            else:
                c, q = a - cd.DISC, -1
            s = 2.0 if g.KIND[c] == PATIENT else -0.3 * (t.spots(g.NUM[c]) if not g.WNUM[c] else 9)
            if q >= 0:
                s += 0.3 * o.sizes[q] - (1.0 if q == t.nxt else 0.0)
            out.append(s)
        return out
    return [0.0] * len(actions)


def evaluate(state, player: int) -> float:
    """A position for ``player`` between 0 and 1: 1 won, 0 lost; otherwise 0.5 moved
    by its cards left against the best opponent's and by how many of its cards
    could be placed now."""
    if state.is_terminal():
        return state.returns()[player]
    hands = state.hands
    mine = len(hands[player])
    best_other = min(len(h) for q, h in enumerate(hands) if q != player)
    g = state.game
    cd = g.codes
    placeable = len({(a - cd.PLACE) // g.geo.P for a in state.placements(player)})
    v = 0.5 + 0.06 * (best_other - mine) + 0.05 * placeable / max(1, mine)
    return 0.02 if v < 0.02 else 0.98 if v > 0.98 else v


HEURISTIC = Heuristic(scores=scores, evaluate=evaluate)


def _argmax(rng, actions: list[int], values: list[float]) -> int:
    best = max(values)
    top = [a for a, v in zip(actions, values) if v == best]
    return top[0] if len(top) == 1 else top[int(rng.random() * len(top))]


class GreedyBot(Bot):
    """The heuristic's best action, ties broken at random (as the kit's greedy bot)."""

    name = "greedy"

    def step(self, view, actions):
        if len(actions) == 1:
            return actions[0]
        return _argmax(self.rng, actions, scores(view.observe(), actions))


class ForgetfulBot(Bot):
    """Greedy without memory: it forgets every card it was shown or saw revealed."""

    name = "forgetful"

    def step(self, view, actions):
        if len(actions) == 1:
            return actions[0]
        return _argmax(self.rng, actions, scores(view.observe().forget(), actions))


class RandomBot(Bot):
    name = "random"

    def step(self, view, actions):
        return actions[int(self.rng.random() * len(actions))]

