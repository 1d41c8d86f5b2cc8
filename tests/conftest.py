"""Shared fixtures.  ``project_root`` is the repository (its cards.csv, goals.csv
and templates/); set PNP_TEST_DATA to point the tests at another data folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def project_root() -> Path:
    return Path(os.environ.get("PNP_TEST_DATA", REPO))
