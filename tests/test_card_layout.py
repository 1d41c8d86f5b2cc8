"""Nothing on a card covers what must stay readable: on every design (front and back) of
every bundled game and of the example game, no line of text is covered in part by a shape, a
picture or another line of text (one it is set on whole is its panel), and no two groups a
template marks ``data-keep-clear`` (Pyrrameds' need chips and number badges) overlap.  Read
from the rendered SVG with its transforms (``svgboxes.py``); the checker itself is tested on
small drawings, including the misprint that made it: need chips over a box's name."""

from __future__ import annotations

from functools import lru_cache

import pytest

from generator.stages.designs import RenderOptions, render_game
from model.sheets import load_project

from helpers import REPO
from svgboxes import collisions, drawn

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid", "tiny-tombs"]


@lru_cache(maxsize=None)
def rendered(slug: str):
    folder = REPO / "docs" / "example" if slug == "tiny-tombs" else REPO
    return render_game(load_project(folder, [slug]).games[slug], RenderOptions())


@pytest.mark.parametrize("slug", GAMES)
def test_no_card_of_any_game_has_text_covered_or_marks_overlapping(slug):
    seen: set[str] = set()
    problems = []
    for design in rendered(slug).designs:
        for side, svg in (("front", design.front_svg), ("back", design.back_svg)):
            if not svg or svg in seen:
                continue
            seen.add(svg)
            problems += [f"{design.deck}/{design.card.id} ({side}): {c}" for c in collisions(svg)]
    assert len(seen) > 3 and problems == []


def test_intensive_care_patients_keep_their_needs_clear_of_the_box_name():
    game = rendered("pyrrameds")
    for ident in ("ic-p4", "ic-p7"):  # Clumsy Kangaroo and Curious Chameleon: three needs each
        design = next(d for d in game.designs if d.card.id == ident)
        items = drawn(design.front_svg)
        tag = [d for d in items if d.kind == "text" and d.what in ("INTENSIVE", "CARE")]
        chips = [d for d in items if d.group is not None and d.group.startswith("chip")]
        assert len(tag) == 2 and len(chips) >= 3 * 3  # the corner row, the needs box and the mirrored corner
        for t in tag:
            for c in chips:
                assert not t.area.intersects(c.area), f"{ident}: a need chip touches the box's name"


def test_the_curious_chameleon_is_a_chameleon():
    design = next(d for d in rendered("pyrrameds").designs if d.card.name == "Curious Chameleon")
    assert [name for name, _ in design.pictures] == ["templates/pyrrameds/art/chameleon.svg"]
    assert "#a9a9a9" not in design.front_svg  # the grey fur of the generic pet's head


SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="20mm" viewBox="0 0 40 20">'
       '<rect x="0" y="0" width="40" height="20" fill="#fbf5e6"/>{}</svg>')
TAG = '<text x="2" y="12" font-family="DejaVu Serif" font-weight="bold" font-size="2.2" fill="#6b6357">INTENSIVE CARE</text>'


@pytest.mark.parametrize("drawing, found", [
    # the misprint: a need chip over the end of the box's name (drawn before it or after)
    ('<circle cx="23" cy="11" r="2.4" fill="#6c4f9e"/>' + TAG, ["text 'INTENSIVE CARE' and shape 'circle'"]),
    (TAG + '<circle cx="23" cy="11" r="2.4" fill="#6c4f9e"/>', ["text 'INTENSIVE CARE' and shape 'circle'"]),
    # the same chip far enough to the right: clear
    ('<circle cx="28" cy="11" r="2.4" fill="#6c4f9e"/>' + TAG, []),
    # a panel the text is set on whole, and what lies under that panel: fine
    ('<circle cx="10" cy="11" r="2" fill="#ff0000"/><rect x="1" y="8" width="26" height="6" fill="#ffffff"/>' + TAG,
     []),
    # a panel too short for the text, or with its outline through it: not
    ('<rect x="1" y="8" width="18" height="6" fill="#ffffff"/>' + TAG, ["text 'INTENSIVE CARE' and shape 'rect'"]),
    ('<rect x="1" y="11" width="26" height="6" fill="#ffffff" stroke="#000000" stroke-width="0.5"/>' + TAG,
     ["text 'INTENSIVE CARE' and shape 'rect'"]),
    # a line of text over another
    (TAG + '<text x="12" y="12.6" font-family="DejaVu Sans" font-size="2">over</text>',
     ["text 'INTENSIVE CARE' and text 'over'"]),
    # turned: the chip's group rotated onto the text
    ('<g transform="rotate(180 20 10)"><circle cx="17" cy="9" r="2.4" fill="#6c4f9e"/></g>' + TAG,
     ["text 'INTENSIVE CARE' and shape 'circle'"]),
    # two marked chips that overlap, and two that do not; a chip's own icon inside it is fine
    ('<g data-keep-clear="chip"><circle cx="5" cy="5" r="2" fill="#c00"/><circle cx="5" cy="5" r="1" fill="#fff"/>'
     '</g><g data-keep-clear="chip"><circle cx="8" cy="5" r="2" fill="#00c"/></g>', ["'chip' and 'chip'"]),
    ('<g data-keep-clear="chip"><circle cx="5" cy="5" r="2" fill="#c00"/></g>'
     '<g data-keep-clear="chip"><circle cx="10" cy="5" r="2" fill="#00c"/></g>', []),
    # a deliberate backdrop
    ('<g data-overlap-ok="backdrop"><polygon points="0,0 30,12 0,20" fill="#333"/></g>' + TAG, []),
], ids=["chip-under", "chip-over", "chip-clear", "on-panel", "panel-short", "outline-across", "text-on-text",
        "turned", "chips-overlap", "chips-apart", "backdrop"])
def test_the_checker_tells_an_overlap_from_a_panel(drawing, found):
    got = [c.split(" overlap (")[0] for c in collisions(SVG.format(drawing))]
    assert got == found
