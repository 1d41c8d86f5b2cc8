"""A name written with markup (``**Red** *One*``) is set on the reference sheet as the cards set it:
bold and italic, never its asterisks; in the generated inventory and in the bundled reference
templates alike."""

from __future__ import annotations

import pdfplumber
import pytest

from helpers import copy_game, find_row, new_game, run_pnp, set_cell


def styled_words(pdf_path, word: str) -> set[str]:
    """The font names of the characters of every occurrence of ``word`` in the PDF, and whether an asterisk
    is printed anywhere (as "*")."""
    fonts = set()
    with pdfplumber.open(pdf_path) as pdf:
        for page in pdf.pages:
            chars = page.chars
            text = "".join(c["text"] for c in chars)
            if "*" in text:
                fonts.add("*")
            start = text.find(word)
            while start >= 0:
                fonts |= {c["fontname"].split("+")[-1] for c in chars[start:start + len(word)]}
                start = text.find(word, start + 1)
    return fonts


def test_the_inventory_sets_a_names_markup(tmp_path):
    new_game(tmp_path, "inks")
    cards = tmp_path / "cards.csv"
    set_cell(cards, find_row(cards, "id", "red-1"), "name", "**Crimson** *Quill*")
    code, output = run_pnp("build", "--data", tmp_path)
    assert code == 0, output
    reference = tmp_path / "output" / "inks" / "inks-reference.pdf"
    assert styled_words(reference, "Crimson") == {"DejaVuSans-Bold"}
    assert styled_words(reference, "Quill") == {"DejaVuSans-Oblique"}


@pytest.mark.slow
@pytest.mark.parametrize("slug, card", [("golden-pyramid", "red-sun"), ("pyramid-shambo", "red-l"),
                                         ("drinking-pyramid", "AH")])
def test_the_bundled_reference_sheets_set_a_names_markup(tmp_path, slug, card):
    data = copy_game(tmp_path / "data", slug)
    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", card), "name", "**Crimson** Quill")
    code, output = run_pnp("build", slug, "--data", data)
    assert code == 0, output
    fonts = styled_words(data / "output" / slug / f"{slug}-reference.pdf", "Crimson")
    assert fonts and all(f.endswith("-Bold") for f in fonts), fonts
