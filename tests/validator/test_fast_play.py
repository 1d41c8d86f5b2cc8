"""An engine's fast path (``GameSpec.fast_play``) plays the runner's game: for
Pyramid Shambo, the drinking Pyramid and The Golden Pyramid, the same seeded games give the same
finished states and play statistics with and without it, and a report's
games.csv, tables and summary.json are the same byte for byte.  The runner
takes the protocol loop whenever a run is strict, logged, watched or reads
standings, and when the hook declines the bots."""

from __future__ import annotations

import dataclasses
import importlib
import json

import pytest

from validator.kit import get_spec
from validator.kit import registry
from validator.runner import PlayOptions, play
from validator.validate import Options, validate_game

ENGINES = ("pyramid-shambo", "drinking-pyramid", "golden-pyramid")
#: bot line-ups: the engine's own, the generic ones, mixed seats (engine's own with generic ones)
BOTS = {
    "pyramid-shambo": ["smart", "naive", "greedy", "random", "smart@biased", "naive@exploit",
                       "smart,greedy,naive@biased,random,smart@exploit"],
    "drinking-pyramid": ["average", "sharp@leader", "tipsy@revenge", "greedy", "random",
                         "average,greedy,sharp@revenge,random,tipsy@leader,average@spread"],
    # the search bot is asked through its step inside the fast loop, beside greedy and random seats
    "golden-pyramid": ["greedy", "random", "greedy,random,greedy,search,random,greedy"],
}
PLAYERS = {"pyramid-shambo": (2, 3, 5, 8), "drinking-pyramid": (2, 3, 6, 9), "golden-pyramid": (2, 4, 6)}
SEEDS = {"pyramid-shambo": 14, "drinking-pyramid": 14, "golden-pyramid": 12}


def _without_hook(game):
    """A copy of the compiled game whose spec has no fast path (the protocol loop plays it)."""
    slow = object.__new__(type(game))
    slow.__dict__.update(game.__dict__)
    slow.spec = dataclasses.replace(game.spec, fast_play=None)
    return slow


def _line_up(text: str, players: int) -> tuple[str, ...]:
    names = tuple(text.split(","))
    return (names * players)[:players]


@pytest.mark.parametrize("slug", ENGINES)
def test_the_fast_path_plays_the_protocol_loops_game(data_for, slug):
    spec = get_spec(slug)
    assert spec.fast_play is not None
    calls = []

    def counted(*args):
        calls.append(1)
        return spec.fast_play(*args)

    games = 0
    for players in PLAYERS[slug]:
        game = spec.make(data_for(slug), players)
        fast = object.__new__(type(game))
        fast.__dict__.update(game.__dict__)
        fast.spec = dataclasses.replace(spec, fast_play=counted)
        slow = _without_hook(game)
        for text in BOTS[slug]:
            bots = _line_up(text, players)
            for seed in range(SEEDS[slug]):
                a, stats_a = play(fast, seed, bots, PlayOptions(), read_standings=False)
                b, stats_b = play(slow, seed, bots, PlayOptions(), read_standings=False)
                where = (players, bots, seed)
                assert dataclasses.asdict(a.record()) == dataclasses.asdict(b.record()), where
                assert stats_a == stats_b, where
                assert a.n_actions == b.n_actions and a.turns == b.turns, where
                games += 1
    assert games >= 50 and len(calls) == games  # every game above went through the fast path


@pytest.mark.parametrize("slug", ENGINES)
def test_a_turn_cap_stops_both_loops_alike(data_for, slug):
    spec = get_spec(slug)
    game = spec.make(data_for(slug), 4)
    slow = _without_hook(game)
    for cap in (1, 3, 7):
        opts = PlayOptions(turn_cap=cap, loop_after=2)
        for seed in range(10):
            a, stats_a = play(game, seed, _line_up(BOTS[slug][0], 4), opts, read_standings=False)
            b, stats_b = play(slow, seed, _line_up(BOTS[slug][0], 4), opts, read_standings=False)
            assert a.end == "turn-cap" or a.end == b.end
            assert dataclasses.asdict(a.record()) == dataclasses.asdict(b.record()), (cap, seed)
            assert stats_a == stats_b, (cap, seed)


@pytest.mark.parametrize("slug", ENGINES)
def test_reports_are_identical_with_and_without_the_fast_path(data_for, slug, tmp_path, monkeypatch):
    data = data_for(slug)
    spec = get_spec(slug)

    def run(out):
        opts = Options(games=240, players=4, seed=3, workers=1, skill_games=8, drama_games=40, out=out)
        return validate_game(data, opts)

    fast = run(tmp_path / "fast")
    package = importlib.import_module(spec.package)
    slow_spec = dataclasses.replace(spec, fast_play=None)
    monkeypatch.setattr(package, "SPEC", slow_spec)
    monkeypatch.setitem(registry._SPECS, slug, slow_spec)
    slow = run(tmp_path / "slow")
    folder = f"{slug}/validation"
    names = sorted(p.name for p in (tmp_path / "fast" / folder).iterdir() if p.suffix == ".csv")
    assert "games.csv" in names
    assert names == sorted(p.name for p in (tmp_path / "slow" / folder).iterdir() if p.suffix == ".csv")
    for name in names:
        assert (tmp_path / "fast" / folder / name).read_bytes() == (tmp_path / "slow" / folder / name).read_bytes()
    summaries = []
    for side in ("fast", "slow"):
        summary = json.loads((tmp_path / side / folder / "summary.json").read_text(encoding="utf-8"))
        summary.pop("timing")
        summaries.append(summary)
    assert summaries[0] == summaries[1]
    assert fast.status == slow.status


@pytest.mark.parametrize("slug", ENGINES)
def test_the_runner_keeps_the_protocol_loop_when_asked_for_more(data_for, slug):
    spec = get_spec(slug)
    game = spec.make(data_for(slug), 3)

    def refuse(*args):
        raise AssertionError("the fast path must not play this game")

    watched = object.__new__(type(game))
    watched.__dict__.update(game.__dict__)
    watched.spec = dataclasses.replace(spec, fast_play=refuse)
    bots = _line_up(BOTS[slug][0], 3)
    play(watched, 1, bots, PlayOptions(strict=True), read_standings=False)
    play(watched, 1, bots, PlayOptions(), read_standings=True)
    play(watched, 1, bots, PlayOptions(), log=[], read_standings=False)
    play(watched, 1, bots, PlayOptions(), on_action=lambda *a: None, read_standings=False)


@pytest.mark.parametrize("slug", ENGINES)
def test_a_hook_that_declines_leaves_the_game_to_the_protocol_loop(data_for, slug):
    spec = get_spec(slug)
    game = spec.make(data_for(slug), 3)
    declining = object.__new__(type(game))
    declining.__dict__.update(game.__dict__)
    declining.spec = dataclasses.replace(spec, fast_play=lambda *args: None)
    bots = _line_up(BOTS[slug][0], 3)
    a, stats_a = play(declining, 5, bots, PlayOptions(), read_standings=False)
    b, stats_b = play(game, 5, bots, PlayOptions(), read_standings=False)
    assert dataclasses.asdict(a.record()) == dataclasses.asdict(b.record())
    assert stats_a == stats_b
