"""What a design draws, as shapes on the card: every filled or stroked shape and picture of a
rendered SVG as its outline in the design's own millimetres (transforms applied), read with
svgelements; every line of text as the box its letters take, measured in its own face
(reportlab's metrics, as the generator sets it) from the cap height down to its baseline (to
its descenders when it has any).

``collisions`` says what must not touch on a card and does: a line of text that a shape, a
picture or another line of text covers in part (a shape that holds all of it is a panel it is
set on), and two groups a template marks ``data-keep-clear="NAME"`` (pips, badges, each a
group of its own) that overlap.  A template marks a deliberate overlap (a watermark) with
``data-overlap-ok``."""

from __future__ import annotations

import io
import re
from functools import cached_property

import numpy as np
from shapely.geometry import LineString, Polygon
from shapely.ops import unary_union
from svgelements import SVG, Close, Group, Image, Line, Move, Path, Shape, Text

from generator.art.fonts import ensure_faces, face

AREA = 0.04  # mm²: overlaps smaller than this merely touch
DEPTH = 0.4  # mm: and those less deep than this either way (a letter's corner by a curve, a hair)
CAP = 0.73  # DejaVu's cap height, in em: the top of a line of text
DESCENT = 0.24  # its descenders
DESCENDERS = set("gjpqy,;()[]{}|/@$_")
CURVE_STEPS = 10
STEPS = np.linspace(1 / CURVE_STEPS, 1, CURVE_STEPS)


class Drawn:
    """One thing drawn: its kind ("text", "shape" or "picture"), what it is (the text, or the
    element's tag), where (``bounds``), and, worked out when asked, what it covers (``area``)
    and its filled inside (``fill``: None for a line of text or an unfilled shape)."""

    def __init__(self, kind: str, what: str, index: int, group: str | None, *, polygon=None, rings=None,
                 filled: bool = False, stroke: float = 0.0):
        self.kind, self.what, self.index, self.group = kind, what, index, group
        self._polygon, self._rings, self._filled, self._stroke = polygon, rings, filled, stroke
        if polygon is not None:
            self.bounds = polygon.bounds
        else:
            points = np.array([p for ring in rings for p in ring])
            grow = stroke / 2
            self.bounds = (points[:, 0].min() - grow, points[:, 1].min() - grow, points[:, 0].max() + grow,
                           points[:, 1].max() + grow)

    @cached_property
    def fill(self):
        if self._polygon is not None:
            return None if self.kind == "text" else self._polygon
        if not self._filled:
            return None
        polygons = [Polygon(r).buffer(0) for r in self._rings if len(r) >= 3]
        polygons = [p for p in polygons if not p.is_empty]
        return unary_union(polygons) if polygons else None

    @cached_property
    def area(self):
        if self._polygon is not None:
            return self._polygon
        parts = [self.fill] if self.fill is not None else []
        if self._stroke:
            parts += [LineString(r).buffer(self._stroke / 2, resolution=4) for r in self._rings]
        return unary_union(parts) if parts else Polygon()


def _flag(element, name: str) -> str | None:
    """The value of a ``data-`` attribute on the element or one of its groups (svgelements
    hands a group's attributes down to what it holds)."""
    value = getattr(element, "values", {}).get(name)
    return None if value is None else str(value)


_KEEP_CLEAR = re.compile(r'data-keep-clear="([^"]*)"')


def _text_area(t: Text):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    text = t.text or ""
    if not text.strip():
        return None
    size = float(t.font_size)
    bold = str(t.font_weight).lower() in ("bold", "700", "800", "900")
    italic = str(getattr(t, "font_style", "") or "").lower() == "italic"
    name = face(str(t.font_family).strip("'\""), bold, italic)
    ensure_faces(name)
    width = stringWidth(text, name, size)
    x, y = float(t.x), float(t.y)
    x0 = {"start": x, "middle": x - width / 2, "end": x - width}.get(str(t.anchor or "start"), x)
    y0, y1 = y - CAP * size, y + (DESCENT * size if set(text) & DESCENDERS else 0.0)
    corners = [t.transform.point_in_matrix_space(p) for p in ((x0, y0), (x0 + width, y0), (x0 + width, y1),
                                                              (x0, y1))]
    return Polygon([(p[0], p[1]) for p in corners])


def _rings(element) -> list[list[tuple[float, float]]]:
    """The outline of a shape, transforms applied, curves as short lines."""
    path = abs(Path(element))
    rings: list[list] = []
    for segment in path:
        if isinstance(segment, Move):
            rings.append([(segment.end.x, segment.end.y)])
        elif isinstance(segment, (Line, Close)):
            if segment.end is not None and rings:
                rings[-1].append((segment.end.x, segment.end.y))
        elif rings:  # a curve, as points along it (one call for all of them: svgelements' arcs are slow)
            rings[-1] += [tuple(p) for p in segment.npoint(STEPS)]
    return [r for r in rings if len(r) >= 2]


def drawn(svg: str) -> list[Drawn]:
    """Everything an SVG text draws that shows, in drawing order."""
    # each marked group is one thing: its mark made its own ("pip#3") before what it holds inherits it
    count = iter(range(1_000_000))
    svg = _KEEP_CLEAR.sub(lambda m: f'data-keep-clear="{m[1]}#{next(count)}"', svg)
    root = SVG.parse(io.StringIO(svg), ppi=25.4)  # 1 user unit = 1 mm (the viewBox)
    out: list[Drawn] = []
    for i, element in enumerate(root.elements()):
        if isinstance(element, (SVG, Group)) or _flag(element, "data-overlap-ok") is not None:
            continue
        values = getattr(element, "values", {})
        if str(values.get("visibility", "")) == "hidden" or str(values.get("opacity", "1")) in ("0", "0.0"):
            continue
        group = _flag(element, "data-keep-clear")
        if isinstance(element, Text):
            area = _text_area(element)
            if area is not None:
                out.append(Drawn("text", element.text, i, group, polygon=area))
        elif isinstance(element, Image):
            x, y, w, h = (float(element.x), float(element.y), float(element.width), float(element.height))
            corners = [element.transform.point_in_matrix_space(p) for p in ((x, y), (x + w, y), (x + w, y + h),
                                                                            (x, y + h))]
            out.append(Drawn("picture", "image", i, group, polygon=Polygon([(p[0], p[1]) for p in corners])))
        elif isinstance(element, Shape):
            filled = element.fill is not None and element.fill.value is not None and element.fill.alpha != 0
            stroked = element.stroke is not None and element.stroke.value is not None and element.stroke.alpha != 0
            rings = _rings(element) if filled or stroked else []
            if rings:
                out.append(Drawn("shape", type(element).__name__.lower(), i, group, rings=rings, filled=filled,
                                 stroke=(float(element.stroke_width or 0) or 0.1) if stroked else 0.0))
    return out


def _near(a, b) -> bool:
    ax0, ay0, ax1, ay1 = a
    bx0, by0, bx1, by1 = b
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


def _holds(a, b) -> bool:
    return a[0] <= b[0] + 0.1 and a[1] <= b[1] + 0.1 and b[2] <= a[2] + 0.1 and b[3] <= a[3] + 0.1


def _visible(overlap) -> bool:
    """An overlap that shows: a piece of it more than a hair (DEPTH) each way, and more than a speck."""
    for piece in getattr(overlap, "geoms", [overlap]):
        if piece.is_empty or piece.area < AREA:
            continue
        x0, y0, x1, y1 = piece.bounds
        if x1 - x0 >= DEPTH and y1 - y0 >= DEPTH:
            return True
    return False


def _where(geometry) -> str:
    x0, y0, x1, y1 = geometry.bounds
    return f"{x1 - x0:.2f} x {y1 - y0:.2f} mm at ({x0:.2f}, {y0:.2f})"


def collisions(svg: str) -> list[str]:
    """Each pair of drawn things that must not touch and do, in words."""
    items = drawn(svg)
    found = []
    for t in (d for d in items if d.kind == "text"):
        # what the text is set on: the last thing drawn before it whose inside holds all of it; what was
        # drawn before that is hidden under it
        floor = max((d.index for d in items if d.index < t.index and d.kind != "text" and _holds(d.bounds, t.bounds)
                     and d.fill is not None and d.fill.buffer(0.1).contains(t.area)), default=-1)
        for other in items:
            if other is t or other.index <= floor or other.kind == "text" and other.index < t.index:
                continue
            if not _near(t.bounds, other.bounds) or not t.area.intersects(other.area):
                continue
            common = t.area.intersection(other.area)
            if common.area < AREA:
                continue
            if other.kind != "text" and other.fill is not None and \
                    t.area.intersection(other.fill).area >= t.area.area / 2:
                # set on a panel: what matters is what of the line sticks out of it or lies under its outline
                common = t.area.difference(other.fill).union(other.area.difference(other.fill).intersection(t.area))
            if _visible(common):
                found.append(f"text '{t.what}' and {other.kind} {other.what!r} overlap ({_where(common)})")
    marked = [d for d in items if d.group is not None and d.kind != "text"]
    for a_index, a in enumerate(marked):
        for b in marked[a_index + 1:]:
            if a.group == b.group or not _near(a.bounds, b.bounds) or not a.area.intersects(b.area):
                continue
            common = a.area.intersection(b.area)
            if _visible(common):
                found.append(f"{a.group.split('#')[0]!r} and {b.group.split('#')[0]!r} overlap ({_where(common)})")
    return found
