"""Stable digests: the per-design key and the content hash printed on every page.

``design_key`` names a rendered design by everything that can change its
parsed drawing: the SVG text the templates gave (which already reflects the
row's values, the templates it extends or includes, the manifest and the text
fitted with the fonts' metrics), the tool's version, ``GENERATOR_REVISION``,
the versions of svglib and reportlab that parse and draw it, and the font
files.  Keying on the SVG text rather than on the template inputs means a key
cannot go stale when a template includes another by a computed name, or when
a helper changes; the price is that Jinja2 runs on every build, and a cache
saves the SVG parsing (the larger part of the render stage).

``content_hash`` is the short hash in the page footers: the rows, the game's
template folder, the generator's own templates, the tool version and the
print options.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from .fonts import FAMILIES, font_dir

#: Bump when a change in generator/ changes what a design renders to or how an
#: SVG is parsed into a drawing, so that cached drawings are not reused.
GENERATOR_REVISION = 1

BUILTIN_TEMPLATES = Path(__file__).parent / "templates"


def _package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


@lru_cache(maxsize=None)
def fonts_fingerprint() -> str:
    """A digest of every embedded font file (any of them may be used by a design)."""
    h = hashlib.sha256()
    folder = font_dir()
    for faces in FAMILIES.values():
        for name in faces:
            path = folder / f"{name}.ttf"
            h.update(name.encode())
            h.update(path.read_bytes() if path.exists() else b"missing")
    return h.hexdigest()


@lru_cache(maxsize=None)
def _key_base():
    """The part of every design key that does not depend on the design."""
    from model import __version__

    h = hashlib.sha256()
    for part in (f"pnp {__version__}", f"generator {GENERATOR_REVISION}", f"svglib {_package_version('svglib')}",
                 f"reportlab {_package_version('reportlab')}", f"fonts {fonts_fingerprint()}"):
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


def content_hash(game, options) -> str:
    """A short hash of everything that is printed: the rows, the game's template
    folder, the generator's own templates, the tool version and the options
    (``page``, ``duplex``, ``back_offset``, ``expansions`` of a BuildOptions)."""
    from model import __version__

    h = hashlib.sha256(__version__.encode())
    for card in game.select(options.expansions):
        h.update(repr(card).encode())
    for folder in (game.manifest.folder, BUILTIN_TEMPLATES):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    h.update(repr((options.page, options.duplex, options.back_offset)).encode())
    return h.hexdigest()[:10]
