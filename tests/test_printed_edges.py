"""The outer edges of printed sheets, read back from the rendered pages of the marker game
(``printed.py``: every design's trim in its main colour, its bleed in a light tint):
the bleed on every side with no neighbour (the part-filled last sheet of shared cut lines
too), neighbours cut apart cleanly with no bleed kept (``--bleed 0``), and crop marks
inside the printable area on the backs pages of a shifted printer."""

from __future__ import annotations

import itertools
import pytest

from generator.sheets.layout import PRINTER_MARGIN
from model.sheets import load_project

from printed import SLUG, Box, builder, markers, mark_lines, marker_game

TOL = 0.35  # mm: two pixels at 150 dpi
BLEED = {"card": 3.0, "hero": 3.0, "tile": 2.0, "chip": 2.0}
BUILDS = {
    "a4-shared": dict(page="a4", layout="shared"),
    "letter-shared": dict(page="letter", layout="shared"),
    "a4-bleed1": dict(page="a4", bleed=1.0),
    "a4-bleed0": dict(page="a4", bleed=0.0),
    "a4-long-far": dict(page="a4", duplex="long", back_offset=(3.0, -3.0)),
    "letter-short-far": dict(page="letter", duplex="short", back_offset=(-2.5, 4.0)),
}
CATALOGUE = markers()


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    data = marker_game(tmp_path_factory.mktemp("marker"))
    return builder(load_project(data, [SLUG]).games[SLUG], tmp_path_factory.mktemp("out"), BUILDS)


SIDES = ("x0", "x1", "y0", "y1")


def _beyond(found, side: str) -> float:
    """How far a design's artwork reaches past its trim on one side (mm)."""
    t, a = found.trim, found.art
    return {"x0": t.x0 - a.x0, "x1": a.x1 - t.x1, "y0": t.y0 - a.y0, "y1": a.y1 - t.y1}[side]


def _neighbour(found, others, side: str):
    """The design printed beside ``found`` on one side (its trim within a gutter of it, overlapping along it)."""
    t = found.trim
    for o in others:
        u = o.trim
        along_y = min(t.y1, u.y1) - max(t.y0, u.y0) > 1.0
        along_x = min(t.x1, u.x1) - max(t.x0, u.x0) > 1.0
        if side == "x0" and along_y and 0 <= t.x0 - u.x1 < 7:
            return o
        if side == "x1" and along_y and 0 <= u.x0 - t.x1 < 7:
            return o
        if side == "y0" and along_x and 0 <= t.y0 - u.y1 < 7:
            return o
        if side == "y1" and along_x and 0 <= u.y0 - t.y1 < 7:
            return o
    return None


@pytest.mark.parametrize("name", ["a4-shared", "letter-shared", "a4-bleed1"])
def test_every_side_with_no_neighbour_prints_the_full_bleed(name, build):
    """Wherever no design is printed next to a side, the design's own artwork runs past the
    cut: its full bleed towards the empty slots of a part-filled sheet, and at the sheet's
    outer edge what the layout keeps there (all of it with shared cut lines, at least the
    1 mm asked with ``--bleed 1``)."""
    _, _, found = build(name)
    asked = BUILDS[name].get("bleed")
    # the sheet's outer edges: the extremes of every trim of a size, over all pages
    edges: dict = {}
    for on_page in found:
        for f in on_page.values():
            size = tuple(sorted((round(f.trim.x1 - f.trim.x0), round(f.trim.y1 - f.trim.y0))))
            for side, pick in (("x0", min), ("y0", min), ("x1", max), ("y1", max)):
                edges[size, side] = pick(edges.get((size, side), getattr(f.trim, side)), getattr(f.trim, side))
    seen = set()
    towards_empty = 0
    for i, on_page in enumerate(found):
        for group in _sides_of(on_page):
            for f in group:
                seen.add((f.marker.deck, f.marker.id, f.marker.side))
                size = tuple(sorted((round(f.trim.x1 - f.trim.x0), round(f.trim.y1 - f.trim.y0))))
                for side in SIDES:
                    if _neighbour(f, [o for o in group if o is not f], side) is not None:
                        continue
                    outer = abs(getattr(f.trim, side) - edges[size, side]) <= TOL
                    want = BLEED[f.marker.deck] if not outer or asked is None else min(asked, BLEED[f.marker.deck])
                    towards_empty += not outer
                    reach = _beyond(f, side)
                    assert reach >= want - TOL, \
                        f"{name} p{i + 1}: {f.marker.text} prints {reach:.2f} mm past its {side} edge, where no " \
                        f"neighbour is ({'the sheet' + chr(39) + 's edge' if outer else 'an empty slot'}); " \
                        f"expected {want:g} mm"
    assert seen == set(CATALOGUE)
    assert towards_empty >= 2  # a part-filled sheet was checked


def _sides_of(on_page: dict) -> list[list]:
    by_side: dict[str, list] = {}
    for key, f in on_page.items():
        by_side.setdefault(key[2], []).append(f)
    return list(by_side.values())


def test_the_shared_layout_is_checked_on_a_part_filled_sheet(build):
    """The marker game's twelve poker cards fill one 3 x 3 A4 sheet and three slots of the next."""
    _, _, found = build("a4-shared")
    fronts = [sum(1 for k in on_page if k[2] == "front" and k[0] in ("card", "hero")) for on_page in found]
    assert [n for n in fronts if n] [:2] == [9, 3]


def test_with_no_bleed_kept_neighbours_are_cut_apart_cleanly(build):
    """``--bleed 0``: nine poker cards to an A4 page; no design's artwork touches another's,
    each trim prints whole in its own colour (a neighbour's bleed over it would cut it short),
    and neighbouring cuts are at least 2 mm apart."""
    _, _, found = build("a4-bleed0")
    first = found[0]
    assert sum(1 for k in first if k[2] == "front") == 9
    for i, on_page in enumerate(found):
        for group in _sides_of(on_page):
            for a, b in itertools.combinations(group, 2):
                assert not _touch(a.art, b.art), f"p{i + 1}: {a.marker.text}'s artwork touches {b.marker.text}'s"
                gap = max(b.trim.x0 - a.trim.x1, a.trim.x0 - b.trim.x1, b.trim.y0 - a.trim.y1, a.trim.y0 - b.trim.y1)
                assert gap >= 2.0 - TOL, f"p{i + 1}: {gap:.2f} mm between {a.marker.text} and {b.marker.text}"
            for f in group:
                w, h = f.trim.x1 - f.trim.x0, f.trim.y1 - f.trim.y0
                want = {"card": (63.5, 88.9), "hero": (63.5, 88.9), "tile": (50, 50), "chip": (30, 30)}[f.marker.deck]
                assert sorted((w, h)) == pytest.approx(sorted(want), abs=2 * TOL), \
                    f"p{i + 1}: {f.marker.text}'s trim prints {w:.2f} x {h:.2f} mm"
                for side in SIDES:  # at least a millimetre of its own bleed towards every neighbour
                    if _neighbour(f, [o for o in group if o is not f], side) is not None:
                        assert _beyond(f, side) >= 1.0 - TOL


def _touch(a: Box, b: Box) -> bool:
    return min(a.x1, b.x1) - max(a.x0, b.x0) > TOL and min(a.y1, b.y1) - max(a.y0, b.y0) > TOL


@pytest.mark.parametrize("name", ["a4-long-far", "letter-short-far", "a4-shared"])
def test_crop_marks_print_inside_the_printable_area_on_fronts_and_shifted_backs(name, build):
    path, pages, found = build(name)
    marks = 0
    for i, page in enumerate(pages):
        for line in mark_lines(path, i):
            marks += 1
            inside = (PRINTER_MARGIN - 0.05 <= line.x0 and line.x1 <= page.w_mm - PRINTER_MARGIN + 0.05
                      and PRINTER_MARGIN - 0.05 <= line.y0 and line.y1 <= page.h_mm - PRINTER_MARGIN + 0.05)
            assert inside, f"{name} p{i + 1}: a crop mark at {line} reaches into the {PRINTER_MARGIN:g} mm margin"
            length = max(line.x1 - line.x0, line.y1 - line.y0)
            assert length >= 1.0 - 0.05, f"{name} p{i + 1}: a crop mark of {length:.2f} mm"
    assert marks > 50
