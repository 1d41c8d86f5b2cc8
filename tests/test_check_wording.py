"""A rules engine's deck checks speak its own game's words (a smart-ass, a colour pass); in a
folder that holds several games, each such line names its game, so that the designer of
another game knows it is not about theirs."""

from __future__ import annotations

import pytest

from helpers import copy_game, new_game, run_pnp


@pytest.mark.slow
def test_an_engines_check_names_its_game_beside_a_game_of_ones_own(tmp_path):
    data = copy_game(tmp_path / "data", "pyramid-scheme")
    new_game(data, "love-letter")
    code, output = run_pnp("check", "--data", data)
    assert code == 0, output
    warnings = [line for line in output.splitlines() if line.startswith("warning ")]
    assert warnings == ["warning goals.csv:15:requires: pyramid-scheme: a branch 6 levels deep needs a smart-ass or "
                        "a colour pass on it: 4 colours give at most 5 levels otherwise"]
    code, output = run_pnp("check", "love-letter", "--data", data)
    assert code == 0 and "warning " not in output and output.splitlines()[-1] == "All sheets and templates are fine."
