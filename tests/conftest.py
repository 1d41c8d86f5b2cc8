"""Shared fixtures.  ``project_root`` is the repository (its cards.csv, goals.csv
and templates/); set PNP_TEST_DATA to point the tests at another data folder.

The tests that take a second and a half or more (whole games played, every bundled
game built, a browser, a subprocess), measured with ``pytest --durations=0`` on two
cores, are marked ``slow``: ``pytest -m "not slow"`` leaves them out for the edit
loop, ``pytest`` runs them all (as CI does).  A whole module of them is named in
``slow.SLOW_MODULES``, a test of a quicker module in ``slow.SLOW_TESTS`` (or marked
``@pytest.mark.slow`` where it is written); ``tests/test_slow_marks.py`` checks that
every name there still names a test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from slow import SLOW_MODULES, SLOW_TESTS

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def project_root() -> Path:
    return Path(os.environ.get("PNP_TEST_DATA", REPO))


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        try:
            module = item.path.relative_to(here).as_posix()
        except ValueError:
            continue
        if module in SLOW_MODULES or item.originalname in SLOW_TESTS.get(module, ()):
            item.add_marker(pytest.mark.slow)
