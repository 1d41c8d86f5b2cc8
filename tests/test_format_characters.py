"""Invisible format characters in a cell (Unicode's category Cf: a right-to-left override, a
zero-width space, a byte-order mark ...) print nothing, and a change of direction can make
the sheet read otherwise than the card: each cell that holds some gets one warning at its
file, row and column naming them, and they are removed.  A joiner inside an emoji sequence
and the tags of a flag are part of what they spell, and stay."""

from __future__ import annotations

from model.sheets import load_project

from helpers import find_row, new_game, run_pnp, set_cell

SLUG = "mirror"
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # man, woman, girl joined: one emoji
SCOTLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"  # a black flag and its tags


def test_format_characters_are_removed_with_a_warning_at_their_cell(tmp_path):
    new_game(tmp_path, SLUG)
    cards = tmp_path / "cards.csv"
    red, blue, green = (find_row(cards, "id", i) for i in ("red-1", "blue-2", "green-3"))
    set_cell(cards, red, "text", "Pay \u202egnihton\u202c now.")
    set_cell(cards, blue, "name", "Blue\u200b Two\ufeff")
    set_cell(cards, green, "text", f"A {FAMILY} under the {SCOTLAND} flag, zero\u200dwidth.")
    project = load_project(tmp_path)
    warnings = [str(p) for p in project.warnings]
    assert warnings == [
        f"cards.csv:{red}:text: invisible format characters U+202E (right-to-left override), U+202C (pop "
        "directional formatting) removed: they print nothing, and one that turns the writing around would make the "
        "sheet read otherwise than the card",
        f"cards.csv:{blue}:name: invisible format characters U+200B (zero width space), U+FEFF (zero width no-break "
        "space) removed: they print nothing"]
    loaded = project.games[SLUG].by_id()
    assert loaded["red-1"].text == "Pay gnihton now."
    assert loaded["blue-2"].name == "Blue Two"
    assert loaded["green-3"].text == f"A {FAMILY} under the {SCOTLAND} flag, zero\u200dwidth."  # kept whole
    code, output = run_pnp("check", "--data", tmp_path)
    assert code == 0
    assert f"warning {warnings[0]}" in output.splitlines() and f"warning {warnings[1]}" in output.splitlines()


def test_a_joiner_at_the_edge_of_a_word_is_removed(tmp_path):
    new_game(tmp_path, SLUG)
    cards = tmp_path / "cards.csv"
    red = find_row(cards, "id", "red-1")
    set_cell(cards, red, "text", "\u200dLead and trail \u200c")
    project = load_project(tmp_path)
    assert [str(p) for p in project.warnings] == [
        f"cards.csv:{red}:text: invisible format characters U+200D (zero width joiner), U+200C (zero width "
        "non-joiner) removed: they print nothing"]
    assert project.games[SLUG].by_id()["red-1"].text == "Lead and trail"
