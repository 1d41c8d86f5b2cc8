"""Target ``proof``: ``<game>-proof.pdf``, the card sheets for checking before printing.

The same pages as ``pdf-sheets`` (same layout, page size and printer margin),
with every component's trim line (red), its safe area (blue, dashed,
``layout.SAFE_MARGIN`` inside the trim) and every text box whose text did not
fit (magenta) drawn over the artwork.  The text boxes are found by rendering
again, noting the boxes (``Kit.boxes``), only the designs that reported text cut short.

A soft proof (the build's ``proof`` settings ``soft``, and ``profile`` for an ICC
file other than the bundled one) shows every colour as it prints through the
CMYK profile: the finished proof's colours, pictures and gradients replaced by
their round trip through the profile (``draw/recolour.py``), so any PDF viewer shows
the printed card.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from model.errors import Problems

from ..stages.designs import RenderedGame
from ..stages.kit import Kit, context
from ..stages.render import make_env
from .base import TargetOutput
from .pdfx import profile_label
from .pdf_sheets import PdfSheets, SheetOptions, file_stem, plan_pages, write_pdf


def overflow_boxes(rendered: RenderedGame) -> dict[str, list[tuple[float, float, float, float]]]:
    """Drawing key -> the text boxes (design millimetres, origin top-left of the
    bleed) whose text did not fit, for the designs that warned about it."""
    manifest = rendered.manifest
    env = make_env(manifest.folder)
    rows = rendered.rows  # for the templates that list the rows, as they were rendered
    out: dict[str, list] = {}
    for design in rendered.designs:
        if not design.warnings:
            continue
        deck = manifest.decks[design.deck]
        sides = [(deck.front, design.front_key, "front")]
        if deck.back and design.back_key:
            sides.append((deck.back, design.back_key, "back"))
        for template, key, side in sides:
            kit = Kit(manifest, design.card, Problems(), side)  # notes the box of every text that did not fit
            try:
                more = rows.context_for(design.deck) if rows is not None else {}
                env.get_template(template).render(context(manifest, deck, design.card, kit, **more))
            except Exception:  # the build already reported it; a proof shows what it can
                continue
            if kit.boxes:
                out.setdefault(key, []).extend(kit.boxes)
    return out


@dataclass(frozen=True)
class ProofOptions:
    sheets: SheetOptions
    soft: bool = False  # colours as they print through a CMYK profile
    profile: str | None = None  # that profile's file; None: the bundled one


class Proof(PdfSheets):
    name = "proof"
    needs_designs = True

    def configure(self, build) -> ProofOptions:
        settings = build.settings.get(self.name, {})
        return ProofOptions(replace(super().configure(build), proof=True), bool(settings.get("soft", False)),
                            settings.get("profile"))

    def make(self, rendered: RenderedGame, options: ProofOptions) -> TargetOutput:
        sheets = replace(options.sheets, boxes=overflow_boxes(rendered))
        joined, backs_only, _ = plan_pages(rendered, sheets)
        pages = joined + backs_only
        data = write_pdf(pages, rendered.drawings, rendered.manifest.title, "proof")
        notes = []
        if options.soft:
            from ..draw.cmyk import load_profile
            from ..draw.recolour import convert_pdf

            profile = load_profile(options.profile)
            data, _ = convert_pdf(bytes(data), profile, "proof")
            notes.append(f"the proof shows colours as they print through {profile_label(profile, hint=False)}")
        stem = file_stem(rendered.game.slug, sheets.only)
        return TargetOutput({Path(f"{stem}-proof.pdf"): data}, [], 0, notes=notes)
