"""Counts against the rulebook, per box."""

from model.checks import static_checks
from model.sheets import load_project

from helpers import copy_game, find_row, set_cell


def test_counts_per_box_are_checked(tmp_path):
    data = copy_game(tmp_path / "data")
    toml = data / "templates" / "pyramid-scheme" / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("expected = 18\n[decks.police.columns]",
                                 "expected = { base = 18, raid = 2 }\n[decks.police.columns]")
                    .replace("[palette.green]", '[expansions]\nraid = "Police raid"\n\n[palette.green]', 1),
                    encoding="utf-8")
    set_cell(data / "cards.csv", find_row(data / "cards.csv", "deck", "police"), "count", "17")
    project = load_project(data)
    assert [str(p) for p in static_checks(project)] == [
        "cards.csv:count: pyramid-scheme: 17 police in the base game, the rulebook has 18",
        "cards.csv:count: pyramid-scheme: 0 police in the raid box, the rulebook has 2",
    ]
    manifest = project.games["pyramid-scheme"].manifest
    assert manifest.expected("police") == 20
    assert manifest.expected("police", {"base"}) == 18
    assert manifest.expected("aid", {"raid"}) is None


def test_text_fitting_tries_the_minimum_size_itself():
    from generator.draw.text import fit

    # 2.45 down in 0.2 steps lands on 2.25 and 2.05; the minimum 2.1 must still be tried
    fitted = fit("word " * 30, 30, 2.1 * 1.2 * 6 + 0.01, 2.45, 2.1, "DejaVuSans")  # 6 lines at 2.1, 8 at 2.25
    assert (fitted.size, fitted.overflow) == (2.1, False)


def test_a_count_of_our_own_design_is_not_called_the_rulebooks(tmp_path):
    data = copy_game(tmp_path / "data")
    toml = data / "templates" / "pyramid-scheme" / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "expected = 18\n[decks.police.columns]", 'expected = 18\nexpected_source = "design"\n[decks.police.columns]'),
        encoding="utf-8")
    set_cell(data / "cards.csv", find_row(data / "cards.csv", "deck", "police"), "count", "16")
    assert [str(p) for p in static_checks(load_project(data))] == [
        "cards.csv:count: pyramid-scheme: 16 police in the base game, the design has 18"]
