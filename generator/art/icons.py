"""A small library of pictograms and shapes, as SVG markup.

Every icon is drawn in a unit box (0..1 on both axes, y down) and placed by
``icon(name, cx, cy, size)``.  Names are generic (reset, hand, badge, ...);
which word of a game uses which icon is the game's manifest's business.

The elements are built with a few classes that take svgwrite's arguments and
write the markup svgwrite writes (attributes in name order, numbers as
``str`` gives them).  Colours other than ``#rgb``/``#rrggbb``/``none``, and
sizes that are not plain numbers, go through svgwrite itself, which checks
every value and refuses what SVG does not allow.
"""

from __future__ import annotations

import math
import re
from types import SimpleNamespace
from xml.sax.saxutils import escape

_HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")


#: The characters of an attribute value xml.etree writes as entities besides the &, < and > ``escape`` always does.
_ATTRIBUTE_ENTITIES = {'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}


def _attr(text: str) -> str:
    """An attribute value as xml.etree writes it."""
    return escape(text, _ATTRIBUTE_ENTITIES)


class _Element:
    tag = ""

    def __init__(self, **extra):
        self.attribs: dict = {}
        self.elements: list = []
        for key, value in extra.items():
            self.attribs[key.rstrip("_").replace("_", "-")] = value

    def __setitem__(self, key, value):
        self.attribs[key] = value

    def add(self, element):
        self.elements.append(element)
        return element

    def tostring(self) -> str:
        parts = [f"<{self.tag}"]
        for key, value in sorted(self.attribs.items()):
            if value is not None:
                text = str(value)
                if text:
                    parts.append(f' {key}="{_attr(text)}"')
        if not self.elements:
            parts.append(" />")
            return "".join(parts)
        parts.append(">")
        parts += [e.tostring() for e in self.elements]
        parts.append(f"</{self.tag}>")
        return "".join(parts)


class _Group(_Element):
    tag = "g"


class _Path(_Element):
    tag = "path"

    def __init__(self, d=None, **extra):
        super().__init__(**extra)
        self.attribs["d"] = d


class _Circle(_Element):
    tag = "circle"

    def __init__(self, center=(0, 0), r=1, **extra):
        super().__init__(**extra)
        self.attribs["cx"], self.attribs["cy"] = center
        self.attribs["r"] = r


class _Line(_Element):
    tag = "line"

    def __init__(self, start=(0, 0), end=(0, 0), **extra):
        super().__init__(**extra)
        self.attribs["x1"], self.attribs["y1"] = start
        self.attribs["x2"], self.attribs["y2"] = end


class _Rect(_Element):
    tag = "rect"

    def __init__(self, insert=(0, 0), size=(1, 1), rx=None, ry=None, **extra):
        super().__init__(**extra)
        self.attribs["x"], self.attribs["y"] = insert
        self.attribs["width"], self.attribs["height"] = size
        if rx is not None:
            self.attribs["rx"] = rx
        if ry is not None:
            self.attribs["ry"] = ry


class _Polygon(_Element):
    tag = "polygon"

    def __init__(self, points=(), **extra):
        super().__init__(**extra)
        self.attribs["points"] = " ".join("%s,%s" % (x, y) for x, y in points)


_MARKUP = SimpleNamespace(Group=_Group, Path=_Path, Circle=_Circle, Line=_Line, Rect=_Rect, Polygon=_Polygon)


def _svgwrite():
    import svgwrite.container
    import svgwrite.path
    import svgwrite.shapes

    return SimpleNamespace(Group=svgwrite.container.Group, Path=svgwrite.path.Path, Circle=svgwrite.shapes.Circle,
                           Line=svgwrite.shapes.Line, Rect=svgwrite.shapes.Rect, Polygon=svgwrite.shapes.Polygon)


def _poly(E, points, **kw):
    return E.Polygon(points=[(round(x, 4), round(y, 4)) for x, y in points], **kw)


def _star(n=5, outer=0.5, inner=0.22):
    pts = []
    for i in range(2 * n):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / n
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    return pts


def _regular(n, r=0.5, rot=-90):
    return [(0.5 + r * math.cos(math.radians(rot + i * 360 / n)), 0.5 + r * math.sin(math.radians(rot + i * 360 / n)))
            for i in range(n)]


def _arc_arrow(E, fill, stroke_w):
    """An open circular arrow (used by reset and flip)."""
    g = E.Group()
    g.add(E.Path(d="M0.82,0.5 A0.32,0.32 0 1 1 0.62,0.2", fill="none", stroke=fill, stroke_width=stroke_w,
               stroke_linecap="round"))
    g.add(_poly(E, [(0.5, 0.06), (0.74, 0.2), (0.52, 0.36)], fill=fill))
    return g


def _shapes(E, name: str, fill: str, stroke: str):
    g = E.Group()
    sw = 0.08
    if name == "circle":
        g.add(E.Circle(center=(0.5, 0.5), r=0.46, fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "square":
        g.add(E.Rect(insert=(0.08, 0.08), size=(0.84, 0.84), fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "triangle":
        g.add(_poly(E, [(0.5, 0.04), (0.96, 0.9), (0.04, 0.9)], fill=fill, stroke=stroke, stroke_width=sw,
                    stroke_linejoin="round"))
    elif name == "diamond":
        g.add(_poly(E, [(0.5, 0.02), (0.95, 0.5), (0.5, 0.98), (0.05, 0.5)], fill=fill, stroke=stroke, stroke_width=sw,
                    stroke_linejoin="round"))
    elif name == "star":
        g.add(_poly(E, _star(), fill=fill, stroke=stroke, stroke_width=sw * 0.6, stroke_linejoin="round"))
    elif name == "hexagon":
        g.add(_poly(E, _regular(6, 0.48), fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "pentagon":
        g.add(_poly(E, _regular(5, 0.48), fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "cross":
        g.add(_poly(E, [(0.35, 0.05), (0.65, 0.05), (0.65, 0.35), (0.95, 0.35), (0.95, 0.65), (0.65, 0.65),
                     (0.65, 0.95), (0.35, 0.95), (0.35, 0.65), (0.05, 0.65), (0.05, 0.35), (0.35, 0.35)],
                    fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "heart":
        g.add(E.Path(d="M0.5,0.9 C0.1,0.62 0.02,0.42 0.08,0.28 C0.16,0.08 0.42,0.08 0.5,0.3 "
                     "C0.58,0.08 0.84,0.08 0.92,0.28 C0.98,0.42 0.9,0.62 0.5,0.9 Z",
                   fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "spade":
        g.add(E.Path(d="M0.5,0.05 C0.62,0.25 0.95,0.4 0.92,0.6 C0.9,0.78 0.66,0.82 0.54,0.68 L0.62,0.95 L0.38,0.95 "
                     "L0.46,0.68 C0.34,0.82 0.1,0.78 0.08,0.6 C0.05,0.4 0.38,0.25 0.5,0.05 Z",
                   fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "club":
        g.add(E.Circle(center=(0.5, 0.28), r=0.2, fill=fill))
        g.add(E.Circle(center=(0.27, 0.58), r=0.2, fill=fill))
        g.add(E.Circle(center=(0.73, 0.58), r=0.2, fill=fill))
        g.add(_poly(E, [(0.44, 0.5), (0.56, 0.5), (0.64, 0.95), (0.36, 0.95)], fill=fill))
    elif name == "pyramid":
        g.add(_poly(E, [(0.5, 0.06), (0.96, 0.9), (0.04, 0.9)], fill=fill, stroke=stroke, stroke_width=sw * 0.6,
                    stroke_linejoin="round"))
        g.add(_poly(E, [(0.5, 0.06), (0.96, 0.9), (0.58, 0.9)], fill=stroke, fill_opacity=0.25))
    else:
        return None
    return g


def _pictogram(E, name: str, fill: str, stroke: str):
    g = E.Group()
    sw = 0.09
    line = dict(stroke=fill, stroke_width=sw, stroke_linecap="round", fill="none")
    if name == "reset":
        g.add(_arc_arrow(E, fill, sw * 1.1))
    elif name == "hand":
        g.add(E.Rect(insert=(0.16, 0.22), size=(0.36, 0.52), rx=0.05, fill="none", stroke=fill, stroke_width=sw,
                   transform="rotate(-12 0.34 0.48)"))
        g.add(E.Rect(insert=(0.44, 0.22), size=(0.36, 0.52), rx=0.05, fill=fill, stroke=fill, stroke_width=sw,
                   transform="rotate(12 0.62 0.48)"))
    elif name == "discard":
        g.add(E.Rect(insert=(0.22, 0.08), size=(0.44, 0.6), rx=0.05, fill="none", stroke=fill, stroke_width=sw))
        g.add(E.Line(start=(0.55, 0.55), end=(0.85, 0.9), **line))
        g.add(_poly(E, [(0.92, 0.98), (0.66, 0.9), (0.86, 0.72)], fill=fill))
    elif name == "limit":
        g.add(E.Rect(insert=(0.12, 0.1), size=(0.76, 0.22), rx=0.04, fill=fill))
        g.add(E.Line(start=(0.5, 0.42), end=(0.5, 0.92), **line))
        g.add(E.Line(start=(0.25, 0.67), end=(0.75, 0.67), **line))
    elif name == "pass":
        g.add(E.Rect(insert=(0.08, 0.24), size=(0.84, 0.52), rx=0.06, fill="none", stroke=fill, stroke_width=sw))
        g.add(E.Path(d="M0.3,0.5 L0.45,0.62 L0.72,0.36", **line))
    elif name in ("flip", "flip-silent"):
        g.add(E.Rect(insert=(0.3, 0.25), size=(0.4, 0.56), rx=0.05, fill=fill if name == "flip" else "none",
                   stroke=fill, stroke_width=sw))
        g.add(E.Path(d="M0.12,0.45 A0.4,0.4 0 0 1 0.78,0.1", **line))
        g.add(_poly(E, [(0.88, 0.02), (0.86, 0.24), (0.66, 0.12)], fill=fill))
        if name == "flip-silent":
            g.add(E.Line(start=(0.1, 0.92), end=(0.9, 0.3), **line))
    elif name == "trash":
        g.add(E.Rect(insert=(0.24, 0.3), size=(0.52, 0.62), rx=0.05, fill="none", stroke=fill, stroke_width=sw))
        g.add(E.Line(start=(0.14, 0.2), end=(0.86, 0.2), **line))
        g.add(E.Line(start=(0.4, 0.1), end=(0.6, 0.1), **line))
        for x in (0.4, 0.6):
            g.add(E.Line(start=(x, 0.42), end=(x, 0.8), **line))
    elif name == "badge":
        g.add(E.Path(d="M0.5,0.04 L0.9,0.18 C0.9,0.56 0.74,0.82 0.5,0.96 C0.26,0.82 0.1,0.56 0.1,0.18 Z",
                   fill=fill, stroke=stroke, stroke_width=sw * 0.5))
        g.add(_poly(E, _star(5, 0.2, 0.09), fill=stroke, transform="translate(0 -0.02)"))
    elif name == "reserve":
        g.add(E.Path(d="M0.26,0.06 L0.74,0.06 L0.74,0.94 L0.5,0.72 L0.26,0.94 Z", fill=fill))
    elif name == "card":
        g.add(E.Rect(insert=(0.2, 0.06), size=(0.6, 0.88), rx=0.07, fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "question":
        g.add(E.Circle(center=(0.5, 0.5), r=0.46, fill=fill))
        g.add(E.Path(d="M0.36,0.38 C0.36,0.2 0.64,0.2 0.64,0.38 C0.64,0.5 0.5,0.5 0.5,0.64",
                   stroke=stroke, stroke_width=sw, fill="none", stroke_linecap="round"))
        g.add(E.Circle(center=(0.5, 0.78), r=0.05, fill=stroke))
    elif name == "crown":
        g.add(_poly(E, [(0.08, 0.78), (0.08, 0.3), (0.3, 0.52), (0.5, 0.2), (0.7, 0.52), (0.92, 0.3), (0.92, 0.78)],
                    fill=fill, stroke=stroke, stroke_width=sw * 0.5, stroke_linejoin="round"))
    elif name == "eye":
        g.add(E.Path(d="M0.04,0.5 C0.3,0.14 0.7,0.14 0.96,0.5 C0.7,0.86 0.3,0.86 0.04,0.5 Z", fill=fill))
        g.add(E.Circle(center=(0.5, 0.5), r=0.15, fill=stroke))
    elif name == "cup":
        g.add(_poly(E, [(0.18, 0.1), (0.82, 0.1), (0.7, 0.92), (0.3, 0.92)], fill=fill, stroke=stroke,
                    stroke_width=sw * 0.5))
    elif name == "smile":
        g.add(E.Circle(center=(0.5, 0.5), r=0.46, fill=fill, stroke=stroke, stroke_width=sw * 0.5))
        g.add(E.Circle(center=(0.35, 0.4), r=0.06, fill=stroke))
        g.add(E.Circle(center=(0.65, 0.4), r=0.06, fill=stroke))
        g.add(E.Path(d="M0.28,0.58 Q0.5,0.86 0.72,0.58", stroke=stroke, stroke_width=sw, fill="none",
                   stroke_linecap="round"))
    elif name == "arrow-down":
        g.add(E.Line(start=(0.5, 0.08), end=(0.5, 0.7), **line))
        g.add(_poly(E, [(0.22, 0.6), (0.78, 0.6), (0.5, 0.95)], fill=fill))
    else:
        return None
    return g


def names() -> list[str]:
    probe = ["circle", "square", "triangle", "diamond", "star", "hexagon", "pentagon", "cross", "heart", "spade",
             "club", "pyramid", "reset", "hand", "discard", "limit", "pass", "flip", "flip-silent", "trash",
             "badge", "reserve", "card", "question", "crown", "eye", "cup", "smile", "arrow-down"]
    return probe


def icon(name: str, cx: float, cy: float, size: float, fill: str = "#000", stroke: str = "#fff") -> str:
    """SVG markup of icon ``name`` centred at (cx, cy), ``size`` wide and high."""
    plain = all(type(v) in (int, float) and math.isfinite(v) for v in (cx, cy, size)) and all(
        type(c) is str and (c == "none" or _HEX.fullmatch(c)) for c in (fill, stroke))
    E = _MARKUP if plain else _svgwrite()
    g = _shapes(E, name, fill, stroke) or _pictogram(E, name, fill, stroke)
    if g is None:
        raise KeyError(f"unknown icon '{name}'; known icons: {', '.join(names())}")
    x, y = cx - size / 2, cy - size / 2
    g["transform"] = f"translate({x:.3f} {y:.3f}) scale({size:.4f})"
    return g.tostring()
