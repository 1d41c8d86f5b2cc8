"""Reference sheets: the inventory of any deck, and the template's mistakes as problem lines."""

from __future__ import annotations

import csv

import pypdf
import pytest
from click.testing import CliRunner

from pnp.cli import main

from helpers import copy_game


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def wide_game(folder, columns: int, rows: int = 12):
    """A game whose one deck has ``columns`` whole-number columns (and a choice with long values)."""
    names = [f"stat{i}" for i in range(columns)]
    (folder / "templates" / "wide").mkdir(parents=True)
    (folder / "templates" / "wide" / "game.toml").write_text(
        '[game]\ntitle = "Wide"\n[decks.card]\nlabel = "Cards"\nsize = "poker"\nfront = "card.svg.j2"\n'
        '[decks.card.columns]\n' + "".join(f'{n} = {{ type = "int", min = 0, max = 999 }}\n' for n in names) +
        'kind = { values = ["a-rather-long-kind-of-card", "short"] }\n', encoding="utf-8")
    (folder / "templates" / "wide" / "card.svg.j2").write_text(
        '{% extends "pnp/card.svg.j2" %}{% block body %}{{ text(card.name, B + 5, B + 5, TW - 10, 20) }}'
        '{% endblock %}', encoding="utf-8")
    with (folder / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["game", "deck", "id", "name", "count", *names, "kind"])
        for r in range(rows):
            w.writerow(["wide", "card", f"c{r}", f"Card {r:02d}", 1,
                        *[(r * 37 + i) % 1000 for i in range(columns)], "a-rather-long-kind-of-card"])
    return folder


@pytest.mark.parametrize("columns", [0, 4, 5, 7, 12, 31])
def test_the_inventory_lays_out_any_number_of_columns(tmp_path, columns):
    data = wide_game(tmp_path / "data", columns)
    code, output = run("build", "--data", data, "--out", tmp_path / "out")
    assert code == 0, output
    reader = pypdf.PdfReader(tmp_path / "out" / "wide" / "wide-reference.pdf")
    text = "\n".join(page.extract_text() for page in reader.pages)
    middle = columns + 1  # and kind
    parts = -(-middle // 5)
    # every column and every value is on the sheet; a deck with more than five columns beside
    # id, name and count is split into tables of at most five, each repeating id, name and count
    for i in range(columns):
        assert f"stat{i}" in text
    assert text.count("Card 11") == parts
    assert text.count("Cards, continued") == parts - 1
    assert "Cards: 12 designs, 12 components" in text
    for page in reader.pages:  # nothing drawn beyond the page's margins
        assert float(page.mediabox.width) > 0
    if parts > 1:
        assert f"Cards, continued ({parts}/{parts}):" in text


def test_the_inventory_stays_inside_the_page(tmp_path):
    import pypdfium2 as pdfium

    data = wide_game(tmp_path / "data", 12)
    assert run("build", "--data", data, "--out", tmp_path / "out")[0] == 0
    pdf = pdfium.PdfDocument(tmp_path / "out" / "wide" / "wide-reference.pdf")
    for page in pdf:
        image = page.render(scale=1).to_pil().convert("L")
        w, h = image.size
        margin = int(12 / 25.4 * 72)  # 12 of the 15 mm margin, in points (= pixels at scale 1)
        strip = [image.getpixel((x, y)) for x in list(range(0, margin)) + list(range(w - margin, w))
                 for y in range(0, h, 7)]
        assert min(strip) > 250, "something is drawn in the side margins"


def _reference(data, body: str) -> None:
    folder = data / "templates" / "pyramid-scheme"
    (folder / "reference.xml.j2").write_text(f"<reference>\n<h1>{{{{ game.title }}}}</h1>\n{body}\n</reference>\n",
                                             encoding="utf-8")


@pytest.mark.parametrize("body,line", [
    ('<p>x <font colr="red">y</font></p>', "error templates/pyramid-scheme/reference.xml.j2:3: <p>: inline markup "
                                           "reportlab cannot read: syntax error: invalid attribute name colr"),
    ("<p>x <b>y</p>", "error templates/pyramid-scheme/reference.xml.j2: the template gave invalid XML: mismatched tag: "
                      "line 3, column 11 (line 3 of the XML it gave)"),
    ('<table widths="20,x"><tr><td>a</td><td>b</td></tr></table>',
     'error templates/pyramid-scheme/reference.xml.j2:3: <table widths="20,x">: give column widths in mm, e.g. 20,60'),
    ('<table widths="20"><tr><td>a</td><td>b</td></tr></table>',
     'error templates/pyramid-scheme/reference.xml.j2:3: <table widths="20">: 1 widths for 2 columns; give one '
     'positive width (mm) per column'),
    ('<card deck="victim" id="nope"/>', "error templates/pyramid-scheme/reference.xml.j2:3: <card deck='victim' "
                                        "id='nope'>: no such card"),
    ('<spacer h="lots"/>', 'error templates/pyramid-scheme/reference.xml.j2:3: <spacer h="lots">: give a height in mm'),
])
def test_a_reference_template_mistake_is_one_line(tmp_path, body, line):
    data = copy_game(tmp_path / "data")
    _reference(data, body)
    code, output = run("build", "--data", data, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in output
    errors = [x for x in output.splitlines() if x.startswith("error")]
    assert len(errors) == 1 and errors[0].startswith(line), output
    assert not (tmp_path / "out" / "pyramid-scheme").exists()
    code, output = run("check", "--data", data)  # check finds it too
    assert code == 1 and any(x.startswith(line) for x in output.splitlines())
