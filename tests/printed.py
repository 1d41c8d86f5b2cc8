"""Reading a printed page back: a test game whose every design carries its own
markers, and the tools that find them on a rendered page.

The *marker game* has decks of designs whose front and back each carry, on
both sides, their id as text and colours of their own: the trim area is
filled with the design's main colour, the bleed around it with a light tint of
it, and a white square sits in the top-left corner of the trim, so that a
design's trim box, the artwork that prints around it and which way up it is
can all be read from the pixels of a rendered page.  Nothing in here uses the
layout code: where things are is measured on the page.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from helpers import write_rows

DPI = 150
PX = 25.4 / DPI  # millimetres per pixel
SLUG = "marker-game"

#: deck -> (size table or name, designs, has a back)
DECKS = {
    "card": ("poker", 10, True),
    "hero": ("poker", 2, True),
    "tile": ("tile", 2, True),  # folds across in gutterfold, where poker cards fold down the middle
    "chip": ("chip", 3, False),
}

MANIFEST = """[game]
title = "Marker Game"

[sizes.tile]
width = 50.0
height = 50.0
bleed = 2.0

[sizes.chip]
width = 30.0
height = 30.0
bleed = 2.0
shape = "circle"
"""
DECK = """
[decks.{name}]
label = "{label}"
size = "{size}"
front = "front.svg.j2"
{back}[decks.{name}.columns]
number = {{ type = "int", min = 0, max = 99, required = true }}
"""


def manifest() -> str:
    return MANIFEST + "".join(DECK.format(name=name, label=name.title() + "s", size=size,
                                          back='back = "back.svg.j2"\n' if back else "")
                              for name, (size, _, back) in DECKS.items())


SIDE = """{%% extends "pnp/card.svg.j2" %%}
{%% set colours = %s %%}
{%% set c = colours[card.number] %%}
{%% block background %%}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="{{ c[1] }}"/>{%% endblock %%}
{%% block body %%}
<rect x="{{ B }}" y="{{ B }}" width="{{ TW }}" height="{{ TH }}" fill="{{ c[0] }}"/>
<rect x="{{ B + 2 }}" y="{{ B + 2 }}" width="{{ [TW / 4, 8]|min }}" height="{{ [TH / 4, 8]|min }}" fill="#ffffff"/>
<text x="{{ CX }}" y="{{ CY + 2 }}" font-family="DejaVu Sans" font-weight="bold" font-size="{{ [TW / 6, 7]|min }}"
 text-anchor="middle" fill="#ffffff">%s{{ card.id }}</text>
{%% endblock %%}
"""
BACK_PREFIX = "B"  # the text on a back: "B" and the id


def _snap(v: float) -> int:
    """A channel value in the middle of its 8-wide bucket, so that a pixel off by a
    few levels still falls in the same bucket (``Page.labels``)."""
    return min(252, (int(v * 255) // 8) * 8 + 4)


def _rgb(h: float, s: float, v: float) -> tuple[int, int, int]:
    return tuple(_snap(c) for c in colorsys.hsv_to_rgb(h % 1.0, s, v))


def _light(rgb) -> tuple[int, int, int]:
    return tuple(_snap((c + 0.55 * (255 - c)) / 255) for c in rgb)


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % rgb


@dataclass(frozen=True)
class Marker:
    """One side of one design as it should appear on the page."""

    deck: str
    id: str
    side: str  # front or back
    main: tuple[int, int, int]  # the trim area
    light: tuple[int, int, int]  # the bleed around it
    text: str


def markers() -> dict[tuple[str, str, str], Marker]:
    """(deck, id, side) -> its marker; every front and every back a colour of its own
    (fronts and backs share a page in gutterfold)."""
    out = {}
    n = sum(count for _, count, _ in DECKS.values())
    i = 0
    for deck, (_, count, back) in DECKS.items():
        for k in range(count):
            ident = f"{deck}{k + 1:02d}"
            front = _rgb(i / n, 1.0, 0.78)
            out[(deck, ident, "front")] = Marker(deck, ident, "front", front, _light(front), ident)
            if back:
                rgb = _rgb(i / n + 0.5 / n, 1.0, 0.52)
                out[(deck, ident, "back")] = Marker(deck, ident, "back", rgb, _light(rgb), BACK_PREFIX + ident)
            i += 1
    return out


def marker_game(dest: Path, counts: dict[str, int] | None = None) -> Path:
    """A data folder holding the marker game (``counts``: fewer designs of some decks)."""
    folder = dest / "templates" / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.toml").write_text(manifest(), encoding="utf-8")
    found = markers()
    fronts = [m for m in found.values() if m.side == "front"]
    # a design's number picks its colours in both templates
    colours = {side: [[_hex(m.main), _hex(m.light)] if m else ["#000000", "#000000"]
                      for m in (found.get((f.deck, f.id, side)) for f in fronts)] for side in ("front", "back")}
    (folder / "front.svg.j2").write_text(SIDE % (repr(colours["front"]), ""), encoding="utf-8")
    (folder / "back.svg.j2").write_text(SIDE % (repr(colours["back"]), BACK_PREFIX), encoding="utf-8")
    rows = [["game", "deck", "id", "name", "count", "number"]]
    for number, m in enumerate(fronts):
        if int(m.id[len(m.deck):]) <= (counts or {}).get(m.deck, 99):
            rows.append([SLUG, m.deck, m.id, m.id, "1", str(number)])
    write_rows(dest / "cards.csv", rows)
    return dest


def builder(game, out: Path, builds: dict):
    """``make(name)``: the marker game built once with the options ``builds[name]`` (into
    ``out/name``): its cards PDF, its rendered pages and the markers found on each."""
    from functools import lru_cache

    from generator.build import BuildOptions, build_game

    @lru_cache(maxsize=None)
    def make(name: str):
        result = build_game(game, BuildOptions(out=out / name, **builds[name]), reference=False)
        path = result.files[0]
        pages = [Page(path, i) for i in range(page_count(path))]
        return path, pages, [p.find(markers()) for p in pages]

    return make


# ------------------------------------------------------------------ reading pages
@dataclass(frozen=True)
class Box:
    """A rectangle on the page in millimetres, x to the right and y down from the top-left corner."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.y0 + self.y1) / 2

    def grow(self, d: float) -> "Box":
        return Box(self.x0 - d, self.y0 - d, self.x1 + d, self.y1 + d)

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def close_to(self, other: "Box", tol: float) -> bool:
        return all(abs(a - b) <= tol for a, b in zip(self.tuple(), other.tuple()))

    def tuple(self) -> tuple[float, float, float, float]:
        return (self.x0, self.y0, self.x1, self.y1)


def union(boxes) -> Box:
    boxes = list(boxes)
    return Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes),
               max(b.y1 for b in boxes))


@dataclass
class Found:
    """A marker found on a page: its trim box (the main colour), the artwork that
    prints around it (main colour and bleed tint) and where its white corner square is."""

    marker: Marker
    trim: Box
    art: Box
    corner: str  # "top-left", "top-right", "bottom-left" or "bottom-right" of the trim

    @property
    def turns(self) -> int:
        """Quarter turns anticlockwise of the design on the page: where its top-left corner went."""
        return {"top-left": 0, "bottom-left": 1, "bottom-right": 2, "top-right": 3}[self.corner]


def _bucket(rgb) -> int:
    r, g, b = rgb
    return ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3)


def _eroded_box(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """The pixel box (x0, y0, x1, y1, exclusive ends) of ``mask`` less its one-pixel
    fringes (lines of anti-aliased pixels between two colours), grown back by one pixel."""
    core = mask.copy()
    core[1:, :] &= mask[:-1, :]
    core[:-1, :] &= mask[1:, :]
    core[:, 1:] &= mask[:, :-1]
    core[:, :-1] &= mask[:, 1:]
    rows = np.flatnonzero(core.any(axis=1))
    cols = np.flatnonzero(core.any(axis=0))
    if len(rows) == 0:
        return None
    return cols[0] - 1, rows[0] - 1, cols[-1] + 2, rows[-1] + 2


class Page:
    """One rendered page and the markers on it."""

    def __init__(self, path: Path, index: int, dpi: int = DPI):
        import pypdfium2 as pdfium

        pdf = pdfium.PdfDocument(str(path))
        page = pdf[index]
        self.w_mm = page.get_width() * 25.4 / 72
        self.h_mm = page.get_height() * 25.4 / 72
        self.dpi = dpi
        self.pixels = np.asarray(page.render(scale=dpi / 72).to_pil().convert("RGB"))
        pdf.close()
        self.path = path
        self.index = index
        self._grey = None

    def mm(self, px: float) -> float:
        return px * 25.4 / self.dpi

    def px(self, mm: float) -> int:
        return int(round(mm * self.dpi / 25.4))

    def find(self, catalogue: dict) -> dict[tuple[str, str, str], Found]:
        """The markers of ``catalogue`` (``markers()``) found on this page, by key."""
        p = self.pixels.astype(np.int32)
        codes = ((p[..., 0] >> 3) << 10) | ((p[..., 1] >> 3) << 5) | (p[..., 2] >> 3)
        present = set(np.unique(codes).tolist())
        out = {}
        for key, m in catalogue.items():
            main, light = _bucket(m.main), _bucket(m.light)
            if main not in present:
                continue
            mask = codes == main
            if mask.sum() < 400:  # a stray anti-aliased pixel, not a design
                continue
            trim = _eroded_box(mask)
            art = _eroded_box(mask | (codes == light))
            if trim is None or art is None:
                continue
            x0, y0, x1, y1 = trim
            white = (p[y0:y1, x0:x1] > 245).all(axis=2)
            ys, xs = np.nonzero(white)
            # the corner square is the white that lies nearest a corner (the id text is in the middle)
            quads = {}
            for name, (qx, qy) in {"top-left": (0, 0), "top-right": (1, 0), "bottom-left": (0, 1),
                                   "bottom-right": (1, 1)}.items():
                sel = (np.abs(xs / (x1 - x0) - qx) < 0.3) & (np.abs(ys / (y1 - y0) - qy) < 0.3)
                quads[name] = int(sel.sum())
            corner = max(quads, key=quads.get)
            out[key] = Found(m, self._box(trim), self._box(art), corner)
        return out

    def _box(self, b) -> Box:
        x0, y0, x1, y1 = b
        return Box(self.mm(x0), self.mm(y0), self.mm(x1), self.mm(y1))

    def dark_run(self, x0: float, y0: float, x1: float, y1: float, level: int = 200) -> float:
        """How many millimetres of the strip from (x0, y0) to (x1, y1) (vertical or horizontal,
        mm from the top-left) are dark: a line drawn along it, give or take a pixel."""
        if self._grey is None:
            self._grey = self.pixels.min(axis=2)
        grey = self._grey
        if abs(x1 - x0) < abs(y1 - y0):  # vertical strip
            c = self.px(x0)
            strip = grey[self.px(min(y0, y1)):self.px(max(y0, y1)), max(0, c - 1):c + 2].min(axis=1)
        else:
            r = self.px(y0)
            strip = grey[max(0, r - 1):r + 2, self.px(min(x0, x1)):self.px(max(x0, x1))].min(axis=0)
        return float((strip < level).sum()) * 25.4 / self.dpi


def mark_lines(path: Path, index: int) -> list[Box]:
    """The crop marks and cut lines drawn on a page (black strokes), as boxes in mm from the top-left."""
    import pdfplumber

    out = []
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[index]
        h = float(page.height)
        for line in page.lines:
            colour = line.get("stroking_color")
            if colour is None or any(abs(float(c)) > 0.05 for c in (colour if isinstance(colour, (list, tuple))
                                                                      else [colour])):
                continue  # not black: the fold line, or artwork
            k = 25.4 / 72
            out.append(Box(line["x0"] * k, (h - line["y1"]) * k, line["x1"] * k, (h - line["y0"]) * k))
    return out


def texts(path: Path, index: int, boxes: dict) -> dict:
    """The text printed inside each box (key -> Box, mm from the top-left) of a page, read
    along its own direction (upright, turned a quarter or upside down), and that direction:
    the quarter turns, anticlockwise, of its characters (None for no text)."""
    import math

    import pdfplumber

    k = 25.4 / 72
    found: dict = {key: [] for key in boxes}
    with pdfplumber.open(str(path)) as pdf:
        for c in pdf.pages[index].chars:
            if not c["text"].strip():
                continue
            x, y = (c["x0"] + c["x1"]) / 2 * k, (c["top"] + c["bottom"]) / 2 * k
            for key, box in boxes.items():
                if box.contains(x, y):
                    found[key].append((c, x, y))
    out = {}
    for key, chars in found.items():
        if not chars:
            out[key] = ("", None)
            continue
        a, b = chars[0][0]["matrix"][:2]
        turns = round(math.degrees(math.atan2(b, a)) / 90) % 4
        # along the writing direction (y grows downwards here, upwards in the PDF)
        chars.sort(key=lambda t: t[1] * a - t[2] * b)
        out[key] = ("".join(c["text"] for c, _, _ in chars), turns)
    return out


def page_count(path: Path) -> int:
    import pypdf

    return len(pypdf.PdfReader(str(path)).pages)
