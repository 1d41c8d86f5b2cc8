"""Sheet geometry, in millimetres with the origin at the bottom-left of the page.

Pure functions and small records, so that tests can check every slot, gutter
and crop mark without rendering anything.

The rule: as many components per page as fit with their outer bleed and a
minimum margin; gutters between neighbours as wide as the page allows, up to
twice the bleed (each component keeps its full bleed); when a gutter is
narrower, each neighbour's bleed is clipped at the middle of the gutter.  Crop
marks extend every trim line into the page margins only, so they never touch
any artwork.  The grid is centred on the page above a footer band.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DUPLEX_MODES = ("long", "short", "none")

MIN_MARGIN = 1.5  # page edge to outer bleed edge, at least
PREFERRED_MARGIN = 5.0  # margins grow to this before gutters do
FOOTER_BAND = 3.0  # bottom strip for the page footer
MARK_GAP = 0.5  # from the outer bleed edge to the start of a crop mark
MARK_LENGTH = 5.0  # crop marks are at most this long


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def grow(self, left: float, bottom: float, right: float, top: float) -> "Rect":
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def contains_point(self, px: float, py: float, eps: float = 1e-9) -> bool:
        return self.x - eps <= px <= self.right + eps and self.y - eps <= py <= self.top + eps

    def intersects_segment(self, seg: "Segment", eps: float = 1e-9) -> bool:
        """True when the axis-aligned segment passes through the rectangle's interior."""
        x0, x1 = sorted((seg.x0, seg.x1))
        y0, y1 = sorted((seg.y0, seg.y1))
        return x0 < self.right - eps and x1 > self.x + eps and y0 < self.top - eps and y1 > self.y + eps \
            if (x0 != x1 and y0 != y1) else (
                self.x + eps < x0 < self.right - eps and y0 < self.top - eps and y1 > self.y + eps
                if x0 == x1 else
                self.y + eps < y0 < self.top - eps and x0 < self.right - eps and x1 > self.x + eps
            )


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class Slot:
    index: int
    row: int
    col: int
    trim: Rect  # where the component is cut
    clip: Rect  # how far its artwork (bleed) may reach
    rotation: int = 0  # degrees, 0 or 180 (backs for short-edge flip)


@dataclass
class Sheet:
    page_w: float
    page_h: float
    rows: int
    cols: int
    gutter_x: float
    gutter_y: float
    bleed: float
    slots: list[Slot] = field(default_factory=list)
    marks: list[Segment] = field(default_factory=list)

    @property
    def per_page(self) -> int:
        return self.rows * self.cols

    @property
    def trim_box(self) -> Rect:
        return _union(s.trim for s in self.slots)

    @property
    def bleed_box(self) -> Rect:
        return _union(s.clip for s in self.slots)


def _union(rects) -> Rect:
    rects = list(rects)
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    x1 = max(r.right for r in rects)
    y1 = max(r.top for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


def _fit(avail: float, size: float, bleed: float) -> int:
    """How many components fit along one axis with zero gutters."""
    n = int((avail - 2 * bleed - 2 * MIN_MARGIN + 1e-9) // size)
    return max(n, 0)


def _gutter(avail: float, size: float, n: int, bleed: float) -> float:
    if n <= 1:
        return 0.0
    spare = avail - n * size - 2 * bleed - 2 * PREFERRED_MARGIN
    return round(min(2 * bleed, max(0.0, spare / (n - 1))), 4)


class LayoutError(ValueError):
    pass


def page_size(name: str) -> tuple[float, float]:
    try:
        return PAGE_SIZES[name]
    except KeyError:
        raise LayoutError(f"unknown page size '{name}'; known: {', '.join(PAGE_SIZES)}") from None


def grid(page: str | tuple[float, float], width: float, height: float, bleed: float) -> Sheet:
    """The front sheet for components of ``width`` x ``height`` mm with ``bleed``."""
    page_w, page_h = page_size(page) if isinstance(page, str) else page
    avail_h = page_h - FOOTER_BAND
    cols = _fit(page_w, width, bleed)
    rows = _fit(avail_h, height, bleed)
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {width} x {height} mm component with {bleed} mm bleed does not fit on a "
                          f"{page_w} x {page_h} mm page")
    gx = _gutter(page_w, width, cols, bleed)
    gy = _gutter(avail_h, height, rows, bleed)
    grid_w = cols * width + (cols - 1) * gx
    grid_h = rows * height + (rows - 1) * gy
    x0 = (page_w - grid_w) / 2
    y_top = FOOTER_BAND + (avail_h + grid_h) / 2  # trim top of the first row
    sheet = Sheet(page_w, page_h, rows, cols, gx, gy, bleed)
    inner_x = min(bleed, gx / 2)
    inner_y = min(bleed, gy / 2)
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (width + gx)
            y = y_top - (r + 1) * height - r * gy
            trim = Rect(round(x, 4), round(y, 4), width, height)
            clip = trim.grow(
                bleed if c == 0 else inner_x,
                bleed if r == rows - 1 else inner_y,
                bleed if c == cols - 1 else inner_x,
                bleed if r == 0 else inner_y,
            )
            sheet.slots.append(Slot(r * cols + c, r, c, trim, clip))
    sheet.marks = _crop_marks(sheet, x0, grid_w, y_top - grid_h, grid_h)
    return sheet


def _crop_marks(sheet: Sheet, gx0: float, gw: float, gy0: float, gh: float) -> list[Segment]:
    b = sheet.bleed
    xs = sorted({s.trim.x for s in sheet.slots} | {s.trim.right for s in sheet.slots})
    ys = sorted({s.trim.y for s in sheet.slots} | {s.trim.top for s in sheet.slots})
    marks = []
    top_start = gy0 + gh + b + MARK_GAP
    top_end = min(top_start + MARK_LENGTH, sheet.page_h)
    bottom_start = gy0 - b - MARK_GAP
    bottom_end = max(bottom_start - MARK_LENGTH, FOOTER_BAND)
    left_start = gx0 - b - MARK_GAP
    left_end = max(left_start - MARK_LENGTH, 0.0)
    right_start = gx0 + gw + b + MARK_GAP
    right_end = min(right_start + MARK_LENGTH, sheet.page_w)
    for x in xs:
        if top_end - top_start > 0.5:
            marks.append(Segment(x, top_start, x, top_end))
        if bottom_start - bottom_end > 0.5:
            marks.append(Segment(x, bottom_start, x, bottom_end))
    for y in ys:
        if left_start - left_end > 0.5:
            marks.append(Segment(left_start, y, left_end, y))
        if right_end - right_start > 0.5:
            marks.append(Segment(right_start, y, right_end, y))
    return marks


def back_slots(sheet: Sheet, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> list[Slot]:
    """Where the back of each front slot goes on the following page.

    ``long``: the sheet turns over its long (vertical) edge, so columns mirror;
    ``short``: it turns over its short edge, so rows mirror and each back is
    rotated 180 degrees to stay upright when the card is turned over sideways;
    ``none``: backs printed on their own sheets, arranged as for ``long`` so that
    sheets can be turned by hand over the long edge.
    ``offset`` (x right, y down, mm) corrects a printer that shifts the back side.
    """
    if duplex not in DUPLEX_MODES:
        raise LayoutError(f"unknown duplex mode '{duplex}'; known: {', '.join(DUPLEX_MODES)}")
    dx, dy = offset
    out = []
    for s in sheet.slots:
        if duplex == "short":
            trim = Rect(s.trim.x, sheet.page_h - s.trim.top, s.trim.w, s.trim.h)
            clip = Rect(s.clip.x, sheet.page_h - s.clip.top, s.clip.w, s.clip.h)
            rotation = 180
        else:
            trim = Rect(sheet.page_w - s.trim.right, s.trim.y, s.trim.w, s.trim.h)
            clip = Rect(sheet.page_w - s.clip.right, s.clip.y, s.clip.w, s.clip.h)
            rotation = 0
        trim = Rect(round(trim.x + dx, 4), round(trim.y - dy, 4), trim.w, trim.h)
        clip = Rect(round(clip.x + dx, 4), round(clip.y - dy, 4), clip.w, clip.h)
        out.append(Slot(s.index, s.row, s.col, trim, clip, rotation))
    return out


def back_marks(sheet: Sheet, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> list[Segment]:
    """The crop marks of a backs page: the fronts' marks, moved like the slots."""
    dx, dy = offset
    out = []
    for m in sheet.marks:
        if duplex == "short":
            x0, y0, x1, y1 = m.x0, sheet.page_h - m.y0, m.x1, sheet.page_h - m.y1
        else:
            x0, y0, x1, y1 = sheet.page_w - m.x0, m.y0, sheet.page_w - m.x1, m.y1
        out.append(Segment(round(x0 + dx, 4), round(y0 - dy, 4), round(x1 + dx, 4), round(y1 - dy, 4)))
    return out
