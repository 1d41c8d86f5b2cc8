"""Sheet geometry, in millimetres with the origin at the bottom-left of the page.

Pure functions and small records, so that tests can check every slot, gutter,
crop mark and fold line without rendering anything.

The printable area: home printers cannot print the outer few millimetres of a
sheet, so everything that must print (artwork with its bleed, crop marks, the
footer) stays ``printer_margin`` (default 4 mm) inside the paper's edge.  The
footer sits in a band just above the bottom margin (on a backs page turned over
the short edge, the band that one turns into: at the top); the grid fills the
rest.

The rule, per axis: as many components as fit, each keeping ``keep`` mm of its
bleed on every side (by default all of it), neighbours at least ``MIN_GUTTER``
apart when they are cut apart along crop marks, and room for crop marks of at
least ``MIN_MARK`` mm on both sides; then the bleed kept grows, up to the full
bleed, while they still fit; what is left widens the margins and lengthens the
crop marks (up to ``MARK_LENGTH``).  With ``shared`` cut lines neighbours touch
and the bleed is kept around the sheet's outer edge only.  Components are
turned a quarter when that fits more of them.  On a partly filled sheet
(``Sheet.part``) every side that faces an empty slot gets the design's full
bleed, whatever the layout kept between neighbours.  Crop marks extend the trim
lines of the filled slots into the margins only, so they never touch any
artwork; they end half a millimetre short of the printable edge where they can
still be ``MIN_MARK`` long, and on a backs page moved by the back offset each is
cut at its outer end to stay inside the printable area.  A
component whose marks cannot fit even alone on an axis still prints when its
bleed fits: its trim lines on that axis are then drawn as full cut lines.
``notes.sheet_notes`` says in words what a sheet holds, the bleed it keeps and
what another bleed or printer margin would hold.

``gutterfold`` puts the fronts on one half of the page and their backs on the
other, mirrored about a fold line, for printers without duplex; ``back_sheet``
turns a fronts sheet over for its backs page, as the printer turns the paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

#: Paper sizes by name, in mm (portrait): ISO A4 and A3, US Letter (8.5 x 11 in) and Tabloid (11 x 17 in).
PAGE_SIZES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a3": (297.0, 420.0), "tabloid": (279.4, 431.8),
              "a5": (148.0, 210.0)}
MIN_PAGE, MAX_PAGE = 50.0, 2000.0  # the sides of a custom page size (WxH in mm)
DUPLEX_MODES = ("long", "short", "none")

#: grid: each component keeps its bleed on every side, fronts and backs on facing pages;
#: shared: neighbours share their cut lines (bleed only around the sheet's outer edge);
#: gutterfold: fronts and backs on one page, either side of a fold line.
LAYOUTS = ("grid", "shared", "gutterfold")

PRINTER_MARGIN = 4.0  # the unprintable edge of typical home printers
MAX_OFFSET = 10.0  # the largest back offset, either way: what the calibration sheet's scales read
MAX_PRINTER_MARGIN = 20.0
FOOTER_BAND = 3.0  # strip above the bottom margin for the page footer
FOOTER_BASELINE = 1.0  # footer baseline, above the bottom margin
MARK_GAP = 0.5  # from the outer bleed edge to the start of a crop mark
MIN_MARK = 2.0  # crop marks are at least this long
MARK_LENGTH = 5.0  # and at most this long
MARK_SLACK = 0.5  # and end this far inside the printable area, where they can still be MIN_MARK long
MIN_MOVED_MARK = 1.0  # a backs page's mark the back offset pushes towards the margin is cut to end inside it,
# down to this length (else left out: the same trim line's mark at its other end is moved away from the margin)
MIN_GUTTER = 2.0  # components cut apart along crop marks stay at least this far apart (1 mm each)
LEAST_BLEED = 1.0  # the least bleed a layout suggests keeping between neighbours
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
    rotation: int = 0  # degrees anticlockwise the design is turned in its slot: 0, 90, 180 or 270

    @property
    def design_size(self) -> tuple[float, float]:
        """The design's own trim width and height (the slot's, unless turned a quarter)."""
        return (self.trim.h, self.trim.w) if self.rotation % 180 else (self.trim.w, self.trim.h)


@dataclass
class Sheet:
    page_w: float
    page_h: float
    rows: int
    cols: int
    gutter_x: float
    gutter_y: float
    bleed: float  # the designs' own bleed
    slots: list[Slot] = field(default_factory=list)
    marks: list[Segment] = field(default_factory=list)
    printer_margin: float = 0.0
    cut_lines: list[Segment] = field(default_factory=list)  # full trim lines where marks had no room
    folds: list[Segment] = field(default_factory=list)  # gutterfold: the fold line
    back_slots: list[Slot] = field(default_factory=list)  # gutterfold: the backs, on the same page
    kept: tuple[float, float] = (0.0, 0.0)  # bleed kept around each component, left/right and top/bottom
    shared: bool = False  # neighbours share their cut lines (the bleed is kept at the sheet's edges only)
    turned: bool = False  # the components are turned a quarter to fit more
    area: Rect | None = None  # where the grid and its crop marks may go
    marks_x: bool = True  # crop marks left and right (else full horizontal cut lines)
    marks_y: bool = True  # crop marks above and below (else full vertical cut lines)
    crop: bool = True  # crop marks at all (a template that draws its own cut lines needs none)
    fold: tuple[str, float] | None = None  # gutterfold: ("vertical" or "horizontal", where)
    footer_top: bool = False  # the footer sits in the band at the top (a back turned over the short edge)
    edge_bleed: float = 0.0  # bleed kept at the outer sides of the grid

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

    @property
    def kept_bleed(self) -> float:
        """The least bleed any component keeps on any side."""
        return min(self.kept)

    def part(self, n: int) -> "Sheet":
        """The sheet with only its first ``n`` slots filled: crop marks and cut lines for
        those only (and, on a gutterfold page, for their backs)."""
        if n >= len(self.slots):
            return self
        slots = _open_sides(self, self.slots[:n])
        backs = self.back_slots[:n]
        if self.fold is not None:  # each back is its front's mirror image, bleed and all
            backs = [replace(b, clip=_mirror(s.clip, self.fold)) for s, b in zip(slots, backs)]
        out = replace(self, slots=slots, back_slots=backs)
        out.marks, out.cut_lines = _crop_marks(out.slots, self.area, self.marks_x, self.marks_y) if self.crop \
            else ([], [])
        if self.fold is not None:
            out.marks, out.cut_lines = _fold_lines(out.marks, self.fold), _fold_lines(out.cut_lines, self.fold)
        return out


def _open_sides(sheet: Sheet, filled: list[Slot]) -> list[Slot]:
    """The filled slots of a partly filled sheet, each side that faces an empty slot given
    the design's full bleed: no neighbour is cut there, so a cut a little off the line
    shows the component's own colour, never the paper (with shared cut lines, or less
    bleed kept between neighbours, that side had less)."""
    taken = {(s.row, s.col) for s in filled}

    def empty(row: int, col: int) -> bool:
        return 0 <= row < sheet.rows and 0 <= col < sheet.cols and (row, col) not in taken

    out = []
    b = sheet.bleed
    for s in filled:
        t, c = s.trim, s.clip
        left = max(t.x - c.x, b) if empty(s.row, s.col - 1) else t.x - c.x
        right = max(c.right - t.right, b) if empty(s.row, s.col + 1) else c.right - t.right
        top = max(c.top - t.top, b) if empty(s.row - 1, s.col) else c.top - t.top
        bottom = max(t.y - c.y, b) if empty(s.row + 1, s.col) else t.y - c.y
        grown = Rect(round(t.x - left, 4), round(t.y - bottom, 4), round(t.w + left + right, 4),
                     round(t.h + bottom + top, 4))
        out.append(s if grown == c else replace(s, clip=grown))
    return out


def _union(rects) -> Rect:
    rects = list(rects)
    x0 = min(r.x for r in rects)
    y0 = min(r.y for r in rects)
    x1 = max(r.right for r in rects)
    y1 = max(r.top for r in rects)
    return Rect(x0, y0, x1 - x0, y1 - y0)


class LayoutError(ValueError):
    pass


def page_size(spec: str | tuple[float, float]) -> tuple[float, float]:
    """A page's width and height in mm: a name in PAGE_SIZES or ``WxH`` in millimetres."""
    if isinstance(spec, tuple):
        return spec
    name = spec.strip().lower()
    if name in PAGE_SIZES:
        return PAGE_SIZES[name]
    parts = name.replace("mm", "").split("x")
    try:
        w, h = (float(v) for v in parts)
    except ValueError:
        raise LayoutError(f"unknown page size '{spec}'; give {', '.join(PAGE_SIZES)} or WxH in millimetres, "
                          "e.g. 200x280") from None
    if not (MIN_PAGE <= w <= MAX_PAGE and MIN_PAGE <= h <= MAX_PAGE):
        raise LayoutError(f"a page of {w:g} x {h:g} mm is out of range; each side {MIN_PAGE:g} to {MAX_PAGE:g} mm")
    return (w, h)


def page_name(spec: str | tuple[float, float]) -> str:
    """How notes and footers name a page: its name, or W x H mm."""
    if isinstance(spec, str) and spec.strip().lower() in PAGE_SIZES:
        return spec.strip().lower()
    w, h = page_size(spec)
    return f"{fmt_mm(w)} x {fmt_mm(h)} mm"


def check_printer_margin(margin: float) -> float:
    if not 0 <= margin <= MAX_PRINTER_MARGIN:
        raise LayoutError(f"a printer margin of {margin:g} mm is out of range; give 0 to {MAX_PRINTER_MARGIN:g} mm")
    return float(margin)


RESERVE = MARK_GAP + MIN_MARK  # outer bleed edge to the edge of the printable area, at least


def _grid_area(page_w: float, page_h: float, margin: float) -> Rect:
    """Where the grid and its crop marks go: the printable area less a footer band at
    the bottom.  (A backs page turned over the short edge has the band at the top:
    its footer goes there, ``back_sheet``.)"""
    return Rect(margin, margin + FOOTER_BAND, page_w - 2 * margin, page_h - 2 * margin - FOOTER_BAND)


def fmt_mm(v: float) -> str:
    """A length in millimetres as notes and messages write it: rounded to two places, no
    trailing zeros."""
    return f"{round(v, 2):g}"


@dataclass(frozen=True)
class _Axis:
    count: int
    gutter: float  # between neighbours' trim lines
    edge: float  # bleed kept at the outer sides
    inner: float  # bleed kept towards a neighbour
    marks: bool  # room for crop marks outside the grid


def _axis(length: float, size: float, bleed: float, keep: float, shared: bool, marks: bool,
          min_gutter: float) -> _Axis | None:
    """As many components of ``size`` as fit along ``length`` each keeping ``keep`` of its
    ``bleed`` on every side (``shared``: at the outer sides only, neighbours touching), with
    room for crop marks; then the bleed kept grows, up to the full bleed, while they still fit."""
    for reserve in ((RESERVE, 0.0) if marks else (0.0,)):
        def need(n: int, e: float) -> float:
            gutter = 0.0 if shared else max(2 * e, min_gutter)
            return n * size + (n - 1) * gutter + 2 * e + 2 * reserve

        gutter0 = 0.0 if shared else max(2 * keep, min_gutter)
        n = int((length - 2 * keep - 2 * reserve + gutter0 + 1e-9) // (size + gutter0))
        if reserve == 0.0 and marks:
            n = min(n, 1)  # without crop marks only a component that cannot have them: full cut lines
        if n < 1:
            continue
        lo, hi = keep, bleed
        if need(n, hi) > length + 1e-9:
            for _ in range(40):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if need(n, mid) <= length + 1e-9 else (lo, mid)
        e = math.floor(lo * 1e4) / 1e4
        gutter = 0.0 if shared else round(max(2 * e, min_gutter), 4)
        return _Axis(n, gutter, e, 0.0 if shared else min(bleed, gutter / 2), reserve > 0 or not marks)
    return None


def grid(page: str | tuple[float, float], width: float, height: float, bleed: float, *,
         printer_margin: float = PRINTER_MARGIN, area: Rect | None = None, keep: float | None = None,
         shared: bool = False, turn: bool | None = None, marks: bool = True) -> Sheet:
    """The front sheet for components of ``width`` x ``height`` mm with ``bleed``,
    everything inside the printable area (``area``: a part of it, for gutterfold).

    Each component keeps ``keep`` mm of its bleed on every side at least (default: all
    of it), more where the page leaves room; ``shared``: neighbours share their cut
    lines and the bleed is kept around the sheet's outer edge only.  Components are
    turned a quarter when that fits more of them (``turn`` True or False: always or
    never).  ``marks=False``: a template that draws its own cut lines, no room for
    crop marks is kept."""
    page_w, page_h = page_size(page)
    m = check_printer_margin(printer_margin)
    area = area or _grid_area(page_w, page_h, m)
    keep = bleed if keep is None else max(0.0, min(keep, bleed))
    min_gutter = MIN_GUTTER if marks and not shared else 0.0
    best = None
    shapes = [(width, height, 0)] if turn is not True else []
    if turn is not False and (turn is True or abs(width - height) > 1e-9):
        shapes.append((height, width, 90))
    for w, h, rotation in shapes:
        ax = _axis(area.w, w, bleed, keep, shared, marks, min_gutter)
        ay = _axis(area.h, h, bleed, keep, shared, marks, min_gutter)
        if ax is None or ay is None:
            continue
        rank = (ax.marks and ay.marks, ax.count * ay.count)  # crop marks first, then the most per page
        if best is None or rank > best[0]:
            best = (rank, w, h, rotation, ax, ay)
    if best is None:
        less = [k / 2 for k in range(int(keep * 2) - 1, -1, -1)
                if any(_axis(area.w, w, bleed, k / 2, shared, marks, min_gutter) is not None and
                       _axis(area.h, h, bleed, k / 2, shared, marks, min_gutter) is not None for w, h, _ in shapes)]
        hint = f" (it fits with --bleed {fmt_mm(less[0])}, or on a larger page)" if less else ""
        raise LayoutError(f"a {fmt_mm(width)} x {fmt_mm(height)} mm component with {fmt_mm(keep)} mm bleed does not fit "
                          f"on a {fmt_mm(page_w)} x {fmt_mm(page_h)} mm page inside a {fmt_mm(m)} mm printer margin{hint}")
    _, w, h, rotation, ax, ay = best
    cols, rows = ax.count, ay.count
    grid_w = cols * w + (cols - 1) * ax.gutter
    grid_h = rows * h + (rows - 1) * ay.gutter
    x0 = area.x + (area.w - grid_w) / 2
    y_top = area.y + (area.h + grid_h) / 2  # trim top of the first row
    sheet = Sheet(page_w, page_h, rows, cols, ax.gutter, ay.gutter, bleed, printer_margin=m,
                  kept=(min(ax.edge, ax.inner) if cols > 1 or shared else ax.edge,
                        min(ay.edge, ay.inner) if rows > 1 or shared else ay.edge),
                  shared=shared, turned=rotation == 90, area=area, marks_x=marks and ax.marks,
                  marks_y=marks and ay.marks, crop=marks, edge_bleed=min(ax.edge, ay.edge))
    if shared:
        sheet.kept = (ax.edge if cols == 1 else 0.0, ay.edge if rows == 1 else 0.0)
    for r in range(rows):
        for c in range(cols):
            x = x0 + c * (w + ax.gutter)
            y = y_top - (r + 1) * h - r * ay.gutter
            trim = Rect(round(x, 4), round(y, 4), w, h)
            clip = trim.grow(
                ax.edge if c == 0 else ax.inner,
                ay.edge if r == rows - 1 else ay.inner,
                ax.edge if c == cols - 1 else ax.inner,
                ay.edge if r == 0 else ay.inner,
            )
            sheet.slots.append(Slot(r * cols + c, r, c, trim, clip, rotation))
    if marks:
        sheet.marks, sheet.cut_lines = _crop_marks(sheet.slots, area, sheet.marks_x, sheet.marks_y)
    return sheet


def _crop_marks(slots: list[Slot], area: Rect, marks_x: bool, marks_y: bool) -> tuple[list[Segment], list[Segment]]:
    """Crop marks in the margins of ``area`` on the extension of every trim line of
    ``slots`` (the filled ones: no mark is drawn for an empty slot), outside the
    artwork of them all; full cut lines for an axis whose margins have no room for them."""
    xs = sorted({s.trim.x for s in slots} | {s.trim.right for s in slots})
    ys = sorted({s.trim.y for s in slots} | {s.trim.top for s in slots})
    bleed = _union(s.clip for s in slots)
    marks: list[Segment] = []
    cuts: list[Segment] = []
    top_start = bleed.top + MARK_GAP
    top_end = _mark_end(top_start, area.top)
    bottom_start = bleed.y - MARK_GAP
    bottom_end = _mark_end(bottom_start, area.y)
    left_start = bleed.x - MARK_GAP
    left_end = _mark_end(left_start, area.x)
    right_start = bleed.right + MARK_GAP
    right_end = _mark_end(right_start, area.right)
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


def _mark_length(room: float, cap: float) -> float:
    """How long a crop mark with ``room`` to the edge of its area may be: at most ``cap``, and
    MARK_SLACK short of the edge when it can still be MIN_MARK long (a printer's margin is
    seldom exactly what it says)."""
    return min(cap, room - MARK_SLACK if room - MARK_SLACK >= MIN_MARK - 1e-3 else room)


def _mark_end(start: float, edge: float) -> float:
    """Where a crop mark from ``start`` towards the edge of its area at ``edge`` ends: at most
    MARK_LENGTH long (``_mark_length``)."""
    length = _mark_length(abs(edge - start), MARK_LENGTH)
    return start + length if edge >= start else start - length


def _kept_inside(m: Segment, area: Rect) -> Segment | None:
    """A crop mark (drawn from its start by the artwork outwards) cut at its outer end to
    end inside ``area`` (MARK_SLACK short of the edge while it keeps MIN_MARK); None when
    less than MIN_MOVED_MARK of it is left inside."""
    if m.x0 == m.x1:
        lo, hi, start, end, across = area.y, area.top, m.y0, m.y1, area.x - 1e-9 <= m.x0 <= area.right + 1e-9
    else:
        lo, hi, start, end, across = area.x, area.right, m.x0, m.x1, area.y - 1e-9 <= m.y0 <= area.top + 1e-9
    if not across or not lo - 1e-9 <= start <= hi + 1e-9:
        return None
    edge = hi if end >= start else lo
    if lo - 1e-9 <= end <= hi + 1e-9 and abs(edge - end) >= MARK_SLACK - 1e-9:
        return m  # inside, with its slack: as it was
    length = _mark_length(abs(edge - start), abs(end - start))
    if length < MIN_MOVED_MARK - 1e-9:
        return None
    end = round(start + length if end >= start else start - length, 4)
    return Segment(m.x0, m.y0, m.x1, end) if m.x0 == m.x1 else Segment(m.x0, m.y0, end, m.y1)


def _clamped(line: Segment, area: Rect) -> Segment:
    """A full cut line kept to ``area``."""
    def clamp(v, lo, hi):
        return round(min(max(v, lo), hi), 4)

    return Segment(clamp(line.x0, area.x, area.right), clamp(line.y0, area.y, area.top),
                   clamp(line.x1, area.x, area.right), clamp(line.y1, area.y, area.top))


# ------------------------------------------------------------------ stacked sheets
def moved(slot: Slot, dy: float) -> Slot:
    """A slot moved up by ``dy`` mm."""
    return replace(slot, trim=Rect(slot.trim.x, round(slot.trim.y + dy, 4), slot.trim.w, slot.trim.h),
                   clip=Rect(slot.clip.x, round(slot.clip.y + dy, 4), slot.clip.w, slot.clip.h))


def stack_bands(parts: list[Sheet], gap: float = MIN_GUTTER) -> list[list[tuple[int, float]]]:
    """Pages for partly filled sheets of components whose templates draw their own cut lines
    (no crop marks run across the page): each sheet's filled rows are a band, and bands go one
    under another from the top of the grid area, ``gap`` apart, a new page when the next does
    not fit.  Returns, per page, (index in ``parts``, how far up to move that band)."""
    pages: list[list[tuple[int, float]]] = []
    cursor = None
    for i, part in enumerate(parts):
        band = _union(s.clip for s in part.slots)
        area = part.area
        if cursor is None or cursor - band.h < area.y - 1e-9:
            pages.append([])
            cursor = area.top
        pages[-1].append((i, round(cursor - band.top, 4)))
        cursor -= band.h + gap
    return pages


# ------------------------------------------------------------------ gutterfold
def _mirror(r: Rect, fold: tuple[str, float]) -> Rect:
    """A rectangle's mirror image about a gutterfold page's fold line."""
    how, at = fold
    if how == "vertical":
        return Rect(round(2 * at - r.right, 4), r.y, r.w, r.h)
    return Rect(r.x, round(2 * at - r.top, 4), r.w, r.h)


def _fold_lines(lines: list[Segment], fold: tuple[str, float]) -> list[Segment]:
    """Lines drawn on the fronts' half and their mirror images on the backs' half."""
    how, at = fold
    if how == "vertical":
        return lines + [Segment(round(2 * at - g.x0, 4), g.y0, round(2 * at - g.x1, 4), g.y1) for g in lines]
    return lines + [Segment(g.x0, round(2 * at - g.y0, 4), g.x1, round(2 * at - g.y1, 4)) for g in lines]


def turned_back(rotation: int, over: str) -> int:
    """How a back is turned on its page so that it lies upright behind its front (turned
    ``rotation``) when the component is turned over sideways: the sheet turned ``over``
    its vertical axis ("vertical": long-edge duplex, a fold down the middle) mirrors
    left and right like the component does, so the back turns the other way; over
    its horizontal axis ("horizontal": short-edge duplex, a fold across) it is also
    turned upside down."""
    return (-rotation) % 360 if over == "vertical" else (180 - rotation) % 360


def gutterfold(page: str | tuple[float, float], width: float, height: float, bleed: float, *,
               printer_margin: float = PRINTER_MARGIN, keep: float | None = None, marks: bool = True) -> Sheet:
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
                sheet = grid((page_w, page_h), width, height, bleed, printer_margin=m, area=half, keep=keep,
                             marks=marks)
            except LayoutError:
                continue
            rank = (not sheet.cut_lines, sheet.per_page)  # crop marks first, then the most per page
            if best is None or rank > (not best[0].cut_lines, best[0].per_page):
                best = (sheet, fold, at, full)
    if best is None:
        raise LayoutError(f"a {fmt_mm(width)} x {fmt_mm(height)} mm component with {fmt_mm(bleed)} mm bleed does not fit "
                          f"on half a {page_name(page)} page inside a {fmt_mm(m)} mm printer margin")
    sheet, fold, at, full = best
    sheet.fold = (fold, at)
    sheet.back_slots = [Slot(s.index, s.row, s.col, _mirror(s.trim, sheet.fold), _mirror(s.clip, sheet.fold),
                             turned_back(s.rotation, fold)) for s in sheet.slots]
    sheet.marks, sheet.cut_lines = _fold_lines(sheet.marks, sheet.fold), _fold_lines(sheet.cut_lines, sheet.fold)
    sheet.folds = [Segment(at, full.y, at, full.top) if fold == "vertical" else Segment(full.x, at, full.right, at)]
    return sheet


# ------------------------------------------------------------------ backs
def _check_duplex(duplex: str) -> None:
    if duplex not in DUPLEX_MODES:
        raise LayoutError(f"unknown duplex mode '{duplex}'; known: {', '.join(DUPLEX_MODES)}")


def _turn_over(r: Rect, sheet: Sheet, duplex: str, offset: tuple[float, float]) -> Rect:
    """Where a rectangle of the fronts page lies on the backs page, moved by the back offset."""
    dx, dy = offset
    if duplex == "short":
        x, y = r.x, sheet.page_h - r.top
    else:
        x, y = sheet.page_w - r.right, r.y
    return Rect(round(x + dx, 4), round(y - dy, 4), r.w, r.h)


def back_slots(sheet: Sheet, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> list[Slot]:
    """Where the back of each front slot goes on the following page.

    ``long``: the sheet turns over its long (vertical) edge, so columns mirror;
    ``short``: it turns over its short edge, so rows mirror and each back is
    rotated 180 degrees to stay upright when the card is turned over sideways;
    ``none``: backs printed on their own sheets, arranged as for ``long`` so that
    sheets can be turned by hand over the long edge.  Components turned a quarter
    on the fronts page are turned so that their backs stay upright too
    (``turned_back``).
    ``offset`` (x right, y down, mm) corrects a printer that shifts the back side.
    """
    _check_duplex(duplex)
    over = "horizontal" if duplex == "short" else "vertical"
    return [Slot(s.index, s.row, s.col, _turn_over(s.trim, sheet, duplex, offset),
                 _turn_over(s.clip, sheet, duplex, offset), turned_back(s.rotation, over)) for s in sheet.slots]


def _back_area(sheet: Sheet, duplex: str) -> Rect:
    """Where a backs page's crop marks may go: the fronts' grid area as the paper turns it
    over (the back offset moves what is printed, never the printable area)."""
    area = sheet.area or sheet.printable
    return _turn_over(area, sheet, duplex, (0.0, 0.0))


def back_marks(sheet: Sheet, duplex: str, offset: tuple[float, float] = (0.0, 0.0), *,
               area: Rect | None = None) -> list[Segment]:
    """The crop marks of a backs page: the fronts' marks, moved like the slots, each cut at
    its outer end where the back offset would take it into the printer margin or the
    footer band (``_kept_inside``).  ``area``: the backs page's ``_back_area``, when the
    caller has it already."""
    area = _back_area(sheet, duplex) if area is None else area
    moved = (_kept_inside(_turn_over_segment(m, sheet, duplex, offset), area) for m in sheet.marks)
    return [m for m in moved if m is not None]


def _turn_over_segment(m: Segment, sheet: Sheet, duplex: str, offset: tuple[float, float]) -> Segment:
    dx, dy = offset
    if duplex == "short":
        x0, y0, x1, y1 = m.x0, sheet.page_h - m.y0, m.x1, sheet.page_h - m.y1
    else:
        x0, y0, x1, y1 = sheet.page_w - m.x0, m.y0, sheet.page_w - m.x1, m.y1
    return Segment(round(x0 + dx, 4), round(y0 - dy, 4), round(x1 + dx, 4), round(y1 - dy, 4))


def back_sheet(sheet: Sheet, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> Sheet:
    """The backs page of a fronts sheet (filled or ``part``): slots, crop marks and cut
    lines turned over as the printer turns the paper and moved by the back offset; the
    footer goes to the band the fronts' footer band turns into (the top, over the short edge)."""
    _check_duplex(duplex)
    area = _back_area(sheet, duplex)
    return replace(sheet, slots=back_slots(sheet, duplex, offset), back_slots=[],
                   marks=back_marks(sheet, duplex, offset, area=area),
                   cut_lines=[_clamped(_turn_over_segment(c, sheet, duplex, offset), area) for c in sheet.cut_lines],
                   footer_top=duplex == "short")
