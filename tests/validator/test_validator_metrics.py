"""Statistics against hand-computed and published values."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from validator.games.pyramid_scheme.stats import CardStats
from validator.kit import GameRecord
from validator.metrics import Tally, TimeModel, diff_interval, hist_percentile, hist_summary, wilson


def test_wilson_known_values():
    # 8 of 10: p = 0.8, z = 1.96 -> [0.4902, 0.9433] (Wilson 1927; Newcombe 1998, table I)
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    # 0 of 10: the lower bound is 0, the upper z^2 / (n + z^2) = 0.2775
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(1.959964 ** 2 / (10 + 1.959964 ** 2), abs=1e-6)
    # 81 of 263 (Newcombe 1998, example): [0.2553, 0.3662]
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_by_hand():
    k, n, z = 30, 120, 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert wilson(k, n) == pytest.approx((centre - half, centre + half))


def test_newcombe_difference_interval():
    # Newcombe 1998, table II, example (56/70 - 48/80), method 10: +0.0524 to +0.3339
    d, lo, hi = diff_interval(56, 70, 48, 80)
    assert d == pytest.approx(0.2)
    assert lo == pytest.approx(0.0524, abs=1e-4) and hi == pytest.approx(0.3339, abs=1e-4)


def test_histogram_percentiles_match_numpy():
    np = pytest.importorskip("numpy")
    rng = random.Random(3)
    for _ in range(200):
        values = [rng.randint(0, 30) for _ in range(rng.randint(1, 60))]
        hist = Counter(values)
        for q in (0, 5, 25, 50, 95, 100):
            assert hist_percentile(hist, q) == pytest.approx(float(np.percentile(values, q)))


def test_histogram_summary():
    hist = Counter({10: 1, 20: 2, 30: 1})
    s = hist_summary(hist)
    assert s["mean"] == 20 and s["median"] == 20 and s["min"] == 10 and s["max"] == 30
    assert hist_summary(Counter({15: 3}), 0.1)["median"] == 1.5


def test_count_into_counts_as_counter_update_does():
    import validator.kit.stats as kit_stats

    items = [("a", 1), ("b", 2), ("a", 1), ("c", 0), ("b", 2), ("a", 1)]
    want = Counter({"z": 1})
    want.update(items)
    got = Counter({"z": 1})
    kit_stats.count_into(got, iter(items))
    assert got == want and list(got) == list(want) == ["z", ("a", 1), ("b", 2), ("c", 0)]
    assert got[("a", 1)] == 3 and got[("b", 2)] == 2
    plain: dict = {}  # a plain dict works too (no Counter needed)
    kit_stats.count_into(plain, items)
    assert plain == {("a", 1): 3, ("b", 2): 2, ("c", 0): 1}
    fallback: dict = {}  # the same loop in Python, for an interpreter without collections' own
    kit_stats.count_items(fallback, items)
    assert fallback == plain and list(fallback) == list(plain)


def test_time_model():
    assert TimeModel(15, 5, 2).minutes(40, 120) == pytest.approx(2 + (600 + 600) / 60)


def _record(winners, seats=(0, 1), end="last-standing"):
    return GameRecord(turns=10, rounds=5, actions=30, end=end, winners=winners, seats=list(seats),
                      eliminations=[(1, "police", 9)], scores=[3, None], counters={"police_placed": 1},
                      details={"cards": {"a": (1, 1, 0), "b": (1, 0, 0)}, "placed_by": [["a"], []],
                               "goals_open": ["g"], "goals_claimed": [("g", 0, 7)], "rewards": {"hand": (1, 1)}})


PLAY = {"decisions": 20, "choices": 15, "legal_sum": 60, "turns_with_choice": 8}


def test_tally_merge_is_exact_and_order_free():
    model = TimeModel()
    records = [(_record([i % 2]), i) for i in range(10)]
    whole = Tally(ext=CardStats())
    for r, i in records:
        whole.add_game(i, 100 + i, r, ("greedy", "random"), PLAY, model)
    parts = [Tally(ext=CardStats()), Tally(ext=CardStats()), Tally(ext=CardStats())]
    for r, i in records:
        parts[i % 3].add_game(i, 100 + i, r, ("greedy", "random"), PLAY, model)
    merged = Tally()
    for part in reversed(parts):
        merged.merge(part)
    assert merged == whole
    assert whole.seat_wins == Counter({0: 5, 1: 5})
    assert whole.ext.cards["a"] == [10, 10, 0, 10, 5] and whole.ext.cards["b"] == [10, 0, 0, 0, 0]
    assert whole.ext.goals["g"] == [10, 10, 70]
    assert whole.counts == Counter({"police_placed": 10})
    assert whole.bot_wins == Counter({"greedy": 5, "random": 5})


def test_failures_keep_the_lowest_game_indices():
    t = Tally()
    for i in (9, 3, 15, 1, 12, 4, 8, 20, 30, 2, 7, 11):
        t.add_failure("turn-cap", i, 1000 + i)
    u = Tally()
    u.add_failure("turn-cap", 0, 1000)
    t.merge(u)
    count, examples = t.failures["turn-cap"]
    assert count == 13 and [i for i, _ in examples] == [0, 1, 2, 3, 4, 7, 8, 9, 11, 12]
