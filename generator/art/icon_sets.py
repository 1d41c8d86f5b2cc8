"""Icons inside text: ``:name:`` in a cell becomes a small picture on the line.

An icon is looked for, in this order, in the game's own folder
(``templates/<game>/icons/NAME.svg``), among the generator's pictograms
(``icons.py``: star, crown, reset ...) and in Font Awesome Free's solid,
regular and brand icons (the ``fontawesomefree`` package: icons under CC BY
4.0, see docs/format.md).  An icon file is checked like any SVG a designer
brings (``svgsafe``: nothing is run or fetched) and reduced to plain shapes,
so that it reads the same through every path a design takes to the PDF and on
the preview page.  ``IconArt.svg`` places it: as tall as ``HEIGHT`` times the
font size, its bottom on the baseline, in the text's colour unless it paints
with colours of its own.
"""

from __future__ import annotations

import difflib
import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import svgsafe

#: An icon's height, in font sizes; its bottom sits on the baseline.
HEIGHT = 0.86
#: Room on each side of an icon, in font sizes.
SIDE = 0.06
FA_STYLES = ("solid", "regular", "brands")


@dataclass(frozen=True)
class IconArt:
    name: str
    body: str  # shapes in the icon's own units; svgsafe.TEXT_COLOUR where the text's colour goes
    box: tuple  # viewBox (x, y, w, h)
    coloured: bool  # paints with colours of its own
    source: str  # where it came from, for messages

    @property
    def aspect(self) -> float:
        return self.box[2] / self.box[3]

    def advance(self, size: float) -> float:
        """The room the icon takes on a line at font size ``size`` (mm)."""
        return (HEIGHT * self.aspect + 2 * SIDE) * size

    def svg(self, x: float, baseline: float, size: float, colour: str) -> str:
        """The icon with its room starting at ``x``, sitting on ``baseline``."""
        bx, by, bw, bh = self.box
        scale = HEIGHT * size / bh
        left = x + SIDE * size - bx * scale
        top = baseline - HEIGHT * size - by * scale
        body = self.body.replace(svgsafe.TEXT_COLOUR, colour)
        fill = "" if self.coloured else f' fill="{colour}"'
        return f'<g transform="translate({left:.3f} {top:.3f}) scale({scale:.6f})"{fill}>{body}</g>'


@lru_cache(maxsize=None)
def _fontawesome() -> Path | None:
    spec = importlib.util.find_spec("fontawesomefree")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(spec.submodule_search_locations[0]) / "static" / "fontawesomefree" / "svgs"


@lru_cache(maxsize=4096)
def _read(path: str, stamp: tuple, name: str, source: str) -> IconArt:
    from .limits import svg_shape

    data = Path(path).read_bytes()
    shape = svg_shape(data)  # its size, elements and nesting, before its tree is built
    if shape:
        raise svgsafe.UnsafeSvg(shape)
    root = svgsafe.parse(data)
    box = svgsafe.view_box(root)
    body, coloured = svgsafe.clean_icon(root)
    return IconArt(name, body, box, coloured, source)


def _from_file(path: Path, name: str, source: str) -> IconArt:
    from .checks import svg_bytes

    st = path.stat()
    wrong = svg_bytes(st.st_size, "an icon", None)
    if wrong:
        raise svgsafe.UnsafeSvg(wrong)
    return _read(str(path), (st.st_size, st.st_mtime_ns), name, source)


@lru_cache(maxsize=256)
def _pictogram(name: str) -> IconArt:
    from . import icons

    markup = icons.icon(name, 0.5, 0.5, 1.0, svgsafe.TEXT_COLOUR, "#ffffff")
    return IconArt(name, markup, (0.0, 0.0, 1.0, 1.0), False, "built-in")


@lru_cache(maxsize=None)
def _pictogram_names() -> frozenset:
    from . import icons

    return frozenset(icons.names())


@lru_cache(maxsize=None)
def builtin_names() -> tuple[str, ...]:
    """Every built-in icon name (pictograms and Font Awesome)."""
    names = set(_pictogram_names())
    folder = _fontawesome()
    if folder is not None:
        for style in FA_STYLES:
            names.update(p.stem for p in (folder / style).glob("*.svg"))
    return tuple(sorted(names))


class UnknownIcon(KeyError):
    def __init__(self, name: str, close: list[str]):
        super().__init__(name)
        self.name = name
        self.close = close


class BadIcon(ValueError):
    def __init__(self, where: str, message: str):
        super().__init__(f"{where} {message}")
        self.where = where
        self.message = message


def game_icons(folder: Path) -> dict[str, Path]:
    """The icons a game ships: name -> file (``templates/<game>/icons/NAME.svg``)."""
    icons = folder / "icons"
    if not icons.is_dir():
        return {}
    inside = icons.resolve()
    # a link that leads out of the folder is not the game's icon: never read
    return {p.stem: p for p in sorted(icons.glob("*.svg")) if p.is_file() and p.resolve().is_relative_to(inside)}


def find(name: str, folder: Path | None, own: dict[str, Path] | None = None) -> IconArt:
    """The icon ``name`` for a game whose template folder is ``folder``.

    Raises ``UnknownIcon`` (with close matches) or ``BadIcon`` (a file that is
    not a safe, plain SVG icon)."""
    own = own if own is not None else (game_icons(folder) if folder is not None else {})
    path = own.get(name)
    if path is not None:
        where = f"templates/{folder.name}/icons/{path.name}" if folder is not None else path.name
        try:
            return _from_file(path, name, where)
        except (svgsafe.UnsafeSvg, OSError) as exc:
            raise BadIcon(where, str(exc)) from None
    if name in _pictogram_names():
        return _pictogram(name)
    fa = _fontawesome()
    if fa is not None:
        for style in FA_STYLES:
            path = fa / style / f"{name}.svg"
            if path.is_file():
                return _from_file(path, name, f"Font Awesome {style}")
    pool = [*own, *builtin_names()]
    raise UnknownIcon(name, difflib.get_close_matches(name, pool, n=4, cutoff=0.6))
