"""Targets ``tgc``, ``mpc``, ``dtc``: per-card images for a print shop, ``<shop>/...png``.

One target per preset in ``generator/presets/`` (``shops.py``).  Each design
whose trim fits one of the shop's sizes gets one picture per side at exactly
the shop's pixel size: the trim centred, the shop's bleed filled from the
design's own bleed (its outermost pixels repeated where the shop asks for more
bleed than the design has).  A deck that fits no size is left out with a
warning naming it; a deck that fits but has no back, for a shop whose cards
need one, is an error (nothing is written).  ``manifest.csv`` lists every
picture with its component and copies, to check an upload against.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from model.errors import Problem

from ..stages.designs import RenderedGame
from ..stages.raster import centred_shot, rasterise
from .shops import Preset, load_preset, match_size, size_problem
from .base import TargetOutput
from .cardfiles import manifest_csv, picture_name, sides


@dataclass(frozen=True)
class ShopOptions:
    workers: int = 1


class ShopTarget:
    needs_designs = True

    def __init__(self, slug: str):
        self.name = slug
        self.folder = slug

    @property
    def preset(self) -> Preset:
        return load_preset(self.name)

    def configure(self, build) -> ShopOptions:
        return ShopOptions(int(build.settings.get(self.name, {}).get("workers", 1)))

    def make(self, rendered: RenderedGame, options: ShopOptions) -> TargetOutput:
        preset = self.preset
        slug = rendered.game.slug
        manifest = rendered.manifest
        problems: list[Problem] = []
        shots, names, rows = [], [], []
        for deck_name, designs in rendered.decks().items():
            deck = manifest.decks[deck_name]
            s = deck.size
            found = match_size(preset, s.width, s.height)
            if found is None:
                problems.append(size_problem(preset, slug, deck_name, deck.label, s.width, s.height))
                continue
            size, turned = found
            if preset.needs_back and deck.back is None:
                problems.append(Problem(f"templates/{slug}/game.toml", None, f"decks.{deck_name}",
                                        f"{deck.label} fit {preset.name}'s {size.label} but have no back, and "
                                        f"{preset.name} prints both sides; add a back template (back = ...)"))
                continue
            for design in designs:
                for side, key in sides(design):
                    w, h = (size.canvas[1], size.canvas[0]) if turned else size.canvas
                    shot = centred_shot(key, s.full_width, s.full_height, s.bleed, preset.dpi, w, h)
                    if turned:  # rendered as the design lies, then turned upright
                        shot = replace(shot, turn=90)
                    name = Path(self.folder) / picture_name(slug, design, side)
                    shots.append(shot)
                    names.append(name)
                    rows.append({"file": name.name, "component": design.card.name, "copies": design.count,
                                 "deck": design.deck, "id": design.card.id, "side": side,
                                 "width_px": size.canvas[0], "height_px": size.canvas[1]})
        if any(p.is_error for p in problems):
            return TargetOutput({}, problems)
        pictures = rasterise(shots, rendered.drawings, options.workers)
        files = dict(zip(names, pictures))
        files[Path(self.folder) / "manifest.csv"] = manifest_csv(rows)
        return TargetOutput(files, problems, 0, owns=[Path(self.folder)])
