"""pnp new: a game that check and build accept at once, written beside what is
there without touching it, and never over anything."""

from __future__ import annotations

import pypdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from pnp.cli import main

from helpers import copy_game


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_a_new_game_in_a_new_folder_checks_and_builds(tmp_path):
    data = tmp_path / "mine"
    code, output = run("new", "moon-base", "--data", data)
    assert code == 0, output
    assert sorted(p.relative_to(data).as_posix() for p in data.rglob("*") if p.is_file()) == [
        "cards.csv", "templates/moon-base/back.svg.j2", "templates/moon-base/card.svg.j2",
        "templates/moon-base/game.toml"]
    assert f"Next: pnp check moon-base --data {data}" in output
    code, output = run("check", "--data", data)
    assert code == 0 and output.splitlines()[-1] == "All sheets and templates are fine.", output
    code, output = run("build", "--data", data)
    assert code == 0, output
    pdf = data / "output" / "moon-base" / "moon-base-cards.pdf"
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 2  # 6 cards on one page of fronts, then its backs
    text = reader.pages[0].extract_text()
    assert all(name in text for name in ("Red One", "Blue Two", "Green Three")) and "Moon Base" in \
        reader.pages[1].extract_text()
    # the cards are drawn in their colours' fills, as the manifest says: two of the three red cards in the
    # first row of the page (cards turned a quarter, two to a row, rows about 23 % of the page apart), the
    # second blue and the green one in the third
    image = pdfium.PdfDocument(pdf)[0].render(scale=1).to_pil().convert("RGB")
    w, h = image.size

    def share(colour, top, bottom):
        pixels = [image.getpixel((x, y)) for x in range(0, w, 2) for y in range(int(top * h), int(bottom * h), 2)]
        return sum(all(abs(a - b) < 8 for a, b in zip(px, colour)) for px in pixels) / len(pixels)

    red, blue, green = (0xC0, 0x39, 0x2B), (0x24, 0x71, 0xA3), (0x1E, 0x84, 0x49)
    assert share(red, 0.05, 0.25) > 0.15 and share(red, 0.53, 0.72) < 0.01
    assert share(blue, 0.53, 0.72) > 0.1 and share(green, 0.53, 0.72) > 0.04


def test_a_new_game_joins_an_existing_sheet_byte_for_byte(tmp_path):
    data = copy_game(tmp_path / "data")
    sheet = data / "cards.csv"
    text = sheet.read_text(encoding="utf-8").replace(",", ";").replace("\n", "\r\n")
    sheet.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))  # saved by a spreadsheet program: BOM, ';', CR LF
    before = sheet.read_bytes()
    code, output = run("new", "moon-base", "--data", data, "--title", 'The "Moon" Base')
    assert code == 0, output
    after = sheet.read_bytes()
    assert after.startswith(before)
    added = after[len(before):].decode("utf-8")
    assert added.startswith("moon-base;card;red-1;Red One;3;red;1;") and added.endswith("\r\n")
    assert added.count("\r\n") == 3
    code, output = run("check", "--data", data)
    assert code == 0, output
    code, output = run("build", "moon-base", "--data", data, "--out", tmp_path / "out")
    assert code == 0, output
    back = pypdf.PdfReader(tmp_path / "out" / "moon-base" / "moon-base-cards.pdf").pages[1].extract_text()
    assert 'The "Moon" Base' in back


@pytest.mark.parametrize("slug,line,code", [
    ("Moon Base", "error 'Moon Base' cannot name a game: use lowercase letters, digits and single '-' between them, "
                  "starting with a letter, at most 40 characters (e.g. moon-base)", 2),
    ("9lives", "error '9lives' cannot name a game: use lowercase letters, digits and single '-' between them, "
               "starting with a letter, at most 40 characters (e.g. game-9lives)", 2),
    ("moon--base", "error 'moon--base' cannot name a game: use lowercase letters, digits and single '-' between "
                   "them, starting with a letter, at most 40 characters (e.g. moon-base)", 2),
    ("pyramid-scheme", "error 'pyramid-scheme' is taken: a bundled game with a rules engine has it; pick another "
                       "slug", 2),
])
def test_a_bad_slug_is_refused(tmp_path, slug, line, code):
    result, output = run("new", slug, "--data", tmp_path / "mine")
    assert (result, output.splitlines()) == (code, [line])
    assert not (tmp_path / "mine").exists()


def test_it_never_overwrites(tmp_path):
    data = tmp_path / "mine"
    assert run("new", "moon-base", "--data", data)[0] == 0
    files = {p: p.read_bytes() for p in data.rglob("*") if p.is_file()}
    code, output = run("new", "moon-base", "--data", data)
    assert code == 1 and output.splitlines() == [
        f"error {data}/templates/moon-base already exists; pnp new never overwrites: pick another slug, or remove "
        "the folder first"]
    # the folder gone, its rows still there: refused too
    for p in (data / "templates" / "moon-base").iterdir():
        p.unlink()
    (data / "templates" / "moon-base").rmdir()
    code, output = run("new", "moon-base", "--data", data)
    assert code == 1 and output.splitlines() == [
        "error cards.csv already has rows of 'moon-base' (row 2 and 2 more); pnp new starts a game that does not "
        "exist yet"]
    assert not (data / "templates" / "moon-base").exists()
    assert {p: p.read_bytes() for p in data.rglob("*") if p.is_file()} == \
        {p: b for p, b in files.items() if "templates" not in p.parts}


def test_a_workbook_is_not_rewritten(tmp_path):
    import pandas as pd

    data = tmp_path / "mine"
    data.mkdir()
    pd.DataFrame([["a", "card", "x", "X", 1]], columns=["game", "deck", "id", "name", "count"]).to_excel(
        data / "cards.xlsx", index=False)
    code, output = run("new", "moon-base", "--data", data)
    assert code == 1 and "pnp new adds its sample rows to cards.csv only" in output
    assert sorted(p.name for p in data.iterdir()) == ["cards.xlsx"]


def test_a_template_that_would_take_the_machines_memory_is_one_line(tmp_path):
    data = tmp_path / "mine"
    assert run("new", "moon-base", "--data", data)[0] == 0
    card = data / "templates" / "moon-base" / "card.svg.j2"
    card.write_text(card.read_text().replace("{% endblock %}", "<text>{{ range(10**9)|list|length }}</text>\n"
                                             "{% endblock %}"), encoding="utf-8")
    line = next(n for n, text in enumerate(card.read_text().splitlines(), 1) if "10**9" in text)
    code, output = run("check", "--data", data)
    assert code == 1
    assert (f"error templates/moon-base/card.svg.j2:{line}: range() of 1,000,000,000 items; a template may loop "
            "over at most 100,000") in output


def test_a_column_of_ones_own_is_used_by_following_what_the_messages_say(tmp_path):
    # a new game, a column "flavour" added to the sheet and printed by the card template
    data = tmp_path / "mine"
    assert run("new", "moon-base", "--data", data)[0] == 0
    sheet = data / "cards.csv"
    lines = sheet.read_text(encoding="utf-8").splitlines()
    sheet.write_text("\n".join([lines[0] + ",flavour"] + [line + ",Cold up here." for line in lines[1:]]) + "\n",
                     encoding="utf-8")
    template = data / "templates" / "moon-base" / "card.svg.j2"
    template.write_text(template.read_text(encoding="utf-8").replace(
        "{% endblock %}", '{{ text(card.flavour, B + 7, B + 80, TW - 14, 8, size=3) }}\n{% endblock %}', 1),
        encoding="utf-8")
    code, output = run("build", "--data", data)
    hint = "declare it in templates/moon-base/game.toml under [decks.card.columns] (flavour = {})"
    assert code == 1
    assert f"warning cards.csv:1:flavour: unknown column 'flavour' is ignored; to use it, {hint}" in output
    assert "card has no column 'flavour'; " + hint in output
    manifest = data / "templates" / "moon-base" / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "flavour = {}\n", encoding="utf-8")
    code, output = run("build", "--data", data)
    assert code == 0 and not [line for line in output.splitlines() if line.startswith("warning")], output
    assert "Cold up here." in pypdf.PdfReader(data / "output" / "moon-base" / "moon-base-cards.pdf").pages[0] \
        .extract_text()


@pytest.mark.parametrize("mistake, line", [
    (('size = "poker"', 'size = "pokr"'),
     "error templates/moon-base/game.toml [decks.card]: unknown size 'pokr'; known sizes: aid, bridge, mini, poker, "
     "tarot, tile-40, token-25"),
    (("{% endblock %}", "{% endblok %}"),
     "error templates/moon-base/card.svg.j2:6: template syntax error: Encountered unknown tag 'endblok'."),
])
def test_one_mistake_is_one_line_not_one_per_row(tmp_path, mistake, line):
    data = tmp_path / "mine"
    assert run("new", "moon-base", "--data", data)[0] == 0
    path = data / "templates" / "moon-base" / ("game.toml" if "size" in mistake[0] else "card.svg.j2")
    path.write_text(path.read_text(encoding="utf-8").replace(*mistake, 1), encoding="utf-8")
    for command in ("check", "build"):
        code, output = run(command, "--data", data)
        problems = [x for x in output.splitlines() if x.startswith(("error", "warning"))]
        assert code == 1 and len(problems) == 1 and problems[0].startswith(line), output
