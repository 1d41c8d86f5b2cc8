"""Gutterfold: each front beside its back on one page, mirrored about the fold line."""

import pypdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from generator.build import BuildOptions, build_game
from generator.sheets.layout import gutterfold, sheet_notes
from model.sheets import load_project
from pnp.cli import main

from helpers import copy_game

SIZES = [(63.5, 88.9, 3.0), (88.9, 127.0, 3.0), (44.45, 63.5, 3.0), (50.0, 50.0, 2.0), (25.4, 25.4, 2.0)]
SLUG = "pyramid-scheme"


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_fronts_and_backs_mirror_about_the_fold_line(page, size):
    sheet = gutterfold(page, *size)
    [fold] = sheet.folds
    assert len(sheet.back_slots) == len(sheet.slots) == sheet.per_page >= 1
    vertical = fold.x0 == fold.x1
    for front, back in zip(sheet.slots, sheet.back_slots):
        if vertical:  # folded down the middle: x mirrors, y stays, backs turned back the way the front is turned
            at = fold.x0
            assert abs((front.trim.x + front.trim.right) / 2 + (back.trim.x + back.trim.right) / 2 - 2 * at) <= 0.1
            assert abs(front.trim.y - back.trim.y) <= 0.1 and back.rotation == (-front.rotation) % 360
            assert abs((front.clip.x + front.clip.right) + (back.clip.x + back.clip.right) - 4 * at) <= 0.2
            assert front.trim.right < at < back.trim.x or back.trim.right < at < front.trim.x
        else:  # folded across: y mirrors, backs turned 180 degrees (less the front's own turn)
            at = fold.y0
            assert abs((front.trim.y + front.trim.top) / 2 + (back.trim.y + back.trim.top) / 2 - 2 * at) <= 0.1
            assert abs(front.trim.x - back.trim.x) <= 0.1 and back.rotation == (180 - front.rotation) % 360
        assert (front.trim.w, front.trim.h) == (back.trim.w, back.trim.h)
    # the crop marks mirror too, and none crosses the fold
    for m in sheet.marks:
        if vertical:
            assert (m.x0 - fold.x0) * (m.x1 - fold.x0) >= 0
            assert any(abs(o.x0 - (2 * fold.x0 - m.x0)) <= 0.1 and abs(o.y0 - m.y0) <= 0.1 for o in sheet.marks)
        else:
            assert (m.y0 - fold.y0) * (m.y1 - fold.y0) >= 0
            assert any(abs(o.y0 - (2 * fold.y0 - m.y0)) <= 0.1 and abs(o.x0 - m.x0) <= 0.1 for o in sheet.marks)
        for s in sheet.all_slots:
            assert not s.clip.intersects_segment(m)


def test_poker_cards_fold_four_to_an_a4_page_and_three_to_a_letter_one():
    # turned a quarter, a poker card with its 3 mm bleed is 94.9 x 69.5 mm: one beside the fold on each half
    # of a portrait page (94.9 + 5 <= 105 - 1 - 4 = 100 on A4), four rows on A4 (283 <= 286), three on Letter
    for page, n in (("a4", 4), ("letter", 3)):
        sheet = gutterfold(page, 63.5, 88.9, 3.0)
        assert sheet.per_page == n and sheet.page_w < sheet.page_h and sheet.turned
        assert sheet_notes(page, sheet, 63.5, 88.9) == [
            f"{page} gutterfold: {n} per page (1 x {n}, turned each side, portrait, folded down the middle), "
            "the full 3 mm bleed kept on every side"]


@pytest.fixture(scope="module")
def folded(tmp_path_factory, project_root):
    out = tmp_path_factory.mktemp("out")
    game = load_project(project_root, [SLUG]).games[SLUG]
    return build_game(game, BuildOptions(out=out, layout="gutterfold"), reference=False)


def test_a_gutterfold_pdf_puts_each_back_at_the_mirror_of_its_front(folded):
    path = folded.files[0]
    reader = pypdf.PdfReader(path)
    # victims, police, founders and goals share sheets: 104 cards, 4 a page -> 26 pages; player aids 2 a page
    # -> 2; then tokens, 1 sheet
    assert len(reader.pages) == 26 + 2 + 1
    first = reader.pages[0]
    assert float(first.mediabox.width) < float(first.mediabox.height)  # portrait, the cards turned
    text = first.extract_text()
    assert "Penny Pincher" in text and "SMART-ASS" in text  # front and back on one page
    assert "fronts and backs, fold on the dashed line · page 1/29" in text
    sheet = gutterfold("a4", 63.5, 88.9, 3.0)
    dpi = 60
    image = pdfium.PdfDocument(str(path))[0].render(scale=dpi / 72).to_pil().convert("RGB")

    def pixel(x_mm, y_mm):
        return image.getpixel((round(x_mm / 25.4 * dpi), round((sheet.page_h - y_mm) / 25.4 * dpi)))

    front, back = sheet.slots[0], sheet.back_slots[0]  # g01, a green victim, and its back
    r, g, b = pixel(front.trim.x + 1.2, front.trim.top - 40)
    assert abs(r - 0x2B) < 25 and abs(g - 0x93) < 25 and abs(b - 0x48) < 25
    r, g, b = pixel(back.trim.right - 1.2, back.trim.top - 40)
    assert abs(r - 0x1B) < 25 and abs(g - 0x5E) < 25 and abs(b - 0x30) < 25
    # the dashed fold line is drawn on the page, between the halves
    [fold] = sheet.folds
    column = [pixel(fold.x0, y) for y in range(20, 190)]
    assert any(sum(c) < 600 for c in column)


def test_gutterfold_refuses_duplex_options(tmp_path):
    data = copy_game(tmp_path / "data")
    result = CliRunner().invoke(main, ["build", "--data", str(data), "--out", str(tmp_path / "out"),
                                       "--layout", "gutterfold", "--duplex", "short"])
    assert result.exit_code == 2
    assert "--duplex does not apply to --layout gutterfold" in result.output
    assert not (tmp_path / "out").exists()
