"""The conformance harness over every registered engine (validator.kit.ENGINES):
random playouts under strict invariant checks, determinism (same seed, same
record; 1 and 2 workers, same figures), clone independence, observations that
show nothing hidden, and golden legal-action counts (perft) from perft.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from validator.kit import ENGINES, conformance, get_spec
from validator.validate import Options, validate_game

PERFT_FILE = Path(__file__).with_name("perft.json")
SLUGS = sorted(ENGINES)


def _games(slug, data_for):
    spec = get_spec(slug)
    return [spec.make(data_for(slug), players) for players in range(spec.min_players, spec.max_players + 1)]


@pytest.mark.parametrize("slug", SLUGS)
def test_random_playouts_keep_every_invariant(data_for, slug):
    for game in _games(slug, data_for):
        records = conformance.check_playouts(game, range(100, 106), strict=True)
        assert len(records) == 6


@pytest.mark.parametrize("slug", SLUGS)
def test_same_seed_same_game(data_for, slug):
    for game in _games(slug, data_for):
        conformance.check_determinism(game, 7)


@pytest.mark.parametrize("slug", SLUGS)
def test_clones_are_faithful_and_independent(data_for, slug):
    for game in _games(slug, data_for):
        conformance.check_clones(game, 11)


@pytest.mark.parametrize("slug", SLUGS)
def test_observations_show_nothing_hidden(data_for, slug):
    for game in _games(slug, data_for):
        conformance.check_observations(game, 13)


@pytest.mark.parametrize("slug", SLUGS)
def test_one_and_two_workers_give_the_same_figures(data_for, slug, tmp_path):
    spec = get_spec(slug)
    summaries = []
    for workers in (1, 2):
        opts = Options(games=24, players=spec.min_players, seed=5, workers=workers, bots="random", skill_games=0,
                       write=False, out=tmp_path)
        summary = validate_game(data_for(slug), opts).summary
        summaries.append({k: v for k, v in summary.items() if k != "timing"})
    assert summaries[0] == summaries[1]


@pytest.mark.parametrize("slug", SLUGS)
def test_perft(data_for, slug):
    golden = json.loads(PERFT_FILE.read_text(encoding="utf-8"))
    if slug not in golden:
        pytest.fail(f"no golden legal-action counts for {slug} in {PERFT_FILE.name}; once its move generator is "
                    f"right, record them with: python -m validator.kit.conformance perft {slug} "
                    f"--write tests/validator/perft.json")
    spec = get_spec(slug)
    for entry in golden[slug]:
        game = spec.make(data_for(slug), entry["players"])
        assert conformance.perft(game, entry["seed"], entry["steps"]) == entry, (slug, entry)
