"""The rulebook's placement examples A-G, on a pyramid built to match their
explanations, plus the restrictions' edge cases (police, flipped cards, passes).

The pyramid (numbers in brackets, indices are node numbers):

    [0] founder (12)
     |- [1] yellow 5 ---- [2] pink 3 ---- [4] green 2 ---- [5] blue 1
     |                `-- [3] blue 2
     |- [6] blue 3 ------ [7] yellow 1
     `- [8] green 1

The card to place is a green 1, as in the rulebook's picture.
"""

from __future__ import annotations

import pytest

from validator.games.pyramid_scheme.spec import PLACE
from validator.games.pyramid_scheme.state import State

PYRAMID = [
    ("f-boss", None),
    ("y15", 0),  # 1 yellow 5
    ("p10", 1),  # 2 pink 3
    ("b06", 1),  # 3 blue 2: below the 5 now 3 + 2 = 5
    ("g06", 2),  # 4 green 2
    ("b01", 4),  # 5 blue 1
    ("b10", 0),  # 6 blue 3
    ("y01", 6),  # 7 yellow 1
    ("g02", 0),  # 8 green 1: below the founder now 5 + 3 + 1 = 9
]

# (example, node to place below, legal?, the rulebook's reason)
EXAMPLES = [
    ("A", 4, False, "Not possible, because there's a green Victim above it."),
    ("B", 6, True, "Possible (the total below the 3 will be 2, and there is no green Victim in the same branch."),
    ("C", 7, True, "Possible (the total below the 1 will be 1, and there is no green Victim n the same branch."),
    ("D", 8, False, "Not possible, because there's a green Victim above it."),
    ("E", 1, False, "Not possible, because the Victims below the 5 are already adding up to 5."),
    ("F", 5, False, "Not possible, because there's a green Victim in the same branch (even if it's not directly "
                    "above it)."),
    ("G", 0, True, "Possible (the total below the 12 will be 10. The other green Victims are in different branches)."),
]


@pytest.fixture
def position(make_game):
    g = make_game(2)
    return State.position(g, pyramids=[PYRAMID, [("f-guru", None)]], hands=[["g03"], ["b02"]],
                          display=["p01", "p02", "p03"])


@pytest.mark.parametrize("name,node,legal,reason", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_rulebook_example(position, name, node, legal, reason):
    s = position
    action = PLACE + 0 * 1000 + node
    assert (action in s.legal_actions()) is legal, reason
    error = s.placement_error(0, s.hands[0][0], node)
    assert (error is None) is legal, reason
    if name in ("A", "D"):
        assert "directly above it" in error and "restriction 2" in error
    if name == "F":
        assert "higher up on the same branch" in error and "Eco Vlogger" not in error
        assert "Golf Dad" in error  # the green 2 two levels up
    if name == "E":
        assert "add up to 6, more than 5" in error and "restriction 1" in error


def test_example_G_totals(position):
    s = position
    s.apply_action(PLACE + 0)  # below the founder
    pyr = s.pyr[0]
    below = sum(s.g.NUM[c] for v, c in enumerate(pyr.card) if v and pyr.parent[v] == 0)
    assert below == 10
    assert pyr.cap[0] == 2
    s.check_invariants()


def test_example_B_totals(position):
    s = position
    s.apply_action(PLACE + 6)
    pyr = s.pyr[0]
    assert sum(s.g.NUM[pyr.card[v]] for v in range(len(pyr.card)) if pyr.parent[v] == 6) == 2


def test_flipped_card_lifts_the_colour_rule(make_game):
    """"Now this Victim is no longer a restriction for the placement of Victims of the same color in the same
    branch.\""""
    g = make_game(2)
    pyramid = [("f-boss", None), ("g06", 0, True), ("b01", 1)]  # a flipped green 2 with a blue 1 below
    s = State.position(g, pyramids=[pyramid, [("f-guru", None)]], hands=[["g03"], []], display=["p01", "p02", "p03"])
    assert s.placement_error(0, s.hands[0][0], 1) is None  # green below the flipped green
    unflipped = State.position(g, pyramids=[[("f-boss", None), ("g06", 0), ("b01", 1)], [("f-guru", None)]],
                               hands=[["g03"], []], display=["p01", "p02", "p03"])
    assert "restriction 2" in unflipped.placement_error(0, unflipped.hands[0][0], 1)


def test_nothing_below_a_police_until_it_is_flipped(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("police", 0)], [("f-guru", None)]], hands=[["g03"], []],
                       display=["p01", "p02", "p03"])
    assert "restriction 3" in s.placement_error(0, s.hands[0][0], 1)
    assert PLACE + 1 not in s.legal_actions()
    flipped = State.position(g, pyramids=[[("f-boss", None), ("police", 0, True)], [("f-guru", None)]],
                             hands=[["g03"], []], display=["p01", "p02", "p03"])
    assert flipped.placement_error(0, flipped.hands[0][0], 1) is None
    assert PLACE + 1 in flipped.legal_actions()


def test_police_counts_three_in_the_sum(make_game):
    """"All Police have the number 3": a police below a 4 leaves room for a 1 only."""
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g13", 0), ("police", 1)], [("f-guru", None)]],
                       hands=[["b06", "b01"], []], display=["p01", "p02", "p03"])
    assert "restriction 1" in s.placement_error(0, s.hands[0][0], 1)  # a 2 does not fit
    assert s.placement_error(0, s.hands[0][1], 1) is None  # a 1 does


def test_colour_pass_ignores_the_colour_rule_once(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g06", 0)], [("f-guru", None)]], hands=[["g03", "g04"], []],
                       display=["p01", "p02", "p03"], passes=[1, 0])
    assert PLACE + 1 in s.legal_actions()
    s.apply_action(PLACE + 1)
    assert s.passes[0] == 0 and s.sup_pass == s.g.sup_pass
    assert PLACE + 1 not in s.legal_actions()  # the second green may not follow: the pass is spent
    s.check_invariants()  # the pass placement is recorded, not a violation


def test_limit_tokens_raise_the_sum_but_not_above(make_game):
    """"Increase the limit this card can support directly below it. Does not affect the Victims above.\""""
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("b11", 0, False, [2]), ("y01", 1), ("p01", 1)],
                                    [("f-guru", None)]], hands=[["g03"], []], display=["p02", "p03", "p04"])
    assert s.pyr[0].cap[1] == 3  # 3 + 2 - 1 - 1
    assert s.placement_error(0, s.hands[0][0], 1) is None
    assert s.pyr[0].cap[0] == 12 - 3
