"""--layout shared on the printed page: neighbours share their cut lines, so each
design's bleed lies over its neighbour's trim and must be clipped at the shared
line.  Read from the rendered page: just inside every edge of every design's
trim, the design's own background colour, never its neighbour's."""

from __future__ import annotations

from generator.build import BuildOptions, build_game
from model.sheets import load_project

from pagetext import placed_forms
from test_cache_inputs import BASE_MANIFEST, ROWS, SLUG, TEMPLATES, write_game

DPI = 200
BLEED = 3.0  # poker and bridge: 3 mm


def test_shared_cut_lines_keep_each_design_to_its_own_side(tmp_path):
    import pypdfium2 as pdfium

    write_game(tmp_path / "data", BASE_MANIFEST, TEMPLATES, ROWS)
    game = load_project(tmp_path / "data", [SLUG]).games[SLUG]
    result = build_game(game, BuildOptions(out=tmp_path / "out", layout="shared"), reference=False)
    pdf = next(f for f in result.files if f.name == f"{SLUG}-cards.pdf")
    document = pdfium.PdfDocument(str(pdf))
    page_h = document[0].get_size()[1] * 25.4 / 72
    image = document[0].render(scale=DPI / 72).to_pil().convert("RGB")
    document.close()

    def pixel(x, y):  # mm from the page's bottom-left
        return image.getpixel((round(x / 25.4 * DPI), round((page_h - y) / 25.4 * DPI)))

    forms = placed_forms(pdf, 0)
    assert len(forms) > 2
    colours = set()
    for form in forms:
        left, bottom, right, top = form.area
        left, bottom, right, top = left + BLEED, bottom + BLEED, right - BLEED, top - BLEED  # the trim
        mx, my = (left + right) / 2, (bottom + top) / 2
        # 1 mm inside each edge: the design's background (its frame starts 3 mm inside)
        edges = [pixel(left + 1, my), pixel(right - 1, my), pixel(mx, bottom + 1), pixel(mx, top - 1)]
        assert len(set(edges)) == 1, (form.area, edges)
        colours.add(edges[0])
    assert len(colours) > 1  # neighbours of other colours: a neighbour's bleed would show
