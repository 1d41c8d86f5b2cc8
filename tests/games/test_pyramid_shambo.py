"""Pyramid Shambo: the Rainbow Stash as fold-up nets (counts, real proportions, the net
folding back into the piece it claims to be), messages for a broken row, the built PDFs
read back."""

import math
import re
from collections import Counter

import pypdf
import pytest

from generator.sheets import nets
from generator.build import BuildOptions, build_game
from generator.sheets.layout import grid
from generator.stages.render import Renderer
from model.errors import InputErrors, Problems
from model.sheets import load_project

from helpers import copy_game, find_row, set_cell

SLUG = "pyramid-shambo"
MM = 72 / 25.4
COLORS = ["red", "yellow", "green", "blue", "black"]
SIZES = {"large": 3, "medium": 2, "small": 1}  # deck -> pips
INCH = 25.4


@pytest.fixture(scope="module")
def game(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


def piece(game, deck):
    return game.manifest.raw["decks"][deck]["piece"]


def test_one_rainbow_stash_five_cue_cards_one_token(game):
    totals = Counter()
    for card in game.cards:
        totals[card.deck] += card.count
    assert dict(totals) == {"large": 5, "medium": 5, "small": 5, "cue": 5, "turn": 1}
    for name, deck in game.manifest.decks.items():
        assert game.manifest.expected(name) == totals[name], name
    # a trio of every colour: one small (1 pip), one medium (2), one large (3)
    assert list(game.manifest.palette) == COLORS
    for deck, pips in SIZES.items():
        cards = game.deck(deck)
        assert sorted(c.color for c in cards) == sorted(COLORS)
        assert {c.number for c in cards} == {pips}
    assert sum(c.number * c.count for d in SIZES for c in game.deck(d)) == 5 * (1 + 2 + 3)
    assert sorted(c.color for c in game.deck("cue")) == sorted(COLORS)


def test_real_proportions_kept_as_data(game):
    large, medium, small = (piece(game, d) for d in ("large", "medium", "small"))
    assert (large["base"], large["height"]) == (25.4, 44.45)  # 1 in x 1.75 in
    assert large["height"] == pytest.approx(1.75 * INCH)
    # same shape, scaled down: 1.375 in and 1 in tall
    assert medium["height"] == pytest.approx(1.375 * INCH)
    assert small["height"] == pytest.approx(1.0 * INCH)
    for p in (medium, small):
        assert p["height"] / p["base"] == pytest.approx(large["height"] / large["base"], abs=1e-4)
    assert not any(p["closed"] for p in (large, medium, small))


def test_component_sizes(game):
    decks = game.manifest.decks
    for name in SIZES:
        size = decks[name].size
        assert size.bleed == 0 and size.shape == "rect"
        assert decks[name].crop_marks is False  # the template draws the cut lines
        assert decks[name].back is None  # single-sided
        net = nets.fan_net(nets.pyramid(piece(game, name)["base"], piece(game, name)["height"]))
        # the net fits its slot with a margin, and the slot wastes little
        assert net.width + 2 <= size.width <= net.width + 8
        assert net.height + 2 <= size.height <= net.height + 8
        for page in ("a4", "letter"):
            assert grid(page, size.width, size.height, 0, marks=False).per_page >= 5
    assert (decks["cue"].size.width, decks["cue"].size.height) == (63.5, 88.9)
    assert decks["cue"].back == "cue-back.svg.j2"
    token = decks["turn"].size
    assert (token.width, token.height, token.shape) == (60, 60, "circle")
    assert decks["turn"].back is None


def _polygons(svg: str, fill: str) -> list[list[tuple[float, float]]]:
    out = []
    for m in re.finditer(r'<polygon points="([^"]+)" fill="([^"]+)"', svg):
        if m.group(2) == fill:
            out.append([tuple(float(v) for v in pair.split(",")) for pair in m.group(1).split()])
    return out


@pytest.mark.parametrize("deck", list(SIZES))
def test_the_printed_net_folds_into_the_piece(game, deck):
    """Read the faces back from the rendered SVG, measure them, fold them up in 3D."""
    card = next(c for c in game.deck(deck) if c.color == "red")
    problems = Problems()
    svg = Renderer(game.manifest, problems).svg("net.svg.j2", game.manifest.decks[deck], card)
    assert svg is not None, problems.items
    faces = _polygons(svg, game.manifest.palette["red"]["fill"])
    assert len(faces) == 4 and all(len(f) == 3 for f in faces)
    want = piece(game, deck)
    pyr = nets.pyramid(want["base"], want["height"])
    apex = faces[0][2]
    for left, right, top in faces:
        assert nets.distance(top, apex) < 1e-3  # one shared apex
        assert nets.distance(left, right) == pytest.approx(want["base"], abs=0.1)  # base edge
        assert nets.distance_to_line(top, left, right) == pytest.approx(pyr.slant, abs=0.1)  # slant height
        assert nets.distance(top, left) == pytest.approx(pyr.lateral_edge, abs=0.1)  # lateral edges
        assert nets.distance(top, right) == pytest.approx(pyr.lateral_edge, abs=0.1)
        assert nets.angle_at(top, left, right) == pytest.approx(pyr.apex_angle, abs=0.05)  # face angles
    # slant height from the real height: sqrt(h^2 + (a/2)^2)
    assert pyr.slant == pytest.approx(math.hypot(want["height"], want["base"] / 2))
    corners = [faces[0][0]] + [f[1] for f in faces]
    solid = nets.fold_fan(apex, corners)
    assert solid.closure < 0.1  # the glued edges meet
    assert solid.height == pytest.approx(want["height"], abs=0.1)
    assert all(e == pytest.approx(want["base"], abs=0.1) for e in solid.base_edges)
    d1, d2 = solid.diagonals
    assert d1 == pytest.approx(d2, abs=0.1) == pytest.approx(want["base"] * math.sqrt(2), abs=0.1)  # a square
    assert not problems.items


def test_large_piece_numbers():
    pyr = nets.pyramid(25.4, 44.45)
    assert pyr.slant == pytest.approx(46.229, abs=0.001)
    assert pyr.lateral_edge == pytest.approx(47.941, abs=0.001)
    assert pyr.apex_angle == pytest.approx(30.72, abs=0.01)
    assert nets.fan_net(pyr).fold().height == pytest.approx(44.45, abs=0.1)


def test_a_net_too_big_for_its_slot_stops_the_build(tmp_path, project_root):
    data = copy_game(tmp_path / "data", SLUG, project_root)
    toml = data / "templates" / SLUG / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "piece = { base = 25.4, height = 44.45, closed = false }",
        "piece = { base = 25.4, height = 44.45, closed = true }"), encoding="utf-8")
    game = load_project(data, [SLUG]).games[SLUG]
    with pytest.raises(InputErrors) as exc:
        build_game(game, BuildOptions(out=tmp_path / "out"))
    assert "templates/pyramid-shambo/net.svg.j2:9: a 84.2 x 76.3 mm net does not fit a 91 x 54 mm box" in str(exc.value)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("column, value, message", [
    ("number", "2", "2 is out of range; a large takes 3 to 3"),
    ("color", "purple", "unknown colour 'purple'; known colours: red, yellow, green, blue, black"),
    ("deck", "huge", "unknown deck 'huge' for pyramid-shambo; known decks: large, medium, small, cue, turn"),
])
def test_a_broken_row_names_row_column_and_what_was_expected(tmp_path, project_root, column, value, message):
    data = copy_game(tmp_path, SLUG, project_root)
    row = find_row(data / "cards.csv", "id", "blue-l")
    set_cell(data / "cards.csv", row, column, value)
    with pytest.raises(InputErrors) as exc:
        load_project(data, [SLUG])
    assert [str(p) for p in exc.value.problems] == [f"cards.csv:{row}:{column}: {message}"]


@pytest.fixture(scope="module")
def built(tmp_path_factory, game):
    out = tmp_path_factory.mktemp("out")
    result = build_game(game, BuildOptions(out=out))
    return result, out / SLUG


def test_cards_pdf(built):
    result, folder = built
    assert not result.warnings
    reader = pypdf.PdfReader(folder / f"{SLUG}-cards.pdf")
    # the cue cards' fronts and backs; then the single-sided sheets, each with a blank back: the large nets,
    # the medium and small ones on one sheet (nets are cut along their own outlines, so sizes may share a
    # sheet, one band under another), the turn token
    assert len(reader.pages) == 2 + 2 * 3
    text = [page.extract_text() for page in reader.pages]
    assert "YOUR STARTING COLOUR" in text[0] and all(c.upper() in text[0] for c in COLORS)
    assert "Knock-out bonus" in text[1] and "backs" in text[1]
    for i, sizes in ((2, ("LARGE",)), (4, ("MEDIUM", "SMALL"))):
        for size in sizes:
            for color in COLORS:
                assert f"{color.upper()} {size}" in text[i]
        assert "GLUE" in text[i]
        assert "blank" in text[i + 1] and sizes[0] not in text[i + 1]
    assert "Medium pyramids, Small pyramids · fronts" in text[4]
    assert "TURN" in text[6]
    # TrimBox: the union of the filled slots of a page; the large nets' rows (3 of 54 mm, the columns as on a
    # sheet of their own) stacked from the top of the grid area, 297 - 4 = 293 mm
    t = grid("a4", 63.5, 88.9, 3).part(5).trim_box
    assert [float(v) / MM for v in reader.pages[0].trimbox] == pytest.approx([t.x, t.y, t.right, t.top], abs=0.01)
    t = grid("a4", 91, 54, 0, marks=False).trim_box
    assert [float(v) / MM for v in reader.pages[2].trimbox] == pytest.approx([t.x, 293 - 3 * 54, t.right, 293],
                                                                             abs=0.01)


def test_nets_of_two_sizes_share_a_sheet_without_touching(game):
    from generator.stages.designs import RenderOptions, render_game
    from generator.targets.pdf_sheets import SheetOptions, plan_pages

    pages, _, _ = plan_pages(render_game(game, RenderOptions()), SheetOptions())
    shared = next(p for p in pages if "Medium pyramids, Small pyramids" in p.footer and p.placements)
    slots = [p.slot for p in shared.placements]
    assert len(slots) == 10 and {(s.trim.w, s.trim.h) for s in slots} == {(73, 44), (34, 55)}
    for a in slots:
        assert shared.sheet.printable.contains_point(a.trim.x, a.trim.y)
        for b in slots:
            if a is not b:
                apart = max(b.trim.x - a.trim.right, a.trim.x - b.trim.right, b.trim.y - a.trim.top,
                            a.trim.y - b.trim.top)
                assert apart >= -1e-9, "two nets overlap"


def test_reference_pdf(built):
    _, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-reference.pdf")
    text = " ".join(page.extract_text() for page in reader.pages)
    for phrase in ("Tie escalation", "Making change", "Knock-out bonus", "Showdown", "Making the pieces",
                   "44.45 mm", "46.23 mm", "rulebook: 5, matches", "All components: 21"):
        assert phrase in text, phrase


def test_letter_pages(game, tmp_path):
    build_game(game, BuildOptions(page="letter", out=tmp_path))
    reader = pypdf.PdfReader(tmp_path / SLUG / f"{SLUG}-cards.pdf")
    assert len(reader.pages) == 8
    assert float(reader.pages[0].mediabox.width) == pytest.approx(215.9 * MM, abs=0.01)
