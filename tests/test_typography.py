"""Rich text, icons inside text and a game's own fonts, on paper as in the SVG."""

from __future__ import annotations

import io
import re
import shutil

import pypdf
import pytest

from generator.art import icon_sets
from generator.art.fonts import font_dir
from generator.draw.text import fit, parse, prepare, svg_lines
from model.errors import InputErrors
from model.sheets import load_project

from helpers import art_game, build_art, cards_pdf, set_cell


@pytest.fixture
def data(tmp_path):
    return art_game(tmp_path / "data")


build = build_art


def runs_of(pdf: bytes, page: int = 0) -> list[tuple[str, str]]:
    """(font, text) of every string drawn on a page, forms included, in order."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    out = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            out.append((str(font.get("/BaseFont", "")).split("+")[-1] if font else "", text.strip()))

    reader.pages[page].extract_text(visitor_text=visit)
    return out


def words(text: str) -> list[list[tuple]]:
    palette = {"gold": "#b8860b", "red": "#c0392b"}
    parsed = parse(text, lambda n: palette.get(n.lower()) or (n if n.startswith("#") else None),
                   lambda n: icon_sets.find(n, None) if n in ("coins", "star") else None)
    return [[(r.text, r.style.bold, r.style.italic, r.style.color, r.icon is not None) for r in w]
            for para in parsed.paragraphs for w in para], parsed.warnings


# ---------------------------------------------------------------- the markup
def test_bold_italic_colour_and_icons():
    found, warnings = words("Worth 2. **Draw** a *card*, then [gold]gain[/] :coins:.")
    assert found == [[("Worth", False, False, None, False)], [("2.", False, False, None, False)],
                     [("Draw", True, False, None, False)], [("a", False, False, None, False)],
                     [("card", False, True, None, False), (",", False, False, None, False)],
                     [("then", False, False, None, False)], [("gain", False, False, "#b8860b", False)],
                     [(":coins:", False, False, None, True), (".", False, False, None, False)]]
    assert warnings == []


def test_both_styles_overlapping_styles_and_hex_colours():
    found, _ = words("***both*** **a *b** c* [#c00]x[/]")
    assert found == [[("both", True, True, None, False)], [("a", True, False, None, False)],
                     [("b", True, True, None, False)], [("c", False, True, None, False)],
                     [("x", False, False, "#c00", False)]]


def test_escapes_breaks_and_non_breaking_spaces():
    found, warnings = words(r"\*not\* \:coins\: 2~coins a|b \[gold]x\\")
    assert found == [[("*not*", False, False, None, False)], [(":coins:", False, False, None, False)],
                     [("2\u00a0coins", False, False, None, False)], [("a", False, False, None, False)],
                     [("b", False, False, None, False)], [("[gold]x\\", False, False, None, False)]]
    assert warnings == []
    assert len(parse("a|b\nc").paragraphs) == 3


def test_unclosed_markup_prints_as_typed_with_a_warning():
    found, warnings = words("**Draw a card and [gold]gain")
    assert [r[0] for w in found for r in w] == ["**Draw", "a", "card", "and", "[gold]gain"]
    assert all(not r[1] and r[3] is None for w in found for r in w)
    assert warnings == ["'**' (bold) is never closed, so it prints as typed; close it with '**' or write \\* for a star",
                        "'[gold]' is never closed, so it prints as typed; end the colour with [/]"]


def test_stars_between_spaces_and_unknown_colours_are_just_characters():
    found, warnings = words("5 * 3 = 15 [optional] rule")
    assert [r[0] for w in found for r in w] == ["5", "*", "3", "=", "15", "[optional]", "rule"]
    assert warnings == []


# ---------------------------------------------------------------- fitting across styles
def test_an_icon_is_a_glyph_of_its_width_when_wrapping():
    coin = icon_sets.find("coins", None)
    size = 4.0
    icon_mm = coin.advance(size)
    text_mm = fit("Gain X", 100, 10, size, size, "DejaVuSans").layout[0].unit * size
    one = prepare(parse(":coins: :coins:", icon=lambda n: coin), "DejaVu Sans", False)
    # two icons and a space need exactly their widths: a box a hair narrower breaks the line
    width = 2 * icon_mm + one.words[0][1][1] * size
    assert len(fit(None, width + 0.01, 10, size, size, prepared=one).layout) == 1
    assert len(fit(None, width - 0.01, 10, size, size, prepared=one).layout) == 2
    assert text_mm > 0


def test_an_icon_sits_on_the_baseline_sized_to_the_text_in_the_texts_colour():
    prepared = prepare(parse("Gain :coins:", icon=lambda n: icon_sets.find(n, None)), "DejaVu Sans", False)
    fitted = fit(None, 60, 10, 4.0, 4.0, prepared=prepared)
    svg = svg_lines(fitted, 0, 0, 60, 10, anchor="start", valign="top",
                    fill="#123456", line_height=1.2)
    baseline = float(re.search(r'<text x="[\d.]+" y="([\d.]+)"', svg).group(1))
    left, top, scale = map(float, re.search(r"translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)", svg).groups())
    assert 'fill="#123456"><g><path' in svg  # coloured like the text
    assert top + 512 * scale == pytest.approx(baseline, abs=0.002)  # its bottom (viewBox 512 high) on the baseline
    assert 512 * scale == pytest.approx(icon_sets.HEIGHT * 4.0, abs=0.001)


def test_a_multicoloured_icon_keeps_its_colours(data):
    art = icon_sets.find("coin", data / "templates" / "tomb")
    assert art.coloured and "#e8b923" in art.svg(0, 5, 4, "#000000")


def test_long_words_are_hyphenated_in_narrow_boxes():
    prepared = prepare(parse("incomprehensibilities everywhere"), "DejaVu Sans", False)
    fitted = fit(None, 22, 30, 3.5, 3.5, prepared=prepared, language="en_US")
    assert fitted.hyphenated and not fitted.overflow
    assert all(line.unit * 3.5 <= 22 + 1e-9 for line in fitted.layout)
    assert fitted.lines[0].endswith("-")
    plain = fit(None, 22, 30, 3.5, 3.5, prepared=prepared, language=None)
    assert plain.overflow  # without hyphenation the word does not fit the box at all


# ---------------------------------------------------------------- on paper
def test_styles_print_in_their_own_faces_and_icons_as_pictures(data, tmp_path):
    result = build(data, tmp_path / "out")
    runs = runs_of(cards_pdf(result))
    assert ("DejaVuSerif-Bold", "Draw") in runs
    assert ("DejaVuSerif-Italic", "then") in runs
    assert ("DejaVuSerif", "Red") in runs
    assert not any(":coin:" in text for _, text in runs)


def test_unknown_icons_are_a_warning_with_close_matches(data, tmp_path):
    set_cell(data / "cards.csv", 4, "text", "Gain :coinz: now")
    warnings = [str(w) for w in build(data, tmp_path / "out").warnings]
    assert any(w.startswith("cards.csv:4:text: 'r3' (front): unknown icon ':coinz:', printed as typed; close matches: "
                            ":coin:, :coins:, ") for w in warnings)


def test_unclosed_markup_is_a_warning_at_its_cell(data, tmp_path):
    set_cell(data / "cards.csv", 4, "text", "**Draw a card")
    warnings = [str(w) for w in build(data, tmp_path / "out").warnings]
    assert ("cards.csv:4:text: 'r3' (front): '**' (bold) is never closed, so it prints as typed; close it with '**' "
            "or write \\* for a star") in warnings


def test_a_character_the_font_lacks_is_set_in_a_fallback_font_or_drawn_as_a_box(data, tmp_path):
    set_cell(data / "cards.csv", 4, "text", "A ★ and a 中")
    result = build(data, tmp_path / "out")
    warnings = [str(w) for w in result.warnings]
    assert "cards.csv:4:text: 'r3' (front): '★' is not in DejaVu Serif; printed in DejaVu Sans" in warnings
    assert ("cards.csv:4:text: 'r3' (front): '中' is not in DejaVu Serif nor in any fallback font; it prints as an "
            "empty box") in warnings
    runs = runs_of(cards_pdf(result))
    assert ("DejaVuSans", "★") in runs and not any("中" in t for _, t in runs)
    svg = next(d.front_svg for d in result.rendered.designs if d.card.id == "r3")
    assert re.search(r'<rect x="[\d.]+" y="[\d.]+" width="[\d.]+" height="[\d.]+" fill="none" stroke="#000000"', svg)


def test_text_below_the_floor_is_a_warning_with_its_size(data, tmp_path):
    set_cell(data / "cards.csv", 4, "text", "word " * 120)
    warnings = [str(w) for w in build(data, tmp_path / "out").warnings]
    assert ("cards.csv:4:text: 'r3' (front): text shrinks to 5.78 pt to fit, below the game's 6 pt floor "
            "(text_floor in game.toml); give it a larger box or fewer words") in warnings
    toml = data / "templates" / "tomb" / "game.toml"
    toml.write_text(toml.read_text().replace('font = "DejaVu Serif"', 'font = "DejaVu Serif"\ntext_floor = 5'))
    assert not [w for w in build(data, tmp_path / "out2").warnings if "floor" in str(w)]


# ---------------------------------------------------------------- a game's own fonts
def _own_fonts(data, spec: str):
    folder = data / "templates" / "tomb" / "fonts"
    folder.mkdir(exist_ok=True)
    for name in ("DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf", "DejaVuSansMono-Oblique.ttf"):
        shutil.copy(font_dir() / name, folder / name.replace("DejaVuSansMono", "Plain"))
    toml = data / "templates" / "tomb" / "game.toml"
    toml.write_text(toml.read_text().replace('font = "DejaVu Serif"', 'font = "Plain Mono"') + spec)
    return toml


PLAIN = """
[fonts."Plain Mono"]
regular = "fonts/Plain.ttf"
bold = "fonts/Plain-Bold.ttf"
italic = "fonts/Plain-Oblique.ttf"
"""


def test_a_games_own_family_is_embedded_and_subset(data, tmp_path):
    _own_fonts(data, PLAIN)
    result = build(data, tmp_path / "out")
    pdf = cards_pdf(result)
    runs = runs_of(pdf)
    assert ("DejaVuSansMono-Bold", "Draw") in runs and ("DejaVuSansMono-Oblique", "then") in runs
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    fonts = set()
    for page in reader.pages:
        def walk(res):
            for f in (res or {}).get("/Font", {}).values():
                f = f.get_object()
                fonts.add((str(f["/BaseFont"]), "/FontFile2" in f["/FontDescriptor"]
                           if "/FontDescriptor" in f else None))
            for x in (res or {}).get("/XObject", {}).values():
                walk(x.get_object().get("/Resources"))
        walk(page.get("/Resources"))
    mono = {name for name, embedded in fonts if "Mono" in name and embedded}
    assert any(re.fullmatch(r"/[A-Z]{6}\+DejaVuSansMono-Bold", n) for n in mono)  # a subset, embedded
    # the faces carry the files' digest: a replaced file is a new font, and every design renders again
    svg = result.rendered.designs[0].front_svg
    assert 'font-family="Plain Mono"' in svg and "data-pnp-fonts=" in svg


def test_a_font_file_saved_again_under_its_name_is_the_new_font_in_the_same_process(data, tmp_path):
    # as in pnp watch: the family was registered from these paths by the first build
    _own_fonts(data, PLAIN)
    assert ("DejaVuSansMono-Bold", "Draw") in runs_of(cards_pdf(build(data, tmp_path / "out")))
    shutil.copy(font_dir() / "DejaVuSans-Bold.ttf", data / "templates" / "tomb" / "fonts" / "Plain-Bold.ttf")
    runs = runs_of(cards_pdf(build(data, tmp_path / "out")))
    assert ("DejaVuSans-Bold", "Draw") in runs and ("DejaVuSansMono-Bold", "Draw") not in runs


def test_an_opentype_font_with_postscript_outlines_is_embedded_as_truetype(data, tmp_path):
    otf = next((font_dir().parents[3] / "fontawesomefree").glob("**/otfs/*Solid*.otf"), None)
    if otf is None:
        pytest.skip("no OpenType font with PostScript outlines at hand")
    folder = data / "templates" / "tomb" / "fonts"
    folder.mkdir()
    shutil.copy(otf, folder / "Solid.otf")
    toml = data / "templates" / "tomb" / "game.toml"
    toml.write_text(toml.read_text() + '\n[fonts.Symbols]\nregular = "fonts/Solid.otf"\n')
    template = data / "templates" / "tomb" / "relic.svg.j2"
    template.write_text(template.read_text().replace('field="text") }}', 'field="text") }}\n'
                                                     '{{ text("\uf005\uf005", 5, 80, 30, 6, size=4, family="Symbols") }}'))
    result = build(data, tmp_path / "out")
    runs = runs_of(cards_pdf(result))
    assert any(text == "\uf005\uf005" for _, text in runs)


@pytest.mark.parametrize("spec, message", [
    ('\n[fonts."Plain Mono"]\nregular = "fonts/Nope.ttf"\n',
     "templates/tomb/game.toml:20:fonts.Plain Mono.regular: font file 'fonts/Nope.ttf' not found in templates/tomb/"),
    ('\n[fonts."Plain Mono"]\nregular = "fonts/notafont.ttf"\n',
     "templates/tomb/game.toml:20:fonts.Plain Mono.regular: 'fonts/notafont.ttf' is not a font file that can be read"),
    ('\n[fonts."Plain Mono"]\nregular = "../../../etc/x.ttf"\n',
     "templates/tomb/game.toml:20:fonts.Plain Mono.regular: '../../../etc/x.ttf' is outside templates/tomb/"),
    ('\n[fonts.Other]\nregular = "fonts/Plain.ttf"\n',
     "templates/tomb/game.toml:3:game.font: unknown font family 'Plain Mono'; families: DejaVu Sans, DejaVu Serif, "
     "DejaVu Sans Mono, STIX General, Other"),
])
def test_font_mistakes_are_one_error_naming_the_manifest_line(data, spec, message):
    toml = _own_fonts(data, spec)
    (toml.parent / "fonts" / "notafont.ttf").write_bytes(b"<html>not a font</html>" * 20)
    with pytest.raises(InputErrors) as exc:
        load_project(data, ["tomb"])
    assert len(exc.value.problems) == 1
    assert str(exc.value.problems[0]).startswith(message)


def test_an_unknown_family_in_a_template_is_an_error_naming_the_families(data, tmp_path):
    template = data / "templates" / "tomb" / "relic.svg.j2"
    template.write_text(template.read_text().replace('field="name")', 'field="name", family="Papyrus")'))
    with pytest.raises(InputErrors) as exc:
        build(data, tmp_path / "out")
    assert str(exc.value.problems[0]).startswith(
        "templates/tomb/relic.svg.j2:5: unknown font family 'Papyrus'; families: DejaVu Sans, DejaVu Serif")
    template.write_text(template.read_text().replace(', family="Papyrus")', ')').replace(
        'field="text") }}', 'field="text") }}\n<text x="5" y="5" font-family="Comic Sans MS">hi</text>'))
    with pytest.raises(InputErrors) as exc:
        build(data, tmp_path / "out")
    assert str(exc.value.problems[0]).startswith('templates/tomb/relic.svg.j2:7: font-family "Comic Sans MS" is not a '
                                                 'family of this game; families: DejaVu Sans')
    assert str(exc.value.problems[0]).endswith("(cards 'r1', 'r2', 'r3')")


def test_svglib_draws_a_games_own_fonts_and_styles_as_the_svg_reader_does(data, tmp_path, monkeypatch):
    import generator.draw.svgfast as svgfast

    _own_fonts(data, PLAIN)
    fast = cards_pdf(build(data, tmp_path / "fast"))
    monkeypatch.setattr(svgfast, "to_display_list", lambda svg: None)
    assert cards_pdf(build(data, tmp_path / "slow")) == fast


def test_a_warm_build_in_a_new_process_draws_a_games_own_font(tmp_path):
    """The first build fills the cache; a second process (the PDFs deleted) takes every design
    from it and must still know the game's own font (Tiny Tombs' Fredoka One), giving the bytes
    of a build without the cache."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "docs" / "example"
    data = tmp_path / "example"
    shutil.copytree(example, data, ignore=shutil.ignore_patterns("output"))

    def build(out, *extra):
        done = subprocess.run([sys.executable, "-m", "pnp.cli", "build", "--data", str(data), "--out", str(out),
                               *extra], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        return (out / "tiny-tombs" / "tiny-tombs-cards.pdf").read_bytes()

    build(tmp_path / "warm")
    for pdf in (tmp_path / "warm" / "tiny-tombs").glob("*.pdf"):
        pdf.unlink()
    assert build(tmp_path / "warm") == build(tmp_path / "cold", "--no-cache")
