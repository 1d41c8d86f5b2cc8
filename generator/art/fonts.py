"""Embedded TrueType fonts for cards, sheets and reference pages.

A *family* has four faces (regular, bold, italic, bold italic), each a
reportlab font name.  The DejaVu families ship inside matplotlib's package
data, so every machine that installs the project has them (matplotlib itself
is never imported: the files are found through its package location).  A game
may declare its own families in its manifest (``[fonts.NAME]``, TTF or OTF
files in ``templates/<game>/fonts/``): ``use_game_fonts`` registers them under
face names that carry a digest of the file, so that a replaced file is a new
font everywhere (keys, display lists, PDF subsets).  OpenType files with
PostScript (CFF) outlines are converted to TrueType outlines first (fontTools),
since reportlab embeds TrueType only; the curves are the same to a thousandth
of an em.

A family is registered with reportlab (which embeds a subset in each PDF) the
first time something needs it: parsing a TrueType file takes a while, and most
games use one family.  svglib is told about the families (so SVG
``font-family`` names resolve to them) only when it is used: most SVGs are
read without it (``svgfast.py``).  The graphics default font is switched away
from the non-embedded Helvetica.

``covers(face, char)`` answers whether a face has a glyph for a character (its
character map); characters the face lacks are set in the first of
``FALLBACK_FAMILIES`` that has them (``text.py``).  A game's own font files are
checked with fontTools when its manifest is read (``model.manifest``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from model.manifest import BUILTIN_FAMILIES
from model.manifest import FONT_STYLES as STYLES  # the four faces of a family, in this order everywhere

#: SVG family name -> reportlab names of its faces (regular, bold, italic, bold italic); the built-in
#: families' names are the file stems in matplotlib's font folder
FAMILIES: dict[str, tuple[str, str, str, str]] = {
    "DejaVu Sans": ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique"),
    "DejaVu Serif": ("DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerif-Italic", "DejaVuSerif-BoldItalic"),
    "DejaVu Sans Mono": ("DejaVuSansMono", "DejaVuSansMono-Bold", "DejaVuSansMono-Oblique",
                         "DejaVuSansMono-BoldOblique"),
    "STIX General": ("STIXGeneral", "STIXGeneralBol", "STIXGeneralItalic", "STIXGeneralBolIta"),
}
assert tuple(FAMILIES) == BUILTIN_FAMILIES  # the families every game may name without declaring them
DEFAULT_FAMILY = "DejaVu Sans"
DEFAULT_FONT = "DejaVuSans"
DEFAULT_BOLD = "DejaVuSans-Bold"
#: Where a character the text's own face lacks is looked for, in this order (symbols, arrows, dingbats ...).
FALLBACK_FAMILIES = ("DejaVu Sans", "STIX General")

#: reportlab face name -> its family
FACE_FAMILY = {name: family for family, faces in FAMILIES.items() for name in faces}
#: reportlab face name -> the file it is read from (built-in faces: matplotlib's folder, found when needed)
FACE_FILES: dict[str, Path] = {}

_registered: set[str] = set()  # families registered with reportlab
_lock = threading.RLock()


@lru_cache(maxsize=None)
def font_dir() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib is not installed; it provides the DejaVu fonts")
    return Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf"


def face_file(name: str) -> Path:
    """The file a face is read from."""
    found = FACE_FILES.get(name)
    return found if found is not None else font_dir() / f"{name}.ttf"


def style_of(bold: bool, italic: bool) -> int:
    """The index of a face in a family's tuple."""
    return (1 if bold else 0) + (2 if italic else 0)


def face(family: str, bold: bool = False, italic: bool = False) -> str:
    """reportlab font name for an SVG family name (an unknown family: the default one's)."""
    return FAMILIES.get(family, FAMILIES[DEFAULT_FAMILY])[style_of(bold, italic)]


def face_label(name: str) -> str:
    """A face as users name it: its family, and its style unless regular ("Lora Bold Italic")."""
    family = FACE_FAMILY.get(name)
    if family is None:
        return name
    style = FAMILIES[family].index(name)
    return family + ("", " Bold", " Italic", " Bold Italic")[style]


# ---------------------------------------------------------------- a game's own families
@dataclass(frozen=True)
class GameFamily:
    """A family a manifest declares: its name and the file of each face (None: the regular face's)."""

    name: str
    files: tuple  # (regular, bold, italic, bold_italic) paths, the missing ones None


def _digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest()


def _face_name(family: str, style: str, digest: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9]+", "", family) or "Font"
    return f"{stem}-{style.replace('_', '')}-{digest}"


_game_families: dict[str, tuple] = {}  # family name -> the files it was registered from, with their size and time


def _files_state(files: tuple) -> tuple:
    """The files of a family as they are now: a file saved again under its name is another font."""
    out = []
    for path in files:
        try:
            st = os.stat(path) if path is not None else None
        except OSError:
            st = None
        out.append((path, st.st_size, st.st_mtime_ns) if st is not None else (path,))
    return tuple(out)


def use_game_fonts(families) -> None:
    """Make a game's own families (``GameFamily``, from its manifest) known by name:
    face names from the files' digests, registered with reportlab when first drawn.
    A missing style uses the regular face (bold italic: bold, else italic, else regular)."""
    for fam in families:
        files = tuple(fam.files)
        state = _files_state(files)
        if _game_families.get(fam.name) == state:
            continue
        with _lock:
            names = {}
            for style, path in zip(STYLES, files):
                if path is not None:
                    names[style] = _face_name(fam.name, style, _digest(Path(path)))
                    FACE_FILES[names[style]] = Path(path)
            regular = names["regular"]
            bold = names.get("bold", regular)
            italic = names.get("italic", regular)
            bold_italic = names.get("bold_italic", names.get("bold", names.get("italic", regular)))
            FAMILIES[fam.name] = (regular, bold, italic, bold_italic)
            for n in set(FAMILIES[fam.name]):
                FACE_FAMILY[n] = fam.name
            _registered.discard(fam.name)
            _svglib_families.discard(fam.name)
            _game_families[fam.name] = state


@lru_cache(maxsize=64)
def truetype_bytes(path: str, stamp: tuple) -> bytes:
    """The bytes reportlab reads for a font file: the file itself, or for an OpenType
    font with PostScript outlines the same font with TrueType outlines."""
    data = Path(path).read_bytes()
    if data[:4] != b"OTTO":
        return data
    return _cff_to_truetype(data)


def _cff_to_truetype(data: bytes) -> bytes:
    """Cubic outlines (CFF) -> quadratic ones (glyf), as fontTools' otf2ttf does."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(io.BytesIO(data))
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    max_err = font["head"].unitsPerEm / 1000
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    for tag in ("CFF ", "CFF2", "VORG"):
        if tag in font:
            del font[tag]
    font["maxp"].tableVersion = 0x00010000
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(font["maxp"], attr, 0)
    font["maxp"].maxZones = 1
    font["maxp"].maxComponentDepth = 0
    font["head"].glyphDataFormat = 0
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _source(name: str):
    """What reportlab's TTFont reads a face from: the file, or bytes converted from it."""
    path = face_file(name)
    if name not in FACE_FILES:
        return str(path)
    st = path.stat()
    data = truetype_bytes(str(path), (st.st_size, st.st_mtime_ns))
    return io.BytesIO(data)


# ---------------------------------------------------------------- registering
_svglib_families: set[str] = set()


_faces: set[str] = set()  # faces registered with reportlab


def _register_faces(names) -> None:
    """Parse and register some faces (a face takes tens of milliseconds: only those drawn)."""
    from reportlab.pdfbase.pdfmetrics import getRegisteredFontNames, registerFont
    from reportlab.pdfbase.ttfonts import TTFont

    from .tounicode import install

    wanted = [n for n in dict.fromkeys(names) if n not in _faces]
    if not wanted:
        return
    install()  # characters beyond the BMP (emoji) copy out of the PDF as written (every face registered passes here)
    known = set(getRegisteredFontNames())
    for name in wanted:
        if name not in known:  # never replace a font object a document may already use
            registerFont(TTFont(name, _source(name)))
        _faces.add(name)


def _register_family(family: str) -> None:
    """Register a family's regular and bold faces (its italic ones when first drawn), and
    map its styles for reportlab's paragraphs."""
    from reportlab.lib.fonts import addMapping

    faces = FAMILIES[family]
    _register_faces(faces[:2])
    regular = faces[0]
    for b in (0, 1):
        for i in (0, 1):
            addMapping(regular, b, i, faces[style_of(bool(b), bool(i))])


def graphics_default_font() -> None:
    """Make the embedded default font reportlab's graphics default (instead of Helvetica)."""
    from reportlab.graphics import shapes

    shapes.STATE_DEFAULTS["fontName"] = DEFAULT_FONT


def _tell_svglib(family: str) -> None:
    """Map an SVG family name to its registered faces in svglib's font map."""
    from svglib.fonts import get_global_font_map

    font_map = get_global_font_map()
    faces = FAMILIES[family]
    entries = getattr(font_map, "_map", None)
    index = getattr(font_map, "_family_index", None)
    styles = (("normal", "normal"), ("bold", "normal"), ("normal", "italic"), ("bold", "italic"))
    if isinstance(entries, dict) and isinstance(index, dict) and hasattr(font_map, "build_internal_name"):
        # a mapping only: the faces are registered with reportlab already
        for (weight, style), name in zip(styles, faces):
            entries[font_map.build_internal_name(family, weight, style)] = {
                "svg_family": family, "svg_weight": weight, "svg_style": style, "rlgFont": name, "exact": True}
        index.setdefault(family.lower(), family)
    else:  # another svglib: let it register the files itself
        for (weight, style), name in zip(styles, faces):
            font_map.register_font(family, str(face_file(name)), weight=weight, style=style, rlgFontName=name)


def ensure_for_svglib(svg: str) -> None:
    """Before svglib reads an SVG: every family it may name registered, and known to svglib."""
    ensure_for_svg(svg)
    _italics_for_svglib(svg)
    missing = [f for f in FAMILIES if f not in _svglib_families and (f in svg or f == DEFAULT_FAMILY)]
    if missing:
        with _lock:
            for family in missing:
                if family not in _svglib_families:
                    register_fonts(family)
                    _tell_svglib(family)
                    _svglib_families.add(family)


def _italics_for_svglib(svg: str) -> None:
    if "italic" in svg:  # svglib sets the faces its text names: the italic ones registered first
        with _lock:
            _register_faces(n for f in FAMILIES if f in svg for n in FAMILIES[f][2:])


def register_fonts(*families: str) -> None:
    """Register some families (default: every built-in one) with reportlab, each once per
    process: their regular and bold faces (the italic ones with ``ensure_faces``).

    The default family is always registered: it is the graphics default and
    the font of every footer."""
    wanted = families or BUILTIN_FAMILIES
    if _registered.issuperset(wanted) and DEFAULT_FAMILY in _registered:
        return
    with _lock:
        for family in (DEFAULT_FAMILY, *wanted):
            if family in FAMILIES and family not in _registered:
                _register_family(family)
                _registered.add(family)


def ensure_faces(*names: str) -> None:
    """Register some reportlab face names (``DejaVuSerif-Bold`` ...) and their families."""
    missing = [FACE_FAMILY[n] for n in names if n in FACE_FAMILY and FACE_FAMILY[n] not in _registered]
    if missing or DEFAULT_FAMILY not in _registered:
        register_fonts(*missing or (DEFAULT_FAMILY,))
    if not _faces.issuperset(names):
        with _lock:
            _register_faces(n for n in names if n in FACE_FAMILY)


def ensure_for_svg(svg: str) -> None:
    """Register every family an SVG text may name (a name found anywhere in it counts)."""
    missing = [family for family in FAMILIES if family not in _registered and family in svg]
    if missing or DEFAULT_FAMILY not in _registered:
        register_fonts(*missing or (DEFAULT_FAMILY,))


# ---------------------------------------------------------------- glyph coverage
@lru_cache(maxsize=None)
def cmap(name: str) -> frozenset:
    """The characters (code points) a face has glyphs for: its character map, as reportlab
    read it when the face was registered (a face's name stands for one file's content: a
    game's own faces are named by their file's digest)."""
    from reportlab.pdfbase.pdfmetrics import getFont

    ensure_faces(name)
    return frozenset(getFont(name).face.charToGlyph)


def covers(name: str, char: str) -> bool:
    return ord(char) in cmap(name)


#: Characters every text may hold that need no glyph of their own (drawn as spaces or not at all).
NO_GLYPH = frozenset(" \u00a0\u200b\u2009\u202f\u00ad")


def fallback_face(name: str, char: str) -> str | None:
    """The face of ``FALLBACK_FAMILIES`` (in the style of ``name``) that has ``char``; None when none has."""
    family = FACE_FAMILY.get(name, DEFAULT_FAMILY)
    style = FAMILIES[family].index(name) if name in FAMILIES.get(family, ()) else 0
    for fallback in FALLBACK_FAMILIES:
        candidate = FAMILIES[fallback][style]
        if candidate != name and covers(candidate, char):
            return candidate
    return None
