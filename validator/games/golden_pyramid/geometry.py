"""The pyramid's fixed geometry, computed once at import.

Four levels of 4 x 4, 3 x 3, 2 x 2 and 1 tiles: 30 *positions*, numbered level by
level, row by row (level 1: 0-15, level 2: 16-24, level 3: 25-28, level 4: 29).
Every tile has four *quarters* (0 top-left, 1 top-right, 2 bottom-left, 3
bottom-right); quarter ``q`` of position ``pos`` is ``pos * 4 + q``.

An upper tile at level L, row r, column c stands over the corner where the four
level L-1 tiles (r, c), (r, c+1), (r+1, c) and (r+1, c+1) meet, on one column on
each of the four quarters that touch that corner ("4 adjacent quarters of 4
different tiles that have to be connected in a 2 by 2 square"): the bottom-right
quarter of (r, c), the bottom-left of (r, c+1), the top-right of (r+1, c) and the
top-left of (r+1, c+1).  Each quarter carries at most one upper tile; the outer
quarters of a level's rim carry none.
"""

from __future__ import annotations

SIZES = (4, 3, 2, 1)  # tiles per side, level 1 to 4
LEVELS = len(SIZES)
OFFSET = (0, 16, 25, 29)  # first position of each level
NPOS = 30
NQUARTERS = NPOS * 4
QUARTER_NAMES = ("top-left", "top-right", "bottom-left", "bottom-right")


def pos_of(level: int, r: int, c: int) -> int:
    """The position index of the tile at ``level`` (1-4), row ``r``, column ``c``."""
    return OFFSET[level - 1] + r * SIZES[level - 1] + c


LEVEL = [0] * NPOS  # 1..4
ROW = [0] * NPOS
COL = [0] * NPOS
for _l in range(1, LEVELS + 1):
    for _r in range(SIZES[_l - 1]):
        for _c in range(SIZES[_l - 1]):
            _p = pos_of(_l, _r, _c)
            LEVEL[_p], ROW[_p], COL[_p] = _l, _r, _c

LEVEL_POSITIONS = tuple(tuple(p for p in range(NPOS) if LEVEL[p] == lv) for lv in range(LEVELS + 1))  # [0] empty

# The four quarters an upper tile stands on, in the order NW, NE, SW, SE of its 2 x 2 square.
SUPPORT: list[tuple[int, ...]] = [() for _ in range(NPOS)]
SUPPORT_TILES: list[tuple[int, ...]] = [() for _ in range(NPOS)]
UPPER_OF = [-1] * NQUARTERS  # quarter -> the upper position it carries (-1: none)
for _p in range(NPOS):
    _l, _r, _c = LEVEL[_p], ROW[_p], COL[_p]
    if _l == 1:
        continue
    tiles = (pos_of(_l - 1, _r, _c), pos_of(_l - 1, _r, _c + 1), pos_of(_l - 1, _r + 1, _c),
             pos_of(_l - 1, _r + 1, _c + 1))
    quarters = (tiles[0] * 4 + 3, tiles[1] * 4 + 2, tiles[2] * 4 + 1, tiles[3] * 4 + 0)
    SUPPORT[_p] = quarters
    SUPPORT_TILES[_p] = tiles
    for _q in quarters:
        UPPER_OF[_q] = _p


# Upper positions each tile helps to carry (the positions it is a support tile of).
CARRIES = tuple(tuple(u for u in range(NPOS) if p in SUPPORT_TILES[u]) for p in range(NPOS))


def _neighbours(level: int, r: int, c: int, n: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)) if 0 <= r + dr < n and 0 <= c + dc < n]


# Orthogonally adjacent tiles on the same level.
TILE_NEIGHBOURS = tuple(tuple(pos_of(LEVEL[p], rr, cc) for rr, cc in _neighbours(LEVEL[p], ROW[p], COL[p],
                                                                                    SIZES[LEVEL[p] - 1]))
                        for p in range(NPOS))


def _quarter_grid(q: int) -> tuple[int, int, int]:
    """(level, row, column) of a quarter on its level's grid of 2n x 2n quarters."""
    p, k = divmod(q, 4)
    return LEVEL[p], 2 * ROW[p] + k // 2, 2 * COL[p] + k % 2


_QUARTER_AT = {}
for _q in range(NQUARTERS):
    _QUARTER_AT[_quarter_grid(_q)] = _q

# For each upper position and each of its four support quarters: the quarters orthogonally
# next to it on the same level that belong to other upper tiles (a column there is a neighbour).
COLUMN_NEIGHBOURS: list[tuple[tuple[int, ...], ...]] = [() for _ in range(NPOS)]
for _p in range(NPOS):
    if not SUPPORT[_p]:
        continue
    own = set(SUPPORT[_p])
    per = []
    for _q in SUPPORT[_p]:
        lv, qr, qc = _quarter_grid(_q)
        nb = []
        for rr, cc in ((qr - 1, qc), (qr + 1, qc), (qr, qc - 1), (qr, qc + 1)):
            other = _QUARTER_AT.get((lv, rr, cc))
            if other is not None and other not in own and UPPER_OF[other] >= 0:
                nb.append(other)
        per.append(tuple(nb))
    COLUMN_NEIGHBOURS[_p] = tuple(per)

# Upper positions whose columns are next to a column of ``p`` (building ``p`` changes their neighbours).
AFFECTS = tuple(tuple(u for u in range(NPOS) if u != p and SUPPORT[p]
                      and any(q in SUPPORT[p] for nb in COLUMN_NEIGHBOURS[u] for q in nb)) for p in range(NPOS))
class Neighbours(tuple):
    """Per support quarter of an upper position: the colours of the columns already next to it (a tuple of
    four tuples); ``compact`` has, per quarter with neighbours, (colour, other colour, points): what a
    column there earns when either colour can be named (two of one colour: 2), or is None when a quarter
    has more than two neighbours."""

    def __new__(cls, quarters):
        self = tuple.__new__(cls, quarters)
        self.compact = compact_neighbours(quarters)
        return self


def compact_neighbours(quarters) -> tuple | None:
    """``Neighbours.compact`` of any four tuples of neighbouring colours."""
    compact = []
    for nb in quarters:
        if len(nb) == 1:
            compact.append((nb[0], nb[0], 1))
        elif len(nb) == 2:
            compact.append((nb[0], nb[1], 2 if nb[0] == nb[1] else 1))
        elif nb:
            return None
    return tuple(compact)


NO_NEIGHBOURS = Neighbours(((), (), (), ()))  # no column next to any quarter of a position


def neighbour_colours(col, pos: int) -> tuple:
    """Per support quarter of the upper position ``pos``: the colours of the columns already next to it
    (``col``: the colour on each quarter, -1 for none); NO_NEIGHBOURS when there is none at all."""
    out = []
    found = False
    for nb in COLUMN_NEIGHBOURS[pos]:
        colours = []
        for q in nb:
            c = col[q]
            if c >= 0:
                colours.append(c)
                found = True
        out.append(tuple(colours))
    return Neighbours(out) if found else NO_NEIGHBOURS


SUPPORT_SET = tuple(frozenset(SUPPORT_TILES[p]) for p in range(NPOS))

# Where a builder must stand for a new tile at ``pos`` to avoid the -1 ("an orthogonally
# adjacent tile to the new one or one of the tiles where he placed a column").
NEAR = tuple(frozenset(TILE_NEIGHBOURS[p]) | frozenset(SUPPORT_TILES[p]) for p in range(NPOS))
# The wider reading (rules option builder-near=below): also a tile of the level below that is
# orthogonally next to one of the four supporting tiles.
NEAR_BELOW = tuple(NEAR[p] | frozenset(t for s in SUPPORT_TILES[p] for t in TILE_NEIGHBOURS[s]) for p in range(NPOS))


def describe_pos(p: int) -> str:
    return f"level {LEVEL[p]} row {ROW[p] + 1} column {COL[p] + 1}"
