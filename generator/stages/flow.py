"""Flowing a reference sheet to its page (``reference.py``): pictures of cards and figures
scaled (and turned) as the page allows, headings kept with the start of what follows them,
tables that split over pages with rows on either side, column widths narrowed in proportion,
and the smallest text of a picture, to keep it at the game's floor."""

from __future__ import annotations

import re

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, Paragraph, Table
from reportlab.platypus.doctemplate import FrameBreak

from ..draw.displaylist import draw_picture


class DrawingFlowable(Flowable):
    """A reportlab Drawing (or its display list) scaled to a width in points (its own width,
    before it is turned), centred or left-aligned; ``turned``: a quarter turn anticlockwise."""

    def __init__(self, drawing, width: float, align: str = "CENTER", turned: bool = False):
        super().__init__()
        self.drawing = drawing
        self.scale = width / drawing.width if drawing.width else 1.0
        self.turned = turned
        w, h = width, drawing.height * self.scale
        self.width, self.height = (h, w) if turned else (w, h)
        self.hAlign = align

    def wrap(self, aw, ah):
        return self.width, self.height

    def draw(self):
        self.canv.saveState()
        if self.turned:
            self.canv.translate(self.width, 0)
            self.canv.rotate(90)
        self.canv.scale(self.scale, self.scale)
        draw_picture(self.canv, self.drawing)
        self.canv.restoreState()


class KeepStart(CondPageBreak):
    """Before headings: a new page unless the headings and the start of what follows
    them (a table's header and first rows, a paragraph's first lines) fit in what is
    left of this one.  (reportlab's keepWithNext keeps a heading with all of what
    follows, which moves a long table whole to the next page and strands the page
    before it.)"""

    def __init__(self, headings: list, following):
        super().__init__(0)
        self.headings = headings
        self.following = following

    def wrap(self, aw, ah):
        need = sum(h.wrap(aw, ah)[1] + h.getSpaceBefore() + h.getSpaceAfter() for h in self.headings)
        self.height = need + _start_height(self.following, aw, ah)
        return super().wrap(aw, ah)


def _header_rows(table: Table) -> int:
    """How many rows a table repeats at the top of each page it is split over."""
    return table.repeatRows if isinstance(table.repeatRows, int) else max(table.repeatRows) + 1


def _start_height(flowable, aw: float, ah: float) -> float:
    """The height of the part of a flowable that must not be parted from a heading above it."""
    if isinstance(flowable, Table):
        flowable.wrap(aw, ah)
        heights = flowable._rowHeights
        return sum(heights[:_header_rows(flowable) + MIN_ROWS_APART]) + flowable.getSpaceBefore()
    if isinstance(flowable, Paragraph):
        _, height = flowable.wrap(aw, ah)
        lines = len(getattr(flowable.blPara, "lines", ())) or 1
        return min(height, 3 * height / lines) + flowable.getSpaceBefore()
    return flowable.wrap(aw, ah)[1] + flowable.getSpaceBefore()


def keep_starts(story: list) -> list:
    """The story with each run of headings (``keepWithNext``) followed by a table or a
    paragraph kept with only the start of it (``KeepStart``); reportlab's own grouping
    stays for what cannot be split (a figure, a card)."""
    out: list = []
    run: list = []
    for flowable in story:
        if flowable.getKeepWithNext():
            run.append(flowable)
            continue
        if run and isinstance(flowable, (Table, Paragraph)):
            for heading in run:
                heading.keepWithNext = 0
            out.append(KeepStart(run, flowable))
        out += run
        run = []
        out.append(flowable)
    return out + run


#: A table split over pages keeps at least this many rows besides its header on either side of the split
#: (and its total row with at least one more): no page holds a heading and a header alone, or a header and a total.
MIN_ROWS_APART = 2


LEAST_COLUMN = 8 * mm  # a table's column narrowed to fit the page keeps at least this much


def narrowed(widths: list[float], room: float) -> list[float]:
    """Column widths brought down to ``room`` in their proportions, none under LEAST_COLUMN
    (the others give up what those keep)."""
    least = min(LEAST_COLUMN, room / len(widths))
    kept: set[int] = set()
    while True:
        free = room - least * len(kept)
        rest = sum(w for i, w in enumerate(widths) if i not in kept)
        out = [least if i in kept else w * free / rest for i, w in enumerate(widths)]
        under = {i for i, w in enumerate(out) if w < least - 1e-9}
        if not under:
            return out
        kept |= under


class SplitTable(Table):
    """A table that, split over pages, leaves at least MIN_ROWS_APART rows under its header
    before the split and ``tail`` rows after it (its total row and one more, for an
    inventory): split earlier than the page's end, the rest going to the next page, or
    moved whole to the next page when it is too short for both."""

    tail = MIN_ROWS_APART

    def split(self, aW, aH):
        parts = super().split(aW, aH)
        if len(parts) != 2:
            return parts
        header = _header_rows(self)
        rows = len(self._cellvalues)
        kept = len(parts[0]._cellvalues)  # the header and the rows left on this page
        if kept - header < MIN_ROWS_APART:
            return []
        if rows - kept < self.tail:
            kept = rows - self.tail
            if kept - header < MIN_ROWS_APART:
                return []
            parts = super().split(aW, sum(self._rowHeights[:kept]) + 0.01)
            if len(parts) != 2:
                return []
            parts.insert(1, FrameBreak())  # the page ends here, short of its foot
        for part in parts:
            if isinstance(part, SplitTable):
                part.tail = self.tail
        return parts


_FONT_SIZE = re.compile(r'font-size\s*[=:]\s*"?\s*([0-9.]+)')
_VIEW_BOX = re.compile(r'viewBox\s*=\s*"\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)')
_WIDTH = re.compile(r'<svg\b[^>]*?\swidth\s*=\s*"([0-9.]+)')


def smallest_text(svg: str) -> tuple[float, float] | None:
    """(the smallest font size, the picture's width), both in the SVG's own units; None
    without text."""
    sizes = [float(v) for v in _FONT_SIZE.findall(svg) if float(v) > 0]
    if not sizes:
        return None
    found = _VIEW_BOX.search(svg) or _WIDTH.search(svg)
    width = float(found.group(1)) if found else 0.0
    return (min(sizes), width) if width > 0 else None
