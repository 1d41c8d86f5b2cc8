"""Stable digests: the per-design keys and the content hash printed on every page.

Two keys name a design, one for each level of the drawing cache
(``cache.py``):

``design_key`` names what the templates gave: the SVG text (which already
reflects the row's values, the templates it extends or includes, the manifest
and the text fitted with the fonts' metrics), plus the tool's version,
``GENERATOR_REVISION``, a digest of the generator's own rendering code, the
versions of svglib and reportlab that parse and draw it, and the font files.
A parsed drawing is kept under it.  Keying on the SVG text means a drawing
can never go stale, whatever a template includes or a helper does.

``input_key`` names what goes into the templates: the row (every value,
its sheet row and count included), the deck, and ``game_fingerprint``: every
file in the game's template folder (manifest and templates, whichever of them
a template reads), the generator's own templates and the same code, version
and font digests.  The SVG text a design rendered to is kept under it, so an
unchanged row is not even rendered again; any change to any template of the
game renders every design of the game again (and the SVG-keyed level still
saves the parsing of the designs that came out the same).

``content_hash`` is the short hash in the page footers: the rows, the game's
template folder, the generator's own templates, the tool version and the
print options.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from ..art.fonts import BUILTIN_FAMILIES, FAMILIES, font_dir

#: Bump when a change in generator/ changes what a design renders to or how an
#: SVG is parsed into a drawing, so that cached drawings are not reused.  (The
#: source of the modules in RENDER_MODULES is part of every key as well.)
GENERATOR_REVISION = 2

#: The modules whose code decides what a design renders to, how it is parsed
#: and how it is drawn into a PDF.
RENDER_MODULES = ("stages/render.py", "stages/kit.py", "draw/text.py", "art/fonts.py", "art/icons.py",
                  "sheets/nets.py", "stages/keys.py", "draw/displaylist.py", "draw/svgread.py", "draw/svgfast.py",
                  "draw/svgvalues.py", "art/curves.py", "draw/recording.py", "draw/canvas.py", "draw/splice.py",
                  "art/pictures.py", "art/formats.py", "art/placement.py", "art/pdfimages.py", "art/icon_sets.py",
                  "art/svgsafe.py", "art/limits.py", "art/checks.py", "art/tounicode.py", "stages/sandbox.py",
                  "stages/bounds.py", "stages/guards.py", "stages/rows.py", "draw/svgpicture.py")

#: The generator's folder: its own templates, and the modules of RENDER_MODULES by their paths in it.
GENERATOR = Path(__file__).parents[1]
BUILTIN_TEMPLATES = GENERATOR / "templates"


def package_version(name: str) -> str:
    """A package's version and the size and time of its files, without importing it or
    scanning the installed distributions (which costs a new process more than a build's
    cached work): changes whenever the package is upgraded or edited."""
    from importlib.util import find_spec

    spec = find_spec(name)
    if spec is None or spec.origin is None:
        return "?"
    folder = Path(spec.origin).parent
    parts = []
    for path in sorted(folder.glob("*.py")):
        st = path.stat()
        parts.append(f"{path.name}:{st.st_size}:{st.st_mtime_ns}")
    return " ".join(parts)


@lru_cache(maxsize=None)
def fonts_fingerprint() -> str:
    """A digest of every built-in font file (any of them may be used by a design):
    names, sizes and modification times, which change whenever a file is replaced.
    (A game's own fonts are files of its template folder, in ``game_fingerprint``,
    and their digests are in the SVG text of every design: ``render.py``.)"""
    h = hashlib.sha256()
    folder = font_dir()
    for family in BUILTIN_FAMILIES:
        for name in FAMILIES[family]:
            path = folder / f"{name}.ttf"
            h.update(name.encode())
            try:
                st = path.stat()
                h.update(f"{st.st_size} {st.st_mtime_ns}".encode())
            except OSError:
                h.update(b"missing")
    return h.hexdigest()


def folder_files(folder: Path, pattern: str = "*") -> list[Path]:
    """The files under ``folder`` matching ``pattern``, in name order, that are inside it: a link
    that leads out of the folder (to a file of the machine's, however large) is never read."""
    root = Path(folder).resolve()
    return sorted(p for p in Path(folder).rglob(pattern) if p.is_file() and p.resolve().is_relative_to(root))


def folder_digest(folder: Path, h=None):
    """Feed every file under ``folder`` (relative names and contents, in name order) to a hash."""
    h = h if h is not None else hashlib.sha256()
    for path in folder_files(folder):
        h.update(path.relative_to(folder).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h


@lru_cache(maxsize=None)
def code_fingerprint() -> str:
    """A digest of the generator's rendering code and its own templates."""
    h = hashlib.sha256()
    for name in RENDER_MODULES:
        path = GENERATOR / name
        h.update(name.encode())
        h.update(path.read_bytes() if path.exists() else b"missing")
    folder_digest(BUILTIN_TEMPLATES, h)
    return h.hexdigest()


@lru_cache(maxsize=None)
def _key_base():
    """The part of every design key that does not depend on the design."""
    from model import __version__

    h = hashlib.sha256()
    for part in (f"pnp {__version__}", f"generator {GENERATOR_REVISION}", f"code {code_fingerprint()}",
                 f"svglib {package_version('svglib')}", f"reportlab {package_version('reportlab')}",
                 f"fonts {fonts_fingerprint()}"):
        h.update(part.encode())
        h.update(b"\0")
    return h


def design_key(front_svg: str, back_svg: str | None = None) -> str:
    """A stable hex digest of a rendered design: of one side when ``back_svg`` is
    None (the key of one drawing, as the drawing cache uses it), or of both sides."""
    h = _key_base().copy()
    h.update(front_svg.encode("utf-8"))
    if back_svg is not None:
        h.update(b"\0back\0")
        h.update(back_svg.encode("utf-8"))
    return h.hexdigest()


def game_fingerprint(manifest) -> str:
    """What every design of a game shares as template input: the game's template
    folder (manifest and templates) and everything in ``_key_base``."""
    h = _key_base().copy()
    h.update(b"game\0")
    h.update(manifest.slug.encode())
    h.update(b"\0")
    folder_digest(manifest.folder, h)
    return h.hexdigest()


def input_key(fingerprint: str, deck: str, card) -> str:
    """The key of a design's template inputs: the game's fingerprint, the deck and the row."""
    h = hashlib.sha256(fingerprint.encode())
    h.update(b"\0")
    h.update(deck.encode())
    h.update(b"\0")
    h.update(repr(card).encode("utf-8"))
    return h.hexdigest()


def content_hash(game, options) -> str:
    """A short hash of everything that is printed: the rows, the game's template
    folder, the generator's own templates, the tool version and the options
    (``page``, ``duplex``, ``back_offset``, ``layout``, ``printer_margin``, ``bleed``,
    ``only``, ``expansions`` of a BuildOptions)."""
    from model import __version__

    h = hashlib.sha256(__version__.encode())
    for card in game.select(options.expansions):
        h.update(repr(card).encode())
    for folder in (game.manifest.folder, BUILTIN_TEMPLATES):
        for path in folder_files(folder):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    h.update(repr((options.page, options.duplex, options.back_offset)).encode())
    h.update(repr((getattr(options, "layout", "grid"), getattr(options, "printer_margin", None))).encode())
    h.update(repr((getattr(options, "bleed", None), tuple(getattr(options, "only", ()) or ()))).encode())
    return h.hexdigest()[:10]
