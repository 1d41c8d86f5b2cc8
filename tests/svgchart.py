"""Bars read back from a matplotlib SVG chart, in the chart's own data units.

matplotlib writes a patch as a path (``<g id="patch_N">``) in SVG coordinates (a
bar of ``ax.bar`` is a path of one rectangle, the bars of ``validator.kit.html.bars``
one path of a rectangle each: ``M ... z M ... z``), and each axis tick as a marker
at a position with its label as text (the report keeps text as text).  The tick
labels and positions give each axis's scale, so a bar's height, width and place
can be compared with the figures the chart was meant to draw, without asking
matplotlib or the report code anything."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

NS = {"svg": "http://www.w3.org/2000/svg", "xlink": "http://www.w3.org/1999/xlink"}
RECT = re.compile(r"^M ([-\d.e]+) ([-\d.e]+)\s+L ([-\d.e]+) ([-\d.e]+)\s+L ([-\d.e]+) ([-\d.e]+)\s+"
                  r"L ([-\d.e]+) ([-\d.e]+)\s+z\s*$")


@dataclass(frozen=True)
class Bar:
    colour: str
    left: float  # data units
    right: float
    bottom: float
    top: float

    @property
    def centre(self) -> float:
        return (self.left + self.right) / 2

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def width(self) -> float:
        return self.right - self.left


def _number(label: str) -> float | None:
    label = label.replace("\u2212", "-").replace("%", "").strip()
    try:
        return float(label)
    except ValueError:
        return None


def _scale(axis) -> tuple[float, float] | None:
    """(a, b) with value = a * svg coordinate + b, from the axis's numeric tick labels."""
    points = []
    for tick in axis.findall("svg:g", NS):
        use = tick.find(".//svg:use", NS)
        text = tick.find(".//svg:text", NS)
        if use is None or text is None or text.text is None:
            continue
        value = _number(text.text)
        if value is None:
            continue
        is_x = tick.get("id", "").startswith("xtick")
        points.append((float(use.get("x" if is_x else "y")), value))
    if len(points) < 2:
        return None
    (p0, v0), (p1, v1) = points[0], points[-1]
    a = (v1 - v0) / (p1 - p0)
    b = v0 - a * p0
    for p, v in points:  # every tick on the same line
        assert abs(a * p + b - v) <= 1e-6 * max(1.0, abs(v)) + abs(a) * 1e-3, (p, v)
    return a, b


def _fill(style: str) -> str:
    found = re.search(r"fill:\s*(#[0-9a-fA-F]{6})", style or "")
    return found.group(1).lower() if found else ""


def _each_axes(svg_text: str):
    """Each axes of a chart: (its group, its x axis, its y axis, their scales or None)."""
    root = ET.fromstring(svg_text)
    for ax in root.iter(f"{{{NS['svg']}}}g"):
        if not re.fullmatch(r"axes_\d+", ax.get("id", "")):
            continue
        # its x axis, then its y axis (matplotlib numbers them across the figure)
        x_axis, y_axis = [g for g in ax.findall("svg:g", NS) if g.get("id", "").startswith("matplotlib.axis_")]
        yield ax, x_axis, y_axis, _scale(x_axis), _scale(y_axis)


def axes(svg_text: str) -> list[list[Bar]]:
    """The bars of each axes of a chart, in drawing order (white background patches left out)."""
    out = []
    for ax, _, _, xs, ys in _each_axes(svg_text):
        bars = []
        for patch in ax.findall("svg:g", NS):
            if not patch.get("id", "").startswith("patch_"):
                continue
            path = patch.find("svg:path", NS)
            if path is None or _fill(path.get("style")) in ("", "#ffffff"):
                continue
            parts = re.split(r"(?=M )", path.get("d", "").strip())
            rects = [RECT.match(part.strip()) for part in parts if part.strip()]
            if not rects or not all(rects):  # (a patch that is not rectangles: the axes' frame, a legend's box)
                continue
            for found in rects:
                px = [float(found.group(i)) for i in (1, 3, 5, 7)]
                py = [float(found.group(i)) for i in (2, 4, 6, 8)]
                ax_x = [xs[0] * p + xs[1] for p in px] if xs else px
                ax_y = [ys[0] * p + ys[1] for p in py] if ys else py
                bars.append(Bar(_fill(path.get("style")), min(ax_x), max(ax_x), min(ax_y), max(ax_y)))
        out.append(bars)
    return out


@dataclass(frozen=True)
class Marks:
    """The lines and dots an axes draws (``ax.plot``), in data units where its axis has numbers and in SVG
    coordinates where it has not (``y_labels`` then places each tick label)."""
    segments: list  # (colour, x0, y0, x1, y1), a straight piece of a line each
    dots: list  # (colour, x, y), a marker each
    y_labels: dict  # tick label -> y


def _stroke(style: str) -> str:
    found = re.search(r"stroke:\s*(#[0-9a-fA-F]{6})", style or "")
    return found.group(1).lower() if found else ""


def _labels(axis) -> dict:
    out = {}
    for tick in axis.findall("svg:g", NS):
        use, text = tick.find(".//svg:use", NS), tick.find(".//svg:text", NS)
        if use is not None and text is not None and text.text is not None:
            out[text.text] = float(use.get("y"))
    return out


def marks(svg_text: str) -> list[Marks]:
    """The lines and dots of each axes of a chart (a line's pieces split where it breaks: ``M x y L x y M ...``)."""
    out = []
    for ax, _, y_axis, xs, ys in _each_axes(svg_text):

        def at(x: float, y: float) -> tuple[float, float]:
            return (xs[0] * x + xs[1] if xs else x), (ys[0] * y + ys[1] if ys else y)

        segments, dots = [], []
        for line in ax.findall("svg:g", NS):
            if not line.get("id", "").startswith("line2d_"):
                continue
            path = line.find("svg:path", NS)
            if path is not None:
                points = []
                for op, x, y in re.findall(r"([ML]) ([-\d.e]+) ([-\d.e]+)", path.get("d", "")):
                    here = at(float(x), float(y))
                    if op == "L" and points:
                        segments.append((_stroke(path.get("style")), *points[-1], *here))
                    points.append(here)
            for use in line.iterfind(".//svg:use", NS):
                dots.append((_fill(use.get("style")), *at(float(use.get("x")), float(use.get("y")))))
        out.append(Marks(segments, dots, _labels(y_axis)))
    return out
