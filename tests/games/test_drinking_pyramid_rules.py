"""The drinking Pyramid rules engine: the rulebook's numbers, hand-built positions
(a wrong card, several players and cards on one pyramid card, giving and the
question rules, an exploration restart), a closed-form figure against
simulation, determinism, the fast loop against the protocol loop, playouts
under every invariant, perft counts, and bad input named before any game."""

from __future__ import annotations

import math
import random

import pytest

from helpers import find_row, set_cell
from model.errors import IllegalAction, InputErrors
from model.sheets import load_project
from validator.kit import SIMULTANEOUS, Chance, View, get_spec
from validator.games.drinking_pyramid import fast
from validator.games.drinking_pyramid.constants import (ANSWER, ANSWERING, ASK, ASKING, GIVE, GIVING, LAY, OVER,
                                                        PYRAMID, REFUSE, ROW_SIZES, ROW_START, ROW_VALUES)
from validator.games.drinking_pyramid.state import PyramidState

SLUG = "drinking-pyramid"
SPEC = get_spec(SLUG)


@pytest.fixture(scope="module")
def sheet(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


@pytest.fixture(scope="module")
def make(sheet):
    cache = {}

    def f(players=4, **options):
        key = (players, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = SPEC.make(sheet, players, **options)
        return cache[key]

    return f


def play(game, seed, names, strict=False):
    state = game.new_initial_state(Chance(seed))
    bots = [SPEC.bots[n](random.Random(seed * 31 + p), game) for p, n in enumerate(names)]
    views = [View(state, p) for p in range(game.players)]
    while not state.is_terminal():
        p = state.current_player()
        if p == SIMULTANEOUS:
            state.apply_actions({q: bots[q].step(views[q], state.legal_actions(q)) for q in state.acting_players()})
        else:
            acts = state.legal_actions()
            a = acts[0] if len(acts) == 1 else bots[p].step(views[p], acts)
            (state.apply_action if strict else state.apply_unchecked)(a)
        if strict:
            state.check_invariants()
    return state


PYR = ["5H", "2C", "3C", "4C", "6C", "7C", "8C", "9C", "10C", "2D", "3D", "4D", "6D", "7D", "8D", "9D", "10D", "2S",
       "3S", "4S", "6S"]


# ------------------------------------------------------------------ the rulebook's numbers
def test_rows_values_and_hands(make):
    assert ROW_SIZES == (6, 5, 4, 3, 2, 1) and PYRAMID == 21
    assert ROW_VALUES == (1, 2, 4, 6, 8, 10)
    for players in range(2, 11):
        g = make(players)
        assert g.hand == (4 if players < 8 else 3)
        s = g.new_initial_state(Chance(players))
        assert all(len(h) == g.hand for h in s.hands) and len(s.pyramid) == 21
        assert len(s.rest) == 52 - 21 - players * g.hand
    g = make(4)
    assert sum(g.royal) == 16 and g.N == 52


# ------------------------------------------------------------------ hand-built positions
def test_wrong_card_back_drink_and_barred(make):
    g = make(3)
    s = PyramidState.position(g, PYR, [["7H", "5D", "5C", "KH"], ["5S", "AH", "AD", "AC"], ["QH", "QD", "QC", "QS"]])
    assert s.current_player() == SIMULTANEOUS and s.acting_players() == [0, 1, 2]
    s.apply_actions({0: 0b0001})  # P1 lays the 7 on the 5: wrong
    assert s.sips == [1, 0, 0] and s.hands[0][0] >= 0  # the row value drunk, the card taken back
    assert s.revealed[0] == {0: 7} and s.wrong_by[0] == 1
    assert s.pos == 1  # nobody else laid: next card
    s = PyramidState.position(g, PYR, [["7H", "5D", "5C", "KH"], ["5S", "AH", "AD", "AC"], ["QH", "QD", "QC", "QS"]])
    s.apply_actions({0: 0b0111, 1: 0b0001})  # the wrong 7 first: the two 5s after it are not laid
    assert [g.ids[c] for c in s.laid[0]] == ["5S"] and s.barred == 1 and s.left == [4, 3, 4]
    # P2 laid a right card: P2 gives its drinks, to P1 or P3
    assert s.phase == GIVING and s.current_player() == 1 and s.legal_actions() == [GIVE + 0, GIVE + 2]


def test_several_players_several_cards_then_drinks_and_questions(make):
    g = make(3)
    s = PyramidState.position(g, PYR, [["7H", "5D", "5C", "KH"], ["5S", "AH", "AD", "AC"], ["QH", "QD", "QC", "QS"]])
    s.apply_actions({0: 0b0110, 1: 0b0001})
    assert [g.ids[c] for c in s.laid[0]] == ["5D", "5C", "5S"] and s.left == [2, 3, 4]
    # question edition: P1 names one player per card, who answers or drinks double
    assert s.phase == GIVING and s.current_player() == 0 and s.legal_actions() == [GIVE + 1, GIVE + 2]
    s.apply_action(GIVE + 2)
    assert s.phase == ANSWERING and s.current_player() == 2
    s.apply_action(ANSWER)
    assert s.sips == [0, 0, 1]
    s.apply_action(GIVE + 1)
    s.apply_action(REFUSE)
    assert s.sips == [0, 2, 1] and s.c["refusals"] == 1
    # P1 laid two cards on one pyramid card: the dealer (P3) may ask a question
    assert s.phase == ASKING and s.current_player() == 2
    assert s.legal_actions() == [ASK - 1, ASK]  # nothing, or the only turned card
    s.apply_action(ASK)
    assert s.phase == ANSWERING and s.current_player() == 0
    s.apply_action(REFUSE)  # refusing costs double that card's row value
    assert s.sips == [2, 2, 1] and s.c["dealer_questions"] == 1
    # P2's card: drinks for P1
    assert s.current_player() == 1
    s.apply_action(GIVE + 0)
    s.apply_action(ANSWER)
    assert s.sips == [3, 2, 1]
    assert s.phase == LAY and s.pos == 1
    s.check_invariants()


def test_classic_game_spreads_drinks_sip_by_sip(make):
    g = make(3, questions=False)
    pyr = PYR[:6] + ["5D"] + PYR[7:]
    s = PyramidState.position(g, pyr, [["5C", "AH", "AD", "AC"], ["9H", "KH", "KD", "KC"], ["QH", "QD", "QC", "QS"]],
                              pos=6)  # the 5-row: 2 drinks
    s.apply_actions({0: 0b0001})
    s.apply_action(GIVE + 1)
    assert s.phase == GIVING
    s.apply_action(GIVE + 2)
    assert s.sips == [0, 1, 1] and s.phase == LAY and s.pos == 7


def test_illegal_actions_name_the_position(make):
    g = make(3)
    s = PyramidState.position(g, PYR, [["7H", "5D", "5C", "KH"], ["5S", "AH", "AD", "AC"], ["QH", "QD", "QC", "QS"]])
    with pytest.raises(IllegalAction, match="everybody lays at once"):
        s.apply_action(0)
    s.apply_actions({1: 0b0001})
    with pytest.raises(IllegalAction, match="nobody lays now"):
        s.apply_actions({0: 0b0010})
    with pytest.raises(IllegalAction, match="not legal"):
        s.apply_action(GIVE + 1)


class Scripted(Chance):
    """A chance that deals a fixed order and always turns the first card of a row."""

    def __init__(self, order):
        super().__init__(0)
        self.order = order

    def shuffled(self, x):
        x[:] = self.order
        return x

    def draw(self, n):
        return 0


def test_exploration_restarts_on_a_royal_card(make):
    g = make(3)
    ids = {cid: i for i, cid in enumerate(g.ids)}
    s = PyramidState.position(g, PYR, [["7H", "KH", "QH", "JH"], ["5S"] + ["AH", "AD", "AC"], ["QD", "QC", "QS", "KC"]],
                              pos=20)
    # the new pyramid: a royal first in the 6-row, plain cards where the explorer turns in the other rows;
    # the stockpile's last card (the one the dealer takes) is a plain 2
    plain = [c for c in g.ids if g.rank[ids[c]] in (2, 3, 4, 5, 6, 7, 8, 9) and c != "2H"]
    order = ["AS"] + plain[:20] + [c for c in g.ids if c not in plain[:20] and c not in ("AS", "2H")] + ["2H"]
    s.chance = Scripted([ids[c] for c in order])
    s.apply_actions({})  # nobody lays on the top card: the pyramid is done
    assert s.phase == OVER and s.end == "explored"
    assert s.explorer in (0, 1, 2)  # all hold 4 cards: each turns one at random, the lowest explores
    assert s.c["explore_restarts"] == 1 and s.c["explore_turns"] == 7
    assert s.c["explore_sips"] == 1 and s.sips[s.explorer] == 1
    assert g.ids[s.explore_pyr[0]] == "2H" and g.ids[s.discard[0]] == "AS"
    s.check_invariants()


def test_stockpile_running_out_ends_the_exploration(make):
    g = make(3, royals=",".join(str(r) for r in range(1, 14)), stockpile_out="end")  # every card royal: every turn
    # starts over, and the exploration stops when the stockpile runs out (stockpile-out=end)
    ids = {cid: i for i, cid in enumerate(g.ids)}
    order = list(g.ids)
    s = PyramidState.position(g, PYR, [["7H", "KH", "QH", "JH"], ["5S", "AH", "AD", "AC"], ["QD", "QC", "QS", "KC"]],
                              pos=20)
    s.chance = Scripted([ids[c] for c in order])
    s.apply_actions({})
    assert s.end == "stockpile" and s.c["stockpile_out"] == 1
    assert s.c["explore_restarts"] == 31 and s.c["explore_sips"] == 32


class Reshuffling(Chance):
    """Deals a fixed order first; every later shuffle (the turned cards' reshuffle) keeps its cards' order; the
    explorer's draws are scripted by call (default 0: the first card of a row)."""

    def __init__(self, order, draws):
        super().__init__(0)
        self.order, self.draws, self.calls, self.shuffles = order, draws, 0, 0

    def shuffled(self, x):
        self.shuffles += 1
        if self.shuffles == 1:
            x[:] = self.order
        return x

    def draw(self, n):
        self.calls += 1
        return self.draws.get(self.calls, 0)


def _exploration_that_outlasts_the_stockpile(g):
    """Ranks 1-11 royal: 44 royals, the 8 queens and kings not.  The 6-row's first card and all 31 cards of the
    stockpile are royals, the first card of every other row is a queen or king, and a king waits second in the
    6-row.  The explorer turns the 6-row's first card 32 times (31 restarts empty the stockpile), then the 33rd
    draw turns the king: the rows above are plain."""
    ids = {cid: i for i, cid in enumerate(g.ids)}
    plain = ["QH", "QD", "QC", "QS", "KH"]  # the first card of the 5-, 4-, 3-, 2- and 1-row
    royal = [c for c in g.ids if g.rank[ids[c]] <= 11]
    pyr = [None] * PYRAMID
    pyr[0], pyr[1] = royal[0], "KD"
    for row, cid in zip(range(1, 6), plain):
        pyr[ROW_START[row]] = cid
    rest = iter(["KC", "KS"] + royal[32:])  # the pyramid's other places
    pyr = [c if c is not None else next(rest) for c in pyr]
    stock = royal[1:32]
    assert len(stock) == 31 and not set(stock) & set(pyr)
    return [ids[c] for c in pyr + stock], 33


@pytest.mark.parametrize("reading", ["reshuffle", "end"])
def test_a_stockpile_that_runs_out_is_reshuffled_and_the_exploration_reaches_the_top(make, reading):
    """The rulebook: "The exploration is completed when the explorer has gotten through all rows of the pyramid."
    By default (stockpile-out=reshuffle) the 31 royals turned before are shuffled into a new stockpile when it
    cannot replace the 32nd royal, and the explorer goes on; with stockpile-out=end the exploration stops there."""
    g = make(3, royals="1,2,3,4,5,6,7,8,9,10,11", stockpile_out=reading)
    order, king = _exploration_that_outlasts_the_stockpile(g)
    s = PyramidState.position(g, PYR, [["7H", "KH", "QH", "JH"], ["5S", "AH", "AD", "AC"], ["QD", "QC", "QS", "KC"]],
                              pos=20)
    s.chance = Reshuffling(order, {king: 1})
    s.apply_actions({})
    explorer = s.explorer
    if reading == "reshuffle":
        assert s.end == "explored" and s.c["stockpile_out"] == 0
        # 32 royals in the 6-row (1 sip each), then the king and the five plain rows
        assert s.c["explore_restarts"] == 32 and s.c["explore_turns"] == 32 + 6
        assert s.c["explore_sips"] == 32 and s.sips[explorer] == 32
        assert s.chance.shuffles == 2  # the deal, and the one reshuffle of the turned cards
    else:
        assert s.end == "stockpile" and s.c["stockpile_out"] == 1
        assert s.c["explore_restarts"] == 31 and s.c["explore_turns"] == 32 and s.c["explore_sips"] == 32
    s.check_invariants()


def test_a_deck_of_royals_only_is_stopped_as_a_loop_when_explorations_go_on(make, sheet):
    g = make(3, royals=",".join(str(r) for r in range(1, 14)))
    s = PyramidState.position(g, PYR, [["7H", "KH", "QH", "JH"], ["5S", "AH", "AD", "AC"], ["QD", "QC", "QS", "KC"]],
                              pos=20)
    s.chance = Chance(3)
    s.apply_actions({})
    assert s.end == "loop" and s.winners == []
    warnings = [p for p in SPEC.static_checks(sheet, 3, {"royals": "1,2,3,4,5,6,7,8,9,10,11,12,13"})
                if p.severity == "warning" and "never reach the top" in p.message]
    assert len(warnings) == 1


@pytest.mark.parametrize("refusal,legal", [("double", [ANSWER, REFUSE]), ("answer", [ANSWER])])
def test_the_dealers_question_may_be_refused_for_twice_its_row_value_or_must_be_answered(make, refusal, legal):
    """"the dealer may request that the player has to answer the question on one of the turned cards": by default
    a refusal costs twice that card's row value (the price of refusing the other question); with
    dealer-refusal=answer the player must answer."""
    g = make(3, dealer_refusal=refusal)
    s = PyramidState.position(g, PYR, [["8H", "8S", "JC", "KH"], ["5S", "AH", "AD", "AC"], ["QD", "QC", "QS", "KC"]],
                              pos=6)  # the 5-row's first card, the 8 of clubs
    s.apply_actions({0: 0b0011})  # P1 lays both eights: two drinks to hand out, then the dealer may ask
    while s.phase in (GIVING, ANSWERING):
        s.apply_action(s.legal_actions()[0])
    assert s.phase == ASKING
    s.apply_action(ASK + 2)  # the question of pyramid card 3 (the 6-row: row value 1)
    assert s.phase == ANSWERING and s.legal_actions() == legal
    before = s.sips[0]
    s.apply_action(legal[-1])
    assert s.sips[0] - before == (2 * ROW_VALUES[0] if refusal == "double" else 0)


# ------------------------------------------------------------------ closed form
def test_first_exploration_pass_without_royal(make):
    """Six distinct cards of a shuffled deck with 16 royals: P(no royal) = C(36,6)/C(52,6)."""
    p = math.comb(36, 6) / math.comb(52, 6)
    g = make(4)
    n = k = 0
    for seed in range(1500):
        s = fast.play(g, Chance(seed), [SPEC.bots["tipsy"](random.Random(seed * 7 + q), g) for q in range(4)])
        if s.c["exploration"]:
            n += 1
            k += s.c["explore_restarts"] == 0
    assert n > 1000
    assert abs(k / n - p) < 3 * math.sqrt(p * (1 - p) / n)


# ------------------------------------------------------------------ determinism, invariants
@pytest.mark.parametrize("bot", ["average", "sharp@leader", "tipsy@revenge"])
def test_fast_loop_plays_the_same_games(make, bot):
    for players in (2, 6, 9):
        g = make(players)
        for seed in range(25):
            a = play(g, seed, (bot,) * players).record()
            bots = [SPEC.bots[bot](random.Random(seed * 31 + p), g) for p in range(players)]
            b = fast.play(g, Chance(seed), bots).record()
            assert a == b, (players, seed)


@pytest.mark.parametrize("players", range(2, 11))
def test_random_playouts_keep_every_invariant(make, players):
    g = make(players)
    names = ("sharp", "tipsy@leader", "average@revenge") * 4
    for seed in range(6):
        s = play(g, seed, names[:players], strict=True)
        assert s.end in ("explored", "stockpile", "no-explorer")
        assert abs(sum(s.returns()) - 1.0) < 1e-9
        assert min(s.sips) == s.sips[s.winners[0]]


@pytest.mark.parametrize("options", [{"questions": False}, {"stockpile_out": "reshuffle"},
                                     {"explorer_tie": "random"}, {"hand_size": 2}, {"royals": "11,12,13"}])
def test_rules_options_keep_every_invariant(make, options):
    g = make(5, **options)
    for seed in range(6):
        play(g, seed, ("average@leader",) * 5, strict=True)


def test_same_seed_same_record_and_clones_are_independent(make):
    g = make(4)
    assert play(g, 5, ("average",) * 4).record() == play(g, 5, ("average",) * 4).record()
    s = g.new_initial_state(Chance(2))
    hands = [list(h) for h in s.hands]
    c = s.clone()
    c.apply_actions({0: 0b1111})
    assert (c.pos, c.sips) != (0, [0, 0, 0, 0])  # the clone moved on
    assert s.pos == 0 and s.sips == [0, 0, 0, 0] and [list(h) for h in s.hands] == hands  # the original did not
    d = s.determinize(0, Chance(9))
    assert d.hands[0] == s.hands[0] and d.pyramid[0] == s.pyramid[0]


def test_perft_golden_counts(make):
    totals = []
    for players in (2, 6, 10):
        g = make(players)
        total = 0
        for seed in range(4):
            s = g.new_initial_state(Chance(seed))
            r = random.Random(seed)
            for _ in range(40):
                if s.is_terminal():
                    break
                if s.current_player() == SIMULTANEOUS:
                    joint = {q: r.choice(s.legal_actions(q)) for q in s.acting_players()}
                    total += sum(len(s.legal_actions(q)) for q in joint)
                    s.apply_actions(joint)
                else:
                    acts = s.legal_actions()
                    total += len(acts)
                    s.apply_action(r.choice(acts))
        totals.append(total)
    assert totals == PERFT


PERFT = [2056, 6076, 5430]


# ------------------------------------------------------------------ bad input
def test_a_deck_without_royal_cards_is_named_before_any_game(data):
    for rank in ("A", "J", "Q", "K"):
        for suit in "HDCS":
            row = find_row(data / "cards.csv", "id", f"{rank}{suit}")
            set_cell(data / "cards.csv", row, "number", "5")
    sheet = load_project(data, [SLUG]).games[SLUG]
    errors = [p for p in SPEC.static_checks(sheet) if p.is_error]
    assert len(errors) == 1 and errors[0].file == "cards.csv" and errors[0].column == "number" and errors[0].row
    assert "no royal card" in errors[0].message
    with pytest.raises(InputErrors, match="no royal card"):
        SPEC.make(sheet, 4)


def test_a_rank_out_of_range_is_named_by_the_loader(data):
    row = find_row(data / "cards.csv", "id", "7H")
    set_cell(data / "cards.csv", row, "number", "0")
    with pytest.raises(InputErrors) as exc:
        load_project(data, [SLUG])
    assert f"cards.csv:{row}:number" in str(exc.value)
