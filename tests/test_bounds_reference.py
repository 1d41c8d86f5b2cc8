"""A reference sheet is laid out within seconds whatever its template writes (docs/security.md).

A heading taller than a page was moved to a new page without end (reportlab keeps a heading with
what follows it, and the last heading of a sheet with itself); a paragraph is laid out again on
each page it reaches, the whole of what is left of it each time, so one of a million characters
(a heading of one long word, a game's title of a million characters) took hours.  Now a heading
that does not fit a page flows over pages like a paragraph, a paragraph longer than a text may be
(``Limits.text``) is one line at the template, and whatever else reportlab would do without end
stops at the time a reference sheet may take, one warning."""

from __future__ import annotations

import io
import re
import shutil
import time
from pathlib import Path

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph
from reportlab.platypus.doctemplate import LayoutError

from helpers import run_bounded

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "example"
GAME = "templates/tiny-tombs/game.toml"
REFERENCE = "templates/tiny-tombs/reference.xml.j2"


def run(tmp_path: Path, reference: str | None = None, title: str | None = None, command: str = "check",
        timeout: float = 40) -> tuple[int, list[str], float, Path]:
    """``pnp COMMAND`` on a copy of the example game with its reference template (or its title)
    replaced: (exit code, its error and warning lines, seconds, the data folder)."""
    data = tmp_path / "data"
    shutil.copytree(EXAMPLE, data, ignore=shutil.ignore_patterns("output", "rules"))
    if reference is not None:
        (data / REFERENCE).write_text(f"<reference>\n{reference}\n</reference>\n", encoding="utf-8")
    if title is not None:
        manifest = data / GAME
        text = manifest.read_text(encoding="utf-8")
        manifest.write_text(re.sub(r'(?m)^title = ".*"$', f'title = "{title}"', text, count=1), encoding="utf-8")
    code, lines, _, seconds = run_bounded(data, command, timeout=timeout)
    return code, lines, seconds, data


def pages(pdf: Path) -> int:
    return max(int(n) for n in re.findall(rb"/Count (\d+)", pdf.read_bytes()))


HEADING_TOO_TALL = '<h1>{{ "x " * 1000 }}</h1>'  # 34 lines of 24 points: more than an A4 page


@pytest.mark.slow
@pytest.mark.parametrize("reference", [
    HEADING_TOO_TALL,
    '<h1>{{ "x" * 3000 }}</h1>',  # one word of three pages
    HEADING_TOO_TALL + "\n<keep><p>kept</p><p>together</p></keep>",
    HEADING_TOO_TALL + '\n<figure width="40"><svg viewBox="0 0 10 10"><rect width="10" height="10"/></svg></figure>',
    HEADING_TOO_TALL + '\n<h2>{{ "y " * 1500 }}</h2>\n<p>after</p>',
    '<keep><p>first</p><h2>{{ "y " * 3000 }}</h2></keep>',
], ids=["last", "one-long-word", "before-keep", "before-figure", "two-then-paragraph", "last-in-keep"])
def test_a_heading_taller_than_a_page_flows_over_pages(tmp_path, reference):
    code, lines, seconds, data = run(tmp_path, reference, command="build")
    assert (code, lines) == (0, [])
    assert seconds < 30
    assert pages(data / "output" / "tiny-tombs" / "tiny-tombs-reference.pdf") >= 2


@pytest.mark.slow
@pytest.mark.parametrize("reference, line, said", [
    ('<h1>{{ "x" * 1000000 }}</h1>', 2, "<h1>: 1,000,000 characters; a paragraph, heading or list item of a "
                                        "reference sheet may have at most 20,000; split it or shorten it"),
    ('<p>Short.</p>\n<p>{{ "word " * 200000 }}</p>', 3, "<p>: 999,999 characters; a paragraph, heading"),
    ('<ul><li>{{ "x" * 30000 }}</li></ul>', 2, "<li>: 30,000 characters; a paragraph, heading"),
    ('<table><tr><td>{{ "word " * 200000 }}</td></tr></table>', 2,
     "<td>: 999,999 characters; a table's cell of a reference sheet may have at most 100,000; split it or shorten "
     "it"),
], ids=["heading-of-one-word", "paragraph-of-a-million", "list-item", "table-cell"])
def test_a_paragraph_longer_than_a_text_is_one_line_at_the_template(tmp_path, reference, line, said):
    code, lines, seconds, _ = run(tmp_path, reference)
    assert code == 1
    assert len(lines) == 1, lines
    assert re.match(rf"error {REFERENCE}(:{line}|: .* \(line {line} of the XML the template gave\))", lines[0]), lines
    assert said in lines[0], lines
    assert seconds < 30


@pytest.mark.slow
def test_a_title_of_a_million_characters_is_one_line_within_seconds(tmp_path):
    code, lines, seconds, _ = run(tmp_path, title="T" * 1_000_000)
    assert code == 1
    assert len(lines) == 1 and lines[0].startswith("error templates/") and "game.toml" in lines[0], lines
    assert "a title of 1,000,000 characters; a title has at most 200" in lines[0], lines
    assert seconds < 30


@pytest.mark.slow
def test_the_longest_title_is_laid_out(tmp_path):
    data_title = "T " * 100  # the most a title has: the heading and every page's footer hold it
    code, lines, seconds, _ = run(tmp_path, title=data_title)
    assert (code, lines) == (0, [])
    assert seconds < 30


def test_a_layout_past_the_time_of_a_reference_sheet_stops(monkeypatch):
    """Whatever reportlab would do without end (here: a heading taller than a page kept with
    itself, reportlab's own endless loop) stops at ``Limits.seconds`` with a LayoutError."""
    from generator.art import limits
    from generator.stages.reference import LAYOUT_TIME, BoundedDocTemplate, layout_problem

    monkeypatch.setattr(limits, "LIMITS", limits.Limits(seconds=1))
    style = ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=20, leading=24, keepWithNext=1)
    doc = BoundedDocTemplate(io.BytesIO())
    start = time.monotonic()
    with pytest.raises(LayoutError) as caught:
        doc.build([Paragraph("x " * 1000, style)])
    assert time.monotonic() - start < 10
    assert str(caught.value).startswith(LAYOUT_TIME)
    assert layout_problem(str(caught.value)) == ("laying it out took more than 1 s; make it shorter or split it with "
                                                  "<pagebreak/>")
