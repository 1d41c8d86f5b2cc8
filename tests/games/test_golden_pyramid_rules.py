"""The Golden Pyramid's rules engine on hand-built positions (``golden_positions``): the
rulebook's worked example, every scoring line, each action, the market and trading, the end
and the tie-breaks."""

from __future__ import annotations

import pytest

from validator.games.golden_pyramid import geometry as geo
from validator.games.golden_pyramid.building import column_points
from validator.games.golden_pyramid.constants import (ACCEPT, BUILD, CARDS, COLOUR, CUBE, CUBES, DECLINE, DISCARD,
                                                      DISCARD_CARD, EMPTY_DRAW, END, KEEP, KEEP_SET, MAIN, MARKET,
                                                      MARKET_KIND, MOVE, MOVE_KIND, MOVING, OFFER, OFFER_KIND, OVER,
                                                      PLACE, PLACE_NO, REFRESH, REFRESHED, RESPOND, RETURN, RETURN_CUBE)
from validator.kit import Chance

from golden_positions import data, make  # noqa: F401 - the fixtures the tests name
from golden_positions import (blank, colour, cubes, design, example_position, fill, give, market, name_columns,
                              own_tile, ready, tile)


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
