"""The Golden Pyramid's rules engine on hand-built positions: the rulebook's worked example,
every scoring line, each action, the market, trading, the builder, the end and the
tie-breaks, the pyramid's geometry, and data the engine refuses before any game."""

from __future__ import annotations

import pytest

from model.errors import IllegalAction, InputErrors
from model.sheets import load_project
from validator.games.golden_pyramid import SPEC
from validator.games.golden_pyramid import geometry as geo
from validator.games.golden_pyramid.building import column_points
from validator.games.golden_pyramid.constants import (ACCEPT, BUILD, CARDS, COLOUR, COLOUR_CARD, CUBE, CUBES, DECLINE,
                                                      DEST, DISCARD, DISCARD_CARD, EMPTY_DRAW, END, FORCED, KEEP,
                                                      KEEP_SET, MAIN, MARKET, MARKET_KIND, MOVE, MOVE_KIND, MOVING,
                                                      OFFER, OFFER_KIND, OVER, PLACE, PLACE_NO, REFRESH, REFRESHED,
                                                      RESPOND, RETURN, RETURN_CUBE, TILE, TILE_OF)
from validator.games.golden_pyramid.state import State
from validator.kit import Chance

from helpers import find_row, set_cell

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


# ------------------------------------------------------------------ the rulebook's example
def test_the_rulebook_example_scores_seven(make):
    s = example_position(make)
    new = geo.pos_of(3, 0, 1)
    assert BUILD + new in s.legal_actions()
    s.apply_action(BUILD + new)  # the value-4 Lotus is the only card that builds level 3: chosen at once
    assert s.phase == COLOUR
    # a red column on the quarter next to the existing red one, the other red away from it
    name_columns(s, "red-sun", "yellow-moon", "red-moon", "yellow-eye")
    assert s.vp[0] == 7
    assert (s.pv["vp_levels"][0], s.pv["vp_columns"][0], s.pv["vp_neighbours"][0]) == (3, 3, 1)
    assert s.pv["builder_penalties"][0] == 0
    # his first tile of level 3: the builder must move onto it
    assert s.builder[0] == new and s.top[0] == 3
    assert s.phase == MAIN and s.tp == 1
    s.check_invariants()


def test_the_example_without_the_builder_in_place_scores_six(make):
    s = example_position(make, builder_level=1)  # level 2, row 3: neither next to nor under the new tile
    s.apply_action(BUILD + geo.pos_of(3, 0, 1))
    name_columns(s, "red-sun", "yellow-moon", "red-moon", "yellow-eye")
    assert s.vp[0] == 6 and s.pv["builder_penalties"][0] == 1


def test_a_neighbour_counts_only_with_its_own_colour_and_only_outside_the_new_tile(make):
    s = example_position(make)
    s.apply_action(BUILD + geo.pos_of(3, 0, 1))
    # the reds on the side away from the old tile: no neighbour; the yellows next to red: nothing
    name_columns(s, "yellow-moon", "red-sun", "yellow-eye", "red-moon")
    assert s.pv["vp_neighbours"][0] == 0 and s.vp[0] == 6


# ------------------------------------------------------------------ scoring lines
@pytest.mark.parametrize("cols,points", [((0, 0, 0, 0), 4), ((0, 0, 0, 1), 2), ((0, 0, 1, 1), 3), ((0, 1, 0, 1), 3),
                                         ((0, 0, 1, 2), 1), ((0, 1, 2, 3), 0), ((2, 1, 2, 2), 2)])
def test_column_colours(cols, points):
    assert column_points(cols) == points


def test_a_level_one_tile_is_worth_one_and_the_first_costs_the_missing_builder(make):
    g = make(2)
    s = blank(g)
    give(s, 0, "red-sun")
    ready(s)
    first = geo.pos_of(1, 1, 1)
    s.apply_action(BUILD + first)
    # +1 for the level, -1: the builder was beside the pyramid, not next to the tile
    assert s.vp[0] == 0 and s.pv["vp_levels"][0] == 1 and s.pv["builder_penalties"][0] == 1
    assert s.tile[first] == g.symbols.index("sun")
    assert s.builder[0] == first  # first tile of level 1: the builder must go on it
    # next tile next to the builder: no penalty
    s.tp = s.cur = 0
    give(s, 0, "red-moon")
    s.changed()
    s.apply_action(BUILD + geo.pos_of(1, 1, 2))
    assert s.vp[0] == 1 and s.phase == PLACE  # not the first of its level: placing is a choice
    s.apply_action(PLACE_NO)
    assert s.builder[0] == first


def test_upper_levels_score_level_points(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, owner=0)
    s.builder[0] = geo.pos_of(1, 0, 0)
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    ready(s)
    s.apply_action(BUILD + geo.pos_of(2, 0, 0))  # red-eye (value 2, eye) names the tile
    name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    # 2 (level) + 1 (a pair of reds) + no neighbours, builder on a supporting tile
    assert s.vp[0] == 3 and s.top[0] == 2 and s.builder[0] == geo.pos_of(2, 0, 0)


def test_the_end_bonus_and_the_fourth_level_end_the_game(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, owner=1)
    fill(s, 2, owner=1)
    for r, c in ((0, 0), (0, 1), (1, 0)):
        tile(s, 3, r, c, owner=1)
    tile(s, 3, 1, 1, owner=0)
    s.builder[0] = geo.pos_of(3, 1, 1)
    s.builder[1] = geo.pos_of(3, 0, 0)
    give(s, 0, "red-scarab", "blue-eye", "blue-sun", "purple-eye", "purple-sun")
    cubes(s, 0, blue=2, purple=2)
    s.vp = [5, 9]
    s.pv["vp_levels"] = [5, 9]
    ready(s)
    s.apply_action(BUILD + geo.pos_of(4, 0, 0))
    name_columns(s, "blue-eye", "purple-eye", "blue-sun", "purple-sun")
    assert s.is_terminal() and s.phase == OVER
    # 4 (level) + 3 (two pairs) + 0 neighbours, then the end bonus for level 4 (+4); P2 gets +3 for level 3
    assert s.vp == [5 + 4 + 3 + 4, 9 + 3]
    assert s.winners == [0] and s.end == "pyramid" and s.returns() == [1.0, 0.0]
    rec = s.record()
    assert rec.winners == [0] and rec.scores == s.vp and rec.details["level_turns"][3] == s.turns


def _ended(make, vp, top, left):
    g = make(3)
    s = blank(g)
    s.vp = list(vp)
    s.pv["vp_levels"] = list(vp)
    s.top = list(top)
    for p, k in enumerate(left):
        cubes(s, p, red=k)
    s._finish("pyramid")
    return s


def test_tie_breaks(make):
    s = _ended(make, [12, 10, 8], [3, 4, 2], [0, 0, 0])
    assert s.winners == [0] and s.end == "pyramid" and s.vp == [15, 14, 10]  # the end bonus: +3, +4, +2
    s = _ended(make, [11, 10, 8], [3, 4, 2], [0, 0, 0])
    assert s.winners == [1] and s.end == "pyramid-level"  # 14 each: level 4 beats level 3
    s = _ended(make, [10, 10, 8], [3, 3, 2], [5, 2, 0])
    assert s.winners == [1] and s.end == "pyramid-resources"  # same level: fewer cards plus cubes
    s = _ended(make, [10, 10, 8], [3, 3, 2], [4, 4, 0])
    assert s.winners == [0, 1] and s.end == "pyramid-tie" and s.returns() == [0.5, 0.5, 0.0]


# ------------------------------------------------------------------ the actions
def test_draw_cubes_keeps_half_rounded_up(make):
    g = make(2)
    s = blank(g, seed=3)
    give(s, 0, "red-lotus")  # value 3: draw 3, keep 2
    ready(s)
    s.apply_action(CUBES + design(g, "red-lotus"))
    if s.phase == RETURN:  # two colours or more drawn: the player puts one back
        acts = s.legal_actions()
        assert all(RETURN_CUBE <= a < RETURN_CUBE + g.K for a in acts)
        s.apply_action(acts[0])
    assert s.cube_n[0] == 2 and s.bag_n == sum(g.bag0) - 2 and s.hand_n[0] == 0
    assert s.discard == [design(g, "red-lotus")] and s.tp == 1


def test_a_value_four_card_draws_four_cubes_and_returns_two(make):
    g = make(2)
    s = blank(g)
    for name in g.colours:  # a bag of two reds and two blues only: the rest is P2's
        cubes(s, 1, **{name: s.bag[colour(g, name)] - (2 if name in ("red", "blue") else 0)})
    give(s, 0, "red-scarab")
    ready(s)
    s.apply_action(CUBES + design(g, "red-scarab"))
    assert s.phase == RETURN and s.pend_ret == 2
    s.apply_action(RETURN_CUBE + colour(g, "red"))
    s.apply_action(RETURN_CUBE + colour(g, "red"))
    assert s.cubes[0][colour(g, "blue")] == 2 and s.bag[colour(g, "red")] == 2


def test_one_cube_of_the_cards_colour(make):
    g = make(2)
    s = blank(g)
    give(s, 0, "green-moon")
    ready(s)
    s.apply_action(CUBE + design(g, "green-moon"))
    assert s.cubes[0][colour(g, "green")] == 1 and s.cube_n[0] == 1
    # no cube of that colour in the bag: the action is not offered
    s = blank(g)
    give(s, 0, "green-moon")
    cubes(s, 1, green=g.bag0[colour(g, "green")])
    ready(s)
    assert CUBE + design(g, "green-moon") not in s.legal_actions()
    assert CUBES + design(g, "green-moon") in s.legal_actions()


def test_draw_cards_draws_value_plus_one_and_keeps_up_to_three(make):
    """"He then draws number of pips plus one card from the deck and keeps up to three": any 0 to 3 of the 5
    cards drawn (identical cards counted once); with keep-fewer=false exactly three."""
    from math import comb

    for fewer, sizes in ((True, {0, 1, 2, 3}), (False, {3})):
        g = make(2, keep_fewer=fewer)
        s = blank(g)
        give(s, 0, "red-scarab")  # value 4: five cards drawn
        ready(s)
        top5 = s.deck[-5:]
        s.apply_action(CARDS + design(g, "red-scarab"))
        assert s.phase == KEEP and sorted(s.pend_cards) == sorted(top5)
        acts = s.legal_actions()
        assert {bin(a - KEEP_SET).count("1") for a in acts} == sizes
        if len(set(top5)) == 5:  # five different designs: every subset of the sizes allowed
            assert len(acts) == sum(comb(5, k) for k in sizes)
        three = [a for a in acts if bin(a - KEEP_SET).count("1") == 3]
        s.apply_action(three[-1])
        assert s.hand_n[0] == 3 and len(s.discard) == 3  # the played card and the two put back


def test_a_small_draw_may_keep_less_and_keep_fewer_false_keeps_everything(make):
    g = make(2)  # the rulebook's "up to three": the two cards drawn may be kept or not
    s = blank(g)
    give(s, 0, "red-sun")  # value 1: two cards drawn
    ready(s)
    s.apply_action(CARDS + design(g, "red-sun"))
    assert s.phase == KEEP and KEEP_SET + 0 in s.legal_actions()
    s.apply_action(KEEP_SET + 0)
    assert s.hand_n[0] == 0 and len(s.discard) == 3
    g2 = make(2, keep_fewer=False)
    s = blank(g2)
    give(s, 0, "red-sun")
    ready(s)
    s.apply_action(CARDS + design(g2, "red-sun"))
    assert s.hand_n[0] == 2 and s.phase == MAIN and s.tp == 1


def test_the_empty_hand_draw_costs_a_victory_point_per_card(make):
    g = make(2)
    s = ready(blank(g))
    acts = s.legal_actions()
    assert EMPTY_DRAW in acts and EMPTY_DRAW + 1 in acts
    s.apply_action(EMPTY_DRAW + 1)
    assert s.hand_n[0] == 2 and s.vp[0] == -2 and s.pv["vp_spent"][0] == 2
    # only with an empty hand
    s.tp = s.cur = 0
    s.changed()
    assert EMPTY_DRAW not in s.legal_actions()
    # without negative scores, a player with no VP cannot pay for it
    s = ready(blank(make(2, negative_vp=False)))
    assert EMPTY_DRAW not in s.legal_actions()


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out(make):
    g = make(2)
    s = blank(g)
    give(s, 0, "red-scarab")
    s.discard, s.deck = s.deck[:-2], s.deck[-2:]
    ready(s)
    s.apply_action(CARDS + design(g, "red-scarab"))
    assert s.cnt["reshuffles"] == 1 and len(s.pend_cards) == 5


def test_the_hand_limit_at_the_end_of_the_turn(make):
    g = make(2)
    s = blank(g)
    give(s, 0, "red-scarab", "red-sun", "red-moon", "red-eye", "red-ankh", "red-lotus")
    ready(s)
    s.apply_action(CARDS + design(g, "red-scarab"))
    s.apply_action(next(a for a in s.legal_actions() if bin(a - KEEP_SET).count("1") == 3))  # keeps three: 8 cards
    assert s.phase == DISCARD and s.cur == 0 and s.hand_n[0] == 8
    s.apply_action(DISCARD_CARD + design(g, "red-sun"))
    assert s.hand_n[0] == 7 and s.phase == MAIN and s.tp == 1


def test_moving_the_builder_on_its_level(make):
    g = make(2)
    s = blank(g)
    fill(s, 1)
    s.builder = [geo.pos_of(1, 0, 0), own_tile(s, 1, 1, 0, 1)]
    ready(s)
    s.apply_action(MOVE_KIND)
    assert s.phase == MOVING
    dest = [a - MOVE for a in s.legal_actions()]
    assert geo.pos_of(1, 0, 1) not in dest and geo.pos_of(1, 0, 0) not in dest and len(dest) == 14
    s.apply_action(MOVE + geo.pos_of(1, 3, 3))
    assert s.builder[0] == geo.pos_of(1, 3, 3) and s.tp == 1
    # a builder beside the pyramid cannot move
    s = ready(blank(g))
    assert MOVE_KIND not in s.legal_actions()


# ------------------------------------------------------------------ trading
def test_a_trade_offer_is_answered_by_the_player_it_is_made_to(make):
    g = make(3)
    s = blank(g)
    cubes(s, 0, red=2)
    cubes(s, 1, blue=1)
    cubes(s, 2, green=1)
    ready(s)
    s.apply_action(OFFER_KIND)
    K = g.K
    offer = OFFER + (1 * K + colour(g, "red")) * K + colour(g, "blue")
    assert offer in s.legal_actions()
    s.apply_action(offer)
    assert s.phase == RESPOND and s.current_player() == 1
    assert s.observe(1).offer == (1, colour(g, "red"), colour(g, "blue"))
    s.apply_action(DECLINE)
    # back to P1, who may not ask P2 again this turn
    assert s.phase == MAIN and s.current_player() == 0
    s.apply_action(OFFER_KIND)
    assert all((a - OFFER) // (K * K) == 2 for a in s.legal_actions())
    s.apply_action(OFFER + (2 * K + colour(g, "red")) * K + colour(g, "green"))
    s.apply_action(ACCEPT)
    assert s.cubes[0][colour(g, "green")] == 1 and s.cubes[2][colour(g, "red")] == 1 and s.tp == 1
    assert s.trade_log == [(0, 2)] and s.cnt["offers"] == 2 and s.cnt["trades"] == 1


def test_a_market_trade_is_two_for_one(make):
    g = make(2)
    s = blank(g)
    market(s, "red", "blue", "green")
    cubes(s, 0, black=2)
    ready(s)
    s.apply_action(MARKET_KIND)
    K = g.K
    take, give_, out = colour(g, "red"), colour(g, "black"), colour(g, "black")
    s.apply_action(MARKET + (take * K + give_) * K + out)
    assert s.cubes[0][take] == 1 and s.cube_n[0] == 1
    assert s.market[colour(g, "black")] == 1 and s.market[take] == 0 and s.market_n == 3
    assert s.bag[colour(g, "black")] == g.bag0[colour(g, "black")] - 1


def test_the_market_is_replaced_when_a_trade_leaves_three_of_a_colour(make):
    g = make(2)
    s = blank(g, seed=5)
    market(s, "red", "blue", "blue")
    cubes(s, 0, blue=2)
    ready(s)
    K = g.K
    s.apply_action(MARKET_KIND)
    s.apply_action(MARKET + (colour(g, "red") * K + colour(g, "blue")) * K + colour(g, "blue"))
    assert s.cnt["market_replaced"] >= 1 and max(s.market) < 3 and s.market_n == 3
    s.check_invariants()


def test_the_market_is_replaced_at_setup(make):
    g = make(4)
    for seed in range(200):
        s = g.new_initial_state(Chance(seed))
        assert max(s.market) < 3
        if s.cnt["market_replaced"]:
            break
    else:
        pytest.fail("no setup in 200 drew three of a colour")


def test_a_market_that_cannot_be_better_stays(make):
    g = make(2)
    s = blank(g)
    for c in range(g.K):  # every cube but three reds out of the bag
        cubes(s, 1, **{g.colours[c]: s.bag[c] - (3 if g.colours[c] == "red" else 0)})
    market(s, "red", "red", "red")
    s._check_market()
    assert s.market[colour(g, "red")] == 3 and s.cnt["market_stuck"] == 1
    s.check_invariants()


def test_the_optional_market_refresh(make):
    g = make(2, market_refresh=True)
    s = blank(g, seed=2)
    market(s, "red", "blue", "green")
    cubes(s, 0, black=2)
    s.vp[0] = 3
    s.pv["vp_levels"][0] = 3
    ready(s)
    assert REFRESH in s.legal_actions()
    s.apply_action(REFRESH)
    assert s.phase == REFRESHED and s.market_n == 3 and s.cnt["refreshes"] == 1
    acts = s.legal_actions()
    assert acts[0] == END and len(acts) > 1
    s.apply_action(acts[1])  # trading now costs a victory point
    assert s.vp[0] == 2 and s.cube_n[0] == 1 and s.pv["vp_spent"][0] == 1
    s.check_invariants()
    # without the optional rule there is no refresh
    s = blank(make(2))
    market(s, "red", "blue", "green")
    cubes(s, 0, black=2)
    assert REFRESH not in ready(s).legal_actions()


# ------------------------------------------------------------------ building rules
def test_a_card_whose_symbol_still_has_tiles_must_be_used(make):
    g = make(2)
    s = blank(g)
    for c in range(5):  # every sun tile is already in the pyramid
        tile(s, 1, 3, c % 4, symbol="sun", owner=1) if c < 4 else tile(s, 1, 2, 3, symbol="sun", owner=1)
    s.builder[1] = geo.pos_of(1, 3, 0)
    give(s, 0, "red-sun", "red-moon")
    ready(s)
    s.apply_action(BUILD + geo.pos_of(1, 0, 0))
    assert s.phase == MAIN  # only the moon card may build: chosen at once
    assert s.tile[geo.pos_of(1, 0, 0)] == g.symbols.index("moon")
    assert s.hands[0][design(g, "red-sun")] == 1


def test_without_a_tile_of_the_symbol_another_tile_scores_no_tile_points(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, owner=0)  # the fill takes stacks evenly; then empty the sun stack
    sun = g.symbols.index("sun")
    while s.tiles_left[sun]:
        spare = next(t for t in range(geo.NPOS) if geo.LEVEL[t] == 1 and s.tile[t] != sun)
        s.tiles_left[s.tile[spare]] += 1
        s.tiles_left[sun] -= 1
        s.tile[spare] = sun
    s.builder[0] = geo.pos_of(1, 0, 0)
    give(s, 0, "green-sun", "red-sun", "red-moon", "blue-eye", "blue-sun")
    cubes(s, 0, red=2, blue=2)
    ready(s)
    s.apply_action(BUILD + geo.pos_of(2, 0, 0))
    # the eye (with tiles left) would have to be used, but without it only three columns are left:
    # green-sun is the one card that can name the tile - chosen at once - and no sun tile is left
    assert s.b_sym == design(g, "green-sun")
    assert s.phase == TILE and TILE_OF + sun not in s.legal_actions()
    s.apply_action(TILE_OF + g.symbols.index("lotus"))
    name_columns(s, "red-sun", "red-moon", "blue-eye", "blue-sun")
    assert s.pv["vp_levels"][0] == 0 and s.pv["vp_columns"][0] == 3 and s.pv["no_symbol"][0] == 1
    assert s.tile[geo.pos_of(2, 0, 0)] == g.symbols.index("lotus")


def test_an_upper_tile_needs_its_four_supports_and_a_card_of_its_value(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, skip=[(0, 0)])
    s.builder[0] = geo.pos_of(1, 1, 1)
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    ready(s)
    builds = {a - BUILD for a in s.legal_actions() if a >= BUILD and a < DEST}
    assert geo.pos_of(2, 0, 0) not in builds  # its north-west support is missing
    assert geo.pos_of(2, 1, 1) in builds and geo.pos_of(1, 0, 0) in builds
    # a value-1 card cannot name a level-2 tile: with only 1s, level 2 is out of reach
    s2 = blank(g)
    fill(s2, 1)
    s2.builder[0] = geo.pos_of(1, 0, 0)
    give(s2, 0, "red-sun", "red-moon", "blue-lotus", "purple-lotus", "green-eye")
    cubes(s2, 0, red=2, blue=1, purple=1, green=1)
    ready(s2)
    assert not any(BUILD <= a < DEST for a in s2.legal_actions())


def test_columns_need_a_card_and_a_cube_of_their_colour(make):
    g = make(2)
    s = blank(g)
    fill(s, 1)
    s.builder[0] = geo.pos_of(1, 0, 0)
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, green=1)  # no purple cube: three columns only
    ready(s)
    assert not any(BUILD <= a < DEST for a in s.legal_actions())
    with pytest.raises(IllegalAction):
        s.apply_action(BUILD + geo.pos_of(2, 0, 0))


def test_the_builder_never_goes_down_a_level(make):
    g = make(2)
    s = blank(g)
    fill(s, 1, skip=[(3, 3)])
    tile(s, 2, 0, 0, owner=0)
    s.builder[0] = geo.pos_of(2, 0, 0)
    give(s, 0, "red-sun")
    ready(s)
    s.apply_action(BUILD + geo.pos_of(1, 3, 3))
    assert s.builder[0] == geo.pos_of(2, 0, 0) and s.phase == MAIN  # no placement offered
    assert s.pv["builder_penalties"][0] == 1  # a builder on level 2 is not next to a level-1 tile


def test_the_below_reading_of_the_builder_penalty(make):
    g = make(2, builder_near="below")
    s = blank(g)
    fill(s, 1)
    s.builder[0] = geo.pos_of(1, 0, 2)  # next to a supporting tile of level 2 (0, 0), not one of them
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    ready(s)
    s.apply_action(BUILD + geo.pos_of(2, 0, 0))
    name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    assert s.pv["builder_penalties"][0] == 0
    s = blank(make(2))
    fill(s, 1)
    s.builder[0] = geo.pos_of(1, 0, 2)
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    ready(s)
    s.apply_action(BUILD + geo.pos_of(2, 0, 0))
    name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    assert s.pv["builder_penalties"][0] == 1


def _fourth_column(make, own=False, **options):
    """Level 1 complete; level 2 (0,0), (0,1) and (1,0) built around level-1 tile (1,1); P1 builds level 2
    (1,1), whose NW column is the fourth on that tile.  On it stands P2's builder (``own``: P1's)."""
    g = make(2, **options)
    s = blank(g)
    fill(s, 1)
    for r, c in ((0, 0), (0, 1), (1, 0)):
        tile(s, 2, r, c, owner=1 if own else 0)
    if own:
        s.builder = [geo.pos_of(1, 1, 1), geo.pos_of(2, 0, 0)]
    else:
        s.builder = [geo.pos_of(2, 0, 0), own_tile(s, 1, 1, 1, 1)]
    give(s, 0, "red-eye", "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    cubes(s, 0, red=2, blue=1, purple=1)
    return ready(s)


def test_a_fourth_column_under_a_builder_forces_it_off(make):
    s = _fourth_column(make)
    assert s.ncol[geo.pos_of(1, 1, 1)] == 3
    s.apply_action(BUILD + geo.pos_of(2, 1, 1))
    name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
    if s.phase == PLACE:
        s.apply_action(PLACE_NO)
    assert s.phase == FORCED and s.current_player() == 1
    dest = [a - DEST for a in s.legal_actions()]
    assert all(geo.LEVEL[t] == 1 and s.ncol[t] < 4 for t in dest) and geo.pos_of(1, 1, 1) not in dest
    s.apply_action(DEST + dest[0])
    assert s.builder[1] == dest[0] and s.vp[1] == -1 and s.pv["forced_penalties"][1] == 1
    assert s.phase == MAIN and s.tp == 1
    s.check_invariants()


def test_the_own_builder_on_the_covered_tile(make):
    for rule, loss in (("penalty", 1), ("free", 0)):
        s = _fourth_column(make, own=True, own_forced_move=rule)
        s.apply_action(BUILD + geo.pos_of(2, 1, 1))
        name_columns(s, "red-sun", "red-moon", "blue-lotus", "purple-lotus")
        # his first tile of level 2: the builder goes on it, away from the covered tile
        assert s.builder[0] == geo.pos_of(2, 1, 1) and s.phase == MAIN
        assert s.pv["forced_penalties"][0] == loss


# ------------------------------------------------------------------ geometry
def test_every_upper_tile_stands_on_four_quarters_meeting_at_its_centre():
    """For all 14 upper positions: the four supporting quarters are on four different tiles of the level
    below forming a 2 x 2 square, each quarter touches the upper tile's centre, and no quarter carries
    two tiles."""
    seen = set()
    upper = [p for p in range(geo.NPOS) if geo.LEVEL[p] > 1]
    assert len(upper) == 14
    for p in upper:
        level, r, c = geo.LEVEL[p], geo.ROW[p], geo.COL[p]
        # a tile of level L, row r, column c covers [c + (L-1)/2, c + (L+1)/2] on the table
        cx, cy = c + level / 2, r + level / 2
        tiles = {q >> 2 for q in geo.SUPPORT[p]}
        assert len(tiles) == 4 and all(geo.LEVEL[t] == level - 1 for t in tiles)
        rows = sorted({geo.ROW[t] for t in tiles})
        cols = sorted({geo.COL[t] for t in tiles})
        assert rows == [r, r + 1] and cols == [c, c + 1]
        for q in geo.SUPPORT[p]:
            t, k = divmod(q, 4)
            half = (geo.LEVEL[t] - 1) / 2
            x0 = geo.COL[t] + half + (k % 2) * 0.5
            y0 = geo.ROW[t] + half + (k // 2) * 0.5
            corners = {(x0, y0), (x0 + 0.5, y0), (x0, y0 + 0.5), (x0 + 0.5, y0 + 0.5)}
            assert (cx, cy) in corners, (p, q)
            assert q not in seen
            seen.add(q)
    assert len(seen) == 56


def test_the_support_table_by_hand():
    # level 2, row 1, column 1 (centre of the 3 x 3): level-1 tiles (1,1) BR, (1,2) BL, (2,1) TR, (2,2) TL
    p = geo.pos_of(2, 0, 0)
    assert geo.SUPPORT[p] == (geo.pos_of(1, 0, 0) * 4 + 3, geo.pos_of(1, 0, 1) * 4 + 2,
                              geo.pos_of(1, 1, 0) * 4 + 1, geo.pos_of(1, 1, 1) * 4 + 0)
    assert geo.SUPPORT_TILES[29] == tuple(geo.pos_of(3, r, c) for r in (0, 1) for c in (0, 1))
    # the interior tiles of a level are the only ones that can carry four columns
    full = [t for t in range(geo.NPOS) if sum(geo.UPPER_OF[t * 4 + k] >= 0 for k in range(4)) == 4]
    assert full == [geo.pos_of(1, 1, 1), geo.pos_of(1, 1, 2), geo.pos_of(1, 2, 1), geo.pos_of(1, 2, 2),
                    geo.pos_of(2, 1, 1)]
    # neighbours of level 3 (0, 1)'s columns: its NW column stands on the bottom-right quarter of level-2
    # tile (0, 1), next to the bottom-left quarter that carries level 3 (0, 0); its SW column on the
    # top-right quarter of (1, 1), between the top-left (under level 3 (0, 0)) and the bottom-right
    # (under level 3 (1, 1))
    nb = geo.COLUMN_NEIGHBOURS[geo.pos_of(3, 0, 1)]
    assert nb[0] == (geo.pos_of(2, 0, 1) * 4 + 2,)
    assert sorted(nb[2]) == [geo.pos_of(2, 1, 1) * 4 + 0, geo.pos_of(2, 1, 1) * 4 + 3]
    assert nb[1] == ()  # the NE column is on the rim: nothing next to it carries a tile


# ------------------------------------------------------------------ data the engine refuses
def _errors(data_dir):
    data = load_project(data_dir, [SLUG]).games[SLUG]
    with pytest.raises(InputErrors) as exc:
        SPEC.make(data, 4)
    problems = SPEC.static_checks(data, 4)
    return [str(p) for p in exc.value.problems], [str(p) for p in problems if p.is_error]


def test_a_symbol_with_too_few_tiles(tmp_path, project_root):
    from helpers import copy_game

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    row = find_row(root / "cards.csv", "id", "tile-moon")
    set_cell(root / "cards.csv", row, "count", "3")
    made, checked = _errors(root)
    assert made == checked
    assert any(m.startswith(f"cards.csv:{row}:count:") and "needs 30 tiles" in m and "'moon' has 3" in m for m in made)


def test_a_colour_without_column_pieces(tmp_path, project_root):
    from helpers import copy_game, read_rows, write_rows

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    rows = read_rows(root / "cards.csv")
    rows = [r for r in rows if r[rows[0].index("id")] != "column-purple"]
    write_rows(root / "cards.csv", rows)
    made, _ = _errors(root)
    purple = find_row(root / "cards.csv", "id", "purple-sun")
    assert any(m.startswith(f"cards.csv:{purple}:color:") and "no column pieces of colour 'purple'" in m
               for m in made)


def test_no_card_able_to_build_level_four(tmp_path, project_root):
    from helpers import copy_game

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    for cid in ("red-scarab", "yellow-sun", "green-moon", "blue-eye", "purple-ankh", "black-lotus"):
        set_cell(root / "cards.csv", find_row(root / "cards.csv", "id", cid), "number", "3")
    made, _ = _errors(root)
    assert any(":number:" in m and "level 4 can never be built" in m for m in made)


def test_edited_rows_change_the_game(tmp_path, project_root):
    from helpers import copy_game

    root = copy_game(tmp_path / "data", SLUG, root=project_root)
    set_cell(root / "cards.csv", find_row(root / "cards.csv", "id", "column-red"), "count", "12")
    set_cell(root / "cards.csv", find_row(root / "cards.csv", "id", "red-sun"), "count", "5")
    data = load_project(root, [SLUG]).games[SLUG]
    g = SPEC.make(data, 4)
    assert g.bag0[g.colours.index("red")] == 12 and g.bag0[g.colours.index("blue")] == 15
    assert g.deck0.count(g.d_id.index("red-sun")) == 5 and len(g.deck0) == 75
    assert SPEC.make(data, 6).bag0[g.colours.index("blue")] == 18
