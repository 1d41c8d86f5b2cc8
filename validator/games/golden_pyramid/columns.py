"""The best columns a player can still make, for the greedy judgement (``heuristics``): the colour pattern
of four columns and their same-colour neighbours, from the columns the player can name and pay for.

The colour patterns are remembered by their arguments (small tuples of counts); a memo starts again past
``MEMO_LIMIT`` entries.
"""

from __future__ import annotations

from . import geometry as geo
from .building import column_points

NO_NEIGHBOURS, Neighbours = geo.NO_NEIGHBOURS, geo.Neighbours
MEMO_LIMIT = 200_000  # entries a memo holds before it starts again

_PATTERN: dict = {}  # the best completion by the pattern of the counts (colours named, columns left)
COMPLETION: dict = {}  # the same by the columns left per colour and the colours named


def pattern_points(avail) -> int:
    """VP of the best colour pattern of four columns named from ``avail[c]`` columns of colour c: four of
    one colour 4, two pairs 3, three and one 2, a pair 1, four colours 0; -99: fewer than four
    (remembered by ``avail``)."""
    key = tuple(avail)
    v = _PATTERN_POINTS.get(key)
    if v is None:
        if len(_PATTERN_POINTS) >= MEMO_LIMIT:
            _PATTERN_POINTS.clear()
        v = _PATTERN_POINTS[key] = _pattern_points(key)
    return v


_PATTERN_POINTS: dict = {}  # pattern_points by the columns per colour


def _pattern_points(avail) -> int:
    total = twos = most = 0
    for a in avail:
        total += a
        if a >= 2:
            twos += 1
        if a > most:
            most = a
    if total < 4:
        return -99
    if most >= 4:
        return 4
    if twos >= 2:
        return 3
    return 2 if most == 3 else 1 if most == 2 else 0


def completion_points(avail, fixed: tuple) -> int:
    """VP of the best colour pattern completing ``fixed`` (the colours named for the first quarters) with
    ``avail[c]`` more columns of colour c (exhaustive, cached); -99: four columns cannot be named."""
    key = (tuple(avail), fixed)
    v = COMPLETION.get(key)
    if v is None:
        r = 4 - len(fixed)
        counts = [0] * len(avail)
        for c in fixed:
            counts[c] += 1
        pattern = tuple(sorted([f * 4 + (a if a < r else r) for f, a in zip(counts, avail)]))
        v = _PATTERN.get(pattern)
        if v is None:
            v = _PATTERN[pattern] = _best([code & 3 for code in pattern],
                                          [i for i, code in enumerate(pattern) for _ in range(code >> 2)])
        if len(COMPLETION) >= MEMO_LIMIT:
            COMPLETION.clear()
        COMPLETION[key] = v
    return v


_COMPACT: dict = {}  # the columns next to a position's quarters: (colour, other colour, points if either can be named)


def compacted(neighbours):
    """``neighbours`` (the colours next to each quarter) as (colour, other colour, points): a quarter's
    points when either colour can still be named (a pair of one colour: 2); None beyond two neighbours."""
    if type(neighbours) is Neighbours:
        return neighbours.compact
    if neighbours in _COMPACT:
        return _COMPACT[neighbours]
    compact = _COMPACT[neighbours] = geo.compact_neighbours(neighbours)
    return compact


def neighbour_points(avail, neighbours, fixed: tuple = ()) -> int:
    """Same-colour neighbours of the four columns: for the quarters named (``fixed``) their colours', for
    the others the best colour the player could still name (a slight overestimate)."""
    if not fixed:
        compact = compacted(neighbours)
        if compact is not None:
            v = 0
            for x, y, w in compact:
                if avail[x] > 0 or avail[y] > 0:
                    v += w
            return v
    k = len(fixed)
    v = 0
    for q in range(4):
        nb = neighbours[q]
        if nb:
            if q < k:
                v += nb.count(fixed[q])
            elif len(nb) == 1:
                if avail[nb[0]] > 0:
                    v += 1
            elif len(nb) == 2:
                x, y = nb
                if x == y:
                    if avail[x] > 0:
                        v += 2
                elif avail[x] > 0 or avail[y] > 0:
                    v += 1
            else:
                v += max([nb.count(c) for c in nb if avail[c] > 0], default=0)
    return v


def best_columns(avail, neighbours, fixed: tuple = ()) -> float:
    """VP of the best four columns: the best colour pattern completing ``fixed`` (the colours named for
    the first quarters) with ``avail[c]`` more columns of colour c, plus the same-colour neighbours of
    each quarter (``neighbours[k]``: the colours next to quarter k; for the quarters still open, the
    best one the player could name, a slight overestimate).  -99: four columns cannot be named."""
    v = completion_points(avail, fixed) if fixed else pattern_points(avail)
    if v < 0 or neighbours is NO_NEIGHBOURS:
        return v
    return v + neighbour_points(avail, neighbours, fixed)


def _best(avail: list[int], fixed: list[int]) -> int:
    """The best colour pattern completing ``fixed`` to four columns (exhaustive; results are cached)."""
    if len(fixed) == 4:
        return column_points(fixed)
    if sum(avail) < 4 - len(fixed):
        return -99
    best = -99
    for c in range(len(avail)):
        if avail[c]:
            avail[c] -= 1
            fixed.append(c)
            v = _best(avail, fixed)
            fixed.pop()
            avail[c] += 1
            if v > best:
                best = v
    return best


def column_neighbours(obs, pos: int) -> tuple:
    """Per support quarter of ``pos``: the colours of the columns already next to it."""
    return obs.nbs[pos]


def ready_columns(hc, cb) -> list[int]:
    """Ready columns per colour: the fewer of cards and cubes."""
    return [h if h < k else k for h, k in zip(hc, cb)]
