"""Target ``pdf-sheets``: print-ready card sheets.

Every component at its real size, imposed on A4 or Letter pages with bleed and
crop marks (``layout.py``); each page of fronts followed by its page of backs
placed for the printer's duplex mode and shifted by the back offset, or all
backs in ``<game>-backs.pdf`` with ``duplex = "none"``; a footer on every page
with the game, deck, side, page n/m and the content hash.  One PDF form per
distinct drawing, placed for every copy (``pdf.py``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from ..designs import RenderedDesign, RenderedGame
from ..layout import Sheet, back_marks, back_slots, grid
from ..pdf import Page, Placement, SheetWriter, new_canvas
from .base import DeckStats, TargetOutput

FLIP_LABELS = {"long": "backs, flip on long edge", "short": "backs, flip on short edge", "none": "backs"}


@dataclass(frozen=True)
class SheetOptions:
    page: str = "a4"
    duplex: str = "long"  # long, short or none
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, x right and y down as seen on the back


def chunks(items: list, n: int) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)] or [[]]


def _back_sheet(sheet: Sheet, opts: SheetOptions) -> Sheet:
    back = Sheet(sheet.page_w, sheet.page_h, sheet.rows, sheet.cols, sheet.gutter_x, sheet.gutter_y, sheet.bleed,
                 back_slots(sheet, opts.duplex, opts.back_offset), [])
    back.marks = back_marks(sheet, opts.duplex, opts.back_offset)
    return back


def plan_pages(rendered: RenderedGame, opts: SheetOptions) -> tuple[list[Page], list[Page], list[DeckStats]]:
    """Fronts interleaved with their backs (duplex), backs alone (duplex none),
    and the figures of each deck."""
    manifest = rendered.manifest
    digest = rendered.content_hash
    plan: list[tuple[object, Sheet, list[list[RenderedDesign]]]] = []
    stats = []
    for name, items in rendered.decks().items():
        deck = manifest.decks[name]
        sheet = grid(opts.page, deck.size.width, deck.size.height, deck.size.bleed)
        copies = [d for d in items for _ in range(d.count)]
        groups = chunks(copies, sheet.per_page)
        plan.append((deck, sheet, groups))
        stats.append(DeckStats(name, deck.label, len(items), len(copies), len(groups), deck.size.name))
    separate = opts.duplex == "none"
    total = sum(len(g) * (2 if deck.back and not separate else 1) for deck, _, g in plan)
    total_backs = sum(len(g) for deck, _, g in plan if deck.back) if separate else 0
    joined: list[Page] = []
    backs_only: list[Page] = []
    title = manifest.title
    flip = FLIP_LABELS[opts.duplex]
    for deck, sheet, groups in plan:
        back_sheet = _back_sheet(sheet, opts) if deck.back else None
        for group in groups:
            fronts = [Placement(sheet.slots[i], d.front_key) for i, d in enumerate(group)]
            joined.append(Page(sheet, fronts, f"{title} · {deck.label} · fronts · page {len(joined) + 1}/{total}"
                                              f" · {digest}", deck.crop_marks))
            if back_sheet is None:
                continue
            backs = [Placement(back_sheet.slots[i], d.back_key) for i, d in enumerate(group)]
            pages, n, of = (backs_only, len(backs_only) + 1, total_backs) if separate else (joined, len(joined) + 1, total)
            pages.append(Page(back_sheet, backs, f"{title} · {deck.label} · {flip} · page {n}/{of} · {digest}",
                              deck.crop_marks))
    return joined, backs_only, stats


def write_pdf(pages: list[Page], drawings: dict, title: str, subject: str) -> bytes:
    """One PDF of imposed pages; ``drawings`` by the placements' keys."""
    buffer = io.BytesIO()
    first = pages[0].sheet
    c = new_canvas(buffer, first.page_w, first.page_h, f"{title} - {subject}", subject)
    writer = SheetWriter(c, drawings)
    for page in pages:
        writer.page(page)
    c.save()
    return buffer.getvalue()


class PdfSheets:
    """``<game>-cards.pdf`` (and ``<game>-backs.pdf`` with duplex none)."""

    name = "pdf-sheets"
    needs_designs = True

    def configure(self, build) -> SheetOptions:
        return SheetOptions(build.page, build.duplex, tuple(build.back_offset))

    def make(self, rendered: RenderedGame, options: SheetOptions) -> TargetOutput:
        slug = rendered.game.slug
        title = rendered.manifest.title
        joined, backs_only, stats = plan_pages(rendered, options)
        backs_file = Path(f"{slug}-backs.pdf")
        files = {Path(f"{slug}-cards.pdf"): write_pdf(joined, rendered.drawings, title, "cards")}
        if backs_only:
            files[backs_file] = write_pdf(backs_only, rendered.drawings, title, "card backs")
        return TargetOutput(files, [], len(joined) + len(backs_only), stats, [backs_file])
