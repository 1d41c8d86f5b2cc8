"""An unknown icon's suggestions are names to type (``:tent:``), as the message prints them in
every command, never a glyph a terminal library made of them."""

from __future__ import annotations

import re

from helpers import find_row, new_game, run_pnp, set_cell


def test_the_close_matches_of_an_unknown_icon_are_names(tmp_path):
    new_game(tmp_path, "camp")
    row = find_row(tmp_path / "cards.csv", "id", "green-3")
    set_cell(tmp_path / "cards.csv", row, "text", "Sleep in a :tentt: till the :hourglas: runs out.")
    code, output = run_pnp("check", "--data", tmp_path)
    assert code == 0, output
    lines = [line for line in output.splitlines() if "unknown icon" in line]
    assert lines == [
        f"warning cards.csv:{row}:text: 'green-3' (front): unknown icon ':hourglas:', printed as typed; close "
        "matches: :hourglass:, :hourglass-end:, :hourglass-half:, :hourglass-start: (icons: templates/camp/icons/NAME.svg "
        "and the built-in set)",
        f"warning cards.csv:{row}:text: 'green-3' (front): unknown icon ':tentt:', printed as typed; close "
        "matches: :tent:, :tents:, :outdent:, :teeth: (icons: templates/camp/icons/NAME.svg and the built-in set)"]
    for line in lines:
        matches = line.split("close matches: ")[1].split(" (icons")[0].split(", ")
        assert all(re.fullmatch(r":[a-z0-9-]+:", m) for m in matches), matches
