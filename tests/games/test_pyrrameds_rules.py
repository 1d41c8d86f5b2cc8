"""Pyrrameds rules engine: hand-built pyramids for every rule (the number rule, patients'
paths, swaps, operations, wildcards, the end), determinism, copies, random playouts under
every invariant, golden legal-action counts per box, and bad rows reported before play."""

from __future__ import annotations

import pytest

from model.errors import IllegalAction, InputErrors
from model.sheets import load_project
from validator.kit import Chance, get_spec
from validator.games.pyrrameds.sweep import play
from validator.games.pyrrameds.spec import CHOOSE, GIVE, MAIN, PICK, SHOW, SWAP_A, SWAP_B
from validator.games.pyrrameds.state import State

from helpers import copy_game, find_row, read_rows, set_cell, write_rows

SLUG = "pyrrameds"
SPEC = get_spec(SLUG)
ROW6 = {"row 1": "m-c3", "row 2": "m-v7", "row 3": "m-h1", "row 4": "m-h4", "row 5": "m-c6", "row 6": "m-a7"}


@pytest.fixture(scope="module")
def pdata(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


@pytest.fixture(scope="module")
def make(pdata):
    cache = {}

    def build(players=3, **options):
        key = (players, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = SPEC.make(pdata, players, **options)
        return cache[key]

    return build


def pos_of(state, name):
    return state.game.geo.pos(name)


def card(state, design, where=None):
    """The card id of a design (in a hand, the pyramid or anywhere)."""
    g = state.game
    ids = [c for c in range(g.NC) if g.designs[g.DESIGN[c]].id == design]
    if where is not None:
        ids = [c for c in ids if c in where]
    return ids[0]


def placeable(state, design, name) -> bool:
    g = state.game
    c = card(state, design, state.hands[state.cur])
    return g.codes.place(c, pos_of(state, name)) in state.legal_actions()


def spots(state, design) -> list[str]:
    g = state.game
    c = card(state, design, state.hands[state.cur])
    out = []
    for a in state.legal_actions():
        if a >= g.codes.PLACE:
            cc, p = g.codes.decode_place(a)
            if cc == c:
                out.append(g.geo.name(p))
    return out


# ------------------------------------------------------------------ geometry
def test_geometry_of_a_row_of_six_and_eight(make):
    for boxes, row in (("base", 6), ("base+intensive-care", 8)):
        geo = make(boxes=boxes).geo
        assert geo.R == row and geo.P == row * row  # R + 2 * (R-1 + ... + 1)
        assert len([p for p in range(geo.P) if geo.LAYER[p] == 1]) == row - 1
        assert [geo.name(s) for s in geo.SUP[geo.pos("+1.1")]] == ["row 1", "row 2"]
        assert [geo.name(s) for s in geo.SUP[geo.pos("-2.3")]] == ["-1.3", "-1.4"]
        assert [geo.name(s) for s in geo.OUT[geo.pos("row 1")]] == ["+1.1", "-1.1"]
        assert all(geo.name(geo.pos(geo.name(p))) == geo.name(p) for p in range(geo.P))


# ------------------------------------------------------------------ the number rule
def test_medicine_between_3_and_7(make):
    s = State.position(make(boxes="base"), ROW6, [["m-a5", "m-a2", "m-c8", "m-v6"], ["m-h5"], ["m-h8"]])
    # +1.1 rests on cardio 3 and vitamin 7
    assert not placeable(s, "m-a5", "+1.1")  # 5: neither higher nor lower than all
    assert not placeable(s, "m-v6", "+1.1")
    assert placeable(s, "m-a2", "+1.1")  # lower than all
    assert placeable(s, "m-c8", "+1.1")  # higher than all
    assert placeable(s, "m-c8", "-1.1")  # below the row the same rule


def test_a_single_support_of_equal_number_is_illegal(make):
    pyr = dict(ROW6, **{"+1.1": "m-c8"})  # +2.1 rests on +1.1 (8) alone: +1.2 is empty
    s = State.position(make(boxes="base"), pyr, [["m-h8", "m-h5", "m-c1"], ["m-a4"], ["m-a5"]])
    assert not placeable(s, "m-h8", "+2.1")
    assert placeable(s, "m-h5", "+2.1") and placeable(s, "m-c1", "+2.1")
    assert not placeable(s, "m-h5", "+3.1")  # no support at all: disconnected


def test_patients_have_no_number(make):
    pyr = dict(ROW6, **{"row 1": "p-01", "row 2": "p-02"})
    s = State.position(make(boxes="base"), pyr, [["m-a5", "m-v6"], ["m-h8"], ["m-a4"]])
    assert placeable(s, "m-a5", "+1.1") and placeable(s, "m-v6", "+1.1")  # nothing to compare with
    # +1.2 rests on a patient and herbal 1: only 1 counts
    assert placeable(s, "m-a5", "+1.2")


def test_the_number_rule_is_checked_when_placing_only_unless_under_check(make):
    # +2.1 holds a 6 on +1.1 (8) alone; +1.2 (on 7 and 5) is the gap under it
    pyr = {**ROW6, "row 3": "m-h5", "+1.1": "m-c8", "+2.1": "m-v6"}
    hands = [["m-a2", "m-h8"], ["m-a4"], ["m-v3"]]
    s = State.position(make(boxes="base"), pyr, hands)
    assert placeable(s, "m-a2", "+1.2")  # the 2 follows its own supports; the 6 above then sits between 2 and 8
    s = State.position(make(boxes="base", under_check=True), pyr, hands)
    assert not placeable(s, "m-a2", "+1.2")
    assert placeable(s, "m-h8", "+1.2")  # 6 stays lower than 8 and 8


# ------------------------------------------------------------------ patients' paths
def row(**cells):
    base = {f"row {i}": d for i, d in enumerate(["m-a4", "m-a5", "m-a7", "m-a2", "m-v3", "m-v6"], start=1)}
    base.update({k.replace("_", " ").replace("p", "+").replace("m", "-") if k[0] in "pm" else k: v
                 for k, v in cells.items()})
    return base


def test_a_legal_path_down_then_sideways(make):
    # Panting Pug needs cardio + herbal: from +1.1 down-right to cardio (row 2), right to herbal (row 3)
    pyr = {**row(), "row 2": "m-c6", "row 3": "m-h1"}
    s = State.position(make(boxes="base"), pyr, [["p-06", "m-v7"], ["m-h8"], ["m-h4"]])
    assert placeable(s, "p-06", "+1.1")
    assert placeable(s, "p-06", "-1.1")  # from below: up-right, then right
    assert not placeable(s, "p-06", "+1.4")  # nothing it needs touches it


def test_a_path_through_one_medicine_too_many(make):
    # Jittery Hamster needs cardio only; the cardio at row 3 is reached only through antibiotic at row 2
    pyr = {**row(), "row 3": "m-c6"}
    s = State.position(make(boxes="base"), pyr, [["p-01", "m-v7"], ["m-h8"], ["m-h4"]])
    assert spots(s, "p-01") == ["+1.2", "+1.3", "-1.2", "-1.3"]  # touching row 3 directly
    assert not placeable(s, "p-01", "+1.1")  # +1.1 -> row 2 (antibiotic) -> row 3: one too many
    s2 = State.position(make(boxes="base", path_extra="non-medicine"),
                        {**row(), "row 3": "m-c6", "row 2": "p-02"}, [["p-01", "m-v7"], ["m-h8"], ["m-h4"]])
    assert placeable(s2, "p-01", "+1.1")  # crossing the patient at row 2 is allowed by that reading
    s3 = State.position(make(boxes="base"), {**row(), "row 3": "m-c6", "row 2": "p-02"},
                        [["p-01", "m-v7"], ["m-h8"], ["m-h4"]])
    assert not placeable(s3, "p-01", "+1.1")  # ... and not by default: nothing more


def test_a_path_may_not_go_down_then_up(make):
    # patient at +1.2; cardio at row 2 (down-left), herbal at +1.1 (back up): down then up
    pyr = {**row(), "row 2": "m-c6", "+1.1": "m-h8"}
    s = State.position(make(boxes="base"), pyr, [["p-06", "m-v7"], ["m-h4"], ["m-h5"]])
    assert not placeable(s, "p-06", "+1.2")
    # with the herbal below instead (-1.1: down-left again) the path is monotone
    pyr = {**row(), "row 2": "m-c6", "-1.1": "m-h8"}
    s = State.position(make(boxes="base"), pyr, [["p-06", "m-v7"], ["m-h4"], ["m-h5"]])
    assert placeable(s, "p-06", "+1.2")


def test_a_path_may_not_go_left_then_right(make):
    # patient at +1.2 between cardio at +1.1 (left) and herbal at +1.3 (right)
    pyr = {**row(), "+1.1": "m-c8", "+1.3": "m-h8"}
    s = State.position(make(boxes="base"), pyr, [["p-06", "m-v7"], ["m-h4"], ["m-h5"]])
    assert not placeable(s, "p-06", "+1.2")
    # both on the right: right, then right again
    pyr = {**row(), "+1.3": "m-c8", "+1.4": "m-h8"}
    s = State.position(make(boxes="base"), pyr, [["p-06", "m-v7"], ["m-h4"], ["m-h5"]])
    assert placeable(s, "p-06", "+1.2")
    # stepping only corner to corner (path-steps=layers) there is no sideways step at all
    s = State.position(make(boxes="base", path_steps="layers"), pyr, [["p-06", "m-v7"], ["m-h4"], ["m-h5"]])
    assert not placeable(s, "p-06", "+1.2")


@pytest.mark.parametrize("backward,legal", [("axis", False), ("vertical", True)])
def test_a_corner_step_after_a_sideways_one_is_backward_per_axis_only(make, backward, legal):
    """"never travels backward. (You can't go up and then down again; or left and then right.)"  Panting Pug
    (cardio + herbal) at +1.2: right to the cardio at +1.3, then corner to corner down-left to the herbal at row 3.
    Read per axis (the default) the corner step goes left after the path went right; with backward=vertical a
    step to another layer counts only as down, so the path is legal.  The herbal first (down-right) and then the
    cardio (up-right) goes down then up: illegal either way."""
    pyr = {**row(), "+1.3": "m-c8", "row 3": "m-h1"}
    s = State.position(make(boxes="base", backward=backward), pyr, [["p-06", "m-v7"], ["m-h4"], ["m-h5"]])
    assert placeable(s, "p-06", "+1.2") is legal
    assert not placeable(s, "p-06", "+1.1")  # nothing it needs touches +1.1


def test_a_patient_placed_asks_one_show_per_need(make):
    pyr = {**row(), "row 2": "m-c6", "row 3": "m-h1"}
    s = State.position(make(boxes="base"), pyr, [["p-06", "m-v7"], ["m-h8", "m-h4"], ["m-h5"]])
    g = s.game
    s.apply_action(g.codes.place(card(s, "p-06"), pos_of(s, "+1.1")))
    assert s.phase == PICK and s.cur == 0
    assert s.legal_actions() == [g.codes.PICK + 1, g.codes.PICK + 2]
    s.apply_action(g.codes.PICK + 1)
    assert s.phase == SHOW and s.cur == 1
    shown = card(s, "m-h8")
    s.apply_action(g.codes.SHOWC + shown)
    assert s.known[0 * 3 + 1] == 1 << shown and s.known[2 * 3 + 1] == 0  # only the picker saw it
    s.apply_action(g.codes.PICK + 1)  # the same player again: a different card
    assert s.legal_actions() == [g.codes.SHOWC + card(s, "m-h4")]
    s.apply_action(s.legal_actions()[0])
    assert s.phase == MAIN and s.cur == 1 and s.counts["shown"] == 2
    s.check_invariants()


# ------------------------------------------------------------------ swaps
def swap_pairs(s, design):
    """The swaps (position names) revealing ``design`` allows."""
    g = s.game
    c = card(s, design, s.hands[s.cur])
    out = set()
    for a in range(g.geo.P):
        for b in range(g.geo.P):
            if s._pair(a, b, c):
                out.add(frozenset((g.geo.name(a), g.geo.name(b))))
    return out


def test_swap_with_a_patient_only_among_types_it_wants(make):
    pyr = {"row 1": "m-c3", "row 2": "m-h1", "row 3": "m-v7", "row 4": "m-c6", "row 5": "p-01", "row 6": "m-a2"}
    s = State.position(make(boxes="base"), pyr, [["p-06", "m-a7"], ["m-h8"], ["m-h4"]])
    assert swap_pairs(s, "p-06") == {frozenset(x) for x in (("row 1", "row 2"), ("row 1", "row 4"),
                                                            ("row 2", "row 4"))}


def test_swap_with_a_medicine_needs_one_card_of_its_type(make):
    pyr = {"row 1": "m-c3", "row 2": "m-h1", "row 3": "m-v7", "row 4": "p-02", "row 5": "p-01", "row 6": "m-a2"}
    s = State.position(make(boxes="base"), pyr, [["m-a7", "m-c8"], ["m-h8"], ["m-h4"]])
    pairs = swap_pairs(s, "m-a7")  # antibiotic: the only antibiotic is at row 6
    assert pairs == {frozenset(("row 6", f"row {i}")) for i in range(1, 6)}
    assert frozenset(("row 1", "row 2")) not in pairs


def test_reveal_and_swap_then_the_card_is_known_to_all(make):
    pyr = {"row 1": "m-c3", "row 2": "m-h1", "row 3": "m-v7", "row 4": "p-02", "row 5": "p-01", "row 6": "m-a2"}
    s = State.position(make(boxes="base"), pyr, [["m-a7", "m-c8"], ["m-h8"], ["m-h4"]])
    g = s.game
    c = card(s, "m-a7")
    s.apply_action(g.codes.REVEAL + c)
    assert s.phase == SWAP_A
    with pytest.raises(IllegalAction):
        s.apply_action(g.codes.POS + 99)
    s.apply_action(g.codes.POS + pos_of(s, "row 1"))
    assert s.phase == SWAP_B
    assert s.legal_actions() == [g.codes.POS + pos_of(s, "row 6")]
    s.apply_action(g.codes.POS + pos_of(s, "row 6"))
    assert g.designs[g.DESIGN[s.board[pos_of(s, "row 1")]]].id == "m-a2"
    assert s.known[1 * 3 + 0] == 1 << c and s.known[2 * 3 + 0] == 1 << c and c in s.hands[0]
    assert s.phase == MAIN and s.cur == 1
    s.check_invariants()


def test_an_operation_shown_allows_any_swap_unless_forbidden(make):
    pyr = {"row 1": "m-c3", "row 2": "m-h1", "row 3": "m-v7", "row 4": "p-02", "row 5": "p-01", "row 6": "m-a2"}
    s = State.position(make(boxes="base+operations"), pyr, [["op-second", "m-c8"], ["m-h8"], ["m-h4"]])
    assert len(swap_pairs(s, "op-second")) == 15
    s = State.position(make(boxes="base+operations", reveal_operation="forbidden"), pyr,
                       [["op-second", "m-c8"], ["m-h8"], ["m-h4"]])
    assert not s.reveal_ok(card(s, "op-second"))  # an operation cannot be shown at all
    assert s.game.codes.REVEAL + card(s, "op-second") not in s.legal_actions()


def test_keep_refuses_a_swap_that_breaks_the_number_rule(make):
    pyr = {**ROW6, "+1.1": "m-c8"}  # 8 on cardio 3 and vitamin 7
    hands = [["m-h5", "m-a4"], ["m-h8"], ["m-a5"]]  # a herbal shown: one swapped card must be herbal
    breaking = frozenset(("+1.1", "row 4"))  # herbal 4 would rest on 3 and 7: between them
    fine = frozenset(("+1.1", "row 3"))  # herbal 1 would rest on 3 and 7: lower than all
    free = swap_pairs(State.position(make(boxes="base"), pyr, hands), "m-h5")
    assert breaking in free and fine in free
    kept = swap_pairs(State.position(make(boxes="base", swap_check="keep"), pyr, hands), "m-h5")
    assert breaking not in kept and fine in kept
    assert frozenset(("row 3", "row 4")) in kept  # in the row: the 8 then rests on 3 and 7 still


def test_nobody_can_move_then_pass(make):
    # a full pyramid is impossible with these hands; make every card unplaceable and every swap refused
    pyr = {"row 1": "p-01", "row 2": "p-02", "row 3": "p-03", "row 4": "p-04", "row 5": "p-05", "row 6": "p-06"}
    s = State.position(make(boxes="base"), pyr, [["p-11"], ["p-10"], ["p-09"]])
    assert s.legal_actions() == [s.game.codes.PASS]
    for _ in range(3):
        s.apply_action(s.game.codes.PASS)
    assert s.is_terminal() and s.end == "stalemate-tie" and s.winners == [0, 1, 2]
    s = State.position(make(boxes="base", stalemate="never"), pyr, [["p-11"], ["p-10"], ["p-09"]])
    for _ in range(3):
        s.apply_action(s.game.codes.PASS)
    assert s.is_terminal() and s.end == "stuck" and s.winners == []


def test_a_round_without_a_placement_ends_the_game(make):
    pyr = {"row 1": "m-c3", "row 2": "m-h1", "row 3": "m-v7", "row 4": "p-02", "row 5": "p-01", "row 6": "m-a2"}
    s = State.position(make(boxes="base"), pyr, [["m-a7", "m-c8"], ["m-h8"], ["m-h4", "m-h5"]])
    g = s.game
    for _ in range(3):  # everyone swaps
        c = card(s, g.designs[g.DESIGN[s.hands[s.cur][0]]].id, s.hands[s.cur])
        s.apply_action(g.codes.REVEAL + c)
        s.apply_action(s.legal_actions()[0])
        s.apply_action(s.legal_actions()[0])
    assert s.is_terminal() and s.end == "stalemate" and s.winners == [1]
    s = State.position(make(boxes="base", stalemate="no-move"), pyr, [["m-a7", "m-c8"], ["m-h8"], ["m-h4", "m-h5"]])
    for _ in range(3):
        s.apply_action(g.codes.REVEAL + s.hands[s.cur][0])
        s.apply_action(s.legal_actions()[0])
        s.apply_action(s.legal_actions()[0])
    assert not s.is_terminal()


# ------------------------------------------------------------------ the end
def test_placing_the_last_card_wins_at_once(make):
    s = State.position(make(boxes="base"), ROW6, [["m-c8"], ["m-h8", "m-h5"], ["m-a5", "m-a4"]])
    s.apply_action(s.game.codes.place(card(s, "m-c8"), pos_of(s, "+1.1")))
    assert s.is_terminal() and s.end == "empty-hand" and s.winners == [0] and s.returns() == [1.0, 0.0, 0.0]
    assert s.record().winners == [0] and s.record().per_player["left"] == [0, 2, 2]
    s.check_invariants()


# ------------------------------------------------------------------ operations
def test_operations_effects(make):
    g = make(boxes="base+operations")
    pyr = {**ROW6, "row 2": "m-v6"}  # +1.1 rests on 3 and 6: a 1, 2, 7 or 8 fits
    # Second Opinion (5) fits at +1.5 (cardio 6, antibiotic 7): lower than both
    s = State.position(g, pyr, [["op-second", "m-c8", "m-a4"], ["m-h8"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "op-second"), pos_of(s, "+1.5")))
    assert s.phase == MAIN and s.cur == 0 and s.turns == 2  # again
    # Referral (give 1), number 7 at +1.1 (3 and 6): give a card to a player of my choice
    s = State.position(g, pyr, [["op-referral", "m-c8", "m-a4"], ["m-h8"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "op-referral"), pos_of(s, "+1.1")))
    assert s.phase == GIVE and s.cur == 0
    c = card(s, "m-a4")
    s.apply_action(g.codes.GIVE + c * 3 + 2)
    assert c in s.hands[2] and s.known[0 * 3 + 2] == 1 << c and s.counts["given"] == 1
    assert s.phase == MAIN and s.cur == 1
    # giving away one's last card wins
    s = State.position(g, pyr, [["op-referral", "m-a4"], ["m-h8"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "op-referral"), pos_of(s, "+1.1")))
    s.apply_action(g.codes.GIVE + card(s, "m-a4") * 3 + 1)
    assert s.is_terminal() and s.winners == [0]
    # X-Ray (peek), number 1 at +1.5 (2 and 2)
    s = State.position(g, pyr, [["op-xray", "m-c8"], ["m-h8", "m-a5"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "op-xray"), pos_of(s, "+1.1")))
    s.apply_action(g.codes.PICK + 1)
    assert s.known[0 * 3 + 1] == (1 << card(s, "m-h8")) | (1 << card(s, "m-a5")) and s.counts["peeks"] == 1
    # Transplant (swap, 4): a free swap of any two cards, no card shown
    pyr4 = {**ROW6, "row 1": "m-c1", "row 2": "m-v2"}
    s = State.position(g, pyr4, [["op-transplant", "m-c8"], ["m-h8"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "op-transplant"), pos_of(s, "+1.1")))
    assert s.phase == SWAP_A and len(s.legal_actions()) == 7  # the row and the transplant itself
    s.apply_action(g.codes.POS + pos_of(s, "row 3"))
    assert s.phase == SWAP_B and len(s.legal_actions()) == 6
    s.apply_action(g.codes.POS + pos_of(s, "row 6"))
    assert s.phase == MAIN and s.cur == 1 and s.revealed == [0, 0, 0] and s.counts["free_swaps"] == 1
    s.check_invariants()


def test_new_effect_words_from_the_sheet(tmp_path, project_root):
    """A designer writes new operations in the effect language: show, discard, skip, and sequences."""
    data_dir = copy_game(tmp_path / "data", SLUG, root=project_root)
    cards = data_dir / "cards.csv"
    set_cell(cards, find_row(cards, "id", "op-xray"), "effect", "show 2")
    set_cell(cards, find_row(cards, "id", "op-second"), "effect", "discard 1 + skip")
    data = load_project(data_dir, [SLUG]).games[SLUG]
    g = SPEC.make(data, 3, boxes="base+operations")
    pyr = {**ROW6, "row 2": "m-v6"}
    s = State.position(g, pyr, [["op-xray", "m-c8"], ["m-h8", "m-a5"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "op-xray"), pos_of(s, "+1.1")))
    for _ in range(2):
        assert s.phase == PICK
        s.apply_action(g.codes.PICK + 1)
        s.apply_action(s.legal_actions()[0])
    assert s.counts["shown"] == 2 and bin(s.known[0 * 3 + 1]).count("1") == 2 and s.cur == 1
    s = State.position(g, pyr, [["op-second", "m-c8", "m-a4"], ["m-h8"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "op-second"), pos_of(s, "+1.5")))
    s.apply_action(g.codes.DISC + card(s, "m-a4"))
    assert card(s, "m-a4") in s.discard and s.cur == 2  # player 2 misses the turn
    s.check_invariants()


# ------------------------------------------------------------------ Intensive Care wildcards
def test_an_any_medicine_is_named_a_type_when_placed(make):
    g = make(boxes="base+intensive-care")
    pyr = {**{f"row {i}": d for i, d in enumerate(
        ["m-c3", "m-v7", "m-h1", "m-h4", "m-a2", "m-v2", "m-c6", "m-a7"], start=1)}}
    s = State.position(g, pyr, [["ic-x8", "m-c8"], ["m-h8"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "ic-x8"), pos_of(s, "+1.1")))
    assert s.phase == CHOOSE and s.cur == 0
    names = [s.action_to_string(a) for a in s.legal_actions()]
    assert names == [f"name it {t} 8" for t in ("cardio", "antibiotic", "herbal", "vitamin", "serum")]
    s.apply_action(s.legal_actions()[2])  # herbal
    p = pos_of(s, "+1.1")
    assert g.types[s.btype[p]] == "herbal" and s.bnum[p] == 8
    s.check_invariants()


def test_a_wild_number_is_named_and_follows_the_rule(make):
    g = make(boxes="base+intensive-care")
    pyr = {f"row {i}": d for i, d in enumerate(["m-c3", "m-v7", "m-h1", "m-h4", "m-a2", "m-v2", "m-c6", "m-a7"],
                                               start=1)}
    s = State.position(g, pyr, [["ic-cq", "m-c8"], ["m-h8"], ["m-h5"]])
    s.apply_action(g.codes.place(card(s, "ic-cq"), pos_of(s, "+1.1")))  # on 3 and 7
    assert [s.action_to_string(a) for a in s.legal_actions()] == [f"name it cardio {n}" for n in (1, 2, 8, 9)]
    s.apply_action(s.legal_actions()[-1])
    assert s.bnum[pos_of(s, "+1.1")] == 9
    # wild-number=blank: no number, fits anywhere, no choice
    gb = make(boxes="base+intensive-care", wild_number="blank")
    s = State.position(gb, pyr, [["ic-cq", "m-c8"], ["m-h8"], ["m-h5"]])
    s.apply_action(gb.codes.place(card(s, "ic-cq"), pos_of(s, "+1.1")))
    assert s.phase == MAIN and s.bnum[pos_of(s, "+1.1")] == -1


def test_a_wild_requirement_takes_any_medicine(make):
    g = make(boxes="base+intensive-care")
    pyr = {f"row {i}": d for i, d in enumerate(["m-v3", "m-a7", "m-h1", "m-h4", "m-a2", "m-v2", "m-c6", "m-a4"],
                                               start=1)}
    # Mystery Mouse needs any + antibiotic: from +1.1, vitamin 3 (row 1) is the ? ... but then left: nothing.
    # from -1.2 up-right to antibiotic 7 (row 2)? then right to herbal 1 (the ?): any + antibiotic met
    s = State.position(g, pyr, [["ic-p5", "m-c8"], ["m-h8"], ["m-h5"]])
    assert placeable(s, "ic-p5", "-1.1")  # row 2 antibiotic, row 3 herbal as the ?
    # Puzzled Panda needs 2 any: any two touching medicine in a monotone line
    s = State.position(g, pyr, [["ic-p6", "m-c8"], ["m-h8"], ["m-h5"]])
    assert len(spots(s, "ic-p6")) == 14  # every open position
    # Glowing Goldfish needs serum: none in the pyramid
    s = State.position(g, pyr, [["ic-p1", "m-c8"], ["m-h8"], ["m-h5"]])
    assert spots(s, "ic-p1") == []


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("boxes", ["base", "base+operations", "base+intensive-care", "all"])
@pytest.mark.parametrize("players", [3, 5])
def test_random_playouts_keep_every_invariant(make, boxes, players):
    g = make(players, boxes=boxes)
    for seed in range(6):
        s = play(g, seed, ("random",), strict=True)
        assert s.is_terminal() and s.end in SPEC.end_reasons and s.end not in SPEC.stalls
        assert abs(sum(s.returns()) - 1) < 1e-9


OPTION_SETS = [dict(under_check=True, swap_check="keep"), dict(wild_type="flexible", wild_number="blank"),
               dict(path_extra="non-medicine", path_steps="layers"),
               dict(stalemate="no-move", reveal_operation="forbidden", shown_card="random"), dict(stalemate="never"),
               dict(backward="vertical", fewer_cards="2+4")]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o))
def test_rules_options_keep_every_invariant(make, options):
    g = make(4, **options)
    for seed in range(4):
        s = play(g, 100 + seed, ("random", "greedy", "forgetful", "random"), strict=True)
        assert s.is_terminal() and s.end in SPEC.end_reasons


def test_the_house_rule_fewer_cards_deals_the_seats_named_one_card_fewer(make):
    """All boxes, 4 players: 48 cards, 2 + 2 dealt to each, a row of 8, 24 dealt evenly (6 each): hands of 10.
    fewer-cards=3+4 deals seats 3 and 4 one card fewer of those 24; the 2 left over are shown and discarded."""
    even = State.new(make(4), Chance(5))
    assert [len(h) for h in even.hands] == [10, 10, 10, 10] and even.discard == []
    s = State.new(make(4, fewer_cards="3+4"), Chance(5))
    assert [len(h) for h in s.hands] == [10, 10, 9, 9] and len(s.discard) == 2
    s.check_invariants()
    with pytest.raises(Exception, match="fewer-cards: '5' is not none or seats 1-4"):
        make(4, fewer_cards="5")


def test_same_seed_same_game(make):
    g = make(4, boxes="all")
    a, b = play(g, 7, ("greedy",), log=True), play(g, 7, ("greedy",), log=True)
    assert a.log == b.log and a.record() == b.record()
    assert play(g, 8, ("greedy",), log=True).log != a.log


def test_clone_is_independent(make):
    g = make(4, boxes="all")
    s = g.new_initial_state(Chance(3))
    key = s.position_key()
    c = s.clone()
    rng = Chance(1)
    while not c.is_terminal():
        c.apply_action(rng.pick(c.legal_actions()))
    assert s.position_key() == key and not s.is_terminal()


def test_observation_and_determinize_hide_other_hands(make):
    g = make(4, boxes="base")
    s = play(g, 5, ("greedy",))  # a finished game, then a fresh one mid-way
    s = g.new_initial_state(Chance(11))
    rng = Chance(2)
    for _ in range(25):
        s.apply_action(rng.pick(s.legal_actions()))
    me = s.cur
    o = s.observe(me)
    assert o.hand == tuple(s.hands[me]) and o.sizes == tuple(len(h) for h in s.hands)
    assert not hasattr(o, "hands")
    d = s.determinize(me, Chance(5))
    assert d.hands[me] == s.hands[me] and d.board == s.board
    for q in range(4):
        assert len(d.hands[q]) == len(s.hands[q])
        known = s.known[me * 4 + q]
        assert all(c in d.hands[q] for c in range(g.NC) if known >> c & 1)
    d.check_invariants()
    o.forget()
    assert o.known == (0,) * 4


# ------------------------------------------------------------------ golden legal-action counts (perft)
GOLDEN = {  # sum of len(legal_actions()) over the first 60 steps of seeded random playouts, 4 players
    "base": [525, 543, 468],
    "base+operations": [562, 560, 595],
    "base+intensive-care": [1689, 1888, 1966],
    "all": [2149, 2154, 2379],
}


def perft(g, seed: int, steps: int = 60) -> int:
    s = g.new_initial_state(Chance(seed))
    rng = Chance(seed + 1)
    total = 0
    for _ in range(steps):
        if s.is_terminal():
            break
        acts = s.legal_actions()
        assert acts == sorted(set(acts))
        total += len(acts)
        s.apply_action(rng.pick(acts))
    return total


@pytest.mark.parametrize("boxes", list(GOLDEN))
def test_golden_legal_action_counts(make, boxes):
    got = [perft(make(4, boxes=boxes), seed) for seed in (1, 2, 3)]
    assert got == GOLDEN[boxes]


# ------------------------------------------------------------------ bad rows, before any game
def broken(tmp_path, project_root, edit, **options):
    """(static check errors, the errors make raises) for the rows after ``edit``."""
    data_dir = copy_game(tmp_path / "data", SLUG, root=project_root)
    edit(data_dir)
    data = load_project(data_dir, [SLUG]).games[SLUG]
    problems = [p for p in SPEC.static_checks(data, 4) if p.is_error]
    with pytest.raises(InputErrors) as exc:
        SPEC.make(data, 4, **options)
    return problems, [str(p) for p in exc.value.problems]


def test_a_patient_needing_a_type_no_medicine_has(tmp_path, project_root):
    def edit(d):
        set_cell(d / "cards.csv", find_row(d / "cards.csv", "id", "p-02"), "requires", "serum")
    problems, errors = broken(tmp_path, project_root, edit)
    row = find_row(tmp_path / "data" / "cards.csv", "id", "p-02")
    assert errors == [f"cards.csv:{row}:requires: needs serum medicine, but no medicine of the base game is of "
                      "that type (types there: antibiotic, cardio, herbal, vitamin); this patient could never be "
                      "placed"]
    assert [(p.file, p.row, p.column) for p in problems] == [("cards.csv", row, "requires")]


def test_an_effect_word_the_engine_does_not_know(tmp_path, project_root):
    def edit(d):
        toml = d / "templates" / SLUG / "game.toml"
        toml.write_text(toml.read_text().replace("[reference]", '[languages.operation.words.heal]\nhelp = "heal"\n\n'
                                                 "[reference]"))
        set_cell(d / "cards.csv", find_row(d / "cards.csv", "id", "op-second"), "effect", "heal")
    problems, errors = broken(tmp_path, project_root, edit)
    row = find_row(tmp_path / "data" / "cards.csv", "id", "op-second")
    assert errors == [f"cards.csv:{row}:effect: the rules engine has no meaning for 'heal'; it knows: again, swap, "
                      "give, peek, show, discard, skip"]


def test_an_undeclared_effect_word_is_a_sheet_error(tmp_path, project_root):
    data_dir = copy_game(tmp_path / "data", SLUG, root=project_root)
    row = find_row(data_dir / "cards.csv", "id", "op-second")
    set_cell(data_dir / "cards.csv", row, "effect", "heal")
    with pytest.raises(InputErrors) as exc:
        load_project(data_dir, [SLUG])
    assert str(exc.value.problems[0]).startswith(f"cards.csv:{row}:effect: unknown word 'heal'")


def test_a_box_that_cannot_deal_a_starting_row(tmp_path, project_root):
    drop = {"m-c1", "m-c3", "m-a2", "m-a4", "m-h1", "m-h4"}

    def edit(d):
        rows = read_rows(d / "cards.csv")
        write_rows(d / "cards.csv", [r for r in rows if r[rows[0].index("id")] not in drop])
    problems, errors = broken(tmp_path, project_root, edit, boxes="base")
    rows = read_rows(tmp_path / "data" / "cards.csv")
    first = next(n for n, r in enumerate(rows, start=1) if n > 1 and r[rows[0].index("expansion")] == "base")
    message = (f"cards.csv:{first}:count: boxes base cannot deal a starting row: 21 cards, 4 dealt to each of 4 "
               "players, leave 5 for a row of 6")
    assert errors == [message]
    assert message in [str(p) for p in problems]  # the static checks say it too, naming the box
    # with Intensive Care the row is 8 and the deck big enough: no error for that selection
    assert not any("base+intensive-care cannot" in str(p) for p in problems)


def test_unknown_box_is_named(make, pdata):
    with pytest.raises(Exception, match="unknown expansion 'surgery' for pyrrameds; known: base, operations, "
                                        "intensive-care"):
        SPEC.make(pdata, 4, boxes="surgery")
