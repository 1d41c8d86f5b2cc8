"""The outer edges of a sheet, for every layout, paper and component: the bleed a cut may
stray into on every side that has no neighbour (a part-filled last sheet included), crop
marks inside the printable area whatever the back offset, and neighbours cut apart cleanly
with no bleed kept at all (``--bleed 0``).  Geometry in millimetres; the printed pages are
read back in ``test_printed_edges.py``."""

from __future__ import annotations

import itertools
from functools import lru_cache

import pytest

from generator.sheets.layout import (FOOTER_BAND, MARK_GAP, MIN_GUTTER, LayoutError, Rect, Sheet,
                              back_sheet, grid, gutterfold)
from model.sheets import load_project

from helpers import REPO

EPS = 1e-6
SHORTEST_MARK = 1.0  # a backs page's mark the back offset shortens keeps at least this much (docs/printing.md)
#: papers of A5 and up: named ones, the README's example and a few odd sizes (portrait and landscape)
PAGES = ["a4", "letter", "a3", "148x210", "200x280", "297x210"]
OFFSETS = [(0.5, -1), (-1.5, 2), (3, 3), (-4.5, 0), (0, -4.5)]


@lru_cache(maxsize=None)
def sizes() -> tuple:
    """(width, height, bleed, crop marks) of every deck of every bundled game and of docs/example."""
    found = set()
    for folder in (REPO, REPO / "docs" / "example"):
        for game in load_project(folder).games.values():
            for deck in game.manifest.decks.values():
                s = deck.size
                found.add((s.width, s.height, s.bleed, deck.crop_marks))
    found |= {(30.0, 30.0, 2.0, True), (63.5, 88.9, 0.0, True)}  # the marker game's chips; no bleed at all
    return tuple(sorted(found))


def sheets(page: str, layout: str, keep: float | None):
    """Every sheet of every size on ``page``, with the part-filled sheets a last sheet may be."""
    for width, height, bleed, marks in sizes():
        try:
            if layout == "gutterfold":
                full = gutterfold(page, width, height, bleed, keep=keep, marks=marks)
            else:
                full = grid(page, width, height, bleed, keep=keep, shared=layout == "shared", marks=marks)
        except LayoutError:
            continue  # a component the page cannot hold is an error of its own (test_layout)
        n = full.per_page
        for filled in sorted({1, full.cols - 1, full.cols + 1, n // 2, n - 1, n}):
            if 1 <= filled <= n:
                yield (width, height, bleed), full.part(filled)


def _neighbour(sheet: Sheet, slot, side: str):
    row, col = {"left": (slot.row, slot.col - 1), "right": (slot.row, slot.col + 1),
                "top": (slot.row - 1, slot.col), "bottom": (slot.row + 1, slot.col)}[side]
    if not (0 <= row < sheet.rows and 0 <= col < sheet.cols):
        return "edge"
    return next((s for s in sheet.slots if (s.row, s.col) == (row, col)), "empty")


def _bleed(slot, side: str) -> float:
    t, c = slot.trim, slot.clip
    return {"left": t.x - c.x, "right": c.right - t.right, "top": c.top - t.top, "bottom": t.y - c.y}[side]


def _overlaps(a: Rect, b: Rect) -> bool:
    return min(a.right, b.right) - max(a.x, b.x) > EPS and min(a.top, b.top) - max(a.y, b.y) > EPS


@pytest.mark.parametrize("keep", [None, 1.0, 0.0], ids=["full", "bleed1", "bleed0"])
@pytest.mark.parametrize("layout", ["grid", "shared", "gutterfold"])
@pytest.mark.parametrize("page", PAGES)
def test_every_side_without_a_neighbour_keeps_the_bleed_and_none_reaches_a_neighbour(page, layout, keep):
    checked = 0
    for size, sheet in sheets(page, layout, keep):
        for slot in sheet.slots:
            for side in ("left", "right", "top", "bottom"):
                other = _neighbour(sheet, slot, side)
                kept = _bleed(slot, side)
                where = f"{page} {layout} {size} {len(sheet.slots)} filled, slot {slot.index} {side}"
                if other == "empty":  # a cut a little off the line must show the component, not the paper
                    assert kept >= sheet.bleed - EPS, f"{where}: {kept:.3f} mm bleed towards an empty slot"
                elif other == "edge":
                    assert kept >= sheet.edge_bleed - EPS, f"{where}: {kept:.3f} mm at the sheet's edge"
                checked += 1
            for other in sheet.slots:  # artwork never reaches into a neighbour's trim (nor further)
                if other is not slot and abs(other.row - slot.row) <= 1 and abs(other.col - slot.col) <= 1:
                    assert not _overlaps(slot.clip, other.trim), f"{page} {layout} {size}: slot {slot.index}'s " \
                                                                 f"bleed covers slot {other.index}"
        if layout == "gutterfold":  # each back is still its front's mirror image
            how, at = sheet.fold
            for front, back in zip(sheet.slots, sheet.back_slots):
                if how == "vertical":
                    assert back.clip.x == pytest.approx(2 * at - front.clip.right, abs=1e-3)
                else:
                    assert back.clip.y == pytest.approx(2 * at - front.clip.top, abs=1e-3)
                assert (back.clip.w, back.clip.h) == pytest.approx((front.clip.w, front.clip.h), abs=1e-3)
    assert checked


def test_a_shared_last_sheet_keeps_the_full_bleed_towards_its_empty_slots():
    """Seven poker cards on a 3 x 3 sheet with shared cut lines: the last row's card and
    the two above the empty slots keep 3 mm there, where they had none."""
    sheet = grid("a4", 63.5, 88.9, 3.0, shared=True)
    part = sheet.part(7)
    last = part.slots[6]
    assert (last.row, last.col) == (2, 0)
    assert _bleed(last, "right") == pytest.approx(3.0) and _bleed(sheet.slots[6], "right") == 0.0
    assert _bleed(part.slots[4], "bottom") == pytest.approx(3.0) and _bleed(part.slots[5], "bottom") == \
        pytest.approx(3.0)
    assert _bleed(part.slots[3], "bottom") == 0.0  # its neighbour below is printed
    assert _bleed(part.slots[4], "right") == 0.0


def _union(rects: list[Rect]) -> Rect:
    x0, y0 = min(r.x for r in rects), min(r.y for r in rects)
    return Rect(x0, y0, max(r.right for r in rects) - x0, max(r.top for r in rects) - y0)


def _inside(x: float, y: float, area: Rect) -> bool:
    return area.x - EPS <= x <= area.right + EPS and area.y - EPS <= y <= area.top + EPS


@pytest.mark.parametrize("layout", ["grid", "shared", "gutterfold"])
@pytest.mark.parametrize("page", PAGES)
def test_every_crop_mark_stays_inside_the_printable_area_for_any_back_offset(page, layout):
    checked = 0
    for keep in (None,) if layout == "grid" else (None, 1.0):
        for size, sheet in sheets(page, layout, keep):
            pages = [("fronts", sheet)]
            if layout != "gutterfold":
                pages += [(f"backs {duplex} {offset}", back_sheet(sheet, duplex, offset))
                          for duplex in ("long", "short", "none") for offset in OFFSETS]
            for label, side in pages:
                area = side.printable
                footer = Rect(area.x, area.top - FOOTER_BAND if side.footer_top else area.y, area.w, FOOTER_BAND)
                where = f"{page} {layout} {size} {len(sheet.slots)} filled, {label}"
                # marks lie outside the whole grid (on a gutterfold page, each half's)
                art = [_union([s.clip for s in group]) for group in (side.slots, side.back_slots) if group]
                for m in side.marks + side.cut_lines:
                    assert _inside(m.x0, m.y0, area) and _inside(m.x1, m.y1, area), \
                        f"{where}: {m} outside the printable area {area}"
                    assert not footer.intersects_segment(m), f"{where}: {m} in the footer band"
                    checked += 1
                for m in side.marks:  # (a full cut line runs along its trim line, through the bleed)
                    assert not any(r.intersects_segment(m) for r in art), f"{where}: {m} on the artwork"
                    assert abs(m.x1 - m.x0) + abs(m.y1 - m.y0) >= SHORTEST_MARK - 1e-3, f"{where}: {m} too short"
    assert checked


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_a_back_offset_shortens_the_marks_it_pushes_out_and_keeps_every_trim_line_marked(duplex, offset):
    """Every trim line of a backs page keeps a mark at one end at least, and a mark moves
    with its backs (only its outer end is cut)."""
    sheet = grid("a4", 63.5, 88.9, 3.0)
    backs = back_sheet(sheet, duplex, offset)
    plain = back_sheet(sheet, duplex)
    dx, dy = offset
    for m in backs.marks:
        twin = [p for p in plain.marks if abs(p.x0 + dx - m.x0) < 1e-6 and abs(p.y0 - dy - m.y0) < 1e-6]
        assert twin, f"{m} starts where no mark of the backs would, moved by {offset}"
        assert abs(m.x1 - m.x0) + abs(m.y1 - m.y0) <= abs(twin[0].x1 - twin[0].x0) + abs(twin[0].y1 - twin[0].y0) \
            + 1e-6
    xs = {round(x, 3) for s in backs.slots for x in (s.trim.x, s.trim.right)}
    ys = {round(y, 3) for s in backs.slots for y in (s.trim.y, s.trim.top)}
    assert xs <= {round(m.x0, 3) for m in backs.marks if m.x0 == m.x1}
    assert ys <= {round(m.y0, 3) for m in backs.marks if m.y0 == m.y1}


def test_marks_keep_half_a_millimetre_from_the_printable_edge_where_they_have_room():
    sheet = grid("a4", 63.5, 88.9, 3.0)
    area = sheet.printable
    outer = [min(m.x0, m.x1) for m in sheet.marks if m.y0 == m.y1]
    assert min(outer) >= area.x + 0.5 - EPS  # 5 mm marks, half a millimetre short of the edge
    # one poker card across a page 86.5 mm wide: 4 mm from where its marks start to the printable edge,
    # so 3.5 mm marks
    short = grid((86.5, 150), 63.5, 88.9, 3.0, turn=False)
    assert min(min(m.x0, m.x1) for m in short.marks if m.y0 == m.y1) == pytest.approx(short.printable.x + 0.5)
    # a tight page: the marks keep the 2 mm they need and go to the edge
    tight = grid((69.5 + 2 * (MARK_GAP + 2.0) + 8, 150), 63.5, 88.9, 3.0, turn=False)
    assert tight.cols == 1
    assert min(min(m.x0, m.x1) for m in tight.marks if m.y0 == m.y1) == pytest.approx(tight.printable.x)


@pytest.mark.parametrize("page", ["a4", "letter", "148x210"])
def test_with_no_bleed_kept_neighbours_are_still_cut_apart_cleanly(page):
    """``--bleed 0``: as many as fit with no bleed, neighbours at least 2 mm apart (1 mm of
    bleed each side of a cut), every trim line marked, no artwork over a neighbour's, and
    the bleed that is kept as even as the page allows."""
    for width, height, bleed, marks in sizes():
        if not marks:
            continue
        try:
            sheet = grid(page, width, height, bleed, keep=0)
        except LayoutError:
            continue
        full = grid(page, width, height, bleed) if bleed else sheet
        assert sheet.per_page >= full.per_page
        for a, b in itertools.combinations(sheet.slots, 2):
            assert not _overlaps(a.clip, b.clip), f"{page} {width}x{height}: slots {a.index} and {b.index} overlap"
            if a.row == b.row and abs(a.col - b.col) == 1 or a.col == b.col and abs(a.row - b.row) == 1:
                gap = max(b.trim.x - a.trim.right, a.trim.x - b.trim.right, b.trim.y - a.trim.top,
                          a.trim.y - b.trim.top)
                assert gap >= MIN_GUTTER - EPS, f"{page} {width}x{height}: {gap:.3f} mm between two cuts"
        for slot in sheet.slots:  # a cut a little off the line shows the component, not its neighbour
            for side in ("left", "right", "top", "bottom"):
                if not isinstance(_neighbour(sheet, slot, side), str):
                    assert _bleed(slot, side) >= min(bleed, MIN_GUTTER / 2) - EPS
        xs = {round(x, 3) for s in sheet.slots for x in (s.trim.x, s.trim.right)}
        assert xs <= {round(m.x0, 3) for m in sheet.marks if m.x0 == m.x1}
    # poker cards with no bleed kept: nine to an A4 page, 1 mm of artwork either side of each cut
    poker = grid("a4", 63.5, 88.9, 3.0, keep=0)
    assert (poker.cols, poker.rows, poker.gutter_x) == (3, 3, pytest.approx(2.1666, abs=1e-3))
