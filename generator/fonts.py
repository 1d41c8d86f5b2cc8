"""Embedded TrueType fonts for cards, sheets and reference pages.

The DejaVu families ship inside matplotlib's package data, so every machine
that installs the project has them.  They are registered with reportlab (which
embeds a subset in each PDF) and with svglib (so SVG ``font-family`` names
resolve to them); the graphics default font is switched away from the
non-embedded Helvetica.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

#: SVG family name -> (reportlab name of the regular face, of the bold face, file stems)
FAMILIES = {
    "DejaVu Sans": ("DejaVuSans", "DejaVuSans-Bold"),
    "DejaVu Serif": ("DejaVuSerif", "DejaVuSerif-Bold"),
    "DejaVu Sans Mono": ("DejaVuSansMono", "DejaVuSansMono-Bold"),
}
DEFAULT_FONT = "DejaVuSans"
DEFAULT_BOLD = "DejaVuSans-Bold"


def font_dir() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib is not installed; it provides the DejaVu fonts")
    return Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf"


@lru_cache(maxsize=None)
def register_fonts() -> None:
    """Register every family once per process (reportlab + svglib)."""
    from reportlab.graphics import shapes
    from reportlab.lib.fonts import addMapping
    from svglib.fonts import get_global_font_map

    folder = font_dir()
    font_map = get_global_font_map()
    for family, (regular, bold) in FAMILIES.items():
        # svglib registers the TrueType file with reportlab under rlgFontName.
        font_map.register_font(family, str(folder / f"{regular}.ttf"), rlgFontName=regular)
        font_map.register_font(family, str(folder / f"{bold}.ttf"), weight="bold", rlgFontName=bold)
        for b in (0, 1):
            for i in (0, 1):
                addMapping(regular, b, i, bold if b else regular)
    shapes.STATE_DEFAULTS["fontName"] = DEFAULT_FONT


def face(family: str, bold: bool = False) -> str:
    """reportlab font name for an SVG family name."""
    regular, heavy = FAMILIES.get(family, FAMILIES["DejaVu Sans"])
    return heavy if bold else regular
