"""Flipping and every reward kind, each in a constructed position where one
placement meets a condition."""

from __future__ import annotations

import pytest

from validator.games.pyramid_scheme.spec import (DISCARD, END, FLIP, FLIP_POLICE, FLIP_SILENT, LIMIT, MAIN, PLACE,
                                                 RESERVE, TARGET, TRASH)
from validator.games.pyramid_scheme.state import State

OTHER = [("f-guru", None)]
DISPLAY = ["p05", "y05", "b05"]


def place(s, h, v):
    s.apply_action(PLACE + h * 1000 + v)
    s.check_invariants()


def test_condition_met_flips_and_gains_reset(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g06", 0)], OTHER], hands=[["b01"], []], display=DISPLAY)
    supply = s.sup_reset
    place(s, 0, 1)
    assert s.pyr[0].flipped[1]
    assert s.resets[0] == 2 and s.sup_reset == supply - 1
    assert s.st_rew["reset"] == [1, 1]


def test_condition_not_met_by_wrong_colour(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g06", 0)], OTHER], hands=[["y01"], []], display=DISPLAY)
    place(s, 0, 1)
    assert not s.pyr[0].flipped[1]


def test_any_is_never_a_police(make_game):
    """"A Victim of any color (cannot be a Police)": a police below a '2 any' card does not count."""
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g15", 0), ("police", 1)], OTHER], hands=[["p01"], []],
                       display=DISPLAY)  # green 5: 1 pink + 2 any; police (3) + pink 1 leaves room 1
    place(s, 0, 1)
    assert not s.pyr[0].flipped[1]
    assert s.pyr[0].nvict[1] == 1


def test_founder_flips_with_one_of_each_colour(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g01", 0), ("b01", 0), ("p01", 0)], OTHER],
                       hands=[["y01"], []], display=DISPLAY)
    place(s, 0, 0)
    assert s.pyr[0].flipped[0] and s.pyr[0].founder_flipped
    assert s.resets[0] == 2


def test_hand_limit_grows(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g08", 0)], OTHER], hands=[["y01"], []], display=DISPLAY)
    place(s, 0, 1)
    assert s.limit[0] == 4


def test_discard_any_number(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g07", 0)], OTHER], hands=[["p01", "y14", "b15"], []],
                       display=DISPLAY)
    place(s, 0, 1)
    assert s.phase == DISCARD
    assert s.legal_actions() == [END, TARGET + 0, TARGET + 1]
    s.apply_action(TARGET + 1)  # the blue 5
    s.check_invariants()
    assert s.phase == DISCARD and s.legal_actions() == [END, TARGET + 0]
    s.apply_action(END)
    assert s.phase == MAIN
    assert [g.designs[g.DESIGN[c]].id for c in s.hands[0]] == ["y14"]
    assert [g.designs[g.DESIGN[c]].id for c in s.discard] == ["b15"]
    assert s.st_rew["discard"] == [1, 1]


def test_limit_token_goes_on_a_card_at_once(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g10", 0), ("b01", 1), ("police", 0)], OTHER],
                       hands=[["p01"], []], display=DISPLAY)
    supply = s.sup_limit[2]
    place(s, 0, 1)
    assert s.phase == LIMIT
    targets = s.legal_actions()
    assert TARGET + 3 not in targets  # not on an unflipped police
    assert TARGET + 0 in targets and TARGET + 1 in targets and TARGET + 2 in targets
    room = s.pyr[0].cap[2]
    s.apply_action(TARGET + 2)
    s.check_invariants()
    assert s.pyr[0].cap[2] == room + 2 and s.pyr[0].limits == 1
    assert s.sup_limit[2] == supply - 1


def test_limit_reward_with_an_empty_supply_is_lost(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g10", 0, False, [2, 2, 2, 2]), ("b01", 1)], OTHER],
                       hands=[["p01"], []], display=DISPLAY)
    assert s.sup_limit[2] == 0
    place(s, 0, 1)
    assert s.phase == MAIN and s.st_rew["limit"] == [1, 0]


def test_pass_token(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g11", 0), ("y01", 1)], OTHER], hands=[["b01"], []],
                       display=DISPLAY)
    place(s, 0, 1)
    assert s.passes[0] == 1 and s.sup_pass == g.sup_pass - 1


def test_flip_another_card_and_gain_its_reward(make_game):
    g = make_game(2)
    # green 5 (1 pink + 2 any, reward flip) with pink 1 and blue 1 below; an unflipped Eco Vlogger (hand 1) elsewhere
    s = State.position(g, pyramids=[[("f-boss", None), ("g15", 0), ("p01", 1), ("b01", 1), ("y08", 0)], OTHER],
                       hands=[["y01"], []], display=DISPLAY)
    place(s, 0, 1)
    assert s.phase == FLIP
    assert TARGET + 1 not in s.legal_actions()  # not itself: "any other card"
    s.apply_action(TARGET + 4)
    s.check_invariants()
    assert s.pyr[0].flipped[4] and s.limit[0] == 4  # y08's reward: hand 1


def test_flip_silent_gives_no_reward(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("p14", 0), ("b01", 1), ("g06", 0)], OTHER],
                       hands=[["b02"], []], display=DISPLAY)
    place(s, 0, 1)
    assert s.phase == FLIP_SILENT
    s.apply_action(TARGET + 3)  # Golf Dad: its reward (reset) is not gained
    assert s.pyr[0].flipped[3] and s.resets[0] == 1


def test_flip_reward_may_be_skipped(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("p14", 0), ("b01", 1), ("g06", 0)], OTHER],
                       hands=[["b02"], []], display=DISPLAY)
    place(s, 0, 1)
    s.apply_action(END)
    assert not s.pyr[0].flipped[3] and s.st_rew["flip-silent"] == [1, 0]


def test_trash_police(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("police", 0), ("b14", 0), ("g01", 2)], OTHER],
                       hands=[["g02"], []], display=DISPLAY)
    police = len(s.police)
    room = s.pyr[0].cap[0]
    place(s, 0, 2)
    assert s.phase == TRASH and s.legal_actions() == [END, TARGET + 1]
    s.apply_action(TARGET + 1)
    s.check_invariants()
    assert len(s.police) == police + 1 and s.pyr[0].cap[0] == room + 3
    assert s.pyr[0].card[1] == -1


def test_flip_police_then_place_below_it(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("police", 0), ("g16", 0), ("b01", 2), ("p01", 2)], OTHER],
                       hands=[["y01", "y02"], []], display=DISPLAY)
    place(s, 0, 2)
    assert s.phase == FLIP_POLICE and s.legal_actions() == [END, TARGET + 1]
    s.apply_action(TARGET + 1)
    s.check_invariants()
    assert s.pyr[0].flipped[1] and s.pyr[0].cap[1] == 3 and s.pyr[0].f_police == 1
    assert PLACE + 1 in s.legal_actions()  # y02 (now hand 0) below the flipped police


def test_reserve_a_goal_only_you_can_fulfil(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[("f-boss", None), ("g14", 0), ("y01", 1)], OTHER], hands=[["y02"], []],
                       display=DISPLAY, goals=["g-pink", "g-blue"])
    place(s, 0, 1)
    assert s.phase == RESERVE and s.legal_actions() == [END, TARGET + 0, TARGET + 1]
    s.apply_action(TARGET + 1)
    gi = s.goals_open[1]
    assert s.reserved == {gi: 0}
    # the opponent fulfils the reserved goal but cannot claim it
    blue = [("f-guru", None)] + [(f"b0{i}", 0) for i in range(1, 6)]
    display = ["p05", "y05", "g05"]
    t = State.position(g, pyramids=[[("f-boss", None)], blue], hands=[[], ["b06"]], display=display,
                       goals=["g-blue"], reserved={"g-blue": 0}, player=1)
    t.apply_action(PLACE + 0)
    assert t.goals_open and not t.claimed[1]
    u = State.position(g, pyramids=[[("f-boss", None)], blue], hands=[[], ["b06"]], display=display,
                       goals=["g-blue"], player=1)
    u.apply_action(PLACE + 0)
    assert not u.goals_open and len(u.claimed[1]) == 1


@pytest.mark.parametrize("option", [True, False])
def test_optional_flip_asks_first(make_game, option):
    g = make_game(2, optional_flip=option)
    s = State.position(g, pyramids=[[("f-boss", None), ("g06", 0)], OTHER], hands=[["b01"], []], display=DISPLAY)
    place(s, 0, 1)
    if option:
        assert not s.pyr[0].flipped[1]
        s.apply_action(END)  # decline
        assert not s.pyr[0].flipped[1] and s.resets[0] == 1
    else:
        assert s.pyr[0].flipped[1]


def test_exactly_reading(make_game):
    """condition_match=exactly: a third victim below a '2 any' card is one too many."""
    pyramid = [("f-boss", None), ("g09", 0, False, [3]), ("y01", 1), ("p01", 1)]
    at_least = State.position(make_game(2), pyramids=[pyramid, OTHER], hands=[["b01"], []], display=DISPLAY)
    exactly = State.position(make_game(2, condition_match="exactly"), pyramids=[pyramid, OTHER], hands=[["b01"], []],
                             display=DISPLAY)
    assert at_least.pyr[0].condition_met(at_least.g, 1)
    assert exactly.pyr[0].condition_met(exactly.g, 1)
    place(at_least, 0, 1)
    place(exactly, 0, 1)
    assert at_least.pyr[0].condition_met(at_least.g, 1)
    assert not exactly.pyr[0].condition_met(exactly.g, 1)
