"""What a card and a cube are worth to the greedy judgement (``heuristics.py``), in tables
worked out once per game: a card's worth by value and by how close the player is to using
it, the expected worth of a cube drawn from the bag, and ``Need``: the ready columns a
player has and what one more card or cube of a colour would change.  Ratings are VP times
``SCALE`` (a power of two, so scaled sums are exact)."""

from __future__ import annotations

from . import geometry as geo

TOP = geo.LEVELS
SCALE = 4.0  # scores are VP x 4: the kit's search bot looks again at calls closer than its margin (4): 1 VP here


def card_worth(g) -> tuple:
    """A card's base worth by design: a little for being a card, more for its value."""
    return tables(g).worth


class Tables:
    """The terms the scores read by card design, value and situation, worked out once per game (kept on
    the compiled game as ``_heuristic_tables``)."""

    __slots__ = ("worth", "held4", "held", "cards4")

    def __init__(self, g):
        val = g.d_val
        self.worth = worth = tuple(0.35 + 0.12 * v for v in val)
        # a card in hand's worth by the open level (``target``) and whether a cube waits for it: not (0),
        # with more than four ready columns (1), with four or fewer (2)
        self.held = [()] + [tuple(tuple(worth[d] + paired + (0.2 if val[d] >= target > 1 else 0.0)
                                        for paired in (0.0, 0.35, 0.7)) for d in range(g.D))
                            for target in range(1, TOP + 1)]
        self.held4 = [tuple(tuple(SCALE * u for u in row) for row in by_design) for by_design in self.held]
        # drawing value + 1 cards (keep three) by the room left in hand and the card's value
        top = max(val) + 1
        self.cards4 = []
        for room in range(g.hand_limit + 2):
            row = []
            for v in range(top):
                k = v + 1 if v < 2 else 3
                if k > room:
                    k = room
                row.append(SCALE * (0.55 * k + (0.1 * (v - 2) if v > 2 else 0.0)))
            self.cards4.append(tuple(row))

    def cube_terms(self, wanted_bag: int, bag_n: int, short: bool) -> tuple:
        """By card value: drawing that many cubes (keep half rounded up), times SCALE."""
        top = len(self.cards4[0])
        key = (wanted_bag, bag_n, short, top)
        row = _CUBE_TERMS.get(key)
        if row is None:
            q = wanted_bag / bag_n if bag_n else 0.0
            hi = 1.0 if short else 0.5
            row = []
            for v in range(top):
                x = v if v < bag_n else bag_n
                keep = (x + 1) // 2
                good = x * q * 1.3
                if good > keep:
                    good = keep
                row.append(SCALE * (good * hi + (keep - good) * 0.2))
            row = _CUBE_TERMS[key] = tuple(row)
        return row


_TABLES: dict = {}  # by the cards' values and the hand limit (a worker process receives many copies of a game)
_CUBE_TERMS: dict = {}


def tables(g) -> Tables:
    t = g.__dict__.get("_heuristic_tables")
    if t is None:
        key = (g.d_val, g.hand_limit)
        t = _TABLES.get(key)
        if t is None:
            t = _TABLES[key] = Tables(g)
        g._heuristic_tables = t
    return t


class Need:
    """The player's resources as the heuristic weighs them (for the rarer decisions)."""

    __slots__ = ("g", "hc", "cb", "pairs", "target", "hand_n", "limit", "short", "worth")

    def __init__(self, t, g, p: int, hc):
        """Player ``p``'s, read from ``t`` (the observation, or the position); ``hc``: its cards by colour."""
        self.g = g
        self.hc = hc
        self.cb = cb = t.cubes[p]
        pairs = 0
        for h, k in zip(hc, cb):
            pairs += h if h < k else k
        self.pairs = pairs
        self.short = pairs < 4
        self.target = t.open_top
        self.hand_n = t.hand_n[p]
        self.limit = g.hand_limit
        self.worth = card_worth(g)

    def swap(self, got: int, *lost: int) -> float:
        """The change in ready columns (in VP-like units) from receiving a cube of ``got`` and handing over
        cubes of ``lost``: exact, so a trade and its reverse never both look good."""
        hc, cb = self.hc, self.cb
        before = after = 0
        changed = {got, *lost}
        for c in changed:
            k = cb[c]
            before += hc[c] if hc[c] < k else k
            k += (c == got) - lost.count(c)
            after += hc[c] if hc[c] < k else k
        return (after - before) * (1.0 if self.short else 0.5)

    def card(self, d: int) -> float:
        """A new card's worth: its value, and whether a cube of its colour waits for it."""
        g = self.g
        c = g.d_col[d]
        u = self.worth[d]
        if self.cb[c] > self.hc[c]:
            u += 0.7 if self.short else 0.35
        if g.d_val[d] >= self.target > 1:
            u += 0.2
        return u

    def held(self, d: int) -> float:
        """A card in hand's worth (it may be the one that pairs with a cube)."""
        g = self.g
        c = g.d_col[d]
        u = self.worth[d]
        if self.cb[c] >= self.hc[c]:
            u += 0.7 if self.pairs <= 4 else 0.35
        if g.d_val[d] >= self.target > 1:
            u += 0.2
        return u


# ------------------------------------------------------------------ builds
