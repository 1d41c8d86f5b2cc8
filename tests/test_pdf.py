"""The PDFs themselves, read back: pages, boxes, text, fonts, pixels, determinism."""


import pypdf
import pytest

from generator.build import BuildOptions, build_game
from generator.sheets.layout import back_slots, grid
from model.errors import InputErrors
from model.sheets import load_project

from helpers import copy_game, design_point, find_row, placed, set_cell

MM = 72 / 25.4
SLUG = "pyramid-scheme"


@pytest.fixture(scope="module")
def built(tmp_path_factory, project_root):
    out = tmp_path_factory.mktemp("out")
    game = load_project(project_root, [SLUG]).games[SLUG]
    result = build_game(game, BuildOptions(out=out))
    return result, out / SLUG


def test_page_count_and_order(built):
    result, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-cards.pdf")
    # victims 64, police 18, founders 4 and goals 18 share the poker sheets: 104 cards, 8 a sheet -> 13 sheets;
    # 4 player aids (2 x 2 a sheet) -> 1; 20 tokens -> 1 single-sided sheet, last; every sheet two pages
    assert len(reader.pages) == 2 * (13 + 1 + 1) == 30
    footers = [p.extract_text().strip().splitlines()[-1] for p in reader.pages]
    assert "Victims · fronts · page 1/30" in footers[0]
    assert "Victims · backs, flip on long edge · page 2/30" in footers[1]
    assert "Police · fronts · page 17/30" in footers[16]  # the 64 victims fill 8 sheets
    assert "Police, Founders, Goals · fronts · page 21/30" in footers[20]  # the last 2 police share a sheet
    assert "Player aids · fronts · page 27/30" in footers[26]
    assert "Tokens · fronts · page 29/30" in footers[28]
    assert "Tokens · back of page 29, blank · page 30/30" in footers[29]
    assert result.components == 128


def test_boxes_and_viewer_preferences(built):
    _, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-cards.pdf")
    page = reader.pages[0]
    sheet = grid("a4", 63.5, 88.9, 3.0)
    assert float(page.mediabox.width) == pytest.approx(210 * MM, abs=0.01)
    tb = sheet.trim_box
    assert [float(v) for v in page.trimbox] == pytest.approx([tb.x * MM, tb.y * MM, tb.right * MM, tb.top * MM],
                                                             abs=0.01)
    bb = sheet.bleed_box
    assert [float(v) for v in page.bleedbox] == pytest.approx([bb.x * MM, bb.y * MM, bb.right * MM, bb.top * MM],
                                                              abs=0.01)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"


def test_card_names_are_text_in_the_pdf(built):
    _, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-cards.pdf")
    first = reader.pages[0].extract_text()
    for name in ("Penny Pincher", "Lawn Lover", "Golf Dad", "Eco Vlogger"):
        assert name in first
    assert "SMART-ASS" in reader.pages[1].extract_text()


def _fonts(reader):
    seen = {}
    def walk(resources):
        if not resources:
            return
        resources = resources.get_object()
        for f in (resources.get("/Font") or {}).values():
            f = f.get_object()
            desc = f.get("/FontDescriptor")
            if desc is None and "/DescendantFonts" in f:
                desc = f["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            seen[str(f["/BaseFont"])] = desc is not None and any(
                k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        for x in (resources.get("/XObject") or {}).values():
            walk(x.get_object().get("/Resources"))
    for page in reader.pages:
        walk(page.get("/Resources"))
    return seen


def test_every_font_is_embedded(built):
    _, folder = built
    for name in (f"{SLUG}-cards.pdf", f"{SLUG}-reference.pdf"):
        fonts = _fonts(pypdf.PdfReader(folder / name))
        assert fonts, "no fonts found"
        assert all(fonts.values()), f"not embedded in {name}: {[k for k, v in fonts.items() if not v]}"
        assert not any("Helvetica" in k for k in fonts)


def _pixel(path, page_index, x_mm, y_mm_from_top, dpi=100):
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    image = pdf[page_index].render(scale=dpi / 72).to_pil().convert("RGB")
    return image.getpixel((round(x_mm / 25.4 * dpi), round(y_mm_from_top / 25.4 * dpi)))


def test_a_green_victim_is_green_and_its_back_is_in_the_turned_slot(built, project_root):
    _, folder = built
    path = folder / f"{SLUG}-cards.pdf"
    game = load_project(project_root, [SLUG]).games[SLUG]
    page, slot = placed(game, "g01")  # a green victim
    assert page == 0
    # 1.2 mm inside the trim, 40 mm down its left edge: the card's coloured frame (#2b9348)
    r, g, b = _pixel(path, 0, *design_point(slot, 297, 1.2, 40))
    assert abs(r - 0x2B) < 20 and abs(g - 0x93) < 20 and abs(b - 0x48) < 20
    back_page, back = placed(game, "g01", "back")
    assert back_page == 1 and back.trim == back_slots(grid("a4", 63.5, 88.9, 3.0), "long")[slot.index].trim
    # the back's dark green frame, where turning the sheet over its long edge lays it behind the front's
    r, g, b = _pixel(path, 1, *design_point(back, 297, 63.5 - 1.2, 40))
    assert abs(r - 0x1B) < 20 and abs(g - 0x5E) < 20 and abs(b - 0x30) < 20
    # the page margin outside every bleed stays white
    assert _pixel(path, 0, 2.0, 150) == (255, 255, 255)


def test_reference_sheet_has_aid_goals_and_inventory(built):
    _, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-reference.pdf")
    text = "\n".join(p.extract_text() for p in reader.pages)
    for phrase in ("The three placement restrictions", "Flipping", "Rewards", "Reserve goal", "Goals and the police",
                   "Game end", "Birds of a Feather", "Card inventory", "Victims: 64 designs, 64 components (rulebook: 64, matches)", "Player aids: 1 design, 4 components",
                   "All components: 128"):
        assert phrase in text, phrase


def test_same_inputs_same_bytes(tmp_path, project_root):
    game = load_project(project_root, [SLUG]).games[SLUG]
    a = build_game(game, BuildOptions(out=tmp_path / "a"))
    b = build_game(game, BuildOptions(out=tmp_path / "b"))
    assert [f.name for f in a.files] == [f.name for f in b.files] == [f"{SLUG}-cards.pdf", f"{SLUG}-reference.pdf"]
    for fa, fb in zip(a.files, b.files, strict=True):
        assert fa.read_bytes() == fb.read_bytes()


def test_special_characters_print_literally(tmp_path):
    data = copy_game(tmp_path / "data")
    set_cell(data / "cards.csv", 2, "name", 'Tom <&> "Jerry"')
    game = load_project(data, [SLUG]).games[SLUG]
    result = build_game(game, BuildOptions(out=tmp_path / "out"), reference=False)
    text = pypdf.PdfReader(result.files[0]).pages[0].extract_text()
    assert 'Tom <&> "Jerry"' in text


def test_text_that_cannot_fit_is_a_warning_naming_card_and_field(tmp_path):
    data = copy_game(tmp_path / "data")
    row = find_row(data / "cards.csv", "id", "g01")
    set_cell(data / "cards.csv", row, "name", "Extraordinarily Long Winded Name " * 4)
    game = load_project(data, [SLUG]).games[SLUG]
    result = build_game(game, BuildOptions(out=tmp_path / "out"), reference=False)
    assert [str(w) for w in result.warnings if w.file == "cards.csv"] == [
        f"cards.csv:{row}:name: 'g01' (front): name does not fit its box even at 3 mm (needs 18.0 mm of 9.5 mm); "
        "it is cut short, shorten it",
        f"cards.csv:{row}:name: 'g01' (back): name does not fit its box even at 2.2 mm (needs 13.2 mm of 8 mm); "
        "it is cut short, shorten it"]


def test_failed_build_leaves_previous_pdfs_untouched(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    game = load_project(data, [SLUG]).games[SLUG]
    first = build_game(game, BuildOptions(out=out))
    before = {f: f.read_bytes() for f in first.files}
    (data / "templates" / SLUG / "police.svg.j2").write_text('{% extends "pnp/card.svg.j2" %}{% block body %}{{ nope }}{% endblock %}')
    game = load_project(data, [SLUG]).games[SLUG]
    with pytest.raises(InputErrors) as exc:
        build_game(game, BuildOptions(out=out))
    assert str(exc.value.problems[0]) == f"templates/{SLUG}/police.svg.j2:1: 'nope' is undefined (card 'police')"
    assert {f: f.read_bytes() for f in first.files} == before
    assert sorted(p.name for p in (out / SLUG).iterdir()) == sorted(f.name for f in first.files)


def test_worker_processes_give_the_same_bytes(tmp_path, project_root, monkeypatch):
    import generator.build as build

    game = load_project(project_root, [SLUG]).games[SLUG]
    serial = build_game(game, BuildOptions(out=tmp_path / "serial"))
    monkeypatch.setattr(build, "PARALLEL_MIN_DESIGNS", 10)
    parallel = build_game(game, BuildOptions(out=tmp_path / "parallel"), workers=2)
    assert [f.name for f in serial.files] == [f.name for f in parallel.files] == [f"{SLUG}-cards.pdf",
                                                                                  f"{SLUG}-reference.pdf"]
    for a, b in zip(serial.files, parallel.files, strict=True):
        assert a.read_bytes() == b.read_bytes()


def test_a_template_syntax_error_names_the_file_and_line_where_it_is(tmp_path):
    data = copy_game(tmp_path / "data")
    macros = data / "templates" / SLUG / "_ps.svg.j2"
    lines = macros.read_text(encoding="utf-8").splitlines()
    lines[2] = "{% if %}"
    macros.write_text("\n".join(lines), encoding="utf-8")
    game = load_project(data, [SLUG]).games[SLUG]
    with pytest.raises(InputErrors) as exc:
        build_game(game, BuildOptions(out=tmp_path / "out"))
    # every template importing the macros meets the error: it is said once
    assert [str(p) for p in exc.value.problems] == [f"templates/{SLUG}/_ps.svg.j2:3: template syntax error: "
                                                    "Expected an expression, got 'end of statement block'"]
