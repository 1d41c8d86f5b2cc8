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
            ch = "-" if ch == "\x02" else ch  # pdfium's mark for a hyphen that ends a line
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


@dataclass(frozen=True)
class Placed:
    """A form XObject (one placed design) on a page: its /BBox (the design's whole drawing, trim and
    bleed, in points) and the matrix that takes it to the page (its /Matrix and the graphics state's
    at the ``Do``), however the design is turned."""

    matrix: tuple
    bbox: tuple

    def _page(self, x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = self.matrix
        return a * x + c * y + e, b * x + d * y + f

    @property
    def size(self) -> tuple[float, float]:
        """The design's width and height in mm (its own, not as turned on the page)."""
        x0, y0, x1, y1 = self.bbox
        return (x1 - x0) * PT, (y1 - y0) * PT

    @property
    def area(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) on the page, mm."""
        x0, y0, x1, y1 = self.bbox
        corners = [self._page(x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1))]
        xs, ys = [p[0] * PT for p in corners], [p[1] * PT for p in corners]
        return min(xs), min(ys), max(xs), max(ys)

    def holds(self, c: Char) -> bool:
        left, bottom, right, top = self.area
        return left <= (c.x0 + c.x1) / 2 <= right and bottom <= (c.y0 + c.y1) / 2 <= top

    def to_design(self, x: float, y: float) -> tuple[float, float]:
        """A page point (mm) in the design's own frame: mm from its bottom-left corner, y up."""
        a, b, c, d, e, f = self.matrix
        det = a * d - b * c
        px, py = x / PT - e, y / PT - f
        return (d * px - c * py) / det * PT - self.bbox[0] * PT, (a * py - b * px) / det * PT - self.bbox[1] * PT

    def char(self, c: Char) -> Char:
        """A character read in the design's own frame, as if the design were upright."""
        corners = [self.to_design(x, y) for x, y in ((c.x0, c.y0), (c.x1, c.y0), (c.x0, c.y1), (c.x1, c.y1))]
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        return Char(c.ch, min(xs), min(ys), max(xs), max(ys), *self.to_design(c.ox, c.oy))


def placed_forms(path: Path, index: int) -> list[Placed]:
    """The forms drawn on a page, in drawing order."""
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
            if form.get("/Subtype") == "/Form":
                matrix = _times(tuple(float(v) for v in form.get("/Matrix", (1, 0, 0, 1, 0, 0))), ctm)
                out.append(Placed(matrix, tuple(float(v) for v in form["/BBox"])))
    return out
