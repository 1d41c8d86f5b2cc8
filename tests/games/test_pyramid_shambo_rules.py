"""Pyramid Shambo rules engine: the rulebook's numbers, hand-built positions for
every rule (payment with change, cascades, self-elimination, the showdown,
the bonus), closed-form figures against simulation, determinism, the fast loop
against the protocol loop, random playouts under every invariant, perft counts,
and bad input named before any game is played."""

from __future__ import annotations

import math
import random

import pytest

from helpers import find_row, set_cell
from model.errors import IllegalAction, InputErrors
from model.sheets import load_project
from validator.kit import SIMULTANEOUS, Chance, View, get_spec
from validator.games.pyramid_shambo import fast
from validator.games.pyramid_shambo.constants import (CHALLENGE, CHANGE_OTHER, CHANGE_PAYEE, OVERPAY,
                                                      PAPER, PAY, PLAN, ROCK, SCISSORS, TARGET, THROW, UNDERPAY)
from validator.games.pyramid_shambo.state import ShamboState

SLUG = "pyramid-shambo"
SPEC = get_spec(SLUG)


@pytest.fixture(scope="module")
def sheet(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


@pytest.fixture(scope="module")
def make(sheet):
    cache = {}

    def f(players=3, **options):
        key = (players, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = SPEC.make(sheet, players, **options)
        return cache[key]

    return f


def duel(s, rival, *throws):
    """Challenge ``rival`` (unless forced) and throw: pairs (challenger, rival)."""
    if s.phase == CHALLENGE:
        s.apply_action(TARGET + rival)
    assert s.phase == THROW and s.rival == rival
    for ta, tb in throws:
        s.apply_actions({s.turn_player: ta, s.rival: tb})


def play(game, seed, names, strict=False):
    """The protocol loop, as the runner plays it."""
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


# ------------------------------------------------------------------ the rulebook's numbers
def test_setup_three_pieces_of_ones_colour(make):
    g = make(5)
    s = g.new_initial_state(Chance(1))
    assert g.colors == ["red", "yellow", "green", "blue", "black"]
    for p in range(5):
        pieces = [g.pieces[i] for i in g.bits(s.hold[p])]
        assert sorted(x.pips for x in pieces) == [1, 2, 3]
        assert {g.colors[x.color] for x in pieces} == {g.colors[p]}
    assert s.pips == [6] * 5 and g.unit == 1
    assert s.current_player() == 0 and s.legal_actions() == [TARGET + q for q in (1, 2, 3, 4)]
    # unused colours are set aside
    g3 = make(3)
    s3 = g3.new_initial_state(Chance(1))
    assert g3.describe_mask(s3.out) == "blue-s+blue-m+blue-l+black-s+black-m+black-l"


def test_second_stash_seats_six_to_ten(make):
    g = make(8)
    assert g.stashes == 2 and len(g.colors) == 10 and g.colors[5] == "red#2"
    s = g.new_initial_state(Chance(1))
    assert s.pips == [6] * 8
    with pytest.raises(Exception, match="second stash"):
        make(7, stashes="1")


def test_tie_escalation_and_the_fee(make):
    g = make(3)
    s = g.new_initial_state(Chance(1))
    duel(s, 1, (ROCK, ROCK), (PAPER, PAPER), (ROCK, SCISSORS))  # two ties, then P1 wins: 3 pips
    assert s.phase == PAY and s.acting == 0 and len(s.plans) == 2  # the large, or the small and the medium
    texts = [s.action_to_string(PLAN + i) for i in range(2)]
    s.apply_action(PLAN + texts.index("fee of 3: P2 pays yellow-s+yellow-m to P1"))
    assert s.fees[-1][:3] == (2, 3, 3)
    assert s.pips == [9, 3, 6]
    assert s.hold[1] & g.colmask[1] and g.describe_mask(s.hold[1]) == "yellow-l"


# ------------------------------------------------------------------ payment and change
def test_exact_payment_offers_every_colour_choice(make):
    g = make(3)
    s = ShamboState.position(g, [["red-s", "red-m"], ["yellow-l", "red-l", "green-s"], ["green-m", "green-l"]])
    duel(s, 1, (PAPER, ROCK))  # P1 wins 1 pip: P2 pays a small
    # one way to pay (green-s), paid at once: P2's turn to challenge; red 3 + 1, 3 + 3 + 1 - 1, green 2 + 3
    assert s.phase == CHALLENGE and s.turn_player == 1 and s.pips == [4, 6, 5]
    assert g.describe_mask(s.hold[0]) == "red-s+red-m+green-s"
    s = ShamboState.position(g, [["red-s", "red-m"], ["yellow-m", "red-l", "green-m"], ["green-l", "green-s"]],
                             turn_player=0)
    duel(s, 1, (PAPER, ROCK))  # 1 pip from 2+3+2 pips: change needed, the payee holds red-s
    assert s.phase == PAY and s.acting == 0  # the active player decides
    plans = s.plans
    assert {p[0] for p in plans} == {CHANGE_PAYEE}
    texts = [s.action_to_string(PLAN + i) for i in range(len(plans))]
    assert any("pays yellow-m to P1, gets red-s back" in t for t in texts)
    i = next(i for i, t in enumerate(texts) if "pays green-m" in t)
    s.apply_action(PLAN + i)
    assert g.describe_mask(s.hold[1]) == "red-s+red-l+yellow-m"
    assert s.pips == [4, 6, 4]
    s.check_invariants()


def test_change_from_an_uninvolved_player(make):
    g = make(3)
    # P2 owes 1 and holds only a 3; P1 (paid) holds only a 3; P3 holds 1 + 2 to break it
    s = ShamboState.position(g, [["red-l"], ["yellow-l"], ["green-s", "green-m", "red-s"]])
    duel(s, 1, (PAPER, ROCK))
    assert s.phase == PAY
    assert {p[0] for p in s.plans} == {CHANGE_OTHER}
    texts = [s.action_to_string(PLAN + i) for i in range(len(s.plans))]
    i = texts.index("P3 changes yellow-l for green-s+green-m; fee of 1: P2 pays green-s to P1")
    s.apply_action(PLAN + i)
    assert g.describe_mask(s.hold[0]) == "red-l+green-s"
    assert g.describe_mask(s.hold[1]) == "green-m"
    assert g.describe_mask(s.hold[2]) == "red-s+yellow-l"
    assert s.c["change_other"] == 1
    s.check_invariants()


def test_the_payee_makes_change_beyond_a_minimal_overpayment(make):
    """"The player being paid must make change if possible": P2 owes 2 and holds two 3s; one 3 would need a 1-pip
    change P1 does not hold, but both 3s take the change P1 can give (its two 2s), so no uninvolved player is
    asked although P3 could break a 3."""
    g = make(3)
    s = ShamboState.position(g, [["red-m", "green-m"], ["yellow-l", "red-l"],
                                 ["green-s", "green-l", "yellow-s", "yellow-m", "red-s"]])
    duel(s, 1, (ROCK, ROCK), (PAPER, ROCK))  # one tie: a 2-pip fee to P1
    assert s.fees[-1][:3] == (1, 2, 2)
    assert g.describe_mask(s.hold[0]) == "red-l+yellow-l" and s.pips[0] == 6
    assert g.describe_mask(s.hold[1]) == "red-m+green-m" and s.pips[1] == 4
    assert s.c["change_payee"] == 1 and s.c["change_other"] == 0
    s.check_invariants()


def test_nobody_can_make_change_overpay_or_underpay(make):
    for rule, kind, left in (("overpay", OVERPAY, ""), ("underpay", UNDERPAY, "yellow-l")):
        g = make(3, no_change=rule)
        s = ShamboState.position(g, [["red-l"], ["yellow-l"], ["green-l"]])
        duel(s, 1, (PAPER, ROCK))  # 1 pip owed, only 3s anywhere
        if rule == "overpay":
            assert s.fees[-1][2] == 3 and not s.alive[1]  # paid the 3: out
        else:
            assert s.fees[-1][2] == 0 and g.describe_mask(s.hold[1]) == left
        assert s.c["no_change"] >= 1


def test_a_fee_larger_than_the_holding_takes_everything(make):
    g = make(3)
    s = ShamboState.position(g, [["red-s", "red-m", "red-l"], ["yellow-s", "yellow-m"], ["green-l", "green-s"]])
    duel(s, 1, (ROCK, ROCK), (ROCK, ROCK), (ROCK, ROCK), (PAPER, ROCK))  # fee 4 > 3 pips held
    assert not s.alive[1] and s.eliminated[0] == (1, "challenge", 1)
    assert s.c["short_payments"] == 1


# ------------------------------------------------------------------ elimination, bonus, cascades
def test_knock_out_removes_the_colour_and_pays_the_bonus(make):
    g = make(4)
    s = ShamboState.position(g, [["red-s", "red-m"], ["yellow-s"], ["green-s", "yellow-m", "green-m"],
                                 ["blue-s", "blue-m", "blue-l", "yellow-l"]])
    duel(s, 1, (PAPER, ROCK))  # P2 pays their last piece: out; yellow leaves; P3 and P4 owe a small each
    assert not s.alive[1]
    assert g.describe_mask(s.out) == "red-l+yellow-s+yellow-m+yellow-l+green-l+black-s+black-m+black-l"
    assert g.describe_mask(s.hold[0]) == "red-s+red-m+green-s+blue-s"
    assert s.pips == [5, 0, 2, 5]
    assert s.c["bonus_paid"] == 2 and s.knockouts[0] == 1
    s.check_invariants()


def test_cascade_no_further_bonus(make):
    g = make(4)
    # P3 holds only yellow pieces: P2's knock-out takes them away: out without a bonus
    s = ShamboState.position(g, [["red-s", "red-m"], ["yellow-s"], ["yellow-m", "yellow-l"],
                                 ["blue-s", "blue-m", "blue-l", "green-s"]])
    duel(s, 1, (PAPER, ROCK))
    assert s.eliminated == [(1, "challenge", 1), (2, "colour", 1)]
    assert s.c["cascades"] == 1 and s.c["bonus_paid"] == 1  # only P4 paid, P3 was gone
    assert s.in_showdown() and s.c["showdown"] == 1
    s.check_invariants()


def test_a_bonus_paid_with_the_last_piece_is_a_cascade(make):
    g = make(4)
    s = ShamboState.position(g, [["red-s", "red-m"], ["yellow-s"], ["green-s"], ["blue-s", "blue-m", "blue-l"]])
    duel(s, 1, (PAPER, ROCK))
    assert (2, "bonus", 1) in s.eliminated
    assert s.c["cascades"] == 1 and s.knockouts[0] == 1


@pytest.mark.parametrize("showdown_bonus", ["doubled", "single"])
def test_every_remaining_player_owes_the_bonus_the_knock_out_set(make, showdown_bonus):
    """"all remaining players must immediately give a small pyramid to the winner": P1 knocks P2 out with three
    still in, so P3 and P4 owe one small each.  P3's small is its last piece (out: a cascade, and the green
    small P1 got leaves with it), which leaves two players; P4 still gives one small, not the showdown's two -
    the order in which the bystanders pay changes nothing."""
    g = make(4, showdown_bonus=showdown_bonus)
    s = ShamboState.position(g, [["red-s", "red-m"], ["yellow-s"], ["green-s"], ["blue-s", "blue-m", "blue-l"]])
    duel(s, 1, (PAPER, ROCK))
    assert s.eliminated == [(1, "challenge", 1), (2, "bonus", 1)] and s.in_showdown()
    assert s.c["bonus_paid"] == 2
    assert g.describe_mask(s.hold[0]) == "red-s+red-m+blue-s" and g.describe_mask(s.hold[3]) == "blue-m+blue-l"
    assert s.pips == [4, 0, 0, 5]
    s.check_invariants()


def test_self_elimination_winner_acts_and_play_goes_on(make):
    g = make(4)
    s = ShamboState.position(g, [["red-s"], ["yellow-s", "yellow-m", "yellow-l"], ["green-m", "green-s"],
                                 ["blue-s", "blue-l", "blue-m", "green-l"]], turn_player=0)
    duel(s, 1, (ROCK, PAPER))  # the active player loses their last piece
    assert s.eliminated[0] == (0, "own-challenge", 1)
    assert s.c["self_eliminations"] == 1
    assert s.turn_player == 1 and s.turns == 2  # whoever would have gone next: P2
    g2 = make(4)
    s = ShamboState.position(g2, [["red-s"], ["yellow-m", "yellow-l"], ["green-m", "green-s", "blue-s"],
                                  ["blue-l", "blue-m", "green-l"]], turn_player=0)
    duel(s, 2, (ROCK, PAPER))  # P3 wins: the bonuses (P4 and P2 hold no small: change) are decided by P3
    assert s.phase == PAY and s.acting == 2 and s.debt[1] == 3
    while s.phase == PAY:
        assert s.acting == 2
        s.apply_action(PLAN)
    assert s.turn_player == 1 and s.c["bonus_paid"] == 2


def test_showdown_doubles_fees_and_the_bonus(make):
    g = make(3)
    s = ShamboState.position(g, [["red-s", "red-m", "red-l"], ["yellow-s"], ["green-s", "green-m", "green-l"]])
    duel(s, 1, (PAPER, ROCK))  # P2 out (the small they paid leaves with yellow); P3's bonus is doubled
    assert s.in_showdown()
    assert s.pips == [8, 0, 4]
    duel(s, 0, (PAPER, ROCK))  # P3's turn: the only rival is P1; P3 wins a doubled fee
    assert s.phase == PAY and s.debt == (0, 0, 2, 2)  # P1 chooses: the medium or two smalls
    s.apply_action(PLAN)
    assert s.fees[-1][1] == 2 and s.pips == [6, 0, 6]
    g1 = make(3, showdown_bonus="single")
    s = ShamboState.position(g1, [["red-s", "red-m", "red-l"], ["yellow-s"], ["green-s", "green-m", "green-l"]])
    duel(s, 1, (PAPER, ROCK))
    assert s.pips == [7, 0, 5]
    g2 = make(2)
    s = g2.new_initial_state(Chance(1))
    duel(s, 1, (PAPER, ROCK))
    assert s.fees[-1][1] == 1  # a two-player game never doubles


def test_bonus_without_a_small_can_be_skipped(make):
    g = make(3, bonus_without_small="skip")
    s = ShamboState.position(g, [["red-s", "red-m"], ["yellow-s"], ["green-m", "green-l"]])
    duel(s, 1, (PAPER, ROCK))
    assert s.c["bonus_skipped"] == 1 and s.pips == [3, 0, 5]


def test_illegal_actions_name_the_position(make):
    g = make(3)
    s = g.new_initial_state(Chance(1))
    with pytest.raises(IllegalAction, match="not legal in phase 'choose a rival'"):
        s.apply_action(TARGET + 0)
    s.apply_action(TARGET + 2)
    with pytest.raises(IllegalAction, match="needs P1 and P3"):
        s.apply_actions({0: ROCK, 1: PAPER})


# ------------------------------------------------------------------ closed forms
# The rulebook plays classic rock-paper-scissors ("tournament-style Rock Paper Scissors"): rock breaks
# scissors, scissors cut paper, paper covers rock.  (winner's throw, loser's throw):
RULEBOOK_BEATS = {(ROCK, SCISSORS), (SCISSORS, PAPER), (PAPER, ROCK)}


def throw(s, ta, tb):
    """One throw of the challenger (``ta``) and the rival (``tb``); the player the engine made the
    winner (None on a tie): whoever the fee knocked out names its knocker; else the payee of the
    debt waiting for a decision; else the fee was paid at once, to the one of the two whose pips grew."""
    a, b = s.turn_player, s.rival
    before, kos = list(s.pips), len(s.kos)
    s.apply_actions({a: ta, b: tb})
    if ta == tb:
        assert s.phase == THROW and s.pips == before  # a tie: throw again, nothing paid
        return None
    knocked = [knocker for q, knocker, cause, *_ in s.kos[kos:] if cause in ("challenge", "own-challenge")]
    if knocked:
        return knocked[0]
    if s.phase == PAY:
        return s.debt[2]
    [winner] = [p for p in (a, b) if s.pips[p] > before[p]]
    return winner


def uniform_game(g, seed):
    """A game whose every throw is uniform at random (targets and payments too); yields, per
    deciding throw, (challenger, its throw, rival, its throw, winner as the engine decided)."""
    s = g.new_initial_state(Chance(seed))
    r = random.Random(seed)
    while not s.is_terminal():
        if s.phase == THROW:
            a, b = s.turn_player, s.rival
            ta, tb = r.randrange(3), r.randrange(3)
            winner = throw(s, ta, tb)
            if winner is not None:
                yield a, ta, b, tb, winner
        else:
            s.apply_action(r.choice(s.legal_actions()))
    yield s


def test_first_throw_wins_two_thirds_with_uniform_throwers(make):
    g = make(5)
    n = k = throws = decided = 0
    for seed in range(120):
        *challenges, end = uniform_game(g, seed)
        for a, ta, b, tb, winner in challenges:
            # the engine pays the player whose throw beats the other's in the rulebook
            assert winner in (a, b) and ((ta, tb) if winner == a else (tb, ta)) in RULEBOOK_BEATS, (ta, tb)
            decided += 1
        for ties, due, paid, sd in end.fees:  # the ties the engine counted before each settled challenge
            n += 1
            k += ties == 0
        throws += len(end.throw_log)
    assert decided >= n > 1000
    p = 2 / 3  # two distinct throws of three
    assert abs(k / n - p) < 3 * math.sqrt(p * (1 - p) / n)
    # throws per challenge: geometric with mean 1 / (2/3) = 1.5, variance (1/3) / (2/3)^2 = 0.75
    mean = throws / n
    assert abs(mean - 1.5) < 3 * math.sqrt(0.75 / n) + 0.01


@pytest.mark.parametrize("ta, tb, challenger_wins", [
    (PAPER, ROCK, True), (ROCK, SCISSORS, True), (SCISSORS, PAPER, True),
    (ROCK, PAPER, False), (SCISSORS, ROCK, False), (PAPER, SCISSORS, False)])
def test_each_throw_is_won_as_the_rulebook_says(make, ta, tb, challenger_wins):
    s = make(3).new_initial_state(Chance(1))
    s.apply_action(TARGET + 1)
    assert throw(s, ta, tb) == (0 if challenger_wins else 1)


def test_two_player_first_challenge_win_rate_is_a_half(make):
    g = make(2)
    wins = 0
    n = 2000
    for seed in range(n):
        s = g.new_initial_state(Chance(seed))
        r = Chance(seed)
        winner = None
        while winner is None:
            assert s.phase == THROW and s.turns == 1
            ta, tb = int(r.random() * 3), int(r.random() * 3)
            winner = throw(s, ta, tb)
        assert (ta, tb) in RULEBOOK_BEATS if winner == 0 else (tb, ta) in RULEBOOK_BEATS
        wins += winner == 0  # the engine paid the challenger
    assert abs(wins / n - 0.5) < 3 * math.sqrt(0.25 / n)


# ------------------------------------------------------------------ determinism, loops, invariants
@pytest.mark.parametrize("bot", ["naive", "smart", "naive@biased", "smart@exploit"])
def test_fast_loop_plays_the_same_games(make, bot):
    for players in (2, 3, 5):
        g = make(players)
        for seed in range(40):
            a = play(g, seed, (bot,) * players).record()
            bots = [SPEC.bots[bot](random.Random(seed * 31 + p), g) for p in range(players)]
            b = fast.play(g, Chance(seed), bots).record()
            assert a == b, (players, seed)


@pytest.mark.parametrize("players", range(2, 11))
def test_random_playouts_keep_every_invariant(make, players):
    g = make(players)
    names = ("smart", "naive@biased", "naive", "smart@exploit") * 3
    for seed in range(12 if players < 7 else 4):
        s = play(g, seed, names[:players], strict=True)
        assert s.end in ("last-standing", "wipe-out")
        assert abs(sum(s.returns()) - 1.0) < 1e-9
        out = sorted(p for p, *_ in s.eliminated)
        if s.end == "last-standing":  # everyone else is out
            assert len(s.winners) == 1 and out == sorted(set(range(players)) - set(s.winners))
        else:  # the last players went out together and share the win
            assert out == list(range(players)) and s.winners and set(s.winners) <= set(out)


@pytest.mark.parametrize("options", [{"no_change": "underpay"}, {"bonus_without_small": "skip"},
                                     {"showdown": False}, {"showdown_bonus": "single"}, {"escalation": 2}])
def test_rules_options_keep_every_invariant(make, options):
    g = make(4, **options)
    for seed in range(10):
        play(g, seed, ("naive",) * 4, strict=True)


def test_same_seed_same_record_and_clones_are_independent(make):
    g = make(4)
    assert play(g, 7, ("naive",) * 4).record() == play(g, 7, ("naive",) * 4).record()
    s = g.new_initial_state(Chance(3))
    s.apply_action(TARGET + 1)
    c = s.clone()
    c.apply_actions({0: PAPER, 1: ROCK})
    assert s.phase == THROW and s.pips == [6, 6, 6, 6] and c.pips[0] == 7
    assert s.throw_log == [] and len(c.throw_log) == 1


def test_perft_golden_counts(make):
    """Sum of legal actions along the first 60 steps of seeded random playouts."""
    totals = []
    for players in (2, 3, 5):
        g = make(players)
        total = 0
        for seed in range(5):
            s = g.new_initial_state(Chance(seed))
            r = random.Random(seed)
            for _ in range(60):
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


PERFT = [595, 755, 1350]


# ------------------------------------------------------------------ bad input
def test_zero_pip_piece_is_named_before_any_game(data):
    row = find_row(data / "cards.csv", "id", "red-s")
    set_cell(data / "cards.csv", row, "number", "0")
    with pytest.raises(InputErrors) as exc:
        load_project(data, [SLUG])
    assert f"cards.csv:{row}:number" in str(exc.value)


def test_no_small_pyramid_is_an_error_naming_row_and_column(data):
    from validator.games.pyramid_shambo.checks import static_checks

    for colour in ("red", "yellow", "green", "blue", "black"):
        row = find_row(data / "cards.csv", "id", f"{colour}-s")
        set_cell(data / "cards.csv", row, "deck", "medium")
        set_cell(data / "cards.csv", row, "number", "2")
    sheet = load_project(data, [SLUG]).games[SLUG]
    errors = [p for p in static_checks(sheet) if p.is_error]
    assert errors and errors[0].file == "cards.csv" and errors[0].column == "deck" and errors[0].row
    with pytest.raises(InputErrors, match="no small pyramid"):
        SPEC.make(sheet, 3)


def test_the_simulation_follows_the_sheet(data):
    row = find_row(data / "cards.csv", "id", "red-l")
    set_cell(data / "cards.csv", row, "count", "2")
    sheet = load_project(data, [SLUG]).games[SLUG]
    g = SPEC.make(sheet, 3)
    s = g.new_initial_state(Chance(1))
    assert s.pips == [9, 6, 6]
    assert [p.id for p in g.pieces[:4]] == ["red-s", "red-m", "red-l.1", "red-l.2"]
    warnings = [p for p in SPEC.static_checks(sheet) if not p.is_error]
    assert any("different pieces" in p.message for p in warnings)
