"""Print-shop presets: data files in ``generator/presets/``, one per shop.

A preset names the shop, its resolution, whether its products need a back,
where its figures come from, and its sizes: the image (``canvas``), the cut
card (``trim``) and the safe area, in pixels.  ``load_preset`` checks a file
and names the key that is wrong; ``match_size`` finds the size a component
fits (its trim within ``tolerance_mm`` of the size's, upright or turned).

A shop that takes CMYK print files has a ``[pdfx]`` table (``PrintSpec``): the
PDF/X standard, the least picture resolution, the total ink limit, whether each
copy of a card is a page, and which of the shop's specifications the preflight
checks (``checked``, names from ``CHECKS``) and which it does not
(``not_checked``, in words).  Its export is a PDF/X per deck
(``targets/pdfx.py``); a shop without one gets RGB pictures (``targets/shop.py``).
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
PDFX_KEYS = {"standard", "min_dpi", "max_ink", "copies", "checked", "not_checked"}
#: The PDF/X standards an export writes, by the name ``--standard`` takes.
STANDARDS = {"x-1a": "PDF/X-1a:2003", "x-4": "PDF/X-4"}
#: What a preflight can check (``preflight.py``), in the order it reports.
CHECKS = ("standard", "boxes", "bleed", "colour", "transparency", "fonts", "resolution", "ink")
#: Each copy of a card is a page of the file (``pages``), or each design is one page and the
#: manifest says how many copies (``manifest``).
COPIES = ("pages", "manifest")


@dataclass(frozen=True)
class PrintSpec:
    """What a print file must be: a shop's ``[pdfx]`` table, or the plain ``--to pdfx`` export's."""

    standard: str = STANDARDS["x-4"]
    min_dpi: int = 300
    max_ink: float | None = None  # total ink in %; None: the profile's own limit
    copies: str = "manifest"
    checked: tuple[str, ...] = CHECKS
    not_checked: tuple[str, ...] = ()


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
    pdfx: PrintSpec | None = None  # None: the shop takes RGB pictures

    def trim_mm(self, size: ShopSize) -> tuple[float, float]:
        return (size.trim[0] * MM_PER_INCH / self.dpi, size.trim[1] * MM_PER_INCH / self.dpi)

    def bleed_mm(self, size: ShopSize) -> float:
        """The bleed the shop asks for on each side of ``size`` (half of canvas less trim, across)."""
        return (size.canvas[0] - size.trim[0]) / 2 * MM_PER_INCH / self.dpi


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
    pdfx = _print_spec(data.get("pdfx"), problems, file) if "pdfx" in data else None
    for key in sorted(set(data) - {"shop", "sizes", "pdfx"}):
        problems.error(file, None, key, "unknown table; known: pdfx, shop, sizes")
    if problems.errors:
        raise PresetError("; ".join(str(p) for p in problems.errors))
    return Preset(slug, name, dpi, bool(shop.get("needs_back", True)), float(tolerance), source.strip(), tuple(sizes),
                  pdfx)


def _print_spec(table, problems: Problems, file: str) -> PrintSpec | None:
    """A shop's ``[pdfx]`` table, checked key by key."""
    if not isinstance(table, dict):
        problems.error(file, None, "pdfx", "expected a table")
        return None
    for key in sorted(set(table) - PDFX_KEYS):
        problems.error(file, None, f"pdfx.{key}", f"unknown key; known: {', '.join(sorted(PDFX_KEYS))}")
    standard = table.get("standard")
    if standard not in STANDARDS.values():
        problems.error(file, None, "pdfx.standard", f"expected one of {', '.join(STANDARDS.values())}, "
                                                    f"got {standard!r}")
    min_dpi = table.get("min_dpi", 300)
    if not isinstance(min_dpi, int) or isinstance(min_dpi, bool) or not 72 <= min_dpi <= 1200:
        problems.error(file, None, "pdfx.min_dpi", f"expected a whole number of dots per inch, 72 to 1200, "
                                                   f"got {min_dpi!r}")
    max_ink = table.get("max_ink")
    if max_ink is not None and (not isinstance(max_ink, (int, float)) or isinstance(max_ink, bool)
                                or not 100 <= max_ink <= 400):
        problems.error(file, None, "pdfx.max_ink", f"expected a total ink limit of 100 to 400 (%), got {max_ink!r}")
    copies = table.get("copies", "manifest")
    if copies not in COPIES:
        problems.error(file, None, "pdfx.copies", f"expected one of {', '.join(COPIES)}, got {copies!r}")
    checked = table.get("checked", list(CHECKS))
    if not isinstance(checked, list) or any(c not in CHECKS for c in checked):
        problems.error(file, None, "pdfx.checked", f"expected a list of checks from {', '.join(CHECKS)}, "
                                                   f"got {checked!r}")
        checked = []
    not_checked = table.get("not_checked", [])
    if not isinstance(not_checked, list) or not all(isinstance(n, str) and n.strip() for n in not_checked):
        problems.error(file, None, "pdfx.not_checked", "expected a list of the shop's specifications, in words, "
                                                       "that the preflight does not check")
        not_checked = []
    if problems.errors:
        return None
    return PrintSpec(standard, min_dpi, None if max_ink is None else float(max_ink), copies,
                     tuple(c for c in CHECKS if c in checked), tuple(n.strip() for n in not_checked))


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


def fit_deck(preset: Preset, slug: str, name: str, deck) -> tuple[ShopSize, bool] | Problem:
    """The shop size a deck of the manifest fits and whether it is turned to fit; else the problem:
    a warning when it fits no size, an error when it fits but has no back and the shop prints both sides."""
    s = deck.size
    found = match_size(preset, s.width, s.height)
    if found is None:
        return size_problem(preset, slug, name, deck.label, s.width, s.height)
    if preset.needs_back and deck.back is None:
        return Problem(f"templates/{slug}/game.toml", None, f"decks.{name}",
                       f"{deck.label} fit {preset.name}'s {found[0].label} but have no back, and {preset.name} "
                       "prints both sides; add a back template (back = ...)")
    return found


def size_problem(preset: Preset, slug: str, deck: str, deck_label: str, width: float, height: float) -> Problem:
    """The warning for a deck that fits none of the shop's sizes, listing them."""
    sizes = ", ".join(s.label.lower() for s in preset.sizes)
    return Problem(f"templates/{slug}/game.toml", None, f"decks.{deck}",
                   f"{deck_label} ({width:g} x {height:g} mm) fit no {preset.name} size, left out; "
                   f"sizes: {sizes}", "warning")
