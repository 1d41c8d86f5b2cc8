"""Target ``pdf-sheets``: print-ready card sheets.

Every component at its real size, imposed on A4 or Letter pages with bleed and
crop marks inside the printable area (``layout.py``); each page of fronts
followed by its page of backs placed for the printer's duplex mode and shifted
by the back offset, or all backs in ``<game>-backs.pdf`` with ``duplex =
"none"``, or (``layout = "gutterfold"``) fronts and backs on the same page
either side of a fold line; a footer on every page with the game, deck, side,
page n/m and the content hash.  One PDF form per distinct drawing, placed for
every copy (``pdf.py``).  What the printable area cost (a row, a column) is
returned as notes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from ..designs import RenderedDesign, RenderedGame
from ..layout import PRINTER_MARGIN, LayoutError, Sheet, back_marks, back_slots, grid, gutterfold
from ..pdf import Page, Placement, SheetWriter, new_canvas
from .base import DeckStats, TargetOutput

FLIP_LABELS = {"long": "backs, flip on long edge", "short": "backs, flip on short edge", "none": "backs"}


@dataclass(frozen=True)
class SheetOptions:
    page: str = "a4"
    duplex: str = "long"  # long, short or none
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, x right and y down as seen on the back
    layout: str = "grid"  # grid or gutterfold
    printer_margin: float = PRINTER_MARGIN  # mm of unprintable edge
    proof: bool = False  # outline trim, safe area and overflowing text on every component
    boxes: dict = field(default_factory=dict, compare=False)  # proofs: drawing key -> overflowing text boxes


def chunks(items: list, n: int) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)] or [[]]


def _back_sheet(sheet: Sheet, opts: SheetOptions) -> Sheet:
    back = Sheet(sheet.page_w, sheet.page_h, sheet.rows, sheet.cols, sheet.gutter_x, sheet.gutter_y, sheet.bleed,
                 back_slots(sheet, opts.duplex, opts.back_offset), [], printer_margin=sheet.printer_margin)
    back.marks = back_marks(sheet, opts.duplex, opts.back_offset)
    back.cut_lines = back_marks(Sheet(sheet.page_w, sheet.page_h, 0, 0, 0, 0, 0, [], sheet.cut_lines),
                                opts.duplex, opts.back_offset)
    return back


def _placement(slot, key: str, deck, opts: SheetOptions) -> Placement:
    return Placement(slot, key, deck.size.shape, tuple(opts.boxes.get(key, ())) if opts.proof else ())


def plan_pages(rendered: RenderedGame, opts: SheetOptions,
               notes: list[str] | None = None) -> tuple[list[Page], list[Page], list[DeckStats]]:
    """Fronts interleaved with their backs (duplex), backs alone (duplex none),
    and the figures of each deck; what the layout had to give up goes to ``notes``."""
    manifest = rendered.manifest
    digest = rendered.content_hash
    plan: list[tuple[object, Sheet, list[list[RenderedDesign]], bool]] = []
    stats = []
    found: dict[str, list[str]] = {}  # a layout note -> the decks it applies to
    for name, items in rendered.decks().items():
        deck = manifest.decks[name]
        s = deck.size
        folded = opts.layout == "gutterfold" and deck.back is not None
        try:
            sheet = (gutterfold if folded else grid)(opts.page, s.width, s.height, s.bleed,
                                                     printer_margin=opts.printer_margin)
        except LayoutError as exc:
            raise LayoutError(f"deck '{name}': {exc}") from None
        for n in sheet.notes:
            found.setdefault(n, []).append(deck.label)
        copies = [d for d in items for _ in range(d.count)]
        groups = chunks(copies, sheet.per_page)
        plan.append((deck, sheet, groups, folded))
        stats.append(DeckStats(name, deck.label, len(items), len(copies), len(groups), deck.size.name))
    if notes is not None:
        notes += [f"{', '.join(labels)}: {n}" for n, labels in found.items()]
    separate = opts.duplex == "none" and opts.layout != "gutterfold"
    total = sum(len(g) * (2 if deck.back and not separate and not folded else 1) for deck, _, g, folded in plan)
    total_backs = sum(len(g) for deck, _, g, _f in plan if deck.back) if separate else 0
    joined: list[Page] = []
    backs_only: list[Page] = []
    title = manifest.title
    flip = FLIP_LABELS[opts.duplex]
    for deck, sheet, groups, folded in plan:
        if folded:
            for group in groups:
                places = [_placement(sheet.slots[i], d.front_key, deck, opts) for i, d in enumerate(group)]
                places += [_placement(sheet.back_slots[i], d.back_key, deck, opts) for i, d in enumerate(group)]
                joined.append(Page(sheet, places, f"{title} · {deck.label} · fronts and backs, fold on the dashed "
                                                  f"line · page {len(joined) + 1}/{total} · {digest}",
                                   deck.crop_marks, opts.proof))
            continue
        back_sheet = _back_sheet(sheet, opts) if deck.back else None
        for group in groups:
            fronts = [_placement(sheet.slots[i], d.front_key, deck, opts) for i, d in enumerate(group)]
            joined.append(Page(sheet, fronts, f"{title} · {deck.label} · fronts · page {len(joined) + 1}/{total}"
                                              f" · {digest}", deck.crop_marks, opts.proof))
            if back_sheet is None:
                continue
            backs = [_placement(back_sheet.slots[i], d.back_key, deck, opts) for i, d in enumerate(group)]
            pages, n, of = (backs_only, len(backs_only) + 1, total_backs) if separate else (joined, len(joined) + 1, total)
            pages.append(Page(back_sheet, backs, f"{title} · {deck.label} · {flip} · page {n}/{of} · {digest}",
                              deck.crop_marks, opts.proof))
    return joined, backs_only, stats


def write_pdf(pages: list[Page], drawings: dict, title: str, subject: str) -> bytes:
    """One PDF of imposed pages; ``drawings`` by the placements' keys."""
    buffer = io.BytesIO()
    first = pages[0].sheet
    c = new_canvas(buffer, first.page_w, first.page_h, f"{title} - {subject}", subject)
    writer = SheetWriter(c, drawings, getattr(drawings, "forms", None))
    for page in pages:
        writer.page(page)
    c.save()
    return buffer.getvalue()


class PdfSheets:
    """``<game>-cards.pdf`` (and ``<game>-backs.pdf`` with duplex none)."""

    name = "pdf-sheets"
    needs_designs = True

    def configure(self, build) -> SheetOptions:
        return SheetOptions(build.page, build.duplex, tuple(build.back_offset), getattr(build, "layout", "grid"),
                            getattr(build, "printer_margin", PRINTER_MARGIN))

    def make(self, rendered: RenderedGame, options: SheetOptions) -> TargetOutput:
        slug = rendered.game.slug
        title = rendered.manifest.title
        notes: list[str] = []
        joined, backs_only, stats = plan_pages(rendered, options, notes)
        backs_file = Path(f"{slug}-backs.pdf")
        files = {Path(f"{slug}-cards.pdf"): write_pdf(joined, rendered.drawings, title, "cards")}
        if backs_only:
            files[backs_file] = write_pdf(backs_only, rendered.drawings, title, "card backs")
        return TargetOutput(files, [], len(joined) + len(backs_only), stats, [backs_file], notes=notes)
