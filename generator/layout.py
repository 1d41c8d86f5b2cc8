"""Sheet geometry, in millimetres with the origin at the bottom-left of the page.

Pure functions and small records, so that tests can check every slot, gutter,
crop mark and fold line without rendering anything.

The printable area: home printers cannot print the outer few millimetres of a
sheet, so everything that must print (artwork with its bleed, crop marks, the
footer) stays ``printer_margin`` (default 4 mm) inside the paper's edge.  The
footer sits in a band just above the bottom margin (an equal band at the top
stays empty); the grid fills the rest.

The rule, per axis: as many components as fit with their outer bleed and room
for crop marks of at least ``MIN_MARK`` mm on both sides; gutters between
neighbours then grow up to twice the bleed (each component keeps its full
bleed); what is left widens the margins and lengthens the crop marks (up to
``MARK_LENGTH``).  When a gutter is narrower than twice the bleed, each
neighbour's bleed is clipped at the middle of the gutter.  Crop marks extend
every trim line into the margins only, so they never touch any artwork.  A
component whose marks cannot fit even alone on an axis still prints when its
bleed fits: its trim lines on that axis are then drawn as full cut lines, and
the sheet's ``notes`` say so, as they say when the margin costs a row or a
column.

``gutterfold`` puts the fronts on one half of the page and their backs on the
other, mirrored about a fold line, for printers without duplex.
"""

from __future__ import annotations

from dataclasses import dataclass, field

PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
DUPLEX_MODES = ("long", "short", "none")

LAYOUTS = ("grid", "gutterfold")

PRINTER_MARGIN = 4.0  # the unprintable edge of typical home printers
MAX_PRINTER_MARGIN = 20.0
MIN_MARGIN = 1.5  # page edge to outer bleed edge, at least, when the printer prints to the edge
FOOTER_BAND = 3.0  # strip above the bottom margin for the page footer
FOOTER_BASELINE = 1.0  # footer baseline, above the bottom margin
MARK_GAP = 0.5  # from the outer bleed edge to the start of a crop mark
MIN_MARK = 2.0  # crop marks are at least this long
MARK_LENGTH = 5.0  # and at most this long
FOLD_CLEARANCE = 1.0  # gutterfold: from the fold line to the nearest crop mark
SAFE_MARGIN = 3.0  # proofs: the safe area lies this far inside the trim

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
    printer_margin: float = 0.0
    cut_lines: list[Segment] = field(default_factory=list)  # full trim lines where marks had no room
    folds: list[Segment] = field(default_factory=list)  # gutterfold: the fold line
    back_slots: list[Slot] = field(default_factory=list)  # gutterfold: the backs, on the same page
    notes: list[str] = field(default_factory=list)  # what the printable area cost, in words

    @property
    def per_page(self) -> int:
        return self.rows * self.cols

    @property
    def printable(self) -> Rect:
        """The part of the page a printer with this margin can print."""
        m = self.printer_margin
        return Rect(m, m, self.page_w - 2 * m, self.page_h - 2 * m)

    @property
    def all_slots(self) -> list[Slot]:
        return self.slots + self.back_slots

    @property
    def trim_box(self) -> Rect:
        return _union(s.trim for s in self.all_slots)

    @property
    def bleed_box(self) -> Rect:
        return _union(s.clip for s in self.all_slots)


def _union(rects) -> Rect:
    rects = list(rects)
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    x1 = max(r.right for r in rects)
    y1 = max(r.top for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


class LayoutError(ValueError):
    pass


def page_size(name: str) -> tuple[float, float]:
    try:
        return PAGE_SIZES[name]
    except KeyError:
        raise LayoutError(f"unknown page size '{name}'; known: {', '.join(PAGE_SIZES)}") from None


def check_printer_margin(margin: float) -> float:
    if not 0 <= margin <= MAX_PRINTER_MARGIN:
        raise LayoutError(f"a printer margin of {margin:g} mm is out of range; give 0 to {MAX_PRINTER_MARGIN:g} mm")
    return float(margin)


RESERVE = MARK_GAP + MIN_MARK  # outer bleed edge to the edge of the printable area, at least


def _count(length: float, size: float, bleed: float, reserve: float) -> int:
    """How many components fit along one axis with zero gutters and ``reserve`` on both sides."""
    return max(int((length - 2 * bleed - 2 * reserve + 1e-9) // size), 0)


def _gutter(length: float, size: float, n: int, bleed: float, reserve: float) -> float:
    if n <= 1:
        return 0.0
    spare = length - n * size - 2 * bleed - 2 * reserve
    return round(min(2 * bleed, max(0.0, spare / (n - 1))), 4)


def _grid_area(page_w: float, page_h: float, margin: float) -> Rect:
    """Where the grid and its crop marks go: the printable area less a footer band at
    the bottom and one at the top (so that backs turned over the short edge keep
    their crop marks off the footer too)."""
    return Rect(margin, margin + FOOTER_BAND, page_w - 2 * margin, page_h - 2 * margin - 2 * FOOTER_BAND)


def _fmt(v: float) -> str:
    return f"{v:g}"


def grid(page: str | tuple[float, float], width: float, height: float, bleed: float, *,
         printer_margin: float = PRINTER_MARGIN, area: Rect | None = None) -> Sheet:
    """The front sheet for components of ``width`` x ``height`` mm with ``bleed``,
    everything inside the printable area (``area``: a part of it, for gutterfold)."""
    page_w, page_h = page_size(page) if isinstance(page, str) else page
    m = check_printer_margin(printer_margin)
    area = area or _grid_area(page_w, page_h, m)
    axes = []
    for length, size, label in ((area.w, width, "column"), (area.h, height, "row")):
        n = _count(length, size, bleed, RESERVE)
        marks = True
        if n < 1 and _count(length, size, bleed, 0.0) >= 1:
            n, marks = 1, False  # fits without room for crop marks: full cut lines instead
        axes.append((n, marks, label))
    (cols, marks_x, _), (rows, marks_y, _) = axes
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {_fmt(width)} x {_fmt(height)} mm component with {_fmt(bleed)} mm bleed does not fit "
                          f"on a {_fmt(page_w)} x {_fmt(page_h)} mm page inside a {_fmt(m)} mm printer margin")
    reserve_x = RESERVE if marks_x else 0.0
    reserve_y = RESERVE if marks_y else 0.0
    gx = _gutter(area.w, width, cols, bleed, reserve_x)
    gy = _gutter(area.h, height, rows, bleed, reserve_y)
    grid_w = cols * width + (cols - 1) * gx
    grid_h = rows * height + (rows - 1) * gy
    x0 = area.x + (area.w - grid_w) / 2
    y_top = area.y + (area.h + grid_h) / 2  # trim top of the first row
    sheet = Sheet(page_w, page_h, rows, cols, gx, gy, bleed, printer_margin=m)
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
    sheet.marks, sheet.cut_lines = _crop_marks(sheet, area, marks_x, marks_y)
    if isinstance(page, str) and area == _grid_area(page_w, page_h, m):
        sheet.notes = _notes(page, width, height, bleed, sheet, marks_x, marks_y)
    return sheet


def _notes(page: str, width: float, height: float, bleed: float, sheet: Sheet, marks_x: bool,
           marks_y: bool) -> list[str]:
    """What the printer margin costs compared with printing to the paper's edge."""
    page_w, page_h = page_size(page)
    m = sheet.printer_margin
    edge_cols = _count(page_w - 2 * MIN_MARGIN, width, bleed, 0.0)
    edge_rows = _count(page_h - FOOTER_BAND - 2 * MIN_MARGIN, height, bleed, 0.0)
    size = f"{_fmt(width)} x {_fmt(height)} mm"
    notes = []
    if (sheet.cols, sheet.rows) != (edge_cols, edge_rows) and sheet.per_page < edge_cols * edge_rows:
        why = (f"to keep artwork and crop marks out of the {_fmt(m)} mm the printer cannot print" if m > 0 else
               "to keep room for crop marks around the bleed and for the footer bands")
        notes.append(f"{page}: {sheet.cols} x {sheet.rows} per page instead of {edge_cols} x {edge_rows}, {why}")
    for ok, lines in ((marks_x, "left and right"), (marks_y, "top and bottom")):
        if not ok:
            notes.append(f"{page}: a {size} component leaves no room for crop marks at the {lines} inside the "
                         f"{_fmt(m)} mm printer margin; its cut lines are drawn in full")
    return notes


def _crop_marks(sheet: Sheet, area: Rect, marks_x: bool, marks_y: bool) -> tuple[list[Segment], list[Segment]]:
    """Crop marks in the margins of ``area`` on the extension of every trim line, and
    full cut lines for an axis whose margins have no room for them."""
    xs = sorted({s.trim.x for s in sheet.slots} | {s.trim.right for s in sheet.slots})
    ys = sorted({s.trim.y for s in sheet.slots} | {s.trim.top for s in sheet.slots})
    bleed = _union(s.clip for s in sheet.slots)
    marks: list[Segment] = []
    cuts: list[Segment] = []
    top_start = bleed.top + MARK_GAP
    top_end = min(top_start + MARK_LENGTH, area.top)
    bottom_start = bleed.y - MARK_GAP
    bottom_end = max(bottom_start - MARK_LENGTH, area.y)
    left_start = bleed.x - MARK_GAP
    left_end = max(left_start - MARK_LENGTH, area.x)
    right_start = bleed.right + MARK_GAP
    right_end = min(right_start + MARK_LENGTH, area.right)
    # vertical trim lines are marked above and below the grid (room along y), and so on
    for x in xs:
        if not marks_y:
            cuts.append(Segment(x, area.y, x, area.top))
            continue
        if top_end - top_start >= MIN_MARK - 1e-3:
            marks.append(Segment(x, top_start, x, top_end))
        if bottom_start - bottom_end >= MIN_MARK - 1e-3:
            marks.append(Segment(x, bottom_start, x, bottom_end))
    for y in ys:
        if not marks_x:
            cuts.append(Segment(area.x, y, area.right, y))
            continue
        if left_start - left_end >= MIN_MARK - 1e-3:
            marks.append(Segment(left_start, y, left_end, y))
        if right_end - right_start >= MIN_MARK - 1e-3:
            marks.append(Segment(right_start, y, right_end, y))
    return marks, cuts


# ------------------------------------------------------------------ gutterfold
def _mirror_x(r: Rect, fold: float) -> Rect:
    return Rect(round(2 * fold - r.right, 4), r.y, r.w, r.h)


def _mirror_y(r: Rect, fold: float) -> Rect:
    return Rect(r.x, round(2 * fold - r.top, 4), r.w, r.h)


def gutterfold(page: str, width: float, height: float, bleed: float, *,
               printer_margin: float = PRINTER_MARGIN) -> Sheet:
    """Fronts on one half of the page, each back mirrored about the fold line on the
    other half: print single-sided, fold on the line (printed side out), glue or
    not, and cut through both layers.

    Tries the page upright and turned (landscape), folded down the middle or
    across, and keeps the arrangement that holds the most components (upright
    and folded down the middle on a tie; one that keeps crop marks before one
    that needs full cut lines).  Folding across turns each back 180
    degrees so that it is upright when the card is turned over sideways."""
    w0, h0 = page_size(page)
    m = check_printer_margin(printer_margin)
    best = None
    for page_w, page_h in ((w0, h0), (h0, w0)):
        full = _grid_area(page_w, page_h, m)
        for fold in ("vertical", "horizontal"):
            if fold == "vertical":
                at = page_w / 2
                half = Rect(full.x, full.y, at - FOLD_CLEARANCE - full.x, full.h)
            else:
                at = full.y + full.h / 2
                half = Rect(full.x, at + FOLD_CLEARANCE, full.w, full.top - at - FOLD_CLEARANCE)
            try:
                sheet = grid((page_w, page_h), width, height, bleed, printer_margin=m, area=half)
            except LayoutError:
                continue
            rank = (not sheet.cut_lines, sheet.per_page)  # crop marks first, then the most per page
            if best is None or rank > (not best[0].cut_lines, best[0].per_page):
                best = (sheet, fold, at, full)
    if best is None:
        raise LayoutError(f"a {_fmt(width)} x {_fmt(height)} mm component with {_fmt(bleed)} mm bleed does not fit "
                          f"on half a {page} page inside a {_fmt(m)} mm printer margin")
    sheet, fold, at, full = best
    if fold == "vertical":
        sheet.back_slots = [Slot(s.index, s.row, s.col, _mirror_x(s.trim, at), _mirror_x(s.clip, at))
                            for s in sheet.slots]
        sheet.marks += [Segment(round(2 * at - g.x0, 4), g.y0, round(2 * at - g.x1, 4), g.y1) for g in sheet.marks]
        sheet.cut_lines += [Segment(round(2 * at - g.x0, 4), g.y0, round(2 * at - g.x1, 4), g.y1)
                            for g in sheet.cut_lines]
        sheet.folds = [Segment(at, full.y, at, full.top)]
    else:
        sheet.back_slots = [Slot(s.index, s.row, s.col, _mirror_y(s.trim, at), _mirror_y(s.clip, at), 180)
                            for s in sheet.slots]
        sheet.marks += [Segment(g.x0, round(2 * at - g.y0, 4), g.x1, round(2 * at - g.y1, 4)) for g in sheet.marks]
        sheet.cut_lines += [Segment(g.x0, round(2 * at - g.y0, 4), g.x1, round(2 * at - g.y1, 4))
                            for g in sheet.cut_lines]
        sheet.folds = [Segment(full.x, at, full.right, at)]
    shape = "landscape" if sheet.page_w > sheet.page_h else "portrait"
    sheet.notes = [f"{page} gutterfold: {sheet.per_page} components of {_fmt(width)} x {_fmt(height)} mm per page "
                   f"({shape}, folded {'down the middle' if fold == 'vertical' else 'across'})"]
    return sheet


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
