"""Fixtures for the rules validator: the bundled Pyramid Scheme data, a
helper that compiles it for a number of players and rules options, and any
bundled game's data by slug."""

from __future__ import annotations

import pytest

from model.sheets import load_project
from validator.kit import get_spec


@pytest.fixture(scope="session")
def ps_data(project_root):
    return load_project(project_root, ["pyramid-scheme"]).games["pyramid-scheme"]


@pytest.fixture(scope="session")
def ps_spec():
    return get_spec("pyramid-scheme")


@pytest.fixture(scope="session")
def make_game(ps_data, ps_spec):
    cache = {}

    def make(players: int = 2, **options):
        key = (players, tuple(sorted(options.items())))
        if key not in cache:
            cache[key] = ps_spec.make(ps_data, players, **options)
        return cache[key]

    return make


@pytest.fixture(scope="session")
def data_for(project_root):
    """``data_for(slug)``: a bundled game's data, read once per test session."""
    cache = {}

    def load(slug):
        if slug not in cache:
            cache[slug] = load_project(project_root, [slug]).games[slug]
        return cache[slug]

    return load


@pytest.fixture
def tombs(tmp_path):
    """A private copy of the example game (docs/example) and its rules engine, to break."""
    from helpers import copy_example

    return copy_example(tmp_path / "example")
