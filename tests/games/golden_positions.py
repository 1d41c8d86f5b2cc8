"""Golden Pyramid positions built by hand, for its rules tests: the game compiled once per
player count and options (the ``data``, ``make`` fixtures) and builders that deal, place and
hand out exactly what a test needs (``blank``, ``give``, ``cubes``, ``tile``, ``fill`` ...)."""

from __future__ import annotations

import pytest

from model.sheets import load_project
from validator.games.golden_pyramid import SPEC
from validator.games.golden_pyramid import geometry as geo
from validator.games.golden_pyramid.constants import COLOUR, COLOUR_CARD
from validator.games.golden_pyramid.state import State
from validator.kit import Chance

SLUG = "golden-pyramid"


@pytest.fixture(scope="module")
def data(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


@pytest.fixture(scope="module")
def make(data):
    cache = {}

    def get(players=2, **options):
        key = (players, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = SPEC.make(data, players, **options)
        return cache[key]

    return get


# ------------------------------------------------------------------ building positions by hand
def blank(game, seed=0) -> State:
    """Nothing dealt: every card in the deck, every cube in the bag, player 1 to act."""
    s = State(game, Chance(seed), setup=False)
    s.changed()
    return s


def design(game, card_id: str) -> int:
    return game.d_id.index(card_id)


def colour(game, name: str) -> int:
    return game.colours.index(name)


def give(s, p, *card_ids):
    for cid in card_ids:
        d = design(s.g, cid)
        s.deck.remove(d)
        s._to_hand(p, d)


def cubes(s, p, **counts):
    for name, k in counts.items():
        c = colour(s.g, name)
        s.bag[c] -= k
        s.bag_n -= k
        s.cubes[p][c] += k
        s.cube_n[p] += k


def market(s, *names):
    for name in names:
        c = colour(s.g, name)
        s.bag[c] -= 1
        s.bag_n -= 1
        s.market[c] += 1
        s.market_n += 1


def tile(s, level, r, c, symbol=None, cols=None, owner=0):
    """A tile put in place without scoring (its symbol by name; the colours of its four columns,
    quarters NW, NE, SW, SE)."""
    g = s.g
    pos = geo.pos_of(level, r, c)
    sym = g.symbols.index(symbol) if symbol else max(range(g.S), key=lambda x: (s.tiles_left[x], -x))
    s.tiles_left[sym] -= 1
    s.tile[pos] = sym
    s.owner[pos] = owner
    if level > 1:
        cols = cols or [g.colours[(pos + k) % g.K] for k in range(4)]
        for q, name in zip(geo.SUPPORT[pos], cols):
            ci = colour(g, name)
            s.bag[ci] -= 1
            s.bag_n -= 1
            s.col[q] = ci
            s.ncol[q >> 2] += 1
    s.level_built[owner][level] += 1
    s.top[owner] = max(s.top[owner], level)
    s.built += 1
    return pos


def fill(s, level, owner=0, skip=()):
    for r in range(geo.SIZES[level - 1]):
        for c in range(geo.SIZES[level - 1]):
            if (r, c) not in skip:
                tile(s, level, r, c, owner=owner)


def own_tile(s, p, level, r, c):
    """Credit player ``p`` with the tile already at (level, r, c)."""
    pos = geo.pos_of(level, r, c)
    s.level_built[s.owner[pos]][level] -= 1
    s.owner[pos] = p
    s.level_built[p][level] += 1
    for q in range(len(s.top)):
        s.top[q] = max([lv for lv in range(5) if s.level_built[q][lv]], default=0)
    return pos


def ready(s):
    s.changed()
    s.check_invariants()
    return s


def name_columns(s, *card_ids):
    """Name the columns NW, NE, SW, SE with these cards (the last ones are made at once when they are
    the only choice left)."""
    for i, cid in enumerate(card_ids):
        if s.phase != COLOUR:
            assert i >= 1, "the build asked for no column"
            return
        assert COLOUR_CARD + design(s.g, cid) in s.legal_actions()
        s.apply_action(COLOUR_CARD + design(s.g, cid))


def example_position(make, builder_level=2):
    """The rulebook's example: levels 1 and 2 complete, one level-3 tile on two red columns (NW, NE);
    player 1 holds a value-4 Lotus card, two red and two yellow cards and two red and two yellow cubes."""
    g = make(2)
    s = blank(g)
    fill(s, 1)
    fill(s, 2, owner=1, skip=[(0, 2)])
    tile(s, 2, 0, 2, owner=0)
    tile(s, 3, 0, 0, cols=["red", "red", "blue", "green"], owner=1)
    s.builder[0] = geo.pos_of(2, 0, 2) if builder_level == 2 else geo.pos_of(2, 2, 0)
    s.builder[1] = geo.pos_of(3, 0, 0)
    give(s, 0, "black-lotus", "red-sun", "red-moon", "yellow-moon", "yellow-eye")
    cubes(s, 0, red=2, yellow=2)
    return ready(s)
