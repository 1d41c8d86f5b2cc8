"""Text read back from a rendered PDF page by pdfium: every character with its
pen origin and its ink box, in millimetres from the page's bottom-left corner
(PDF's own orientation).  The tests that check where text landed on the
printed page use it instead of the generator's own arithmetic."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from pathlib import Path

PT = 25.4 / 72  # mm per PDF point


@dataclass(frozen=True)
class Char:
    ch: str
    x0: float  # ink box, mm
    y0: float
    x1: float
    y1: float
    ox: float  # pen origin on the baseline, mm
    oy: float


def page_chars(path: Path, index: int) -> list[Char]:
    """The characters pdfium finds on one page, in drawing order (its own line breaks left out)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(str(path))
    try:
        textpage = pdf[index].get_textpage()
        out = []
        x, y = ctypes.c_double(), ctypes.c_double()
        for i in range(textpage.count_chars()):
            ch = chr(raw.FPDFText_GetUnicode(textpage.raw, i))
            if ch in "\r\n" or raw.FPDFText_IsGenerated(textpage.raw, i) == 1:
                continue
            left, bottom, right, top = textpage.get_charbox(i)
            raw.FPDFText_GetCharOrigin(textpage.raw, i, x, y)
            out.append(Char(ch, left * PT, bottom * PT, right * PT, top * PT, x.value * PT, y.value * PT))
        return out
    finally:
        pdf.close()


def page_count(path: Path) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


def lines(chars: list[Char], tolerance: float = 0.3) -> list[str]:
    """Characters grouped into lines by baseline (top to bottom), each line left to right."""
    rows: list[list[Char]] = []
    for c in sorted(chars, key=lambda c: -c.oy):
        if rows and abs(rows[-1][0].oy - c.oy) <= tolerance:
            rows[-1].append(c)
        else:
            rows.append([c])
    return ["".join(c.ch for c in sorted(row, key=lambda c: c.ox)) for row in rows]



def _times(m, n):
    """The product of two PDF matrices (a, b, c, d, e, f): ``m`` applied first."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2)


def page_forms(path: Path, index: int) -> list[tuple[float, float, float, float]]:
    """Where each form XObject (a placed design) is drawn on a page: its /BBox through its /Matrix
    and the graphics state's matrix at the ``Do``, as (left, bottom, right, top) in mm: a card's
    whole drawing, trim and bleed, before any clipping."""
    import pypdf
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(path)
    page = reader.pages[index]
    xobjects = page["/Resources"].get("/XObject", {})
    ctm, stack, out = (1, 0, 0, 1, 0, 0), [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _times(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            form = xobjects[operands[0]].get_object()
            if form.get("/Subtype") != "/Form":
                continue
            m = _times(tuple(float(v) for v in form.get("/Matrix", (1, 0, 0, 1, 0, 0))), ctm)
            x0, y0, x1, y1 = (float(v) for v in form["/BBox"])
            xs, ys = [], []
            for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
                xs.append(m[0] * x + m[2] * y + m[4])
                ys.append(m[1] * x + m[3] * y + m[5])
            out.append((min(xs) * PT, min(ys) * PT, max(xs) * PT, max(ys) * PT))
    return out
