"""``--duplex none``: every page of ``<game>-backs.pdf`` says in its footer which page of the
cards file it goes behind and which edge to turn that sheet over, and it is right: its
backs lie exactly behind that page's fronts turned over the long edge.  Footers fit the
printable width of any page."""

from __future__ import annotations

import re

import pypdf
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.build import BuildOptions, build_game
from generator.stages.designs import RenderOptions, render_game
from generator.art.fonts import DEFAULT_FONT
from generator.sheets.pdf import FOOTER_SIZE_PT
from generator.targets.pdf_sheets import SheetOptions, plan_pages
from model.sheets import load_project

from helpers import REPO

GAMES = ["pyramid-scheme", "pyrrameds", "pyramid-shambo"]
SAID = re.compile(r" · backs of page (\d+)(?: of (\S+\.pdf))?, flip on long edge · page (\d+)/(\d+)(?: · |$)")


@pytest.fixture(scope="module")
def rendered():
    project = load_project(REPO, GAMES)
    example = load_project(REPO / "docs" / "example")
    games = {slug: render_game(project.games[slug], RenderOptions()) for slug in GAMES}
    games.update({slug: render_game(g, RenderOptions()) for slug, g in example.games.items()})
    return games


def _key(r):
    return tuple(round(v, 3) for v in (r.x, r.y, r.w, r.h))


@pytest.mark.parametrize("page", ["a4", "letter", "148x210"])
def test_each_backs_page_names_the_fronts_page_it_goes_behind_and_the_edge_to_turn(page, rendered):
    for slug, game in rendered.items():
        opts = SheetOptions(page=page, duplex="none")
        fronts, backs, _ = plan_pages(game, opts)
        assert backs, slug
        for n, back in enumerate(backs, 1):
            said = SAID.search(back.footer)
            assert said, f"{slug} {page} backs page {n}: {back.footer}"
            k = int(said[1])
            assert said[2] in (None, f"{slug}-cards.pdf")
            assert (int(said[3]), int(said[4])) == (n, len(backs))
            front = fronts[k - 1]
            assert " · fronts · " in front.footer
            w = front.sheet.page_w
            behind = {_key(p.slot.trim): p.key for p in back.placements}
            assert len(behind) == len(front.placements), f"{slug} backs page {n} and fronts page {k}"
            for p in front.placements:  # turned over the long edge, x mirrors
                r = p.slot.trim
                mirrored = (round(w - r.right, 3), round(r.y, 3), round(r.w, 3), round(r.h, 3))
                assert mirrored in behind, f"{slug} {page}: nothing on backs page {n} behind the front at {r} " \
                                           f"of page {k}"
        # every double-sided fronts page has its backs page, in order
        named = [int(SAID.search(b.footer)[1]) for b in backs]
        assert named == sorted(set(named))


@pytest.mark.parametrize("page", ["a4", "letter", "148x210", "297x210"])
@pytest.mark.parametrize("duplex", ["long", "short", "none"])
def test_every_footer_fits_the_printable_width(page, duplex, rendered):
    for slug, game in rendered.items():
        opts = SheetOptions(page=page, duplex=duplex, layout="gutterfold" if page == "297x210" else "grid")
        fronts, backs, _ = plan_pages(game, opts)
        for p in fronts + backs:
            width = stringWidth(p.footer, DEFAULT_FONT, FOOTER_SIZE_PT) * 25.4 / 72
            room = p.sheet.page_w - 2 * p.sheet.printer_margin
            assert width <= room + 1e-6, f"{slug} {page}: a {width:.1f} mm footer on {room:.1f} mm: {p.footer}"
            assert game.manifest.title in p.footer and game.content_hash in p.footer


def test_the_built_backs_file_says_it_in_its_footers(tmp_path):
    game = load_project(REPO, ["pyrrameds"]).games["pyrrameds"]
    result = build_game(game, BuildOptions(out=tmp_path, duplex="none"), reference=False)
    backs = next(f for f in result.files if f.name == "pyrrameds-backs.pdf")
    texts = [page.extract_text() for page in pypdf.PdfReader(backs).pages]
    assert "Pyrrameds · Medicine · backs of page 1 of pyrrameds-cards.pdf, flip on long edge · page 1/4 · " \
           in texts[0]
