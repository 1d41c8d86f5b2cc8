"""Reference sheets print like the card sheets (actual size, a trim box) and never leave a
heading alone at the foot of a page."""

from __future__ import annotations

import pdfplumber
import pypdf
import pytest

from generator.build import BuildOptions, build_game
from model.sheets import load_project

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]
HEADING_PT = 10.5  # the smallest heading style (h3); body text is 9.5 pt


def _lines(page):
    """The page's lines of text, top to bottom: (top, largest size, bold, text)."""
    rows: dict[int, list] = {}
    for c in page.chars:
        rows.setdefault(round(c["top"]), []).append(c)
    out = []
    for top in sorted(rows):
        chars = rows[top]
        out.append((top, max(c["size"] for c in chars), all("Bold" in c["fontname"] for c in chars if c["text"].strip()),
                    "".join(c["text"] for c in chars)))
    return out


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("slug", GAMES)
def test_no_page_ends_with_a_heading_and_the_pdf_asks_for_actual_size(slug, page, project_root, tmp_path):
    game = load_project(project_root, [slug]).games[slug]
    result = build_game(game, BuildOptions(out=tmp_path, page=page, targets=("reference",)))
    [path] = result.files
    reader = pypdf.PdfReader(path)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    for p in reader.pages:
        assert [float(v) for v in p.trimbox] == pytest.approx([float(v) for v in p.mediabox])
    with pdfplumber.open(path) as pdf:
        for i, p in enumerate(pdf.pages[:-1]):
            lines = [ln for ln in _lines(p) if "· reference · page" not in ln[3]]
            top, size, bold, text = lines[-1]
            assert not (bold and size >= HEADING_PT), f"{slug} {page}: page {i + 1} ends with the heading '{text}'"
