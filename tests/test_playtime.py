"""A game's playing time: a range of minutes, as a box states it.  ``pnp new`` writes one;
one time stands for a quarter either side of it (never a box of no width, which every
simulated game would miss); anything else is an error at its line."""

from __future__ import annotations

import pytest

from model.sheets import load_project
from validator.thresholds import Thresholds

from helpers import new_game, run_pnp

SLUG = "hourglass"


def set_playtime(folder, value: str) -> int:
    """Write ``playtime = VALUE`` in the manifest; returns its line."""
    manifest = folder / "game.toml"
    lines = manifest.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines) if text.startswith("playtime ="))
    lines[line] = f"playtime = {value}"
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return line + 1


@pytest.fixture
def game(tmp_path):
    return new_game(tmp_path, SLUG)


def test_pnp_new_writes_a_range(game, tmp_path):
    manifest = load_project(tmp_path).games[SLUG].manifest
    assert manifest.playtime == "20-30 min"
    assert manifest.playtime_minutes == (20, 30)
    assert Thresholds().box(manifest.playtime_minutes) == (20, 30)  # what validate judges the games' length against


@pytest.mark.parametrize("written, minutes", [
    ('"20 min"', (15, 25)), ("20", (15, 25)), ('"45-75 min"', (45, 75)), ('"20 to 30 minutes"', (20, 30)),
    ('"1-2 h"', (60, 120)), ('"10–15 min"', (10, 15)),
])
def test_what_a_playtime_means(game, tmp_path, written, minutes):
    set_playtime(game, written)
    manifest = load_project(tmp_path).games[SLUG].manifest
    assert manifest.playtime_minutes == minutes
    assert Thresholds().box(manifest.playtime_minutes) == minutes


@pytest.mark.parametrize("written", ['"about an hour"', '"30-20 min"', '"0 min"', '"20 min per player"'])
def test_a_playtime_that_is_none_is_an_error_at_its_line(game, tmp_path, written):
    line = set_playtime(game, written)
    code, output = run_pnp("check", "--data", tmp_path)
    assert code == 1
    assert output.splitlines() == [
        f"error templates/{SLUG}/game.toml:{line}:game.playtime: '{written.strip(chr(34))}' is not a playing time; "
        'expected the range of minutes a game takes, e.g. "20-30 min" (or "1-2 h"; one time such as "20 min" '
        "stands for 15-25 min)", "1 error."]


def test_no_playtime_is_no_box(game, tmp_path):
    manifest = game / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace('playtime = "20-30 min"\n', ""), encoding="utf-8")
    assert load_project(tmp_path).games[SLUG].manifest.playtime_minutes is None
    assert Thresholds().box(None) is None
