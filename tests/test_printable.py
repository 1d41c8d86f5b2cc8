"""Nothing that must print lies in the edge a home printer cannot print; proofs outline
trim, safe area and text that did not fit."""

import pypdf
import pypdfium2 as pdfium
import pytest

from generator.build import BuildOptions, build_game
from generator.sheets.layout import (FOOTER_BAND, PRINTER_MARGIN, LayoutError, Rect, back_marks, back_sheet, back_slots,
                              grid, gutterfold, sheet_notes)
from model.sheets import load_project

from helpers import copy_game, design_point, find_row, placed, set_cell

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]
EPS = 1e-6


@pytest.fixture(scope="module")
def project(project_root):
    return load_project(project_root)


def _inside(r: Rect, area: Rect) -> bool:
    return (area.x - EPS <= r.x and r.right <= area.right + EPS and area.y - EPS <= r.y
            and r.top <= area.top + EPS)


def _segment_inside(s, area: Rect) -> bool:
    return _inside(Rect(min(s.x0, s.x1), min(s.y0, s.y1), abs(s.x1 - s.x0), abs(s.y1 - s.y0)), area)


def _sheets(deck, page):
    size = deck.size
    front = grid(page, size.width, size.height, size.bleed, marks=deck.crop_marks)
    yield "fronts", front, front.slots, front.marks + front.cut_lines
    for duplex in ("long", "short", "none"):
        backs = back_sheet(front, duplex)
        assert backs.slots == back_slots(front, duplex) and backs.marks == back_marks(front, duplex)
        yield f"backs ({duplex})", backs, backs.slots, backs.marks + backs.cut_lines
    folded = gutterfold(page, size.width, size.height, size.bleed, marks=deck.crop_marks)
    yield "gutterfold", folded, folded.all_slots, folded.marks + folded.cut_lines + folded.folds


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("slug", GAMES)
def test_every_crop_mark_and_all_artwork_of_every_game_lies_inside_the_printable_area(slug, page, project):
    for name, deck in project.games[slug].manifest.decks.items():
        for label, sheet, slots, lines in _sheets(deck, page):
            area = sheet.printable
            assert area == Rect(PRINTER_MARGIN, PRINTER_MARGIN, sheet.page_w - 8, sheet.page_h - 8)
            # the footer's band: at the bottom, or at the top of a backs page turned over the short edge
            footer = Rect(area.x, area.top - FOOTER_BAND if sheet.footer_top else area.y, area.w, FOOTER_BAND)
            for slot in slots:
                assert _inside(slot.clip, area), f"{slug} {name} {label}: artwork at {slot.clip} outside {area}"
                assert slot.clip.y >= footer.top - EPS or slot.clip.top <= footer.y + EPS, \
                    f"{slug} {name} {label}: artwork in the footer band"
            for line in lines:
                assert _segment_inside(line, area), f"{slug} {name} {label}: {line} outside {area}"
                assert not footer.intersects_segment(line), f"{slug} {name} {label}: {line} in the footer band"
            if deck.crop_marks:
                # every trim line keeps a guide: a crop mark or a full cut line
                xs = {round(x, 3) for s in sheet.slots for x in (s.trim.x, s.trim.right)}
                marked = {round(m.x0, 3) for m in sheet.marks + sheet.cut_lines if m.x0 == m.x1}
                assert xs <= marked, f"{slug} {name} {label}: unmarked trim lines {sorted(xs - marked)}"
            assert not sheet.cut_lines, f"{slug} {name}: a bundled component should keep crop marks"


def _white_edge(path, margin_mm=PRINTER_MARGIN, dpi=50):
    """The pages whose outer ``margin_mm`` holds anything but white."""
    import numpy as np

    pdf = pdfium.PdfDocument(str(path))
    bad = []
    edge = int(margin_mm / 25.4 * dpi) - 1  # whole pixels inside the margin
    for i in range(len(pdf)):
        pixels = np.asarray(pdf[i].render(scale=dpi / 72).to_pil().convert("L"))
        strips = [pixels[:edge], pixels[-edge:], pixels[:, :edge], pixels[:, -edge:]]
        if min(int(s.min()) for s in strips) < 250:
            bad.append(i + 1)
    return bad


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_built_pages_leave_the_printer_margin_blank(page, project, tmp_path):
    for slug in ("pyramid-scheme", "golden-pyramid"):
        result = build_game(project.games[slug], BuildOptions(out=tmp_path, page=page), reference=False)
        assert _white_edge(result.files[0]) == [], f"{slug} on {page}: ink in the outer {PRINTER_MARGIN} mm"
        # the footer is still on every page, inside the printable area
        reader = pypdf.PdfReader(result.files[0])
        assert all(f"{project.games[slug].title} · " in p.extract_text() for p in reader.pages)


def test_the_notes_give_the_bleed_kept_and_what_more_would_fit(project, tmp_path):
    result = build_game(project.games["pyramid-scheme"], BuildOptions(out=tmp_path, page="letter"), reference=False)
    assert result.notes == [
        "Victims, Police, Founders, Goals: letter: 6 per page (2 x 3, turned), the full 3 mm bleed kept on every "
        "side; --bleed 1 fits 8",
        "Player aids: letter: 2 per page (2 x 1), the full 3 mm bleed kept on every side; --bleed 1 fits 4; 4 with "
        "--printer-margin 0 (a printer that prints to the edge)",
        "Tokens: letter: 48 per page (6 x 8), the full 2 mm bleed kept on every side; --bleed 1 fits 63; 63 with "
        "--printer-margin 0 (a printer that prints to the edge)"]
    assert not result.warnings  # a note, not a warning
    smaller = build_game(project.games["pyramid-scheme"], BuildOptions(out=tmp_path / "b", page="letter", bleed=1),
                         reference=False)
    assert smaller.notes[0] == ("Victims, Police, Founders, Goals: letter: 8 per page (2 x 4, turned), 1 mm of the "
                                "3 mm bleed kept on every side")
    shared = build_game(project.games["pyramid-scheme"], BuildOptions(out=tmp_path / "s", layout="shared"),
                        reference=False)
    assert shared.notes[0] == ("Victims, Police, Founders, Goals: a4: 9 per page (3 x 3), neighbours share their "
                               "cut lines, 3 mm bleed kept around the sheet")


def test_a_wider_margin_takes_fewer_components_and_a_bad_one_is_refused():
    assert grid("a4", 63.5, 88.9, 3, printer_margin=8).per_page < grid("a4", 63.5, 88.9, 3).per_page
    with pytest.raises(LayoutError, match="printer margin of 25 mm is out of range"):
        grid("a4", 63.5, 88.9, 3, printer_margin=25)
    with pytest.raises(LayoutError, match="does not fit"):
        grid("a4", 205, 50, 3, turn=False)


def test_a_component_with_no_room_for_marks_gets_full_cut_lines():
    # 198 mm + 2 x 1 mm bleed fits the 202 mm between the margins, but no crop marks beside it
    sheet = grid("a4", 198, 40, 1, turn=False)
    assert sheet.cols == 1 and sheet.cut_lines
    assert all(c.y0 == c.y1 for c in sheet.cut_lines)  # horizontal trim lines, drawn in full
    assert any("cut lines are drawn in full" in n for n in sheet_notes("a4", sheet, 198, 40))
    assert all(_segment_inside(c, sheet.printable) for c in sheet.cut_lines)


def test_the_proof_outlines_trim_safe_area_and_text_that_does_not_fit(tmp_path):
    import numpy as np

    data = copy_game(tmp_path / "data")
    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", "g01"), "name", "Extraordinarily Long Winded Name " * 4)
    game = load_project(data, ["pyramid-scheme"]).games["pyramid-scheme"]
    result = build_game(game, BuildOptions(out=tmp_path / "out", targets=("pdf-sheets", "proof")), reference=False)
    proof = tmp_path / "out" / "pyramid-scheme" / "pyramid-scheme-proof.pdf"
    assert proof in result.files
    assert len(pypdf.PdfReader(proof).pages) == len(pypdf.PdfReader(result.files[0]).pages)
    dpi = 100
    image = np.asarray(pdfium.PdfDocument(str(proof))[0].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int)
    plain = np.asarray(pdfium.PdfDocument(str(result.files[0]))[0].render(scale=dpi / 72).to_pil().convert("RGB"))
    page, slot = placed(game, "g01")
    assert page == 0

    def px(point):
        x_mm, y_mm = point
        return image[round(y_mm / 25.4 * dpi), round(x_mm / 25.4 * dpi)]

    def magenta(c):
        return c[0] > 170 and c[1] < 90 and c[2] > 130

    def red(c):
        return c[0] > 170 and c[1] < 70 and c[2] < 70

    # the red trim line on the card's left edge, halfway down (within a pixel either side)
    assert any(red(px(design_point(slot, 297, u, 40))) for u in (-0.25, 0.0, 0.25))
    # magenta around the name box: some on the card's upper half, none on the plain sheet
    corners = [design_point(slot, 297, u, v) for u in (0, 63.5) for v in (0, 40)]
    x0, x1 = (round(f(c[0] for c in corners) / 25.4 * dpi) for f in (min, max))
    y0, y1 = (round(f(c[1] for c in corners) / 25.4 * dpi) for f in (min, max))
    region = image[y0:y1, x0:x1]
    is_magenta = (region[..., 0] > 170) & (region[..., 1] < 90) & (region[..., 2] > 130)
    assert is_magenta.sum() > 50
    plain_region = plain[y0:y1, x0:x1].astype(int)
    assert not ((plain_region[..., 0] > 170) & (plain_region[..., 1] < 90) & (plain_region[..., 2] > 130)).any()
    assert not magenta(px(design_point(slot, 297, 30, 80)))  # the text box lower down fits
