"""Text fitting, checked on the printed page: a small game of our own whose
cards each hold one text box (its place, size and font size come from the
row) and, in a corner, the card's id as a marker.  The PDF is built, every
character is read back with its ink box (pdfium), and the characters of the
box must lie inside the box; what could not fit must be a warning naming the
row.  Nothing here asks the fitting code what it did.

Each design is a form on the page; the form's matrix says where it lies and
how it is turned, so every character is read in its design's own frame (as if
upright), whatever the sheet layout does.  The marker names the design; a
character outside every design must be the page footer's."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from generator.build import BuildOptions, build_game
from model.sheets import load_project

from pagetext import lines, page_chars, page_count, placed_forms

SLUG = "word-lab"
B, TW, TH = 3.0, 100.0, 150.0  # bleed and trim of the deck below
MARK = (B + 4, B + TH - 4)  # where the marker's baseline starts, card millimetres from the bleed's top left
INK = 0.25  # mm a glyph's ink may reach past its advance box (side bearings, round letters)

MANIFEST = f"""
[game]
title = "Word Lab"
font = "DejaVu Sans"

[decks.word]
label = "Words"
size = {{ width = {TW:g}, height = {TH:g}, bleed = {B:g} }}
front = "word.svg.j2"
[decks.word.columns]
text = {{}}
box = {{}}
pt = {{}}
align = {{}}
"""

TEMPLATE = """{% extends "pnp/card.svg.j2" %}
{% block body %}
{% set x, y, w, h = card.box.split(' ')|map('float') %}
{% set size, smallest = card.pt.split(' ')|map('float') %}
{% set anchor, valign = card.align.split(' ') %}
<text x="{{ MX }}" y="{{ MY }}" font-family="DejaVu Sans Mono" font-size="3">#{{ card.id }}#</text>
{{ text(card.text, B + x, B + y, w, h, size=size, min_size=smallest, anchor=anchor, valign=valign) }}
{% endblock %}
""".replace("MX", f"{MARK[0]:g}").replace("MY", f"{MARK[1]:g}")

WORD = "X" * 20  # 49 mm wide at 3.6 mm, still 33 mm at 2.4 mm (DejaVu Sans), and no hyphenation point
LONG = "Pneumonoultramicroscopic"  # 49 mm at 3.6 mm too, but a word the game's language hyphenates
LINE = "The sphinx asks one riddle per turn and every wrong answer costs the pharaoh a golden scarab"
SHRINK = "Draw two cards then pass one to the left"  # at 5 mm: 3 lines of 6 mm in a 10 mm box
TALL = ("Each player takes three stones from the quarry and builds one step of the pyramid; "
        "whoever places the capstone names the next pharaoh and drinks twice. ") * 3

#: id -> (text, "x y w h" of the box in trim millimetres, "size min_size", "anchor valign")
ROWS = {
    "word": (WORD, "40 40 20 10", "3.6 2.4", "middle top"),
    "word-end": (WORD, "10 70 20 10", "3.6 2.4", "end bottom"),
    "word-start": (WORD, "70 100 20 12", "3.6 2.4", "start middle"),
    "hyphenated": (LONG, "40 110 20 12", "3.6 2.4", "middle top"),
    "line": (LINE, "30 30 40 30", "3.5 2.1", "start top"),
    "shrink": (SHRINK, "35 60 30 10", "5 2.5", "middle middle"),
    "tall": (TALL, "20 50 40 8", "3.5 2.5", "start top"),
    "breaks": (f"Short|{WORD} and more", "30 80 25 20", "3.5 2.5", "middle top"),
}


def make_game(root: Path) -> Path:
    folder = root / "templates" / SLUG
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "word.svg.j2").write_text(TEMPLATE, encoding="utf-8")
    with (root / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(["game", "deck", "id", "name", "count", "text", "box", "pt", "align"])
        for card, (text, box, pt, align) in ROWS.items():
            out.writerow([SLUG, "word", card, card.title(), 1, text, box, pt, align])
    return root


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """(warnings as text, {id: (its box: left, bottom, right, top, the box's characters)}, the characters
    outside every design), all in mm in each design's own frame: from its bottom-left corner, y up."""
    root = make_game(tmp_path_factory.mktemp("data"))
    game = load_project(root, [SLUG]).games[SLUG]
    result = build_game(game, BuildOptions(out=tmp_path_factory.mktemp("out")), reference=False)
    pdf = next(f for f in result.files if f.name == f"{SLUG}-cards.pdf")
    cards, loose = {}, []
    for index in range(page_count(pdf)):
        chars, forms = page_chars(pdf, index), placed_forms(pdf, index)
        for form in forms:
            assert form.size == pytest.approx((TW + 2 * B, TH + 2 * B), abs=0.01)
            own = [form.char(c) for c in chars if form.holds(c)]
            text = "".join(c.ch for c in own)
            start = text.index("#")
            end = text.index("#", start + 1)
            card = text[start + 1:end]
            x, y, w, h = (float(v) for v in ROWS[card][1].split())
            box = (B + x, TH + B - y - h, B + x + w, TH + B - y)  # y up from the design's bottom edge
            cards[card] = (box, own[:start] + own[end + 1:])
        loose.append("".join(c.ch for c in chars if not any(form.holds(c) for form in forms)))
    assert sorted(cards) == sorted(ROWS)
    return [str(w) for w in result.warnings], cards, loose


def test_nothing_is_printed_outside_the_designs_but_the_footers(printed):
    _, _, loose = printed
    assert loose and all(text.startswith("Word Lab · Words · ") for text in loose), loose


def outside(box, chars) -> list[str]:
    left, bottom, right, top = box
    return [f"{c.ch!r} ink {c.x0:.2f}..{c.x1:.2f} x {c.y0:.2f}..{c.y1:.2f} mm, box {left:.2f}..{right:.2f} x "
            f"{bottom:.2f}..{top:.2f}" for c in chars if not c.ch.isspace() and (
                c.x0 < left - INK or c.x1 > right + INK or c.y0 < bottom - INK or c.y1 > top + INK)]


def warned(warnings: list[str], card: str) -> list[str]:
    row = list(ROWS).index(card) + 2
    return [w for w in warnings if w.startswith(f"cards.csv:{row}:text:") and f"'{card}'" in w]


@pytest.mark.parametrize("card", sorted(ROWS))
def test_no_character_is_printed_outside_its_box(printed, card):
    _, cards, _ = printed
    box, chars = cards[card]
    assert chars, "the box printed nothing"
    assert outside(box, chars) == []


@pytest.mark.parametrize("card", ["word", "word-end", "word-start"])
def test_a_49_mm_word_in_a_20_mm_box_is_reported_and_cut_with_an_ellipsis(printed, card):
    warnings, cards, _ = printed
    assert len(warned(warnings, card)) == 1, warnings
    box, chars = cards[card]
    [printed_line] = lines(chars)
    assert printed_line.endswith("…") and WORD.startswith(printed_line[:-1]) and len(printed_line) > 4
    # what is left of the word still uses the box: more than half its width
    assert max(c.x1 for c in chars) - min(c.x0 for c in chars) > 10


def test_a_long_word_the_language_can_break_is_hyphenated_inside_its_box(printed):
    warnings, cards, _ = printed
    assert warned(warnings, "hyphenated") == []
    _, chars = cards["hyphenated"]
    printed_lines = lines(chars)
    assert len(printed_lines) >= 2 and all(line.endswith("-") for line in printed_lines[:-1])
    assert "".join(line.removesuffix("-") for line in printed_lines) == LONG


def test_a_long_line_wraps_inside_its_width_and_loses_no_word(printed):
    warnings, cards, _ = printed
    assert warned(warnings, "line") == []
    _, chars = cards["line"]
    printed_lines = lines(chars)
    assert len(printed_lines) >= 3  # 94 characters of 3.5 mm text do not go in 40 mm on one or two lines
    assert " ".join(printed_lines).split() == LINE.split()


def test_text_too_big_for_its_box_shrinks_whole(printed):
    warnings, cards, _ = printed
    assert warned(warnings, "shrink") == []
    _, chars = cards["shrink"]
    assert " ".join(lines(chars)).split() == SHRINK.split()
    # DejaVu Sans capitals are 0.73 em tall: at the asked 5 mm a "D" would stand 3.6 mm high
    [d] = [c for c in chars if c.ch == "D"]
    assert d.y1 - d.y0 < 0.73 * 5 * 0.95


def test_text_that_fits_at_no_size_keeps_to_its_box_and_is_reported(printed):
    warnings, cards, _ = printed
    assert len(warned(warnings, "tall")) == 1, warnings
    _, chars = cards["tall"]
    printed_lines = lines(chars)
    assert 1 <= len(printed_lines) <= 3  # 8 mm hold three lines of 2.5 mm text at 1.2 line height
    assert printed_lines[-1].endswith("…")
    assert TALL.startswith(" ".join(printed_lines)[:-1].rstrip())


def test_a_forced_break_then_a_long_word_is_reported(printed):
    warnings, cards, _ = printed
    assert len(warned(warnings, "breaks")) == 1, warnings
    _, chars = cards["breaks"]
    assert lines(chars)[0] == "Short"


@pytest.mark.parametrize("card", sorted(ROWS))
def test_text_sits_where_its_alignment_puts_it(printed, card):
    """start/middle/end and top/middle/bottom, read from where the ink landed (within 1.5 mm)."""
    _, cards, _ = printed
    (left, bottom, right, top), chars = cards[card]
    ink = [c for c in chars if not c.ch.isspace()]
    x0, x1 = min(c.x0 for c in ink), max(c.x1 for c in ink)
    y0, y1 = min(c.y0 for c in ink), max(c.y1 for c in ink)
    anchor, valign = ROWS[card][3].split()
    widest = max(lines(chars), key=len)
    row = [c for c in ink if c.oy == min(c.oy for c in ink)]  # the last line
    if anchor == "start":
        assert x0 - left < 1.5
    elif anchor == "end":
        assert right - max(c.x1 for c in row) < 1.5
    else:
        assert abs((x0 + x1) / 2 - (left + right) / 2) < 1.5, widest
    if valign == "top":
        assert top - y1 < 1.5
    elif valign == "bottom":
        assert y0 - bottom < 1.5
    else:
        assert abs((y0 + y1) / 2 - (bottom + top) / 2) < 1.5


def test_lines_are_set_at_the_line_height(printed):
    """Baselines 1.2 font sizes apart (the default line height); the size is read from the page:
    the distance between two letters' pen origins is the first one's advance at that size."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.art.fonts import ensure_faces

    ensure_faces("DejaVuSans")
    _, cards, _ = printed
    _, chars = cards["line"]
    first = [c for c in chars if c.oy == chars[0].oy]
    a, b = first[0], first[1]
    size = (b.ox - a.ox) / stringWidth(a.ch, "DejaVuSans", 1)
    baselines = sorted({round(c.oy, 3) for c in chars}, reverse=True)
    gaps = [p - q for p, q in zip(baselines, baselines[1:])]
    assert len(gaps) >= 2 and all(abs(g - 1.2 * size) < 0.05 for g in gaps), (size, gaps)


BUNDLED = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]


@pytest.mark.parametrize("slug", BUNDLED)
def test_no_text_leaves_its_component_in_a_bundled_game(slug, project_root, tmp_path):
    """Every character on every card sheet lies inside the trim of the design it is printed on (each
    form's drawing is its design's bleed area; the trim is the bleed less the deck's bleed), read in
    the design's own frame however it is turned; outside every design, only the page's footer."""
    game = load_project(project_root, [slug]).games[slug]
    result = build_game(game, BuildOptions(out=tmp_path), reference=False)
    pdf = next(f for f in result.files if f.name == f"{slug}-cards.pdf")
    bleeds = {(round(d.size.full_width, 1), round(d.size.full_height, 1)): d.size.bleed
              for d in game.manifest.decks.values()}
    for index in range(page_count(pdf)):
        chars, forms = page_chars(pdf, index), placed_forms(pdf, index)
        for form in forms:
            w, h = form.size
            bleed = bleeds[(round(w, 1), round(h, 1))]
            stray = [c for c in map(form.char, filter(form.holds, chars)) if not c.ch.isspace() and not (
                bleed - 0.05 <= c.x0 and c.x1 <= w - bleed + 0.05 and bleed - 0.05 <= c.y0 and c.y1 <= h - bleed + 0.05)]
            assert not stray, f"page {index + 1}: " + "".join(c.ch for c in stray)
        loose = "".join(c.ch for c in chars if not any(form.holds(c) for form in forms))
        assert loose.startswith(f"{game.title} · "), f"page {index + 1}: {loose}"
