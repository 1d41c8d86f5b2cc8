"""Every bundled game prints like Pyramid Scheme: embedded fonts only, page boxes,
footers, A4 and Letter."""

import pypdf
import pytest

from generator.build import BuildOptions, build_game
from model.sheets import load_project

from test_pdf import _fonts

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]


@pytest.fixture(scope="module")
def project(project_root):
    return load_project(project_root)


@pytest.mark.parametrize("slug", GAMES)
def test_game_prints_on_a4_with_embedded_fonts_and_boxes(slug, project, tmp_path):
    game = project.games[slug]
    result = build_game(game, BuildOptions(out=tmp_path))
    assert not result.warnings, [str(w) for w in result.warnings]
    for path in result.files:
        reader = pypdf.PdfReader(path)
        fonts = _fonts(reader)
        assert fonts and all(fonts.values()), f"{path.name}: fonts not embedded"
        assert not any("Helvetica" in f for f in fonts)
    cards = pypdf.PdfReader(result.files[0])
    for n, page in enumerate(cards.pages, start=1):
        assert "/TrimBox" in page and "/BleedBox" in page
        assert f"{game.title} · " in page.extract_text() and f"page {n}/{len(cards.pages)}" in page.extract_text()


@pytest.mark.parametrize("slug", GAMES)
def test_game_prints_on_letter(slug, project, tmp_path):
    result = build_game(project.games[slug], BuildOptions(out=tmp_path, page="letter"), reference=False)
    page = pypdf.PdfReader(result.files[0]).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((612, 792), abs=0.01)
    trim = [float(v) for v in page.trimbox]
    assert 0 <= trim[0] and trim[2] <= 612 and 0 <= trim[1] and trim[3] <= 792
