"""Sheet geometry in millimetres, values computed by hand from the layout rule."""

import itertools

import pytest

from generator.layout import FOOTER_BAND, LayoutError, Rect, back_marks, back_slots, grid

POKER = (63.5, 88.9, 3.0)


def approx(v):
    return pytest.approx(v, abs=1e-6)


def test_a4_poker_grid_every_trim_box():
    s = grid("a4", *POKER)
    assert (s.rows, s.cols) == (3, 3)
    # the grid area is the printable area (4 mm in from every edge) less a 3 mm footer band at the bottom
    # and at the top: x 4..206 (202 mm), y 7..290 (283 mm); crop marks need 0.5 + 2 mm outside the bleed.
    # gutters: x (202 - 3*63.5 - 2*3 - 2*2.5) / 2 = 0.25; y (283 - 3*88.9 - 6 - 5) / 2 = 2.65
    assert (s.gutter_x, s.gutter_y) == (approx(0.25), approx(2.65))
    xs = [9.5, 73.25, 137.0]  # 4 + (202 - 191) / 2 = 9.5, then + 63.5 + 0.25
    ys = [195.6, 104.05, 12.5]  # top row trim top at 7 + (283 + 272) / 2 = 284.5
    for slot in s.slots:
        assert slot.trim == Rect(approx(xs[slot.col]), approx(ys[slot.row]), 63.5, 88.9)
    # centred: equal left and right margins
    assert s.trim_box.x == approx(210 - s.trim_box.right)
    assert s.notes == []


def test_letter_poker_grid_gives_up_a_row_for_the_printer_margin():
    s = grid("letter", *POKER)
    # 3 rows need 3 * 88.9 + 2 * 3 + 2 * 2.5 = 277.7 mm; Letter has 279.4 - 8 - 6 = 265.4
    assert (s.rows, s.cols) == (2, 3)
    assert (s.gutter_x, s.gutter_y) == (approx(3.2), approx(6.0))  # (207.9 - 190.5 - 11) / 2; 2 x bleed
    assert s.slots[0].trim.x == approx(9.5)  # 4 + (207.9 - 196.9) / 2
    assert s.slots[0].trim.top == approx(4 + FOOTER_BAND + (265.4 + 183.8) / 2)
    assert s.trim_box.x == approx(215.9 - s.trim_box.right)
    assert s.notes == ["letter: 3 x 2 per page instead of 3 x 3, to keep artwork and crop marks out of the 4 mm "
                       "the printer cannot print"]


def test_without_a_printer_margin_the_note_names_what_costs_the_row():
    s = grid("letter", *POKER, printer_margin=0)
    # 3 rows need 277.7 mm (above); Letter has 279.4 - 2 x 3 (the footer bands) = 273.4
    assert (s.rows, s.cols) == (2, 3)
    assert s.notes == ["letter: 3 x 2 per page instead of 3 x 3, to keep room for crop marks around the bleed "
                       "and for the footer bands"]


def test_bleed_is_full_outside_and_shared_inside():
    s = grid("a4", *POKER)
    corner = s.slots[0]
    assert corner.clip.x == approx(corner.trim.x - 3)  # outer edge: the full 3 mm
    assert corner.clip.top == approx(corner.trim.top + 3)
    assert corner.clip.right == approx(corner.trim.right + 0.25 / 2)  # inner edge: half the gutter
    assert corner.clip.y == approx(corner.trim.y - 2.65 / 2)  # a 2.65 mm gutter: 1.325 mm each
    for a, b in itertools.combinations(s.slots, 2):
        overlap_w = min(a.clip.right, b.clip.right) - max(a.clip.x, b.clip.x)
        overlap_h = min(a.clip.top, b.clip.top) - max(a.clip.y, b.clip.y)
        assert overlap_w <= 1e-9 or overlap_h <= 1e-9, "two components' artwork overlaps"


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
    # every trim line is marked: 6 vertical lines (3 columns x 2 edges) at the top
    top = {m.x0 for m in s.marks if m.x0 == m.x1 and m.y0 > s.trim_box.top}
    assert sorted(top) == pytest.approx(sorted({x for sl in s.slots for x in (sl.trim.x, sl.trim.right)}))


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_long_edge_backs_line_up_with_their_fronts(page):
    s = grid(page, *POKER)
    backs = back_slots(s, "long")
    for front, back in zip(s.slots, backs):
        # turning the sheet over its long edge maps x to page_w - x
        assert back.trim.x == approx(s.page_w - front.trim.right)
        assert back.trim.y == approx(front.trim.y)
        assert back.rotation == 0
    # the back of the top-left front is in the top-right position
    assert backs[0].trim.x == approx(s.slots[2].trim.x)


def test_short_edge_backs_mirror_rows_and_turn():
    s = grid("a4", *POKER)
    backs = back_slots(s, "short")
    for front, back in zip(s.slots, backs):
        assert back.trim.x == approx(front.trim.x)
        assert back.trim.y == approx(s.page_h - front.trim.top)
        assert back.rotation == 180


def test_back_offset_shifts_right_and_down():
    s = grid("a4", *POKER)
    plain = back_slots(s, "long")
    moved = back_slots(s, "long", (0.5, 1.0))
    for a, b in zip(plain, moved):
        assert b.trim.x == approx(a.trim.x + 0.5)
        assert b.trim.y == approx(a.trim.y - 1.0)


def test_tokens_and_large_components_get_their_own_grids():
    tokens = grid("a4", 25.4, 25.4, 2.0)
    assert (tokens.rows, tokens.cols) == (10, 7)  # 11 rows only without the printer margin
    assert (grid("a4", 25.4, 25.4, 2.0, printer_margin=0).rows) == 11
    aid = grid("a4", 88.9, 127.0, 3.0)
    assert (aid.rows, aid.cols) == (2, 2)
    assert aid.gutter_x == approx(6.0)  # room for the full bleed on both sides
    with pytest.raises(LayoutError, match="does not fit"):
        grid("a4", 300, 100, 3)
    with pytest.raises(LayoutError, match="unknown page size 'a3'"):
        grid("a3", *POKER)
    with pytest.raises(LayoutError, match="unknown duplex mode 'sideways'"):
        back_slots(aid, "sideways")


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
