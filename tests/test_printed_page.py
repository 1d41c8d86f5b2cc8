"""The printed page itself: real PDFs of the marker game (every design carries its id
as text and colours of its own on both sides, ``printed.py``), rendered and read back.

Where each design, back and crop mark lies is measured on the rendered page and
compared with where it must be for the sheet to cut and turn right, not with
what the layout code computed."""

from __future__ import annotations

import io
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from generator.build import BuildOptions, build_game
from model.sheets import load_project

from printed import SLUG, Box, Page, markers, mark_lines, marker_game, page_count, texts, union

TOL = 0.35  # mm: two pixels at 150 dpi
OFFSET = {"a4-long-offset": (1.5, -2.0), "letter-short-offset": (-1.0, 2.5)}
BUILDS = {
    "a4-long": dict(page="a4", duplex="long"),
    "letter-long": dict(page="letter", duplex="long"),
    "a4-short": dict(page="a4", duplex="short"),
    "letter-short": dict(page="letter", duplex="short"),
    "a4-long-offset": dict(page="a4", duplex="long", back_offset=OFFSET["a4-long-offset"]),
    "letter-short-offset": dict(page="letter", duplex="short", back_offset=OFFSET["letter-short-offset"]),
    "a4-gutterfold": dict(page="a4", layout="gutterfold"),
    "letter-gutterfold": dict(page="letter", layout="gutterfold"),
}
DUPLEX = [b for b in BUILDS if "gutterfold" not in b]
CATALOGUE = markers()


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    data = marker_game(tmp_path_factory.mktemp("marker"))
    return load_project(data, [SLUG]).games[SLUG], tmp_path_factory.mktemp("out")


@pytest.fixture(scope="module")
def build(game):
    g, out = game

    @lru_cache(maxsize=None)
    def make(name: str):
        result = build_game(g, BuildOptions(out=out / name, **BUILDS[name]), reference=False)
        path = result.files[0]
        pages = [Page(path, i) for i in range(page_count(path))]
        return path, pages, [p.find(CATALOGUE) for p in pages]

    return make


def _expected_back(front: Box, page: Page, duplex: str, offset=(0.0, 0.0)) -> Box:
    """Where the back of ``front`` must print on the back side, in the back page's own
    coordinates: turned over the long edge x mirrors, over the short edge y mirrors;
    the back offset moves it right (x) and down (y) as seen on the back."""
    dx, dy = offset
    if duplex == "short":
        b = Box(front.x0, page.h_mm - front.y1, front.x1, page.h_mm - front.y0)
    else:
        b = Box(page.w_mm - front.x1, front.y0, page.w_mm - front.x0, front.y1)
    return Box(b.x0 + dx, b.y0 + dy, b.x1 + dx, b.y1 + dy)


CLOCKWISE = ["top-left", "top-right", "bottom-right", "bottom-left"]
TURN_OVER = {"vertical": {"top-left": "top-right", "top-right": "top-left", "bottom-left": "bottom-right",
                          "bottom-right": "bottom-left"},
             "horizontal": {"top-left": "bottom-left", "bottom-left": "top-left", "top-right": "bottom-right",
                            "bottom-right": "top-right"}}


def back_corner(front_corner: str, over: str) -> str:
    """Where a back's top-left corner must be seen on its page, given where its front's is:
    turned over sideways, a card's back has its top-left corner behind the front's top-right
    one, the corner that follows the top-left one clockwise (whichever way the front is turned on
    the page, turning keeps that order); the sheet, turned over its vertical axis (long-edge
    duplex, a fold down the middle) or its horizontal one (short edge, a fold across), shows
    that corner of the page at the mirrored corner."""
    after = CLOCKWISE[(CLOCKWISE.index(front_corner) + 1) % 4]
    return TURN_OVER[over][after]


@pytest.mark.parametrize("name", DUPLEX)
def test_every_back_lies_exactly_behind_its_own_front(name, build):
    path, pages, found = build(name)
    duplex = BUILDS[name]["duplex"]
    offset = OFFSET.get(name, (0.0, 0.0))
    # every side of every design is printed exactly once
    seen = [key for f in found for key in f]
    assert sorted(seen) == sorted(CATALOGUE), f"{name}: missing {set(CATALOGUE) - set(seen)}"
    checked = 0
    for i, on_page in enumerate(found):
        fronts = {k: f for k, f in on_page.items() if k[2] == "front"}
        if not fronts:
            continue
        assert i % 2 == 0, f"{name}: fronts on page {i + 1}, the back side of a sheet"
        for (deck, ident, _), front in fronts.items():
            key = (deck, ident, "back")
            if key not in CATALOGUE:
                continue
            assert i + 1 < len(found) and key in found[i + 1], \
                f"{name}: the back of {ident} is not on page {i + 2}, the other side of its sheet"
            back = found[i + 1][key]
            page = pages[i + 1]
            want = _expected_back(front.trim, page, duplex, offset)
            assert back.trim.close_to(want, TOL), f"{name}: back of {ident} at {back.trim}, its front's at {want}"
            art = _expected_back(front.art, page, duplex, offset)
            assert back.art.close_to(art, TOL), f"{name}: back artwork of {ident} at {back.art}, expected {art}"
            # upright when the card is turned over sideways: with an upright front, a back turned over
            # the long edge is upright on its page, one turned over the short edge is upside down
            want_corner = back_corner(front.corner, "horizontal" if duplex == "short" else "vertical")
            assert back.corner == want_corner, f"{name}: back of {ident} has its top-left corner at its " \
                                               f"{back.corner}, its front's at its {front.corner}; expected {want_corner}"
            checked += 1
    assert checked == sum(1 for k in CATALOGUE if k[2] == "back")


@pytest.mark.parametrize("name", DUPLEX + ["a4-gutterfold"])
def test_each_design_carries_its_own_id_where_its_colours_are(name, build):
    path, pages, found = build(name)
    for i, on_page in enumerate(found):
        read = texts(path, i, {key: f.trim for key, f in on_page.items()})
        for key, f in on_page.items():
            text, turns = read[key]
            assert text == f.marker.text, f"{name} page {i + 1}: {f.marker.text}'s trim box holds '{text}'"
            assert turns == f.turns, f"{name} page {i + 1}: {text} turned {turns} quarters, its colours {f.turns}"


def _groups(on_page: dict) -> list[list]:
    """The designs of a page in groups laid out together (fronts, backs)."""
    by_side: dict[str, list] = {}
    for key, f in on_page.items():
        by_side.setdefault(key[2], []).append(f)
    return list(by_side.values())


@pytest.mark.parametrize("name", list(BUILDS))
def test_crop_marks_extend_every_trim_line_and_touch_no_artwork(name, build):
    path, pages, found = build(name)
    for i, on_page in enumerate(found):
        if not on_page:
            continue
        page = pages[i]
        lines = mark_lines(path, i)
        arts = [f.art for f in on_page.values()]
        trims = [f.trim for f in on_page.values()]
        for line in lines:
            # on the extension of a trim line of a design on the page (none for an empty slot) ...
            if line.x1 - line.x0 < 0.2:
                assert min(abs(line.cx - x) for t in trims for x in (t.x0, t.x1)) <= TOL, \
                    f"{name} p{i + 1}: a mark at x={line.cx:.2f} on no trim line of a design on the page"
            else:
                assert line.y1 - line.y0 < 0.2, f"{name} p{i + 1}: a slanted mark {line}"
                assert min(abs(line.cy - y) for t in trims for y in (t.y0, t.y1)) <= TOL, \
                    f"{name} p{i + 1}: a mark at y={line.cy:.2f} on no trim line of a design on the page"
            # ... clear of every design's artwork ...
            for art in arts:
                a = art.grow(-0.1)
                crosses = line.x0 < a.x1 and line.x1 > a.x0 and line.y0 < a.y1 and line.y1 > a.y0
                assert not crosses, f"{name} p{i + 1}: a mark {line} on the artwork at {art}"
            # ... and printed
            length = max(line.x1 - line.x0, line.y1 - line.y0)
            assert page.dark_run(line.x0, line.y0, line.x1, line.y1) >= 0.7 * length, \
                f"{name} p{i + 1}: the mark {line} does not show on the page"
        # every trim line of every design has a mark at both ends of the group it is cut from
        for group in _groups(on_page):
            around = union(f.art for f in group)
            for f in group:
                for edge in ("x0", "x1", "y0", "y1"):
                    missing = _unmarked_ends(lines, around, edge, getattr(f.trim, edge))
                    assert not missing, f"{name} p{i + 1}: no crop mark {missing} the trim line " \
                                        f"{edge[0]}={getattr(f.trim, edge):.2f} of {f.marker.id}"


def _unmarked_ends(lines: list[Box], around: Box, edge: str, at: float) -> list[str]:
    """Which ends of the trim line at ``at`` (a vertical one for an x edge) lack a crop
    mark outside ``around``, the artwork of the designs cut together."""
    if edge[0] == "x":
        marks = [m for m in lines if m.x1 - m.x0 < 0.2 and abs(m.cx - at) <= TOL]
        ends = {"above": lambda m: m.y1 <= around.y0 + 0.01, "below": lambda m: m.y0 >= around.y1 - 0.01}
    else:
        marks = [m for m in lines if m.y1 - m.y0 < 0.2 and abs(m.cy - at) <= TOL]
        ends = {"left of": lambda m: m.x1 <= around.x0 + 0.01, "right of": lambda m: m.x0 >= around.x1 - 0.01}
    return [end for end, outside in ends.items() if not any(outside(m) for m in marks)]


def _fold(pairs: list) -> str:
    """How a gutterfold page folds, read from its pairs: 'down' (a vertical fold line:
    each back the mirror of its front in x) or 'across' (a horizontal one)."""
    def same(values):
        return max(values) - min(values) <= 2 * TOL

    if same([f.trim.x0 + b.trim.x1 for f, b in pairs]) and all(abs(f.trim.y0 - b.trim.y0) <= TOL for f, b in pairs):
        return "down"
    if same([f.trim.y0 + b.trim.y1 for f, b in pairs]) and all(abs(f.trim.x0 - b.trim.x0) <= TOL for f, b in pairs):
        return "across"
    return "no fold"


@pytest.mark.parametrize("name", ["a4-gutterfold", "letter-gutterfold"])
def test_gutterfold_puts_each_back_where_the_fold_lays_it_on_its_front(name, build):
    path, pages, found = build(name)
    seen = [key for f in found for key in f]
    assert sorted(seen) == sorted(CATALOGUE)
    for i, on_page in enumerate(found):
        pairs = [(f, on_page[(k[0], k[1], "back")]) for k, f in on_page.items()
                 if k[2] == "front" and (k[0], k[1], "back") in CATALOGUE]
        missing = [k for k in on_page if k[2] == "front" and (k[0], k[1], "back") in CATALOGUE
                   and (k[0], k[1], "back") not in on_page]
        assert not missing, f"{name} p{i + 1}: backs of {missing} not on the page of their fronts"
        if not pairs:
            continue
        fold = _fold(pairs)
        assert fold != "no fold", f"{name} p{i + 1}: the backs are not the mirror image of their fronts"
        page = pages[i]
        for front, back in pairs:
            # folded down the middle a back turns over like a page of a book (as over the long edge);
            # folded across, like a sheet turned over its short edge
            want = back_corner(front.corner, "vertical" if fold == "down" else "horizontal")
            assert back.corner == want, f"{name} p{i + 1}: back of {front.marker.id} has its top-left corner " \
                                        f"at {back.corner}, its front's at {front.corner}, folded {fold}"
        # the dashed fold line is printed halfway between each front and its back
        f, b = pairs[0]
        if fold == "down":
            at = (f.trim.x0 + b.trim.x1) / 2
            run = page.dark_run(at, 10, at, page.h_mm - 10, level=220)
        else:
            at = (f.trim.y0 + b.trim.y1) / 2
            run = page.dark_run(10, at, page.w_mm - 10, at, level=220)
        assert run > 50, f"{name} p{i + 1}: no fold line at {at:.1f} mm"


def test_gutterfold_is_checked_folded_both_ways(build):
    """The marker game's cards fold down the middle on one paper and across on the other,
    so that the tests above see both folds."""
    folds = set()
    for name in ("a4-gutterfold", "letter-gutterfold"):
        _, _, found = build(name)
        for on_page in found:
            pairs = [(f, on_page[(k[0], k[1], "back")]) for k, f in on_page.items()
                     if k[2] == "front" and (k[0], k[1], "back") in on_page]
            if pairs:
                folds.add(_fold(pairs))
    assert folds == {"down", "across"}


# ------------------------------------------------------------------ Tabletop Simulator
def test_every_tabletop_simulator_cell_shows_its_own_cards_picture(game):
    """Each cell of every TTS sheet holds the picture the PNG export makes of the card
    whose CardID points at it (faces, and backs on unique-back sheets)."""
    from generator.stages.designs import RenderOptions, render_game
    from generator.targets import TARGETS

    g, _ = game
    rendered = render_game(g, RenderOptions())
    dpi = 60
    settings = {"tts": {"dpi": dpi}, "png-cards": {"dpi": dpi, "trim": True}}
    tts = TARGETS["tts"].make(rendered, TARGETS["tts"].configure(BuildOptions(settings=settings)))
    png = TARGETS["png-cards"].make(rendered, TARGETS["png-cards"].configure(BuildOptions(settings=settings)))
    pictures = {p.name: np.asarray(Image.open(io.BytesIO(d)).convert("RGB")).astype(int)
                for p, d in png.files.items() if p.suffix == ".png"}
    images = {p.name: np.asarray(Image.open(io.BytesIO(d)).convert("RGB")).astype(int)
              for p, d in tts.files.items() if p.suffix == ".png"}
    save = json.loads(next(d for p, d in tts.files.items() if p.suffix == ".json"))

    def cards(obj):
        if obj.get("Name") == "Card":
            yield obj
        for inner in obj.get("ContainedObjects", []):
            yield from cards(inner)

    def cell(image, entry, slot):
        cols, rows = entry["NumWidth"], entry["NumHeight"]
        h, w = image.shape[0] // rows, image.shape[1] // cols
        r, c = divmod(slot, cols)
        return image[r * h:(r + 1) * h, c * w:(c + 1) * w]

    def difference(cell_pixels, picture):
        """Mean difference per channel, the picture scaled to the cell (TTS cells are whole pixels
        rounded down, PNG pictures rounded to the nearest)."""
        h, w = cell_pixels.shape[:2]
        if picture.shape[:2] != (h, w):
            scaled = Image.fromarray(picture.astype(np.uint8)).resize((w, h), Image.BILINEAR)
            picture = np.asarray(scaled).astype(int)
        return float(np.abs(cell_pixels - picture).mean())

    def compare(got, deck, ident, side):
        own = pictures[f"{SLUG}-{deck}-{ident}-{side}.png"]
        mine = difference(got, own)
        assert mine < 6, f"TTS {side} of {ident} differs from its PNG by {mine:.1f}"
        others = [difference(got, pic) for name, pic in pictures.items()
                  if name != f"{SLUG}-{deck}-{ident}-{side}.png" and pic.shape == own.shape]
        assert min(others) > mine, f"TTS {side} of {ident} looks like another card"

    checked = 0
    for obj in save["ObjectStates"]:
        if obj["Name"] == "Custom_Tile":  # a round component: its own picture, not a cell
            deck, ident = obj["GMNotes"].split("/")
            compare(images[Path(obj["CustomImage"]["ImageURL"]).name], deck, ident, "front")
            checked += 1
            continue
        for card in cards(obj):
            deck, ident = card["GMNotes"].split("/")
            number, slot = divmod(card["CardID"], 100)
            entry = card["CustomDeck"][str(number)]
            sides = [("front", entry["FaceURL"])]
            if entry["UniqueBack"] and (deck, ident, "back") in CATALOGUE:
                sides.append(("back", entry["BackURL"]))
            for side, url in sides:
                compare(cell(images[Path(url).name], entry, slot), deck, ident, side)
                checked += 1
    assert checked >= sum(1 for k in CATALOGUE if k[2] == "front")
