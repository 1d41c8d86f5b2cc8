"""The calibration sheet: one duplex sheet to read a printer's back offset and check its scale.

Printed duplex at actual size and held against a window with its back towards you,
the sheet shows, through the paper, the front's red vernier scales over the back's
black main scales: the red arrow points at the back offset along X and along Y to
the millimetre, and the red tick that lines up best with a black one gives the
tenths.  The reading is what ``pnp build --back-offset X,Y`` takes (millimetres, X
to the right and Y down as seen on the back).

How the scales read: everything is placed in the back page's own coordinates and
drawn on the front through the same turn of the paper that ``layout.back_sheet``
uses (long edge: left and right mirror; short edge: top and bottom).  The back
carries main ticks every millimetre, value ``j`` at ``j`` mm from the zero (to the
right, or down); the front a vernier of 10 divisions of 0.9 mm from the zero.  A
printer that lays the back ``s`` mm off moves the main ticks by ``s``; tick ``j``
then meets vernier tick ``k`` where ``s = 0.9 k - j``, and the correction ``-s`` is
``j - 0.9 k``: the black value just before the arrow plus the aligned red tick in
tenths.  Printed with a ``back_offset``, the back is moved as the card sheets'
backs are, so a correct offset reads 0.

A 100 mm ruler on each axis shows whether the print dialog scaled the page, and a
dashed frame at the printer margin whether the printer prints that far out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.units import mm

from .layout import DUPLEX_MODES, PRINTER_MARGIN, LayoutError, check_printer_margin, page_name, page_size

MAIN_RANGE = (-10, 20)  # main ticks, mm from the zero: the vernier reaches 9 mm past the arrow
VERNIER_STEP = 0.9  # 10 vernier divisions span 9 main ones: tenths of a millimetre
RULER = 100.0  # the scale check, mm
TICK_PT = 0.5  # line width of the ticks (thick enough to see through the paper)
RED = (0.85, 0.05, 0.1)


@dataclass(frozen=True)
class Scale:
    """One axis's scales, in the back page's coordinates (mm, y up): the zero at
    (``x``, ``y``); values grow along (``dx``, ``dy``) (to the right for X, down for Y);
    ticks stand out across it along (``nx``, ``ny``)."""

    axis: str
    x: float
    y: float
    dx: float
    dy: float
    nx: float
    ny: float

    def at(self, value: float, across: float = 0.0) -> tuple[float, float]:
        return (self.x + self.dx * value + self.nx * across, self.y + self.dy * value + self.ny * across)


def scales(page_w: float, page_h: float) -> list[Scale]:
    """The X scale across the middle of the page and the Y scale down it, clear of each other."""
    cx, cy = page_w / 2, page_h / 2
    return [Scale("X", cx - 5, cy + 30, 1.0, 0.0, 0.0, 1.0),  # ticks upwards from the line
            Scale("Y", cx - 40, cy + 5, 0.0, -1.0, 1.0, 0.0)]  # values grow downwards, ticks to the right


def turn_over(point: tuple[float, float], page_w: float, page_h: float, duplex: str) -> tuple[float, float]:
    """The point of the front lying behind ``point`` of the back (and the other way round)."""
    x, y = point
    return (x, page_h - y) if duplex == "short" else (page_w - x, y)


def _line(c, a, b) -> None:
    c.line(a[0] * mm, a[1] * mm, b[0] * mm, b[1] * mm)


def _text(c, text: str, x: float, y: float, size: float = 8.0, bold: bool = False, centre: bool = False,
          colour=(0, 0, 0)) -> None:
    from ..art.fonts import DEFAULT_BOLD, DEFAULT_FONT

    c.setFont(DEFAULT_BOLD if bold else DEFAULT_FONT, size)
    c.setFillColorRGB(*colour)
    (c.drawCentredString if centre else c.drawString)(x * mm, y * mm, text)


def _frame(c, page_w: float, page_h: float, margin: float) -> None:
    """A dashed frame at the printer margin: a side that does not print means a larger margin."""
    if margin <= 0:
        return
    c.saveState()
    c.setLineWidth(0.5)
    c.setDash(2, 2)
    c.setStrokeColorRGB(0.5, 0.5, 0.5)
    c.rect(margin * mm, margin * mm, (page_w - 2 * margin) * mm, (page_h - 2 * margin) * mm, stroke=1, fill=0)
    c.restoreState()


def _instructions(c, side: str, lines: list[str], page_h: float, margin: float) -> None:
    """The side's title and its lines, at the top of the page."""
    y = page_h - max(margin, 4.0) - 12
    _text(c, f"pnp calibration sheet: {side}", 20, y, 14, bold=True)
    for line in lines:
        y -= 4.2
        _text(c, line, 20, y - 2.8, 8.5)


def _front(c, page_w: float, page_h: float, duplex: str, margin: float, label: str) -> None:
    """The vernier scales (placed through the paper at the back's coordinates) and the rulers."""
    c.setLineWidth(TICK_PT)
    c.setStrokeColorRGB(*RED)
    for s in scales(page_w, page_h):
        for k in range(11):
            length = 7.0 if k in (0, 10) else 5.0 if k == 5 else 3.5
            a = turn_over(s.at(k * VERNIER_STEP, 0.0), page_w, page_h, duplex)
            b = turn_over(s.at(k * VERNIER_STEP, -length), page_w, page_h, duplex)
            _line(c, a, b)
        # the arrow at the zero: a filled triangle pointing at the main scale
        tip = turn_over(s.at(0, -0.2), page_w, page_h, duplex)
        left = turn_over(s.at(-1.2, -3.0), page_w, page_h, duplex)
        right = turn_over(s.at(1.2, -3.0), page_w, page_h, duplex)
        path = c.beginPath()
        path.moveTo(tip[0] * mm, tip[1] * mm)
        path.lineTo(left[0] * mm, left[1] * mm)
        path.lineTo(right[0] * mm, right[1] * mm)
        path.close()
        c.setFillColorRGB(*RED)
        c.drawPath(path, stroke=0, fill=1)
    # 100 mm rulers, horizontal and vertical, with end ticks
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.5)
    x0, y0 = page_w / 2 - RULER / 2, 40.0
    _line(c, (x0, y0), (x0 + RULER, y0))
    for x in (x0, x0 + RULER):
        _line(c, (x, y0 - 3), (x, y0 + 3))
    _text(c, f"{RULER:g} mm: measure this line", page_w / 2, y0 + 2.5, 8, centre=True)
    vx, vy = page_w - 30.0, page_h / 2 - RULER / 2
    _line(c, (vx, vy), (vx, vy + RULER))
    for y in (vy, vy + RULER):
        _line(c, (vx - 3, y), (vx + 3, y))
    c.saveState()
    c.translate((vx - 2) * mm, (vy + RULER / 2) * mm)
    c.rotate(90)
    _text(c, f"{RULER:g} mm", 0, 0, 8, centre=True)
    c.restoreState()
    _instructions(c, "front", [
        label,
        "1. Print this file on both sides of one sheet, at actual size (100 %, no 'fit to page').",
        f"2. Measure the {RULER:g} mm lines. If they are not {RULER:g} mm, the print dialog scaled the page:",
        "   choose Actual size and print again (pnp's PDFs ask for it, not every dialog listens).",
        "3. Turn the sheet over and hold it against a window: the back tells you how to read it.",
        "The dashed frame lies at the printer margin: if a side of it is missing, raise --printer-margin.",
    ], page_h, margin)


def _back(c, page_w: float, page_h: float, offset: tuple[float, float], margin: float, label: str) -> None:
    """The main scales, moved by the back offset as the card sheets' backs are."""
    dx, dy = offset
    c.saveState()
    c.translate(dx * mm, -dy * mm)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(TICK_PT)
    for s in scales(page_w, page_h):
        lo, hi = MAIN_RANGE
        _line(c, s.at(lo, 0.0), s.at(hi, 0.0))
        for j in range(lo, hi + 1):
            length = 6.0 if j % 5 == 0 else 3.5
            _line(c, s.at(j, 0.0), s.at(j, length))
            if j % 5 == 0:
                x, y = s.at(j, length + 1.0)
                if s.axis == "X":
                    _text(c, str(j), x, y, 6, centre=True)
                else:
                    _text(c, str(j), x, y - 0.8, 6)
        x, y = s.at(lo - 2.5, 0.0)
        _text(c, s.axis, x - (1.5 if s.axis == "X" else 1.2), y - (1.2 if s.axis == "X" else -1.5), 11, bold=True)
    c.restoreState()
    _instructions(c, "back", [
        label,
        "Hold the sheet against a window with this side towards you: the red scales of the front show through.",
        "On each black scale (X to the right, Y down):",
        "1. the red arrow points at the offset: take the black value just before it (left of it, above it),",
        "2. find the red tick that lines up best with a black tick: count it from the arrow (0 to 10) for tenths,",
        "3. X (or Y) = that black value + tenths. Arrow between -1 and 0, 7th red tick aligned: -1 + 0.7 = -0.3.",
        "Then build with  pnp build --back-offset X,Y  (and print this sheet again with it: both read 0).",
    ], page_h, margin)


def calibration_pdf(page: str = "a4", duplex: str = "long", printer_margin: float = PRINTER_MARGIN,
                    back_offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    """The two pages of the calibration sheet: front, then back as the printer turns it."""
    if duplex not in ("long", "short"):
        raise LayoutError(f"a calibration sheet is printed duplex: give long or short, not '{duplex}'"
                          if duplex in DUPLEX_MODES else f"unknown duplex mode '{duplex}'")
    page_w, page_h = page_size(page)
    margin = check_printer_margin(printer_margin)
    from .pdf import new_canvas

    buffer = io.BytesIO()
    c = new_canvas(buffer, page_w, page_h, "pnp calibration sheet", "calibration")
    edge = "long" if duplex == "long" else "short"
    label = (f"{page_name(page)}, duplex flipped on the {edge} edge"
             + (f", back offset {back_offset[0]:g},{back_offset[1]:g} mm" if any(back_offset) else ""))
    for side in ("front", "back"):
        box = (margin * mm, margin * mm, (page_w - margin) * mm, (page_h - margin) * mm)
        c.setTrimBox(box)
        _frame(c, page_w, page_h, margin)
        if side == "front":
            _front(c, page_w, page_h, duplex, margin, label)
        else:
            _back(c, page_w, page_h, back_offset, margin, label)
        _text(c, f"pnp calibration · {label} · {side}", page_w / 2, max(margin, 4.0) + 1.0, 6, centre=True,
              colour=(0.35, 0.35, 0.35))
        c.showPage()
    c.save()
    return buffer.getvalue()


def read_offset(front_ticks: list[float], main_ticks: dict[int, float]) -> float:
    """The reading of one axis, from where the vernier's ticks (0 to 10, positions along the
    axis) and the main scale's (value -> position) lie in the same coordinates: the black
    value just before the arrow plus, in tenths, the red tick that lines up best."""
    zero = front_ticks[0]
    before = max(j for j, p in main_ticks.items() if p <= zero + 0.05)  # on a tick: that tick
    best = min(range(10), key=lambda k: min(abs(front_ticks[k] - p) for p in main_ticks.values()))
    return before + best / 10
