"""Print-shop presets: data files in ``generator/presets/``, one per shop.

A preset names the shop, its resolution, whether its products need a back,
where its figures come from, and its sizes: the image (``canvas``), the cut
card (``trim``) and the safe area, in pixels.  ``load_preset`` checks a file
and names the key that is wrong; ``match_size`` finds the size a component
fits (its trim within ``tolerance_mm`` of the size's, upright or turned).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from model.errors import Problem, Problems

from ..stages.raster import MM_PER_INCH

SHOP_KEYS = {"name", "dpi", "needs_back", "tolerance_mm", "source", "notes"}
SIZE_KEYS = {"label", "canvas", "trim", "safe", "confirmed", "note"}


@dataclass(frozen=True)
class ShopSize:
    name: str
    label: str
    canvas: tuple[int, int]
    trim: tuple[int, int]
    safe: tuple[int, int] | None
    confirmed: bool
    note: str = ""


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str
    dpi: int
    needs_back: bool
    tolerance_mm: float
    source: str
    sizes: tuple[ShopSize, ...] = field(default_factory=tuple)

    def trim_mm(self, size: ShopSize) -> tuple[float, float]:
        return (size.trim[0] * MM_PER_INCH / self.dpi, size.trim[1] * MM_PER_INCH / self.dpi)


class PresetError(ValueError):
    pass


def preset_files() -> dict[str, Path]:
    """Shop slug -> its data file, for every preset shipped with the package."""
    folder = resources.files("generator") / "presets"
    return {Path(p.name).stem: Path(str(p)) for p in sorted(folder.iterdir(), key=lambda p: p.name)
            if p.name.endswith(".toml")}


def known_presets() -> list[str]:
    return sorted(preset_files())


def _pair(value, where: str, problems: Problems, file: str) -> tuple[int, int] | None:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        problems.error(file, None, where, f"expected [width, height] in whole pixels, got {value!r}")
        return None
    return (value[0], value[1])


def parse_preset(slug: str, data: dict, file: str) -> Preset:
    """A checked preset; every problem is named by its key (PresetError)."""
    problems = Problems()
    shop = data.get("shop")
    if not isinstance(shop, dict):
        raise PresetError(f"{file}: no [shop] table")
    for key in sorted(set(shop) - SHOP_KEYS):
        problems.error(file, None, f"shop.{key}", f"unknown key; known: {', '.join(sorted(SHOP_KEYS))}")
    name = shop.get("name")
    dpi = shop.get("dpi")
    source = shop.get("source")
    tolerance = shop.get("tolerance_mm", 1.0)
    if not isinstance(name, str) or not name:
        problems.error(file, None, "shop.name", "the shop's name is missing")
    if not isinstance(dpi, int) or not 72 <= dpi <= 1200:
        problems.error(file, None, "shop.dpi", f"expected a whole number of dots per inch, 72 to 1200, got {dpi!r}")
    if not isinstance(source, str) or not source.strip():
        problems.error(file, None, "shop.source", "say where the figures come from")
    if not isinstance(tolerance, (int, float)) or not 0 <= tolerance <= 5:
        problems.error(file, None, "shop.tolerance_mm", f"expected 0 to 5 mm, got {tolerance!r}")
    sizes = []
    table = data.get("sizes")
    if not isinstance(table, dict) or not table:
        problems.error(file, None, "sizes", "no [sizes.NAME] tables")
        table = {}
    for size_name, entry in table.items():
        where = f"sizes.{size_name}"
        if not isinstance(entry, dict):
            problems.error(file, None, where, "expected a table")
            continue
        for key in sorted(set(entry) - SIZE_KEYS):
            problems.error(file, None, f"{where}.{key}", f"unknown key; known: {', '.join(sorted(SIZE_KEYS))}")
        canvas = _pair(entry.get("canvas"), f"{where}.canvas", problems, file)
        trim = _pair(entry.get("trim"), f"{where}.trim", problems, file)
        safe = _pair(entry["safe"], f"{where}.safe", problems, file) if "safe" in entry else None
        if canvas and trim and (trim[0] > canvas[0] or trim[1] > canvas[1]):
            problems.error(file, None, f"{where}.trim", f"the trim {trim} is larger than the canvas {canvas}")
        if trim and safe and (safe[0] > trim[0] or safe[1] > trim[1]):
            problems.error(file, None, f"{where}.safe", f"the safe area {safe} is larger than the trim {trim}")
        confirmed = entry.get("confirmed")
        if not isinstance(confirmed, bool):
            problems.error(file, None, f"{where}.confirmed", "say whether the figures were confirmed (true/false)")
        elif not confirmed and not entry.get("note"):
            problems.error(file, None, f"{where}.note", "an unconfirmed size needs a note saying why")
        if canvas and trim:
            sizes.append(ShopSize(size_name, str(entry.get("label", size_name)), canvas, trim, safe,
                                  bool(confirmed), str(entry.get("note", ""))))
    if problems.errors:
        raise PresetError("; ".join(str(p) for p in problems.errors))
    return Preset(slug, name, dpi, bool(shop.get("needs_back", True)), float(tolerance), source.strip(), tuple(sizes))


@lru_cache(maxsize=None)
def load_preset(slug: str) -> Preset:
    files = preset_files()
    if slug not in files:
        raise PresetError(f"unknown print shop '{slug}'; known: {', '.join(sorted(files))}")
    path = files[slug]
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise PresetError(f"generator/presets/{path.name}: {exc}") from None
    return parse_preset(slug, data, f"generator/presets/{path.name}")


def match_size(preset: Preset, width: float, height: float) -> tuple[ShopSize, bool] | None:
    """The shop size a component of ``width`` x ``height`` mm (trim) fits, and
    whether it is turned a quarter to fit; the closest one when several do."""
    best = None
    for size in preset.sizes:
        tw, th = preset.trim_mm(size)
        for turned, (w, h) in ((False, (width, height)), (True, (height, width))):
            off = max(abs(w - tw), abs(h - th))
            if off <= preset.tolerance_mm + 1e-9 and (best is None or off < best[0]):
                best = (off, size, turned)
    return None if best is None else (best[1], best[2])


def size_problem(preset: Preset, slug: str, deck: str, deck_label: str, width: float, height: float) -> Problem:
    """The warning for a deck that fits none of the shop's sizes, listing them."""
    sizes = ", ".join(s.label.lower() for s in preset.sizes)
    return Problem(f"templates/{slug}/game.toml", None, f"decks.{deck}",
                   f"{deck_label} ({width:g} x {height:g} mm) fit no {preset.name} size, left out; "
                   f"sizes: {sizes}", "warning")
