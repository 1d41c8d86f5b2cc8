"""Every goal of goals.csv in a constructed position (met, and one short of it),
the police a completion sends, elimination, deck exhaustion and game end."""

from __future__ import annotations

import pytest

from validator.games.pyramid_scheme.spec import OVER, PLACE, POLICE_PLACE, RESET, TAKE, TARGET
from validator.games.pyramid_scheme.state import State

OTHER = [("f-guru", None)]
DISPLAY = ["p05", "y05", "b05"]

F = ("f-boss", None)
# goal id -> (a pyramid that meets it, one that falls one short, extra position keywords)
GOALS = {
    "g-green": ([F] + [(f"g0{i}", 0) for i in range(1, 6)], [F] + [(f"g0{i}", 0) for i in range(1, 5)], {}),
    "g-ones": ([F, ("g01", 0), ("b01", 0), ("p01", 0), ("y01", 0), ("g02", 0)],
               [F, ("g01", 0), ("b01", 0), ("p01", 0), ("y01", 0), ("g06", 0)], {}),
    "g-twos": ([F, ("g06", 0), ("b06", 0), ("p06", 0), ("y06", 0)], [F, ("g06", 0), ("b06", 0), ("p06", 0)], {}),
    "g-threes": ([F, ("g10", 0), ("b10", 0), ("p10", 0)], [F, ("g10", 0), ("b10", 0), ("police", 0)], {}),
    "g-straight": ([F, ("g01", 0), ("b06", 0), ("y14", 0), ("g15", 0), ("p10", 3)],
                   [F, ("g01", 0), ("b06", 0), ("y14", 0), ("g15", 0), ("police", 4)], {}),
    "g-twoeach": ([F, ("g01", 0), ("g02", 0), ("b01", 0), ("b02", 0), ("p01", 0), ("p02", 0), ("y01", 0), ("y02", 0)],
                  [F, ("g01", 0), ("g02", 0), ("b01", 0), ("b02", 0), ("p01", 0), ("p02", 0), ("y01", 0)], {}),
    "g-rainbow": ([F, ("g06", 0, True), ("b06", 0, True), ("p06", 0, True), ("y06", 0, True)],
                  [F, ("g06", 0, True), ("b06", 0, True), ("p06", 0, True), ("y06", 0)], {}),
    "g-samecolor": ([F, ("g06", 0, True), ("g07", 0, True), ("g08", 0, True), ("g09", 0, True)],
                    [F, ("g06", 0, True), ("g07", 0, True), ("g08", 0, True), ("b09", 0, True)], {}),
    "g-samenumber": ([F, ("g10", 0, True), ("b10", 0, True), ("p10", 0, True), ("police", 0, True)],
                     [F, ("g10", 0, True), ("b10", 0, True), ("p10", 0, True), ("police", 0)], {}),
    "g-diffnumber": ([F, ("g01", 0, True), ("g06", 0, True), ("y14", 0, True), ("police", 0, True)],
                     [F, ("g01", 0, True), ("g06", 0, True), ("y14", 0, True), ("police", 0)], {}),
    "g-deep": ([F, ("g15", 0), ("b13", 1), ("p10", 2), ("y06", 3), ("g01", 4, False)],
               [F, ("g15", 0), ("b13", 1), ("p10", 2), ("y06", 3), ("police", 4)], {}),
    "g-limits": ([F, ("g01", 0, False, [2]), ("b01", 0, False, [3]), ("p01", 0, False, [2])],
                 [F, ("g01", 0, False, [2]), ("b01", 0, False, [3]), ("p01", 0)], {}),
    "g-resets": ([F], [F], {"resets": ([3, 1], [2, 1])}),
    "g-below": ([F, ("g06", 0, True), ("b06", 0, True), ("police", 0, True)],
                [F, ("g06", 0, True), ("b06", 0, True), ("police", 0)], {}),
    "g-bribe": ([F, ("police", 0, True), ("police", 0, True)], [F, ("police", 0, True), ("police", 0)], {}),
}


def _goal_index(g, goal_id):
    return next(i for i, (d, _) in enumerate(g.goals) if g.goal_designs[d].id == goal_id)


def test_every_goal_in_the_sheet_has_a_case(make_game):
    g = make_game(2)
    ids = {d.id for d in g.goal_designs}
    missing = ids - set(GOALS) - {"g-blue", "g-pink", "g-yellow"}  # the colour crowds work like g-green
    assert not missing


@pytest.mark.parametrize("goal_id", sorted(GOALS))
def test_goal(make_game, goal_id):
    g = make_game(2)
    yes, no, extra = GOALS[goal_id]
    if goal_id == "g-deep":
        # a 6-level branch: the colour rule needs a smart-ass on it; the green 5 at the top is flipped
        yes = [yes[0], ("g15", 0, True)] + yes[2:]
        no = [no[0], ("g15", 0, True)] + no[2:]
    resets = extra.get("resets", (None, None))
    gi = _goal_index(g, goal_id)
    met = State.position(g, pyramids=[yes, OTHER], display=DISPLAY, goals=[goal_id], resets=resets[0],
                         hands=[["y09"], []])
    short = State.position(g, pyramids=[no, OTHER], display=DISPLAY, goals=[goal_id], resets=resets[1],
                           hands=[["y09"], []])
    assert met.goal_met(0, gi), goal_id
    assert not short.goal_met(0, gi), goal_id


def test_completing_a_goal_sends_police_to_every_opponent(make_game):
    g = make_game(3)
    green = [F] + [(f"g0{i}", 0) for i in range(1, 5)]
    s = State.position(g, pyramids=[green, [("f-guru", None)], [("f-mogul", None)]], hands=[["g06"], [], []],
                       display=DISPLAY, goals=["g-green", "g-blue"])
    supply = len(s.police)
    s.apply_action(PLACE + 0)
    assert [g.goal_designs[g.goals[gi][0]].id for gi in s.claimed[0]] == ["g-green"]
    assert s.phase == POLICE_PLACE and s.current_player() == 1  # in turn order after the claimer
    s.apply_action(TARGET + 0)
    assert s.current_player() == 2
    s.apply_action(TARGET + 0)
    s.check_invariants()
    assert len(s.police) == supply - 2
    assert s.current_player() == 0 and s.actions_left == 1  # back to the claimer's second action
    assert s.st_goals[0][1] == 0


def test_two_goals_at_once_send_two_police(make_game):
    g = make_game(2)
    pyramid = [F, ("g01", 0), ("b01", 0), ("p01", 0), ("y01", 0)]  # four 1s, one of each colour
    s = State.position(g, pyramids=[pyramid, OTHER], hands=[["g02"], []], display=DISPLAY,
                       goals=["g-ones", "g-green", "g-twoeach"])
    s.apply_action(PLACE + 0)  # a fifth 1: g-ones; the founder flips too (one of each colour below)
    assert len(s.claimed[0]) == 1
    t = State.position(g, pyramids=[[F, ("g01", 0), ("g02", 0), ("b01", 0), ("b02", 0), ("p01", 0), ("p02", 0),
                                     ("y01", 0)], OTHER], hands=[["y02"], []], display=DISPLAY,
                       goals=["g-ones", "g-twoeach"])
    t.apply_action(PLACE + 0)  # the eighth 1: 2 of each colour and 5+ ones at once
    assert len(t.claimed[0]) == 2
    assert t.phase == POLICE_PLACE
    t.apply_action(t.legal_actions()[0])
    assert t.phase == POLICE_PLACE and t.current_player() == 1
    t.apply_action(t.legal_actions()[0])
    assert sum(1 for c in t.pyr[1].card if c >= 0 and g.KIND[c] == 1) == 2


def test_no_room_for_a_police_eliminates(make_game):
    g = make_game(2)
    green = [F] + [(f"g0{i}", 0) for i in range(1, 5)]
    full = [("f-guru", None), ("b13", 0), ("p13", 0), ("y13", 0), ("p01", 1), ("y01", 1), ("b01", 2), ("y02", 2),
            ("b02", 3), ("p02", 3)]  # every card has room 2 or less
    s = State.position(g, pyramids=[green, full], hands=[["g06"], []], display=DISPLAY, goals=["g-green"])
    s.apply_action(PLACE + 0)
    assert s.is_terminal() and s.end == "last-standing" and s.winners == [0]
    assert s.eliminated == [(1, "police", 1)]
    assert s.returns() == [1.0, 0.0]


def test_cannot_do_two_actions_crumbles(make_game):
    """Hand full (3) and nothing fits: the turn starts and the pyramid crumbles."""
    g = make_game(3)
    full = [F, ("g13", 0), ("b13", 0), ("p13", 0)]  # the founder is full; each 4 has room 4
    s = State.position(g, pyramids=[full, [("f-guru", None)], [("f-mogul", None)]],
                       hands=[["y15", "b15", "g15"], [], []], display=DISPLAY)
    assert not s.alive[0] and s.eliminated[0][:2] == (0, "actions")
    assert s.current_player() == 1 and not s.is_terminal()
    s.check_invariants()  # the crumbled pyramid's victims went to the discard pile
    assert len(s.discard) == 6


def test_stuck_after_the_first_action(make_game):
    """Two cards that do not fit, one slot free: taking a card that does not fit either leaves no second action."""
    g = make_game(2)
    full = [F, ("g13", 0), ("b13", 0), ("p13", 0)]
    s = State.position(g, pyramids=[full, OTHER], hands=[["y15", "b15"], []], display=["g16", "p16", "y16"],
                       resets=[0, 1])
    assert s.legal_actions() == [TAKE, TAKE + 1, TAKE + 2]
    s.apply_action(TAKE + 0)
    assert s.is_terminal() and s.winners == [1] and s.eliminated == [(0, "actions", 1)]


def test_deck_exhausted_most_smart_asses_win(make_game):
    g = make_game(2)
    mine = [F, ("g06", 0, True), ("b06", 0, True)]
    theirs = [("f-guru", None, True), ("police", 0, True)]
    # one victim left in the deck, no discard pile
    s = State.position(g, pyramids=[mine, theirs], hands=[[], []], display=DISPLAY, deck=["g01"], unused="out")
    s.apply_action(TAKE + 0)
    s.check_invariants()
    assert s.is_terminal() and s.end == "deck-tie" and s.winners == [0, 1]  # 2 smart-asses each (founder, police)
    assert s.returns() == [0.5, 0.5]


def test_deck_exhausted_winner(make_game):
    g = make_game(2)
    mine = [F, ("g06", 0, True), ("b06", 0, True), ("p06", 0, True)]
    s = State.position(g, pyramids=[mine, OTHER], hands=[[], []], display=DISPLAY, deck=["g01"], unused="out")
    s.apply_action(TAKE + 0)
    assert s.end == "deck" and s.winners == [0]


def test_deck_runs_out_with_a_discard_pile_reshuffles(make_game):
    g = make_game(2)
    s = State.position(g, pyramids=[[F], OTHER], hands=[[], []], display=DISPLAY, deck=["g01"], discard=["g02", "g03"],
                       unused="out")
    s.apply_action(TAKE + 0)
    assert not s.is_terminal() and len(s.deck) == 2 and not s.discard
    assert s.st_counts["reshuffles"] == 1


def test_refill_reading_ends_only_when_a_slot_cannot_be_refilled(make_game):
    g = make_game(2, deck_exhaustion="refill")
    s = State.position(g, pyramids=[[F], OTHER], hands=[[], []], display=DISPLAY, deck=["g01"], unused="out")
    s.apply_action(TAKE + 0)
    assert not s.is_terminal() and not s.deck
    s.apply_action(TAKE + 1)
    assert s.is_terminal() and s.end in ("deck", "deck-tie")


def test_refill_reading_reshuffles_a_discard_pile_into_an_empty_deck(make_game):
    """With the deck already empty, the next draw shuffles the discard pile into a new deck."""
    g = make_game(2, deck_exhaustion="refill")
    s = State.position(g, pyramids=[[F], OTHER], hands=[[], []], display=DISPLAY, deck=["g01"], unused="out")
    s.apply_action(TAKE + 0)
    assert not s.deck and not s.discard and not s.is_terminal()
    s.apply_action(RESET)  # the display goes to the discard pile, and is drawn again from it
    assert s.st_counts["reshuffles"] == 1 and not s.is_terminal()
    assert sorted(g.designs[g.DESIGN[c]].id for c in s.display) == ["b05", "g01", "y05"]
    s.check_invariants()


def test_last_one_standing_ends_at_once(make_game):
    g = make_game(3)
    green = [F] + [(f"g0{i}", 0) for i in range(1, 5)]
    full = [("f-guru", None), ("b13", 0), ("p13", 0), ("y13", 0), ("p01", 1), ("y01", 1), ("b01", 2), ("y02", 2),
            ("b02", 3), ("p02", 3)]
    full2 = [("f-mogul", None), ("b14", 0), ("p14", 0), ("y14", 0), ("p03", 1), ("y03", 1), ("b03", 2), ("y04", 2),
             ("b04", 3), ("p04", 3)]
    s = State.position(g, pyramids=[green, full, full2], hands=[["g06"], [], []], display=DISPLAY,
                       goals=["g-green"])
    s.apply_action(PLACE + 0)
    assert s.phase == OVER and s.winners == [0]
    assert [e[1] for e in s.eliminated] == ["police", "police"]
