"""Card text of the bundled games is printed at 6 pt or more, read from the card PDFs: every
text-showing operator of every drawing (a PDF form, placed at its real size), with the font
size the form sets and the matrices in force."""

from __future__ import annotations

import math

import pypdf
import pytest
from pypdf.generic import ContentStream

from generator.build import BuildOptions, build_game
from model.sheets import load_project

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]
FLOOR_PT = 6.0


def _multiply(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2)


def _apply(m, x, y):
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour (components 0 to 1)."""
    def lin(v):
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg, bg) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    hi, lo = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def text_runs(reader: pypdf.PdfReader) -> list[tuple[float, str, tuple, tuple]]:
    """(size in points, text, its colour, the colour under it) of every string shown by the drawings
    (form XObjects) of a PDF, each form read once: the font size times the scale of the text and
    graphics matrices; the colour under it is the fill of the last shape painted before it whose
    box holds the text's starting point (white when none)."""
    out = []
    forms = {}
    for page in reader.pages:
        for xobject in (page["/Resources"].get("/XObject") or {}).values():
            form = xobject.get_object()
            if form.get("/Subtype") == "/Form":
                forms[id(form)] = form
    for form in forms.values():
        stack, ctm, fill = [], (1, 0, 0, 1, 0, 0), (0.0, 0.0, 0.0)
        tm, size = (1, 0, 0, 1, 0, 0), 0.0
        points: list = []
        painted: list = []  # (x0, y0, x1, y1, colour), in painting order
        for operands, op in ContentStream(form, reader).operations:
            if op == b"q":
                stack.append((ctm, fill))
            elif op == b"Q":
                ctm, fill = stack.pop()
            elif op == b"cm":
                ctm = _multiply(tuple(float(v) for v in operands), ctm)
            elif op == b"rg":
                fill = tuple(float(v) for v in operands)
            elif op == b"g":
                fill = (float(operands[0]),) * 3
            elif op == b"re":
                x, y, w, h = (float(v) for v in operands)
                points += [_apply(ctm, x, y), _apply(ctm, x + w, y + h)]
            elif op in (b"m", b"l"):
                points.append(_apply(ctm, float(operands[0]), float(operands[1])))
            elif op in (b"c", b"v", b"y"):
                points += [_apply(ctm, float(operands[i]), float(operands[i + 1])) for i in range(0, len(operands), 2)]
            elif op in (b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*"):
                if points:
                    xs, ys = [p[0] for p in points], [p[1] for p in points]
                    painted.append((min(xs), min(ys), max(xs), max(ys), fill))
                points = []
            elif op in (b"n", b"S", b"s"):
                points = []
            elif op == b"BT":
                tm = (1, 0, 0, 1, 0, 0)
            elif op == b"Tf":
                size = float(operands[1])
            elif op == b"Tm":
                tm = tuple(float(v) for v in operands)
            elif op in (b"Tj", b"TJ", b"'", b'"'):
                m = _multiply(tm, ctm)
                a, b, c, d, x, y = m
                shown = operands[-1]
                text = "".join(str(s) for s in shown if isinstance(s, (str, bytes))) if op == b"TJ" else str(shown)
                under = next((col for x0, y0, x1, y1, col in reversed(painted) if x0 <= x <= x1 and y0 <= y <= y1),
                             (1.0, 1.0, 1.0))
                out.append((size * math.sqrt(abs(a * d - b * c)), text, fill, under))
    return out


@pytest.fixture(scope="module")
def sizes(project_root, tmp_path_factory):
    project = load_project(project_root)
    out = {}
    for slug in GAMES:
        result = build_game(project.games[slug], BuildOptions(out=tmp_path_factory.mktemp(slug)), reference=False)
        out[slug] = text_runs(pypdf.PdfReader(result.files[0]))
    return out


@pytest.mark.parametrize("slug", GAMES)
def test_no_card_text_of_a_bundled_game_is_under_6_pt(slug, sizes):
    found = sizes[slug]
    assert len(found) > 50, "the card texts were not found in the PDF"
    small = sorted((round(s, 2), t) for s, t, _, _ in found if s < FLOOR_PT - 1e-6)
    assert not small, f"{slug}: card text under {FLOOR_PT:g} pt: {small[:5]}"


@pytest.mark.parametrize("slug", GAMES)
def test_small_card_text_stands_out_from_what_it_is_printed_on(slug, sizes):
    """Text under 9 pt has at least the contrast WCAG asks of body text (4.5:1) with the fill under it."""
    faint = sorted({(round(contrast(fg, bg), 2), round(s, 1), t) for s, t, fg, bg in sizes[slug]
                    if s < 9 and contrast(fg, bg) < 4.5})
    assert not faint, f"{slug}: small text too faint (contrast, pt, text): {faint[:6]}"
