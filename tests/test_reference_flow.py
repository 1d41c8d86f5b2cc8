"""Reference sheets flow to any page of A5 (148 x 210 mm) and up: every bundled game's and
the example game's reference sheet lays out with no problem on named and odd paper sizes,
portrait and landscape, its text inside the page's margins and at the game's floor (card
pictures and figures grow to keep it, or turn a quarter), no heading stranded at the foot
of a page, and no part of a split table holding only its header and total row.  A reference
sheet the page cannot hold never costs the card sheets."""

from __future__ import annotations

import ctypes
import math
import re
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.stages.reference import MARGIN, build_reference
from generator.stages.render import DrawingCache
from model.errors import Problems
from model.sheets import load_project
from pnp.cli import main

from helpers import REPO, copy_game

PAGES = ["148x210", "letter", "200x280", "297x210", "160x230"]
PT = 25.4 / 72
HEADINGS_PT = (20.0, 13.5, 10.5)  # h1, h2, h3 (body text is 9.5 pt, table cells 8.5)
FOOTER_MM = 12  # the page footer sits 8 mm above the bottom edge


@lru_cache(maxsize=None)
def games() -> dict:
    found = dict(load_project(REPO).games)
    found.update(load_project(REPO / "docs" / "example").games)
    return found


@lru_cache(maxsize=None)
def reference(slug: str, page: str, folder: str):
    """The reference PDF of a game on a page size, written to ``folder``, and its problems."""
    game = games()[slug]
    problems = Problems()
    data, pages = build_reference(game, None, page, problems, DrawingCache(), "0123456789")
    path = Path(folder) / f"{slug}-{page}.pdf"
    if data is not None:
        path.write_bytes(data)
    return (path if data is not None else None), [str(p) for p in problems.items]


def read_pages(path: Path) -> list[dict]:
    """Per page: its size (mm) and its lines, top to bottom: (text, size in points, left, right, baseline),
    mm from the bottom-left corner; the footer left out."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(str(path))
    out = []
    matrix = raw.FS_MATRIX()
    x, y = ctypes.c_double(), ctypes.c_double()
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            w, h = page.get_width() * PT, page.get_height() * PT
            text = page.get_textpage()
            chars = []
            for i in range(text.count_chars()):
                ch = chr(raw.FPDFText_GetUnicode(text.raw, i))
                if not ch.strip() or raw.FPDFText_IsGenerated(text.raw, i) == 1:
                    continue
                raw.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
                size = raw.FPDFText_GetFontSize(text.raw, i) * math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
                left, _, right, _ = text.get_charbox(i)
                raw.FPDFText_GetCharOrigin(text.raw, i, x, y)
                upright = abs(matrix.b) < 1e-6
                chars.append((ch, size, left * PT, right * PT, y.value * PT if upright else None))
            rows: dict = {}
            for c in chars:
                if c[4] is not None and c[4] > FOOTER_MM:
                    rows.setdefault(round(c[4], 1), []).append(c)
            lines = [("".join(c[0] for c in sorted(row, key=lambda c: c[2])), max(c[1] for c in row),
                      min(c[2] for c in row), max(c[3] for c in row), base)
                     for base, row in sorted(rows.items(), key=lambda kv: -kv[0])]
            out.append({"w": w, "h": h, "chars": chars, "lines": lines})
    finally:
        pdf.close()
    return out


def _heading(line) -> bool:
    """A heading's line: set at a heading's size, from the left margin (text in a card picture may
    happen to have that size, not that place)."""
    _, size, left, _, _ = line
    return any(abs(size - h) < 0.01 for h in HEADINGS_PT) and abs(left - MARGIN * PT) < 1.5


@pytest.mark.parametrize("page", PAGES)
def test_every_reference_sheet_flows_to_the_page(page, tmp_path_factory):
    folder = str(tmp_path_factory.mktemp(page.replace("x", "_")))
    for slug, game in games().items():
        path, problems = reference(slug, page, folder)
        assert problems == [], f"{slug} on {page}: {problems}"
        assert path is not None
        floor = game.manifest.text_floor
        pages = read_pages(path)
        for n, p in enumerate(pages, 1):
            where = f"{slug} on {page}, page {n}"
            for ch, size, left, right, _ in p["chars"]:
                # every character at the game's floor (a card's, a figure's, a table's) ...
                assert size >= floor - 0.05, f"{where}: '{ch}' at {size:.2f} pt, below the {floor:g} pt floor"
                # ... and inside the page's side margins
                assert MARGIN * PT - 1 <= left and right <= p["w"] - MARGIN * PT + 1, \
                    f"{where}: '{ch}' at {left:.1f}-{right:.1f} mm, outside the page's margins"
            lines = p["lines"]
            # a heading is followed on its own page by at least two lines of what it heads
            for i, line in enumerate(lines):
                text = line[0]
                if _heading(line) and n < len(pages):
                    after = [other for other in lines[i + 1:] if not _heading(other)]
                    assert len(after) >= 2, f"{where}: the heading '{text}' ends the page"
            # a split table's last part holds more than its header and total row
            for i, (text, *_rest) in enumerate(lines):
                if re.search(r":\d+designs?,\d+components?", text):  # (lines are read without their spaces)
                    assert i > 0 and not lines[i - 1][0].startswith("idname"), \
                        f"{where}: the total '{text}' under the table's header alone"


def test_the_misprinted_pages_now_hold_what_follows_their_headings(tmp_path):
    """A4: Pyramid Scheme's "Card inventory" heading starts the page the victims' table
    starts on; the drinking game's last page holds inventory rows above its total."""
    folder = str(tmp_path)
    pages = read_pages(reference("pyramid-scheme", "a4", folder)[0])
    at = next(i for i, p in enumerate(pages) if any(line[0] == "Cardinventory" for line in p["lines"]))
    texts = [line[0] for line in pages[at]["lines"]]
    assert "Victims(64)" in texts and "g01PennyPinchergreen11" in texts
    pages = read_pages(reference("drinking-pyramid", "a4", folder)[0])
    last = [line[0] for line in pages[-1]["lines"]]
    total = next(i for i, t in enumerate(last) if t.startswith("Cards:52designs"))
    assert total >= 3 and not last[total - 1].startswith("idname")


def test_card_pictures_keep_the_floor_by_growing_or_turning(tmp_path):
    """The Golden Pyramid's scoring strip (190 mm) turns a quarter on an A5 page to keep its
    text at 6 pt; its components, asked at 36 mm, print large enough for theirs."""
    path, problems = reference("golden-pyramid", "148x210", str(tmp_path))
    assert problems == []
    pages = read_pages(path)
    turned = [c for p in pages for c in p["chars"] if c[4] is None]
    assert any(c[0] == "+" for c in turned) or len(turned) > 10  # the strip's numbers, written up the page
    assert min(c[1] for p in pages for c in p["chars"]) >= 5.95


def _layout_breaker(data: Path) -> None:
    """A reference template with a table cell taller than any page: it cannot be laid out."""
    folder = data / "templates" / "pyrrameds"
    (folder / "reference.xml.j2").write_text(
        "<reference><h1>Too much</h1><table><tr><td>" + "A cell that goes on and on. " * 1500 +
        "</td></tr></table></reference>", encoding="utf-8")


def test_a_reference_sheet_the_page_cannot_hold_leaves_the_card_sheets_written(tmp_path):
    data = copy_game(tmp_path / "data", "pyrrameds")
    out = tmp_path / "out"
    runner = CliRunner()
    result = runner.invoke(main, ["build", "--data", str(data), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0 and (out / "pyrrameds" / "pyrrameds-reference.pdf").exists()
    _layout_breaker(data)
    result = runner.invoke(main, ["build", "--data", str(data), "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert ("warning templates/pyrrameds/reference.xml.j2: the reference sheet cannot be laid out on a4, so it is "
            "left out: a <table> of ") in result.output
    assert sorted(p.name for p in (out / "pyrrameds").glob("*.pdf")) == ["pyrrameds-cards.pdf"]  # the old one too


def test_a_table_or_figure_larger_than_the_page_shrinks_to_it(tmp_path):
    """Column widths are proportions when they add up to more than the page holds, and a
    figure taller than a page is drawn as tall as one."""
    data = copy_game(tmp_path / "data", "pyrrameds")
    (data / "templates" / "pyrrameds" / "reference.xml.j2").write_text(
        '<reference><h1>Large</h1><table widths="300,900"><tr><td>narrow</td><td>wide</td></tr>'
        '<tr><td>a</td><td>b</td></tr></table>'
        '<figure width="150"><svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="100mm" '
        'viewBox="0 0 10 100"><rect x="0" y="0" width="10" height="100" fill="#000000"/></svg></figure></reference>',
        encoding="utf-8")
    game = load_project(data).games["pyrrameds"]
    problems = Problems()
    pdf, pages = build_reference(game, None, "a4", problems, DrawingCache(), "x")
    assert problems.items == [] and pages == 2
    path = tmp_path / "large.pdf"
    path.write_bytes(pdf)
    first = read_pages(path)[0]
    row = next(line for line in first["lines"] if line[0] == "narrowwide")
    lefts = sorted(c[2] for c in first["chars"] if c[4] is not None and abs(c[4] - row[4]) < 0.1)
    # 300 of 1200 parts of the 180 mm: the second column ("wide", from the 7th letter) starts 45 mm after the first
    assert lefts[6] - lefts[0] == pytest.approx(45, abs=0.5)
    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(str(path))[1].render(scale=1).to_pil().convert("L")
    dark_rows = [y for y in range(image.size[1]) if min(image.getpixel((x, y)) for x in range(0, image.size[0], 3)) < 50]
    tall = (max(dark_rows) - min(dark_rows)) * 25.4 / 72
    assert 250 < tall < 267  # as tall as the page's frame, no taller


def test_a_split_table_never_leaves_its_header_and_total_alone(tmp_path):
    """The marker game's inventory pushed down the page millimetre by millimetre: wherever the
    page ends, each part of a split table holds at least two rows besides its header, and its
    total row at least one more."""
    from printed import marker_game

    data = marker_game(tmp_path / "data")
    folder = data / "templates" / "marker-game"
    with (folder / "game.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[reference]\ntemplate = "reference.xml.j2"\n')
    seen_split = 0
    for h in range(200, 262, 3):
        (folder / "reference.xml.j2").write_text(f'<reference><spacer h="{h}"/><inventory/></reference>',
                                                 encoding="utf-8")
        game = load_project(data).games["marker-game"]
        problems = Problems()
        pdf, _ = build_reference(game, None, "a4", problems, DrawingCache(), "x")
        path = tmp_path / f"{h}.pdf"
        path.write_bytes(pdf)
        pages = read_pages(path)
        for n, page in enumerate(pages, 1):
            texts = [line[0] for line in page["lines"]]
            if n > 1 and texts and texts[0].startswith("idname"):  # a table goes on from the page before
                seen_split += 1
                rest = []
                for t in texts[1:]:
                    if t.startswith("Allcomponents") or re.match(r"\w+\(\d+\)$", t):  # (read without spaces)
                        break
                    rest.append(t)
                assert len(rest) >= 2, f"spacer {h} mm, page {n}: {texts}"
                assert not re.search(r":\d+designs?", rest[0]), f"spacer {h} mm, page {n}: a total alone: {texts}"
            for i, t in enumerate(texts):  # before a split, two rows under the header at least
                if t.startswith("idname") and i == len(texts) - 1 or t.startswith("idname") and \
                        i == len(texts) - 2 and n < len(pages):
                    raise AssertionError(f"spacer {h} mm, page {n}: a header with less than two rows: {texts}")
    assert seen_split >= 3
