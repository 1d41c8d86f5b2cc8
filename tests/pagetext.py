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
