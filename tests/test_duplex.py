"""Every sheet of every bundled game pairs up for a duplex printer: the page after a sheet's
fronts is its backs, each exactly behind its own front, or a blank page; and components of
one size and back share sheets."""

from __future__ import annotations

import pypdf
import pytest

from generator.build import BuildOptions, build_game
from generator.stages.designs import RenderOptions, render_game
from generator.sheets.layout import Rect, grid
from generator.targets.pdf_sheets import SheetOptions, plan_pages
from model.sheets import load_project

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]


@pytest.fixture(scope="module")
def rendered(project_root):
    project = load_project(project_root)
    return {slug: render_game(project.games[slug], RenderOptions()) for slug in GAMES}


def _turned_over(r: Rect, page_w: float, page_h: float, duplex: str) -> tuple:
    """Where a rectangle of a sheet's front lies seen from its back."""
    if duplex == "short":
        return (round(r.x, 3), round(page_h - r.top, 3), round(r.w, 3), round(r.h, 3))
    return (round(page_w - r.right, 3), round(r.y, 3), round(r.w, 3), round(r.h, 3))


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("slug", GAMES)
def test_every_sheet_carries_its_own_backs_or_a_blank_page(slug, page, duplex, rendered):
    game = rendered[slug]
    backs_of = {}  # a front's drawing -> the backs it may have (designs that look alike may differ behind)
    for d in game.designs:
        backs_of.setdefault(d.front_key, set()).add(d.back_key)
    pages, alone, _ = plan_pages(game, SheetOptions(page=page, duplex=duplex))
    assert not alone and len(pages) % 2 == 0
    printed = 0
    for k in range(0, len(pages), 2):
        front, back = pages[k], pages[k + 1]
        assert " fronts · " in front.footer, f"{slug} page {k + 1}: {front.footer}"
        w, h = front.sheet.page_w, front.sheet.page_h
        behind = {(p.slot.trim.x, p.slot.trim.y, p.slot.trim.w, p.slot.trim.h): p for p in back.placements}
        behind = {tuple(round(v, 3) for v in where): p for where, p in behind.items()}
        if all(None in backs_of[p.key] for p in front.placements):  # single-sided components
            assert back.placements == [] and "blank" in back.footer, f"{slug} page {k + 2} should be blank"
            printed += len(front.placements)
            continue
        assert "backs" in back.footer and len(back.placements) == len(front.placements)
        for p in front.placements:
            other = behind.get(_turned_over(p.slot.trim, w, h, duplex))
            assert other is not None, f"{slug} {page} {duplex} page {k + 2}: nothing behind the front at {p.slot.trim}"
            assert other.key in backs_of[p.key], f"{slug} {page} {duplex} page {k + 2}: another design's back"
            printed += 1
    assert printed == sum(d.count for d in game.designs)


def test_a_built_pdf_has_the_planned_pages_and_its_blank_pages_are_blank(rendered, project_root, tmp_path):
    project = load_project(project_root, ["pyramid-shambo"])
    result = build_game(project.games["pyramid-shambo"], BuildOptions(out=tmp_path), reference=False)
    reader = pypdf.PdfReader(result.files[0])
    pages, _, _ = plan_pages(rendered["pyramid-shambo"], SheetOptions())
    assert len(reader.pages) == len(pages) == 8
    for planned, page in zip(pages, reader.pages):
        drawn = page["/Resources"].get("/XObject") or {}
        assert (len(drawn) == 0) == (planned.placements == []), planned.footer
    assert [i + 1 for i, p in enumerate(pages) if not p.placements] == [4, 6, 8]


def test_same_size_decks_share_sheets_and_the_sheets_saved(rendered):
    """The sheets each game needs now, against one deck per sheet as before (A4, duplex long):
    the figures docs/printing.md gives."""
    saved = {}
    for slug, game in rendered.items():
        pages, _, stats = plan_pages(game, SheetOptions())
        sheets = len(pages) // 2
        alone = 0  # each deck on sheets of its own, at the same number per sheet
        for deck_stats in stats:
            deck = game.manifest.decks[deck_stats.deck]
            per = grid("a4", deck.size.width, deck.size.height, deck.size.bleed, marks=deck.crop_marks).per_page
            alone += -(-deck_stats.components // per)
        saved[slug] = (alone, sheets)
    assert saved == {"pyramid-scheme": (17, 15), "golden-pyramid": (19, 18), "pyramid-shambo": (5, 4),
                     "pyrrameds": (6, 4), "drinking-pyramid": (7, 7)}
