"""Palette colours a colour-blind player could not tell apart, without another cue."""

import pytest
from click.testing import CliRunner

from model.colour_vision import THRESHOLD, confusions, difference, palette_warnings, parse_hex
from model.sheets import load_project
from pnp.cli import main

from helpers import copy_game

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]


class Manifest:
    def __init__(self, palette):
        self.slug = "tiny"
        self.palette = palette


def test_near_identical_reds_are_flagged_for_every_kind_of_vision():
    palette = {"red": {"fill": "#c0392b"}, "crimson": {"fill": "#c43a2e"}, "blue": {"fill": "#1d6fd1"}}
    [c] = confusions(palette)
    assert (c.first, c.second) == ("red", "crimson") and not c.cued
    assert c.visions == ("normal vision", "protanopia", "deuteranopia", "tritanopia")
    [w] = palette_warnings(Manifest(palette))
    assert str(w).startswith("templates/tiny/game.toml:palette.crimson: 'red' (#c0392b) and 'crimson' (#c43a2e) are "
                             "hard to tell apart with normal vision, protanopia, deuteranopia, tritanopia (CIEDE2000 ")
    assert str(w).endswith(f"below {THRESHOLD:g}) and the cards carry no other cue; give them a different mark or "
                           "letter")
    assert not w.is_error


def test_red_and_green_are_flagged_for_red_green_blindness_only():
    palette = {"red": {"fill": "#d62728"}, "green": {"fill": "#7f7f00"}}
    [c] = confusions(palette)
    assert "normal vision" not in c.visions and {"protanopia", "deuteranopia"} & set(c.visions)


def test_a_mark_or_a_letter_that_differs_is_another_cue():
    reds = {"fill": "#c0392b"}, {"fill": "#c43a2e"}
    for cue in ({"mark": "circle"}, {"mark": "star"}), ({"letter": "R"}, {"letter": "C"}):
        palette = {"red": {**reds[0], **cue[0]}, "crimson": {**reds[1], **cue[1]}}
        assert confusions(palette)[0].cued and palette_warnings(Manifest(palette)) == []
    # the same mark is no cue
    palette = {"red": {**reds[0], "mark": "star"}, "crimson": {**reds[1], "mark": "star"}}
    assert len(palette_warnings(Manifest(palette))) == 1


def test_the_difference_is_ciede2000():
    white, black = parse_hex("#fff"), parse_hex("#000000")
    assert difference(white, black, None) == pytest.approx(100, abs=0.1)  # L* 100 against 0
    assert difference(white, white, "deutan") == pytest.approx(0, abs=1e-6)
    assert parse_hex("nope") is None


@pytest.mark.parametrize("slug", GAMES)
def test_the_bundled_palettes_pass_because_every_colour_has_its_own_mark_and_letter(slug, project_root):
    manifest = load_project(project_root, [slug]).games[slug].manifest
    assert palette_warnings(manifest) == []
    for c in confusions(manifest.palette):
        assert c.cued, f"{slug}: {c.first} and {c.second} rely on colour alone"


def test_which_bundled_pairs_would_fail_on_colour_alone(project_root):
    # documented in docs/printing.md: these pairs pass only thanks to their marks and letters
    project = load_project(project_root)
    close = {slug: {(c.first, c.second): c for c in confusions(g.manifest.palette)}
             for slug, g in project.games.items()}
    assert "deuteranopia" in close["golden-pyramid"][("blue", "purple")].visions
    assert "deuteranopia" in close["pyrrameds"][("antibiotic", "serum")].visions
    assert "deuteranopia" in close["pyramid-scheme"][("green", "pink")].visions
    assert "deuteranopia" in close["pyramid-shambo"][("red", "green")].visions
    assert close["drinking-pyramid"] == {}


def test_pnp_check_warns_about_a_palette_without_cues(tmp_path):
    data = copy_game(tmp_path / "data")
    manifest = data / "templates" / "pyramid-scheme" / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace('fill = "#d6336c"', 'fill = "#2b9349"').replace('mark = "diamond"', 'mark = "triangle"')
    text = text.replace('letter = "P"', 'letter = "G"')
    manifest.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert any(line.startswith("warning templates/pyramid-scheme/game.toml:palette.pink: 'green' (#2b9348) and "
                               "'pink' (#2b9349) are hard to tell apart") for line in result.output.splitlines())


def test_the_simulated_differences_agree_with_colour_science_figures():
    # gold #c9a227 against clay #b5651d, as colour-science (Machado 2009 at full severity, CIEDE2000) gives them
    gold, clay = parse_hex("#c9a227"), parse_hex("#b5651d")
    expected = {None: 23.3456, "protan": 18.8457, "deutan": 14.2175, "tritan": 17.2814}
    for deficiency, value in expected.items():
        assert difference(gold, clay, deficiency) == pytest.approx(value, abs=0.01)
