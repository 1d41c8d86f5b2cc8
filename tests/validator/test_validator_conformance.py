"""Pyramid Scheme under strict play: random playouts of many seeds under strict
invariant checks for every player count, its rules options, greedy and search
play, plus golden "perft" counts of legal action sequences that guard the move
generator.  (The harness every engine passes is test_conformance_all.py.)"""

from __future__ import annotations

import random

import pytest

from validator.kit import TERMINAL, get_spec
from validator.runner import PlayOptions, play

MODULES = ["pyramid-scheme"]
CASES = [(slug, players) for slug in MODULES for players in range(get_spec(slug).min_players,
                                                                  get_spec(slug).max_players + 1)]


@pytest.mark.parametrize("slug,players", CASES)
def test_random_playouts_keep_every_invariant(data_for, slug, players):
    game = get_spec(slug).make(data_for(slug), players)
    for seed in range(25):
        state, stats = play(game, 1000 + seed, ("random",) * players, PlayOptions(strict=True))
        assert state.is_terminal()
        assert state.current_player() == TERMINAL
        assert state.end in game.spec.end_reasons
        assert state.end not in ("stuck", "loop", "turn-cap")
        assert stats["decisions"] >= stats["choices"] > 0
        r = state.returns()
        assert len(r) == players and abs(sum(r) - 1.0) < 1e-9


@pytest.mark.parametrize("slug,players", [(s, p) for s, p in CASES if p in (2, 4)])
def test_greedy_and_search_playouts_keep_every_invariant(data_for, slug, players):
    game = get_spec(slug).make(data_for(slug), players)
    bots = ("greedy", "search") * (players // 2)
    for seed in range(3):
        state, _ = play(game, 2000 + seed, bots, PlayOptions(strict=True))
        assert state.is_terminal()


OPTIONS = [
    {"condition_match": "exactly"},
    {"deck_exhaustion": "refill"},
    {"optional_flip": True},
    {"crumbled_cards": "out"},
    {"flip_reward_police": False, "reset_after_actions": False, "hands_hidden": False},
    {"hand_limit": 2, "open_goals": 18, "start_resets": 0},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o))
def test_rules_options_keep_every_invariant(data_for, options):
    game = get_spec("pyramid-scheme").make(data_for("pyramid-scheme"), 3, **options)
    for seed in range(12):
        state, _ = play(game, 3000 + seed, ("random", "greedy", "random"), PlayOptions(strict=True))
        assert state.is_terminal()


def test_refill_games_play_to_the_end(data_for):
    """deck-exhaustion=refill keeps playing on an empty deck; later draws reshuffle the discard pile."""
    game = get_spec("pyramid-scheme").make(data_for("pyramid-scheme"), 4, deck_exhaustion="refill")
    for seed in range(20):
        state, _ = play(game, 4000 + seed, ("random",) * 4, PlayOptions(strict=True))
        assert state.is_terminal() and state.end in game.spec.end_reasons


def test_legal_actions_are_sorted_unique_and_stable(data_for):
    game = get_spec("pyramid-scheme").make(data_for("pyramid-scheme"), 4)
    rng = random.Random(5)
    state = game.new_initial_state(random.Random(5))
    while not state.is_terminal():
        acts = state.legal_actions()
        assert acts == sorted(set(acts))
        assert state.clone().legal_actions() == acts
        state.apply_action(acts[int(rng.random() * len(acts))])


def test_determinize_keeps_what_the_player_sees(data_for):
    game = get_spec("pyramid-scheme").make(data_for("pyramid-scheme"), 3)
    state = game.new_initial_state(random.Random(11))
    rng = random.Random(1)
    me = state.current_player()
    for _ in range(20):
        d = state.determinize(me, rng)
        assert d.hands[me] == state.hands[me]
        assert d.display == state.display and d.pyr[0].card == state.pyr[0].card
        assert d.deck[-1] == state.deck[-1]  # the deck is face up: its top is public
        assert sorted(d.deck + [c for q in range(3) if q != me for c in d.hands[q]]) == \
            sorted(state.deck + [c for q in range(3) if q != me for c in state.hands[q]])
        d.check_invariants()
    changed = any(state.determinize(me, rng).hands[(me + 1) % 3] != state.hands[(me + 1) % 3] for _ in range(10))
    assert changed  # the opponents' face-down cards are drawn again


def perft(state, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.rng = random.Random(0)
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


# (seed, players) -> legal action sequences of length 1, 2, 3 and 4 from the initial position.
# Seed 1, 2 players, by hand: 3 takes + a reset + 2 hand cards below the founder = 6.  Depth 2: after a
# take the hand is full (3): reset or place one of 3 cards below the founder = 4, x3 takes = 12; after the
# reset: 3 takes + 2 placements = 5; after a placement (a 1): 3 takes + reset + the other card below the
# founder or below the new 1 (another colour) = 6, x2 = 12; 12 + 5 + 12 = 29.  Deeper counts are golden
# values that guard the move generator against unintended changes.
PERFT = {
    (1, 2): (6, 29, 76, 456),
    (7, 4): (6, 28, 72, 432),
}


@pytest.mark.parametrize("seed,players", sorted(PERFT))
def test_perft(data_for, seed, players):
    game = get_spec("pyramid-scheme").make(data_for("pyramid-scheme"), players)
    state = game.new_initial_state(random.Random(seed))
    counts = tuple(perft(state, d) for d in (1, 2, 3, 4))
    assert counts == PERFT[(seed, players)]
