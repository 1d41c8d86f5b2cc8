"""Target ``png-cards``: one picture per design front and one per distinct back.

Each picture is a drawing rasterised (``raster.py``) at the chosen resolution,
with its bleed (or, with ``trim``, cut to the trim box).  All copies of a
design print the same, so a design has one front picture,
``png/<game>-<deck>-<id>-front.png``; a back shared by every design of a deck
(of several) is one picture, ``png/<game>-<deck>-back.png``, and where a deck's
backs differ each distinct back is one picture named after the first design
that has it, ``png/<game>-<deck>-<id>-back.png``.  ``manifest.csv`` beside the pictures says
how many copies each one stands for (and, for a back, the ids of the designs it
is the back of).  Pictures an earlier export left in the folder are removed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..stages.designs import RenderedDesign, RenderedGame
from ..stages.raster import MM_PER_INCH, Shot, centred_shot, rasterise
from .base import TargetOutput
from .cardfiles import manifest_csv, picture_name, safe_name

DEFAULT_DPI = 300


@dataclass(frozen=True)
class PngOptions:
    dpi: int = DEFAULT_DPI
    trim: bool = False  # cut the bleed off
    workers: int = 1


def pixels(mm: float, dpi: float) -> int:
    return max(1, round(mm * dpi / MM_PER_INCH))


class Png:
    name = "png-cards"
    needs_designs = True
    folder = "png"

    def configure(self, build) -> PngOptions:
        settings = build.settings.get(self.name, {})
        return PngOptions(int(settings.get("dpi", DEFAULT_DPI)), bool(settings.get("trim", False)),
                          int(settings.get("workers", 1)))

    def make(self, rendered: RenderedGame, options: PngOptions) -> TargetOutput:
        slug = rendered.game.slug
        shots: list[Shot] = []
        names: list[Path] = []
        rows = []
        for deck_name, designs in rendered.decks().items():
            size = designs[0].size
            pictures = [(d, "front", d.front_key, picture_name(slug, d, "front"), d.card.name, d.count, d.card.id)
                        for d in designs]
            for key, backed in distinct_backs(designs).items():
                deck = rendered.manifest.decks[deck_name]
                whole = len(backed) == len(designs) > 1
                name = f"{safe_name(slug)}-{safe_name(deck_name)}-back.png" if whole else \
                    picture_name(slug, backed[0], "back")
                label = f"{deck.label} (back)" if whole or len(backed) > 1 else backed[0].card.name
                pictures.append((backed[0], "back", key, name, label, sum(d.count for d in backed),
                                 " ".join(d.card.id for d in backed)))
            for design, side, key, name, component, copies, ids in pictures:
                if options.trim:
                    shot = centred_shot(key, size.full_width, size.full_height, size.bleed, options.dpi,
                                        pixels(size.width, options.dpi), pixels(size.height, options.dpi))
                else:
                    shot = Shot(key, pixels(size.full_width, options.dpi), pixels(size.full_height, options.dpi),
                                options.dpi, 0.0, 0.0, size.full_width, size.full_height)
                shots.append(shot)
                names.append(Path(self.folder) / name)
                rows.append({"file": name, "component": component, "copies": copies, "deck": design.deck,
                             "id": ids, "side": side, "width_px": shot.width, "height_px": shot.height})
        pictures = rasterise(shots, rendered.drawings, options.workers)
        files = dict(zip(names, pictures))
        files[Path(self.folder) / "manifest.csv"] = manifest_csv(rows)
        return TargetOutput(files, [], 0, owns=[Path(self.folder)])


def distinct_backs(designs: list[RenderedDesign]) -> dict[str, list[RenderedDesign]]:
    """Each distinct back (drawing key) of some designs and the designs it is the back of, in order."""
    out: dict[str, list[RenderedDesign]] = {}
    for d in designs:
        if d.back_key is not None:
            out.setdefault(d.back_key, []).append(d)
    return out
