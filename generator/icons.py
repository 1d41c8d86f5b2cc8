"""A small library of pictograms and shapes, built with svgwrite.

Every icon is drawn in a unit box (0..1 on both axes, y down) and placed by
``icon(name, cx, cy, size)``.  Names are generic (reset, hand, badge, ...);
which word of a game uses which icon is the game's manifest's business.
"""

from __future__ import annotations

import math

import svgwrite
from svgwrite.container import Group
from svgwrite.path import Path
from svgwrite.shapes import Circle, Line, Polygon, Rect

_DWG = svgwrite.Drawing(debug=False)  # a factory for elements; never saved


def _poly(points, **kw):
    return Polygon(points=[(round(x, 4), round(y, 4)) for x, y in points], **kw)


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


def _arc_arrow(fill, stroke_w):
    """An open circular arrow (used by reset and flip)."""
    g = Group()
    g.add(Path(d="M0.82,0.5 A0.32,0.32 0 1 1 0.62,0.2", fill="none", stroke=fill, stroke_width=stroke_w,
               stroke_linecap="round"))
    g.add(_poly([(0.5, 0.06), (0.74, 0.2), (0.52, 0.36)], fill=fill))
    return g


def _shapes(name: str, fill: str, stroke: str) -> Group | None:
    g = Group()
    sw = 0.08
    if name == "circle":
        g.add(Circle(center=(0.5, 0.5), r=0.46, fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "square":
        g.add(Rect(insert=(0.08, 0.08), size=(0.84, 0.84), fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "triangle":
        g.add(_poly([(0.5, 0.04), (0.96, 0.9), (0.04, 0.9)], fill=fill, stroke=stroke, stroke_width=sw,
                    stroke_linejoin="round"))
    elif name == "diamond":
        g.add(_poly([(0.5, 0.02), (0.95, 0.5), (0.5, 0.98), (0.05, 0.5)], fill=fill, stroke=stroke, stroke_width=sw,
                    stroke_linejoin="round"))
    elif name == "star":
        g.add(_poly(_star(), fill=fill, stroke=stroke, stroke_width=sw * 0.6, stroke_linejoin="round"))
    elif name == "hexagon":
        g.add(_poly(_regular(6, 0.48), fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "pentagon":
        g.add(_poly(_regular(5, 0.48), fill=fill, stroke=stroke, stroke_width=sw))
    elif name == "cross":
        g.add(_poly([(0.35, 0.05), (0.65, 0.05), (0.65, 0.35), (0.95, 0.35), (0.95, 0.65), (0.65, 0.65),
                     (0.65, 0.95), (0.35, 0.95), (0.35, 0.65), (0.05, 0.65), (0.05, 0.35), (0.35, 0.35)],
                    fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "heart":
        g.add(Path(d="M0.5,0.9 C0.1,0.62 0.02,0.42 0.08,0.28 C0.16,0.08 0.42,0.08 0.5,0.3 "
                     "C0.58,0.08 0.84,0.08 0.92,0.28 C0.98,0.42 0.9,0.62 0.5,0.9 Z",
                   fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "spade":
        g.add(Path(d="M0.5,0.05 C0.62,0.25 0.95,0.4 0.92,0.6 C0.9,0.78 0.66,0.82 0.54,0.68 L0.62,0.95 L0.38,0.95 "
                     "L0.46,0.68 C0.34,0.82 0.1,0.78 0.08,0.6 C0.05,0.4 0.38,0.25 0.5,0.05 Z",
                   fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "club":
        g.add(Circle(center=(0.5, 0.28), r=0.2, fill=fill))
        g.add(Circle(center=(0.27, 0.58), r=0.2, fill=fill))
        g.add(Circle(center=(0.73, 0.58), r=0.2, fill=fill))
        g.add(_poly([(0.44, 0.5), (0.56, 0.5), (0.64, 0.95), (0.36, 0.95)], fill=fill))
    elif name == "pyramid":
        g.add(_poly([(0.5, 0.06), (0.96, 0.9), (0.04, 0.9)], fill=fill, stroke=stroke, stroke_width=sw * 0.6,
                    stroke_linejoin="round"))
        g.add(_poly([(0.5, 0.06), (0.96, 0.9), (0.58, 0.9)], fill=stroke, fill_opacity=0.25))
    else:
        return None
    return g


def _pictogram(name: str, fill: str, stroke: str) -> Group | None:
    g = Group()
    sw = 0.09
    line = dict(stroke=fill, stroke_width=sw, stroke_linecap="round", fill="none")
    if name == "reset":
        g.add(_arc_arrow(fill, sw * 1.1))
    elif name == "hand":
        g.add(Rect(insert=(0.16, 0.22), size=(0.36, 0.52), rx=0.05, fill="none", stroke=fill, stroke_width=sw,
                   transform="rotate(-12 0.34 0.48)"))
        g.add(Rect(insert=(0.44, 0.22), size=(0.36, 0.52), rx=0.05, fill=fill, stroke=fill, stroke_width=sw,
                   transform="rotate(12 0.62 0.48)"))
    elif name == "discard":
        g.add(Rect(insert=(0.22, 0.08), size=(0.44, 0.6), rx=0.05, fill="none", stroke=fill, stroke_width=sw))
        g.add(Line(start=(0.55, 0.55), end=(0.85, 0.9), **line))
        g.add(_poly([(0.92, 0.98), (0.66, 0.9), (0.86, 0.72)], fill=fill))
    elif name == "limit":
        g.add(Rect(insert=(0.12, 0.1), size=(0.76, 0.22), rx=0.04, fill=fill))
        g.add(Line(start=(0.5, 0.42), end=(0.5, 0.92), **line))
        g.add(Line(start=(0.25, 0.67), end=(0.75, 0.67), **line))
    elif name == "pass":
        g.add(Rect(insert=(0.08, 0.24), size=(0.84, 0.52), rx=0.06, fill="none", stroke=fill, stroke_width=sw))
        g.add(Path(d="M0.3,0.5 L0.45,0.62 L0.72,0.36", **line))
    elif name in ("flip", "flip-silent"):
        g.add(Rect(insert=(0.3, 0.25), size=(0.4, 0.56), rx=0.05, fill=fill if name == "flip" else "none",
                   stroke=fill, stroke_width=sw))
        g.add(Path(d="M0.12,0.45 A0.4,0.4 0 0 1 0.78,0.1", **line))
        g.add(_poly([(0.88, 0.02), (0.86, 0.24), (0.66, 0.12)], fill=fill))
        if name == "flip-silent":
            g.add(Line(start=(0.1, 0.92), end=(0.9, 0.3), **line))
    elif name == "trash":
        g.add(Rect(insert=(0.24, 0.3), size=(0.52, 0.62), rx=0.05, fill="none", stroke=fill, stroke_width=sw))
        g.add(Line(start=(0.14, 0.2), end=(0.86, 0.2), **line))
        g.add(Line(start=(0.4, 0.1), end=(0.6, 0.1), **line))
        for x in (0.4, 0.6):
            g.add(Line(start=(x, 0.42), end=(x, 0.8), **line))
    elif name == "badge":
        g.add(Path(d="M0.5,0.04 L0.9,0.18 C0.9,0.56 0.74,0.82 0.5,0.96 C0.26,0.82 0.1,0.56 0.1,0.18 Z",
                   fill=fill, stroke=stroke, stroke_width=sw * 0.5))
        g.add(_poly(_star(5, 0.2, 0.09), fill=stroke, transform="translate(0 -0.02)"))
    elif name == "reserve":
        g.add(Path(d="M0.26,0.06 L0.74,0.06 L0.74,0.94 L0.5,0.72 L0.26,0.94 Z", fill=fill))
    elif name == "card":
        g.add(Rect(insert=(0.2, 0.06), size=(0.6, 0.88), rx=0.07, fill=fill, stroke=stroke, stroke_width=sw * 0.6))
    elif name == "question":
        g.add(Circle(center=(0.5, 0.5), r=0.46, fill=fill))
        g.add(Path(d="M0.36,0.38 C0.36,0.2 0.64,0.2 0.64,0.38 C0.64,0.5 0.5,0.5 0.5,0.64",
                   stroke=stroke, stroke_width=sw, fill="none", stroke_linecap="round"))
        g.add(Circle(center=(0.5, 0.78), r=0.05, fill=stroke))
    elif name == "crown":
        g.add(_poly([(0.08, 0.78), (0.08, 0.3), (0.3, 0.52), (0.5, 0.2), (0.7, 0.52), (0.92, 0.3), (0.92, 0.78)],
                    fill=fill, stroke=stroke, stroke_width=sw * 0.5, stroke_linejoin="round"))
    elif name == "eye":
        g.add(Path(d="M0.04,0.5 C0.3,0.14 0.7,0.14 0.96,0.5 C0.7,0.86 0.3,0.86 0.04,0.5 Z", fill=fill))
        g.add(Circle(center=(0.5, 0.5), r=0.15, fill=stroke))
    elif name == "cup":
        g.add(_poly([(0.18, 0.1), (0.82, 0.1), (0.7, 0.92), (0.3, 0.92)], fill=fill, stroke=stroke,
                    stroke_width=sw * 0.5))
    elif name == "smile":
        g.add(Circle(center=(0.5, 0.5), r=0.46, fill=fill, stroke=stroke, stroke_width=sw * 0.5))
        g.add(Circle(center=(0.35, 0.4), r=0.06, fill=stroke))
        g.add(Circle(center=(0.65, 0.4), r=0.06, fill=stroke))
        g.add(Path(d="M0.28,0.58 Q0.5,0.86 0.72,0.58", stroke=stroke, stroke_width=sw, fill="none",
                   stroke_linecap="round"))
    elif name == "arrow-down":
        g.add(Line(start=(0.5, 0.08), end=(0.5, 0.7), **line))
        g.add(_poly([(0.22, 0.6), (0.78, 0.6), (0.5, 0.95)], fill=fill))
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
    g = _shapes(name, fill, stroke) or _pictogram(name, fill, stroke)
    if g is None:
        raise KeyError(f"unknown icon '{name}'; known icons: {', '.join(names())}")
    x, y = cx - size / 2, cy - size / 2
    g["transform"] = f"translate({x:.3f} {y:.3f}) scale({size:.4f})"
    return g.tostring()
