"""The Golden Pyramid played through: the kit's conformance checks, golden legal-action counts,
every rules option under strict checks, a closed-form probability against simulation, the
bots, and the stats extension, report sections and verdicts on a small run."""

from __future__ import annotations

import math
from math import comb

import pytest

from validator.games.golden_pyramid import SPEC
from validator.games.golden_pyramid.stats import Stats
from validator.kit import Chance, conformance
from validator.runner import PlayOptions, play

from golden_positions import data, make  # noqa: F401 - the fixtures the tests name

# sum of legal actions along the first 300 decisions of the kit's seeded random playouts
PERFT = {(2, 1): 3595, (2, 2): 3614, (3, 1): 3719, (3, 2): 3702, (4, 1): 3060, (4, 2): 3312, (5, 1): 3347,
         (5, 2): 3633, (6, 1): 3068, (6, 2): 2928}


@pytest.mark.parametrize("players", [2, 6])
def test_random_playouts_keep_every_invariant(make, players):
    records = conformance.check_playouts(make(players), [100], strict=True)
    rec = records[0]
    assert rec.end.startswith("pyramid") and rec.details["tiles_built"] == 30
    assert all(rec.details["level_turns"])


@pytest.mark.parametrize("players", [3, 5])
def test_determinism_clones_and_observations(make, players):
    game = make(players)
    conformance.check_determinism(game, 7)
    conformance.check_clones(game, 11, every=25)
    conformance.check_observations(game, 13, every=40, samples=1)


@pytest.mark.parametrize("players,seed", sorted(PERFT))
def test_golden_legal_action_counts(make, players, seed):
    assert conformance.perft(make(players), seed, 300)["legal"] == PERFT[players, seed]


OPTIONS = [
    {"market_refresh": True},
    {"builder_near": "below"},
    {"own_forced_move": "free"},
    {"negative_vp": False},
    {"keep_fewer": True, "hand_limit": 5},
    {"bag_cubes": 12},
    {"stall_rounds": 2},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_rules_options_keep_every_invariant(make, options):
    game = make(4, **options)
    # random players who cannot pay for the empty-hand draw can end up passing for ever: greedy ones only then
    bots = ("greedy",) * 4 if options.get("negative_vp") is False else ("greedy", "random", "greedy", "random")
    for seed in range(2):
        state, _ = play(game, 3000 + seed, bots, PlayOptions(strict=True, turn_cap=3000))
        assert state.is_terminal() and state.end in SPEC.end_reasons
        assert state.end not in SPEC.stalls


def test_the_stall_rule_ends_a_game_without_building(make):
    game = make(2, stall_rounds=3)
    ends = set()
    for seed in range(6):
        state, _ = play(game, 50 + seed, ("random", "random"), PlayOptions(turn_cap=3000))
        ends.add(state.end)
        if state.end == "no-building":
            rec = state.record()
            assert rec.winners and state.cnt["longest_idle"] >= 3 and state.built < 30
    assert "no-building" in ends


@pytest.mark.parametrize("players,cubes,size", [(4, 15, 3), (6, 18, 4)])
def test_setup_market_replacement_matches_the_hypergeometric_chance(make, players, cubes, size):
    """The first market of 3 (or 4) cubes drawn from 6 colours of 15 (18) shows three or more of one colour
    with probability 6 C(n,3) / C(6n,3) (with 4 cubes: 6 [C(n,3) C(5n,1) + C(n,4)] / C(6n,4))."""
    n = cubes
    if size == 3:
        p = 6 * comb(n, 3) / comb(6 * n, 3)
    else:
        p = 6 * (comb(n, 3) * comb(5 * n, 1) + comb(n, 4)) / comb(6 * n, 4)
    game = make(players)
    trials = 3000
    hits = sum(1 for seed in range(trials) if game.new_initial_state(Chance(seed)).cnt["market_replaced"])
    se = math.sqrt(p * (1 - p) / trials)
    assert abs(hits / trials - p) < 3 * se


def test_greedy_beats_random(make):
    game = make(2)
    wins = 0
    for seed in range(12):
        bots = ("greedy", "random") if seed % 2 == 0 else ("random", "greedy")
        state, _ = play(game, 400 + seed, bots, PlayOptions(turn_cap=3000))
        greedy = 0 if seed % 2 == 0 else 1
        wins += greedy in state.winners
    assert wins >= 11


def test_greedy_and_search_games_end_under_strict_checks(make):
    game = make(4)
    state, stats = play(game, 77, ("greedy", "search", "greedy", "search"), PlayOptions(strict=True))
    assert state.end.startswith("pyramid") and state.turns < 300
    assert stats["decisions"] == state.record().actions


def test_same_seed_same_game_through_the_runner(make):
    game = make(4)
    a, _ = play(game, 123, ("greedy",) * 4, PlayOptions())
    b, _ = play(game, 123, ("greedy",) * 4, PlayOptions())
    assert a.record() == b.record()


def test_stats_report_and_verdicts_on_a_small_run(make):
    game = make(4)
    one, two = Stats(), Stats()
    scores = 0
    for seed in range(16):
        state, _ = play(game, 900 + seed, ("greedy",) * 4, PlayOptions(), read_standings=False)
        (one if seed < 8 else two).add(state.record(), ("greedy",) * 4)
        scores += sum(state.vp)
    one.merge(two)
    assert one.games == 16
    summary = one.summarize(game)
    g = summary["golden"]
    assert [lv["completed"]["rate"] for lv in g["levels"]] == [1.0, 1.0, 1.0, 1.0]
    turns = [lv["turns"]["mean"] for lv in g["levels"]]
    assert turns == sorted(turns)
    assert g["tiles"]["builds"] == 16 * 30
    assert sum(r["count"] for r in g["seats"]) >= 16
    # VP by source add up to the final scores
    assert sum(v["total"] for v in g["vp_sources"].values()) == scores
    sections = SPEC.sections(summary)
    assert [s.anchor for s in sections] == ["golden-progress", "golden-vp", "golden-tiles", "golden-trade",
                                            "golden-seats", "golden-stalls"]
    assert all("<script" not in s.body for s in sections)
    checks = {v.check: v.status for v in SPEC.verdicts(summary, None)}
    assert set(checks) == {"tiles without symbol", "nobody can build", "first player", "market churn"}
    assert set(checks.values()) <= {"PASS", "WARN", "FAIL"}
