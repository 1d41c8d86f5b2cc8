"""Sheet geometry in millimetres, values computed by hand from the layout rule."""

import itertools

import pytest

from generator.sheets.layout import (FOOTER_BAND, MIN_GUTTER, LayoutError, Rect, back_marks, back_sheet, back_slots, grid,
                              page_name, page_size)
from generator.sheets.notes import sheet_notes

POKER = (63.5, 88.9, 3.0)


def approx(v):
    return pytest.approx(v, abs=1e-6)


def test_a4_poker_cards_keep_their_full_bleed_turned_eight_to_a_page():
    s = grid("a4", *POKER)
    # the grid area is the printable area (4 mm in from every edge) less a 3 mm footer band at the bottom:
    # x 4..206 (202 mm), y 7..293 (286 mm); crop marks need 0.5 + 2 mm outside the bleed.
    # Upright, 3 columns with 3 mm of bleed on every side need 3 * 69.5 + 5 = 213.5 mm: only 2 x 2 fit.
    # Turned a quarter (88.9 wide, 63.5 high): 2 * 94.9 + 5 = 194.8 <= 202 and 4 * 69.5 + 5 = 283 <= 286.
    assert (s.cols, s.rows, s.turned) == (2, 4, True)
    assert (s.gutter_x, s.gutter_y) == (approx(6.0), approx(6.0))  # twice the bleed: nothing is clipped
    xs = [13.1, 108.0]  # 4 + (202 - (2 * 88.9 + 6)) / 2 = 13.1, then + 88.9 + 6
    ys = [222.5, 153.0, 83.5, 14.0]  # top row's trim top at 7 + (286 + 4 * 63.5 + 3 * 6) / 2 = 286
    for slot in s.slots:
        assert slot.trim == Rect(approx(xs[slot.col]), approx(ys[slot.row]), 88.9, 63.5)
        assert slot.rotation == 90 and slot.design_size == (63.5, 88.9)
        assert slot.clip == slot.trim.grow(3, 3, 3, 3)
    assert s.kept == (3.0, 3.0) and s.trim_box.x == approx(210 - s.trim_box.right)


def test_a_stated_smaller_bleed_fits_nine_and_keeps_what_the_page_allows():
    s = grid("a4", *POKER, keep=1)
    # 3 columns keeping 1 mm: 3 * 63.5 + 2 * 2 + 2 * 1 + 5 = 201.5 <= 202; the spare half millimetre is shared
    # by the 6 bleeds of a row: (202 - 190.5 - 5) / 6 = 1.0833; rows: (286 - 266.7 - 5) / 6 = 2.3833
    assert (s.cols, s.rows, s.turned) == (3, 3, False)
    assert s.kept == (approx(1.0833), approx(2.3833))
    assert (s.gutter_x, s.gutter_y) == (approx(2.1666), approx(4.7666))
    corner = s.slots[0]
    assert corner.clip == Rect(approx(corner.trim.x - 1.0833), approx(corner.trim.y - 2.3833),
                               approx(63.5 + 2 * 1.0833), approx(88.9 + 2 * 2.3833))
    assert sheet_notes("a4", s, 63.5, 88.9, keep=1) == [
        "a4: 9 per page (3 x 3), 1.08 mm of the 3 mm bleed kept on every side"]


def test_letter_poker_cards_and_what_a_smaller_bleed_or_no_margin_would_fit():
    s = grid("letter", *POKER)
    # Letter's grid area: 207.9 x 268.4 mm.  Turned: 2 * 94.9 + 5 = 194.8; rows 3 * 69.5 + 5 = 213.5
    # (4 would need 283); upright: 2 x 2.  With 1 mm kept, turned, 4 rows need 4 * 65.5 + 5 = 267.
    assert (s.cols, s.rows, s.turned) == (2, 3, True)
    assert sheet_notes("letter", s, 63.5, 88.9) == [
        "letter: 6 per page (2 x 3, turned), the full 3 mm bleed kept on every side; --bleed 1 fits 8"]
    assert grid("letter", *POKER, keep=1).per_page == 8
    # 3 x 3 on Letter needs shared cut lines, less bleed and a printer that prints to the edge:
    # 3 * 88.9 + 2 * 2 + 5 = 275.7 of 279.4 - 3 = 276.4 mm
    assert grid("letter", *POKER, shared=True, keep=2, printer_margin=0).per_page == 9
    assert grid("letter", *POKER, shared=True, printer_margin=0).per_page == 8


def test_neighbours_that_share_cut_lines_touch_and_keep_the_bleed_outside():
    s = grid("a4", *POKER, shared=True)
    assert (s.cols, s.rows, s.gutter_x, s.gutter_y) == (3, 3, 0.0, 0.0)
    first, second = s.slots[0], s.slots[1]
    assert first.trim.right == approx(second.trim.x)  # one cut between them
    assert first.clip.right == approx(first.trim.right) and first.clip.x == approx(first.trim.x - 3)
    assert s.kept == (0.0, 0.0) and s.edge_bleed == 3.0
    assert sheet_notes("a4", s, 63.5, 88.9)[0] == ("a4: 9 per page (3 x 3), neighbours share their cut lines, "
                                                  "3 mm bleed kept around the sheet")


@pytest.mark.parametrize("page", ["a4", "letter", "a3", "tabloid"])
@pytest.mark.parametrize("size", [POKER, (44.45, 63.5, 3.0), (25.4, 25.4, 2.0), (16, 16, 1.5), (22, 92, 2),
                                  (190, 24, 2), (30, 30, 0.5), (40, 40, 0.0)], ids=str)
def test_no_default_layout_keeps_under_a_millimetre_between_neighbours(page, size):
    s = grid(page, *size)
    w, h, bleed = size
    assert s.kept == (bleed, bleed)  # the full bleed, on every side
    for a, b in itertools.combinations(s.slots, 2):
        overlap_w = min(a.clip.right, b.clip.right) - max(a.clip.x, b.clip.x)
        overlap_h = min(a.clip.top, b.clip.top) - max(a.clip.y, b.clip.y)
        assert overlap_w <= 1e-9 or overlap_h <= 1e-9, "two components' artwork overlaps"
        gap = max(b.trim.x - a.trim.right, a.trim.x - b.trim.right, b.trim.y - a.trim.top, a.trim.y - b.trim.top)
        assert gap >= MIN_GUTTER - 1e-9  # at least 1 mm each side of a cut, even with less bleed than that


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_crop_marks_lie_outside_every_trim_and_all_artwork(page):
    s = grid(page, *POKER)
    assert s.marks
    for m in s.marks:
        for slot in s.slots:
            assert not slot.clip.intersects_segment(m)
            for px, py in ((m.x0, m.y0), (m.x1, m.y1)):
                assert not (slot.trim.x < px < slot.trim.right and slot.trim.y < py < slot.trim.top)
        assert 4 <= min(m.x0, m.x1) and max(m.x0, m.x1) <= s.page_w - 4  # inside the printable area
        assert 4 + FOOTER_BAND <= min(m.y0, m.y1) and max(m.y0, m.y1) <= s.page_h - 4
        assert abs(m.x1 - m.x0) + abs(m.y1 - m.y0) >= 2.0 - 1e-3  # long enough to cut by
    # every trim line is marked: 4 vertical lines (2 columns x 2 edges) at the top
    top = {m.x0 for m in s.marks if m.x0 == m.x1 and m.y0 > s.trim_box.top}
    assert sorted(top) == pytest.approx(sorted({x for sl in s.slots for x in (sl.trim.x, sl.trim.right)}))


def test_a_sheet_partly_filled_marks_only_the_filled_slots():
    s = grid("a4", *POKER)
    one = s.part(1)
    assert len(one.slots) == 1
    slot = one.slots[0]
    xs = {m.x0 for m in one.marks if m.x0 == m.x1}
    ys = {m.y0 for m in one.marks if m.y0 == m.y1}
    assert xs == {slot.trim.x, slot.trim.right} and ys == {slot.trim.y, slot.trim.top}
    assert len(one.marks) == 8  # both ends of its four trim lines
    # the marks hug what is printed: those below start half a millimetre under its bleed
    assert max(m.y0 for m in one.marks if m.x0 == m.x1 and m.y0 < slot.trim.y) == approx(slot.clip.y - 0.5)
    three = s.part(3)  # the first row and one card of the second
    assert {m.x0 for m in three.marks if m.x0 == m.x1} == {sl.trim.x for sl in s.slots[:2]} | \
        {sl.trim.right for sl in s.slots[:2]}
    assert s.part(8) is s


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_long_edge_backs_line_up_with_their_fronts(page):
    s = grid(page, *POKER)
    backs = back_slots(s, "long")
    for front, back in zip(s.slots, backs):
        # turning the sheet over its long edge maps x to page_w - x
        assert back.trim.x == approx(s.page_w - front.trim.right)
        assert back.trim.y == approx(front.trim.y)
        # a front turned a quarter anticlockwise has its back turned a quarter clockwise, so that turned
        # over sideways (about the card's long axis, the page's horizontal one) the back is upright
        assert (front.rotation, back.rotation) == (90, 270)
    # the back of the top-left front is in the top-right position
    assert backs[0].trim.x == approx(s.slots[1].trim.x)
    upright = grid(page, *POKER, turn=False)
    assert {b.rotation for b in back_slots(upright, "long")} == {0}


def test_short_edge_backs_mirror_rows_and_turn():
    s = grid("a4", *POKER, turn=False)
    backs = back_slots(s, "short")
    for front, back in zip(s.slots, backs):
        assert back.trim.x == approx(front.trim.x)
        assert back.trim.y == approx(s.page_h - front.trim.top)
        assert back.rotation == 180
    # a front turned a quarter anticlockwise: turned over the short edge, its back is turned the same way
    turned = grid("a4", *POKER)
    assert {b.rotation for b in back_slots(turned, "short")} == {90}
    sheet = back_sheet(turned, "short")
    assert sheet.footer_top and not back_sheet(turned, "long").footer_top


def test_back_offset_shifts_right_and_down():
    s = grid("a4", *POKER)
    plain = back_slots(s, "long")
    moved = back_slots(s, "long", (0.5, 1.0))
    for a, b in zip(plain, moved):
        assert b.trim.x == approx(a.trim.x + 0.5)
        assert b.trim.y == approx(a.trim.y - 1.0)


def test_tokens_and_large_components_get_their_own_grids():
    tokens = grid("a4", 25.4, 25.4, 2.0)
    # 29.4 mm a token with its bleed: (202 - 5) / 29.4 = 6.7 columns, (286 - 5) / 29.4 = 9.6 rows
    assert (tokens.rows, tokens.cols) == (9, 6)
    # without the printer margin, a seventh column would need 7 * 29.4 + 5 = 210.8 mm of the 210
    assert grid("a4", 25.4, 25.4, 2.0, printer_margin=0).per_page == 6 * 9
    aid = grid("a4", 88.9, 127.0, 3.0)
    assert (aid.rows, aid.cols) == (2, 2)
    assert aid.gutter_x == approx(6.0)  # room for the full bleed on both sides
    with pytest.raises(LayoutError, match="does not fit"):
        grid("a4", 300, 100, 3)
    with pytest.raises(LayoutError, match="unknown page size 'b7'"):
        grid("b7", *POKER)
    with pytest.raises(LayoutError, match="unknown duplex mode 'sideways'"):
        back_slots(aid, "sideways")


def test_page_sizes_by_name_and_in_millimetres():
    assert page_size("a3") == (297.0, 420.0)
    assert page_size("tabloid") == (279.4, 431.8)  # 11 x 17 in
    assert page_size("A5") == (148.0, 210.0)
    assert page_size("200x280") == (200.0, 280.0) and page_name("200x280") == "200 x 280 mm"
    assert page_size("Letter") == (215.9, 279.4) and page_name("Letter") == "letter"
    with pytest.raises(LayoutError, match="out of range"):
        page_size("20x280")
    # an A3 sheet holds twice an A4 one of poker cards (4 x 4 upright), a custom size what fits
    assert grid("a3", *POKER).per_page == 16
    # 200 x 150 mm: a 192 x 139 mm grid area holds 2 upright (2 * 69.5 + 5 = 144), 1 turned (194.8 > 192)
    assert (grid("200x150", *POKER).per_page, grid("200x150", *POKER).turned) == (2, False)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_backs_page_marks_stay_outside_the_backs(duplex):
    s = grid("a4", *POKER)
    backs = back_slots(s, duplex, (0.5, -0.5))
    marks = back_marks(s, duplex, (0.5, -0.5))
    assert len(marks) == len(s.marks)
    for m in marks:
        assert not any(b.clip.intersects_segment(m) for b in backs)
    # every back trim line is marked: the marks move with the backs
    xs = {round(x, 4) for b in backs for x in (b.trim.x, b.trim.right)}
    assert {m.x0 for m in marks if m.x0 == m.x1} == xs


def test_bands_of_several_sizes_stack_from_the_top_and_turn_the_page_when_full():
    from generator.sheets.layout import stack_bands

    large = grid("a4", 91, 54, 0, marks=False).part(5)  # 3 rows: 162 mm
    medium = grid("a4", 73, 44, 0, marks=False).part(5)  # 3 rows: 132 mm
    small = grid("a4", 55, 34, 0, marks=False).part(5)  # one row, turned: 55 mm
    # the grid area is 286 mm high (7 to 293): 162 + 2 + 132 does not fit, 132 + 2 + 55 does
    pages = stack_bands([large, medium, small])
    assert [[i for i, _ in page] for page in pages] == [[0], [1, 2]]
    (_, dy0), = pages[0]
    assert max(s.trim.top for s in large.slots) + dy0 == approx(293)
    (_, dy1), (_, dy2) = pages[1]
    assert max(s.trim.top for s in medium.slots) + dy1 == approx(293)
    assert max(s.trim.top for s in small.slots) + dy2 == approx(293 - 132 - MIN_GUTTER)


def test_a_component_that_fits_only_with_less_bleed_says_how_much():
    from generator.sheets.layout import LayoutError

    with pytest.raises(LayoutError, match=r"with 3 mm bleed does not fit on a 76 x 140 mm page inside a 4 mm printer "
                                          r"margin \(it fits with --bleed 2, or on a larger page\)$"):
        grid((76, 140), 63.5, 88.9, 3)
    assert grid((76, 140), 63.5, 88.9, 3, keep=2).cols == 1
