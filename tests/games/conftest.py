"""Fixtures of the per-game tests; each module names its game in SLUG."""

import pytest

from helpers import copy_game


@pytest.fixture
def data(request, tmp_path, project_root):
    """A data folder with this module's game only: its templates and rows."""
    return copy_game(tmp_path / "data", request.module.SLUG, root=project_root)
