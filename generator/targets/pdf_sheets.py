"""Target ``pdf-sheets``: print-ready card sheets.

Every component at its real size, imposed on pages (A4, Letter, A3, Tabloid or
a size in mm) with its bleed and crop marks inside the printable area
(``layout.py``).  Components of one size, bleed and back arrangement share
sheets, whichever deck they belong to; the sheets of double-sided components
come first, then those of single-sided ones.  With duplex, every sheet is two
pages, so that the whole file can go to a duplex printer: its fronts, then its
backs placed for the printer's duplex mode and shifted by the back offset, or a
blank page behind a sheet of single-sided components.  With ``duplex = "none"``
the backs go to ``<game>-backs.pdf`` instead; with ``layout = "gutterfold"``
fronts and backs share a page either side of a fold line.  A footer on every
page gives the game, the decks, the side, page n/m and the content hash.  One
PDF form per distinct drawing, placed for every copy (``pdf.py``).  What each
sheet holds and the bleed it keeps are returned as notes.  With ``only`` (ids),
the file is ``<game>-selected.pdf``: just those components, with their backs.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..draw import splice
from ..stages.designs import RenderedDesign, RenderedGame
from ..sheets.layout import PRINTER_MARGIN, LayoutError, Sheet, back_sheet, grid, gutterfold, moved, stack_bands
from ..sheets.notes import sheet_notes
from ..sheets.pdf import Page, Placement, SheetWriter, new_canvas
from .base import DeckStats, TargetOutput

FLIP_LABELS = {"long": "backs, flip on long edge", "short": "backs, flip on short edge", "none": "backs"}


@dataclass(frozen=True)
class SheetOptions:
    page: str = "a4"
    duplex: str = "long"  # long, short or none
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm, x right and y down as seen on the back
    layout: str = "grid"  # grid, shared or gutterfold
    printer_margin: float = PRINTER_MARGIN  # mm of unprintable edge
    bleed: float | None = None  # the least bleed each component keeps (mm); None: all of its own
    proof: bool = False  # outline trim, safe area and overflowing text on every component
    only: tuple[str, ...] = ()  # ids: a file of just these components (``<game>-selected.pdf``)
    boxes: dict = field(default_factory=dict, compare=False)  # proofs: drawing key -> overflowing text boxes


def chunks(items: list, n: int) -> list[list]:
    return [items[i:i + n] for i in range(0, len(items), n)] or [[]]


@dataclass
class SheetGroup:
    """Decks whose components share sheets: one size and bleed, one back arrangement."""

    decks: list  # model.manifest.Deck, in the manifest's order
    sheet: Sheet
    folded: bool  # gutterfold: fronts and backs on one page
    copies: list[tuple[object, RenderedDesign]]  # (deck, design), one per printed copy

    @property
    def back(self) -> bool:
        return self.decks[0].back is not None

    @property
    def labels(self) -> str:
        return ", ".join(d.label for d in self.decks)


def sheet_groups(rendered: RenderedGame, opts: SheetOptions) -> list[SheetGroup]:
    """The decks of a game gathered by what lets them share a sheet (size, bleed, shape of
    the cut: crop marks or the template's own, a back or none), the double-sided first."""
    manifest = rendered.manifest
    found: dict[tuple, SheetGroup] = {}
    for name, items in rendered.decks().items():
        deck = manifest.decks[name]
        s = deck.size
        key = (s.width, s.height, s.bleed, deck.crop_marks, deck.back is not None)
        group = found.get(key)
        if group is None:
            folded = opts.layout == "gutterfold" and deck.back is not None
            try:
                if folded:
                    sheet = gutterfold(opts.page, s.width, s.height, s.bleed, printer_margin=opts.printer_margin,
                                       keep=opts.bleed, marks=deck.crop_marks)
                else:
                    sheet = grid(opts.page, s.width, s.height, s.bleed, printer_margin=opts.printer_margin,
                                 keep=opts.bleed, shared=opts.layout == "shared", marks=deck.crop_marks)
            except LayoutError as exc:
                raise LayoutError(f"deck '{name}': {exc}") from None
            group = found[key] = SheetGroup([], sheet, folded, [])
        group.decks.append(deck)
        group.copies += [(deck, d) for d in items for _ in range(d.count)]
    groups = list(found.values())
    return [g for g in groups if g.back] + [g for g in groups if not g.back]


@dataclass
class PlannedSheet:
    """One sheet to print: its filled slots (``sheet.slots``, and ``back_slots`` folded) in the
    order of the copies they hold."""

    sheet: Sheet
    copies: list[tuple[object, RenderedDesign]]
    back: bool
    folded: bool
    crop: bool


def _stackable(group: SheetGroup) -> bool:
    """Sheets of single-sided components whose templates draw their own cut lines (fold-up nets)
    may hold several sizes, one band under another: no crop mark runs across them."""
    return not group.back and not group.decks[0].crop_marks


def planned_sheets(groups: list[SheetGroup]) -> list[PlannedSheet]:
    """Every sheet, in the groups' order; the partly filled sheets of stackable groups of one
    bleed share pages, one band under another (where the first of those groups comes)."""
    out: list[PlannedSheet | float] = []
    stacks: dict[float, list] = {}  # bleed -> [(its sheet filled so far, the copies)]
    for g in groups:
        parts = chunks(g.copies, g.sheet.per_page)
        if not _stackable(g):
            out += [PlannedSheet(g.sheet.part(len(p)), p, g.back, g.folded, g.decks[0].crop_marks) for p in parts]
            continue
        if g.sheet.bleed not in stacks:
            stacks[g.sheet.bleed] = []
            out.append(g.sheet.bleed)  # where this stack's pages go
        stacks[g.sheet.bleed] += [(g.sheet.part(len(p)), p) for p in parts]
    done: list[PlannedSheet] = []
    for item in out:
        if isinstance(item, PlannedSheet):
            done.append(item)
            continue
        parts = stacks[item]
        for page in stack_bands([sheet for sheet, _ in parts]):
            first = parts[page[0][0]][0]
            slots = [moved(slot, dy) for i, dy in page for slot in parts[i][0].slots]
            done.append(PlannedSheet(replace(first, slots=slots, back_slots=[], marks=[], cut_lines=[]),
                                     [c for i, _ in page for c in parts[i][1]], False, False, False))
    return done


def _placement(slot, key: str, deck, opts: SheetOptions) -> Placement:
    return Placement(slot, key, deck.size.shape, tuple(opts.boxes.get(key, ())) if opts.proof else ())


def page_footer(title: str, labels: list[str], sides: tuple[str, ...], page: str, digest: str,
                width: float) -> str:
    """A page's footer: game, decks, side, page n/m and the content hash, kept within
    ``width`` mm (the printable width): when it is too wide, fewer decks are named, then
    the side is said the shorter way (``sides``: the long way first), then no deck."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from ..art.fonts import DEFAULT_FONT
    from ..sheets.pdf import FOOTER_SIZE_PT

    labels = list(dict.fromkeys(labels))
    decks = [", ".join(labels)] + [f"{labels[0]} and {len(labels) - 1} more"] * (len(labels) > 1)
    tries = [(d, side) for side in sides for d in decks] + [("", side) for side in sides]
    for shown, side in tries:
        text = " · ".join(part for part in (title, shown, side, page, digest) if part)
        if stringWidth(text, DEFAULT_FONT, FOOTER_SIZE_PT) * 25.4 / 72 <= width:
            break
    return text


def plan_pages(rendered: RenderedGame, opts: SheetOptions,
               notes: list[str] | None = None) -> tuple[list[Page], list[Page], list[DeckStats]]:
    """The pages of the cards file (with duplex, each sheet's fronts followed by its
    backs or a blank page), the backs file's (duplex none), and each deck's figures;
    what each sheet holds and the bleed it keeps go to ``notes``."""
    groups = sheet_groups(rendered, opts)
    separate = opts.duplex == "none" and opts.layout != "gutterfold"
    paired = not separate and opts.layout != "gutterfold"  # every sheet two pages
    sheets = planned_sheets(groups)
    total = sum(2 if paired else 1 for _ in sheets)
    total_backs = sum(1 for s in sheets if s.back) if separate else 0
    if notes is not None:
        for g in groups:
            size = g.decks[0].size
            notes += [f"{g.labels}: {n}" for n in sheet_notes(opts.page, g.sheet, size.width, size.height,
                                                               keep=opts.bleed)]
    joined: list[Page] = []
    backs_only: list[Page] = []
    flip = FLIP_LABELS[opts.duplex]

    def footer(part, *side: str, n: int, of: int) -> str:  # within the printable width of the sheet (landscape or not)
        return page_footer(rendered.manifest.title, [deck.label for deck, _ in part], side, f"page {n}/{of}",
                           rendered.content_hash, sheet.page_w - 2 * sheet.printer_margin)
    pages_of: dict[str, int] = {}
    for planned in sheets:
        sheet, part = planned.sheet, planned.copies
        for name in dict.fromkeys(deck.name for deck, _ in part):
            pages_of[name] = pages_of.get(name, 0) + 1
        if planned.folded:
            places = [_placement(sheet.slots[i], d.front_key, deck, opts) for i, (deck, d) in enumerate(part)]
            places += [_placement(sheet.back_slots[i], d.back_key, deck, opts) for i, (deck, d) in enumerate(part)]
            joined.append(Page(sheet, places, footer(part, "fronts and backs, fold on the dashed line",
                                                     n=len(joined) + 1, of=total), planned.crop, opts.proof))
            continue
        fronts = [_placement(sheet.slots[i], d.front_key, deck, opts) for i, (deck, d) in enumerate(part)]
        joined.append(Page(sheet, fronts, footer(part, "fronts", n=len(joined) + 1, of=total), planned.crop,
                           opts.proof))
        if not planned.back:
            if paired:  # the other side of the sheet stays blank
                n = len(joined) + 1
                joined.append(Page(back_sheet(sheet, opts.duplex, opts.back_offset), [],
                                   footer(part, f"back of page {n - 1}, blank", n=n, of=total), False, False))
            continue
        turned = back_sheet(sheet, opts.duplex, opts.back_offset)
        backs = [_placement(turned.slots[i], d.back_key, deck, opts) for i, (deck, d) in enumerate(part)]
        if separate:  # printed by hand on the back of a sheet of the cards file: say which, and how to turn it
            k, name = len(joined), cards_file(rendered.game.slug, opts)
            said = footer(part, f"backs of page {k} of {name}, flip on long edge",
                          f"backs of page {k}, flip on long edge", n=len(backs_only) + 1, of=total_backs)
            backs_only.append(Page(turned, backs, said, planned.crop, opts.proof))
            continue
        joined.append(Page(turned, backs, footer(part, flip, n=len(joined) + 1, of=total), planned.crop, opts.proof))
    stats = []
    for name, items in rendered.decks().items():
        deck = rendered.manifest.decks[name]
        stats.append(DeckStats(name, deck.label, len(items), sum(d.count for d in items), pages_of.get(name, 0),
                               deck.size.name))
    return joined, backs_only, stats


def offset_problems(pages: list[Page], opts: SheetOptions) -> list:
    """A warning when the back offset takes a back's own area (its trim, not only its bleed) past the printable
    area of its page: a printer that cannot print there leaves that strip of the backs white."""
    from model.errors import Problem

    worst = 0.0
    for page in pages:
        p = page.sheet.printable
        for s in page.sheet.slots:
            t = s.trim
            worst = max(worst, p.x - t.x, t.right - p.right, p.y - t.y, t.top - p.top)
    if worst <= 0.05 or not any(opts.back_offset):
        return []
    x, y = opts.back_offset
    return [Problem("--back-offset", None, None, f"{x:g},{y:g} takes the backs {worst:.1f} mm into the printer "
                    f"margin ({pages[0].sheet.printer_margin:g} mm): a printer that cannot print there leaves that "
                    "strip of the backs white; check the reading on the calibration sheet (pnp calibrate), or "
                    "lower --printer-margin if your printer prints that far out", "warning")]


def file_stem(slug: str, only) -> str:
    """What a game's sheet files are named from: ``<game>``, or ``<game>-selected`` with ``only`` (ids)."""
    return f"{slug}-selected" if only else slug


def cards_file(slug: str, opts: SheetOptions) -> str:
    """The name of the cards file: ``<game>-cards.pdf``, or ``<game>-selected.pdf`` with ``only``."""
    return f"{file_stem(slug, opts.only)}.pdf" if opts.only else f"{slug}-cards.pdf"


def write_pdf(pages: list[Page], drawings: dict, title: str, subject: str):
    """One PDF of imposed pages; ``drawings`` by the placements' keys: its bytes, or
    ``model.atomic.Pieces`` when it holds pictures (see ``draw.splice``)."""
    buffer = io.BytesIO()
    first = pages[0].sheet
    c = new_canvas(buffer, first.page_w, first.page_h, f"{title} - {subject}", subject)
    splice.spliced(c)
    writer = SheetWriter(c, drawings, getattr(drawings, "forms", None))
    for page in pages:
        writer.page(page)
    c.save()
    return splice.splice(buffer.getvalue(), c)


class PdfSheets:
    """``<game>-cards.pdf`` (and ``<game>-backs.pdf`` with duplex none); with ``only``,
    ``<game>-selected.pdf`` (and ``<game>-selected-backs.pdf``)."""

    name = "pdf-sheets"
    needs_designs = True

    def configure(self, build) -> SheetOptions:
        return SheetOptions(build.page, build.duplex, tuple(build.back_offset), getattr(build, "layout", "grid"),
                            getattr(build, "printer_margin", PRINTER_MARGIN), getattr(build, "bleed", None),
                            only=tuple(getattr(build, "only", ()) or ()))

    def make(self, rendered: RenderedGame, options: SheetOptions) -> TargetOutput:
        slug = rendered.game.slug
        title = rendered.manifest.title
        notes: list[str] = []
        joined, backs_only, stats = plan_pages(rendered, options, notes)
        backs_file = Path(f"{file_stem(slug, options.only)}-backs.pdf")
        files = {Path(cards_file(slug, options)): write_pdf(joined, rendered.drawings, title, "cards")}
        if backs_only:
            files[backs_file] = write_pdf(backs_only, rendered.drawings, title, "card backs")
        return TargetOutput(files, offset_problems(joined + backs_only, options), len(joined) + len(backs_only),
                            stats, [backs_file], notes=notes)
