"""Embedded TrueType fonts for cards, sheets and reference pages.

The DejaVu families ship inside matplotlib's package data, so every machine
that installs the project has them (matplotlib itself is never imported: the
files are found through its package location).  A family is registered with
reportlab (which embeds a subset in each PDF) and with svglib (so SVG
``font-family`` names resolve to it) the first time something needs it:
parsing a TrueType file takes a while, and most games use one family of
three.  The graphics default font is switched away from the non-embedded
Helvetica.
"""

from __future__ import annotations

import importlib.util
import threading
from functools import lru_cache
from pathlib import Path

#: SVG family name -> (reportlab name of the regular face, of the bold face); the names are the file stems
FAMILIES = {
    "DejaVu Sans": ("DejaVuSans", "DejaVuSans-Bold"),
    "DejaVu Serif": ("DejaVuSerif", "DejaVuSerif-Bold"),
    "DejaVu Sans Mono": ("DejaVuSansMono", "DejaVuSansMono-Bold"),
}
DEFAULT_FAMILY = "DejaVu Sans"
DEFAULT_FONT = "DejaVuSans"
DEFAULT_BOLD = "DejaVuSans-Bold"

#: reportlab face name -> its family
FACE_FAMILY = {name: family for family, faces in FAMILIES.items() for name in faces}

_registered: set[str] = set()
_lock = threading.Lock()


@lru_cache(maxsize=None)
def font_dir() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib is not installed; it provides the DejaVu fonts")
    return Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf"


def _register_family(family: str) -> None:
    from reportlab.graphics import shapes
    from reportlab.lib.fonts import addMapping
    from svglib.fonts import get_global_font_map

    folder = font_dir()
    regular, bold = FAMILIES[family]
    font_map = get_global_font_map()
    # svglib registers the TrueType file with reportlab under rlgFontName.
    font_map.register_font(family, str(folder / f"{regular}.ttf"), rlgFontName=regular)
    font_map.register_font(family, str(folder / f"{bold}.ttf"), weight="bold", rlgFontName=bold)
    for b in (0, 1):
        for i in (0, 1):
            addMapping(regular, b, i, bold if b else regular)
    shapes.STATE_DEFAULTS["fontName"] = DEFAULT_FONT


def register_fonts(*families: str) -> None:
    """Register some families (default: every one) with reportlab and svglib, each once per process.

    The default family is always registered: it is the graphics default and
    the font of every footer."""
    wanted = families or tuple(FAMILIES)
    if _registered.issuperset(wanted) and DEFAULT_FAMILY in _registered:
        return
    with _lock:
        for family in (DEFAULT_FAMILY, *wanted):
            if family in FAMILIES and family not in _registered:
                _register_family(family)
                _registered.add(family)


def ensure_faces(*names: str) -> None:
    """Register the families of some reportlab face names (``DejaVuSerif-Bold`` ...)."""
    missing = [FACE_FAMILY[n] for n in names if n in FACE_FAMILY and FACE_FAMILY[n] not in _registered]
    if missing or DEFAULT_FAMILY not in _registered:
        register_fonts(*missing or (DEFAULT_FAMILY,))


def ensure_for_svg(svg: str) -> None:
    """Register every family an SVG text may name (a name found anywhere in it counts)."""
    missing = [family for family in FAMILIES if family not in _registered and family in svg]
    if missing or DEFAULT_FAMILY not in _registered:
        register_fonts(*missing or (DEFAULT_FAMILY,))


def face(family: str, bold: bool = False) -> str:
    """reportlab font name for an SVG family name."""
    regular, heavy = FAMILIES.get(family, FAMILIES[DEFAULT_FAMILY])
    return heavy if bold else regular
