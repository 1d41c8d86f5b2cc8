"""Embedded TrueType fonts for cards, sheets and reference pages.

The DejaVu families ship inside matplotlib's package data, so every machine
that installs the project has them (matplotlib itself is never imported: the
files are found through its package location).  A family is registered with
reportlab (which embeds a subset in each PDF) the first time something needs
it: parsing a TrueType file takes a while, and most games use one family of
three.  svglib is told about the families (so SVG ``font-family`` names
resolve to them) only when it is used: most SVGs are read without it
(``svgfast.py``).  The graphics default font is switched away from the
non-embedded Helvetica.
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
_lock = threading.RLock()


@lru_cache(maxsize=None)
def font_dir() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib is not installed; it provides the DejaVu fonts")
    return Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf"


_svglib_families: set[str] = set()


def _register_family(family: str) -> None:
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase.pdfmetrics import getRegisteredFontNames, registerFont
    from reportlab.pdfbase.ttfonts import TTFont

    folder = font_dir()
    regular, bold = FAMILIES[family]
    known = set(getRegisteredFontNames())
    for name in (regular, bold):
        if name not in known:  # never replace a font object a document may already use
            registerFont(TTFont(name, str(folder / f"{name}.ttf")))
    for b in (0, 1):
        for i in (0, 1):
            addMapping(regular, b, i, bold if b else regular)


def graphics_default_font() -> None:
    """Make the embedded default font reportlab's graphics default (instead of Helvetica)."""
    from reportlab.graphics import shapes

    shapes.STATE_DEFAULTS["fontName"] = DEFAULT_FONT


def _tell_svglib(family: str) -> None:
    """Map an SVG family name to its registered faces in svglib's font map."""
    from svglib.fonts import get_global_font_map

    font_map = get_global_font_map()
    regular, bold = FAMILIES[family]
    entries = getattr(font_map, "_map", None)
    index = getattr(font_map, "_family_index", None)
    if isinstance(entries, dict) and isinstance(index, dict) and hasattr(font_map, "build_internal_name"):
        # a mapping only: the faces are registered with reportlab already
        for weight, name in (("normal", regular), ("bold", bold)):
            entries[font_map.build_internal_name(family, weight, "normal")] = {
                "svg_family": family, "svg_weight": weight, "svg_style": "normal", "rlgFont": name, "exact": True}
        index.setdefault(family.lower(), family)
    else:  # another svglib: let it register the files itself
        folder = font_dir()
        font_map.register_font(family, str(folder / f"{regular}.ttf"), rlgFontName=regular)
        font_map.register_font(family, str(folder / f"{bold}.ttf"), weight="bold", rlgFontName=bold)


def ensure_for_svglib(svg: str) -> None:
    """Before svglib reads an SVG: every family it may name registered, and known to svglib."""
    ensure_for_svg(svg)
    missing = [f for f in FAMILIES if f not in _svglib_families and (f in svg or f == DEFAULT_FAMILY)]
    if missing:
        with _lock:
            for family in missing:
                if family not in _svglib_families:
                    register_fonts(family)
                    _tell_svglib(family)
                    _svglib_families.add(family)


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
