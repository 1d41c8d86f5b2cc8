"""Where a picture goes in its box, and how a design holds it.

Placement follows SVG's ``preserveAspectRatio``: ``cover`` fills the box and
crops (``slice``), ``contain`` fits inside it (``meet``), ``stretch`` fills it
exactly (``none``); ``anchor`` says which part stays in view.  The SVG a
template gives holds a standard ``<image>`` element (``image_svg``) with the
file's digest and size in ``data-pnp-picture``: the preview page shows it as any
browser would, and both SVG readers (``draw/svgfast.py`` and svglib,
``draw/svgread.py``) turn it into the same display-list calls (``calls``): clip
to the box when the picture is cropped, and draw the picture at its place.  A
JPEG is drawn turned as its EXIF orientation says (``matrix``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .pictures import Picture

FITS = {"cover": "slice", "contain": "meet", "stretch": "none"}
ANCHORS = {
    "center": "xMidYMid", "centre": "xMidYMid", "middle": "xMidYMid",
    "top": "xMidYMin", "bottom": "xMidYMax", "left": "xMinYMid", "right": "xMaxYMid",
    "top-left": "xMinYMin", "top-right": "xMaxYMin", "bottom-left": "xMinYMax", "bottom-right": "xMaxYMax",
}


def placement(fit: str, anchor: str, box: tuple[float, float, float, float], size: tuple[float, float]):
    """(x, y, w, h) of the whole picture for a box (x, y, w, h), SVG's preserveAspectRatio rules."""
    x, y, w, h = box
    pw, ph = size
    if fit == "stretch" or pw <= 0 or ph <= 0:
        return x, y, w, h
    scale = (max if fit == "cover" else min)(w / pw, h / ph)
    dw, dh = pw * scale, ph * scale
    align = ANCHORS[anchor]
    fx = {"xMin": 0.0, "xMid": 0.5, "xMax": 1.0}[align[:4]]
    fy = {"YMin": 0.0, "YMid": 0.5, "YMax": 1.0}[align[4:]]
    return x + (w - dw) * fx, y + (h - dh) * fy, dw, dh


def aspect_attr(fit: str, anchor: str) -> str:
    return "none" if fit == "stretch" else f"{ANCHORS[anchor]} {FITS[fit]}"


def parse_aspect(text: str) -> tuple[str, str]:
    """(fit, anchor) of a preserveAspectRatio value."""
    parts = (text or "xMidYMid meet").split()
    if parts[0] == "none":
        return "stretch", "center"
    align = parts[0]
    anchor = next((k for k, v in ANCHORS.items() if v == align), "center")
    return ("cover" if len(parts) > 1 and parts[1] == "slice" else "contain"), anchor


def image_svg(picture: Picture, x: float, y: float, w: float, h: float, fit: str, anchor: str) -> str:
    """The ``<image>`` element of a placed picture."""
    from xml.sax.saxutils import quoteattr

    return (f'<image x="{x:.3f}" y="{y:.3f}" width="{w:.3f}" height="{h:.3f}" href={quoteattr(picture.rel)} '
            f'preserveAspectRatio="{aspect_attr(fit, anchor)}" data-pnp-picture="{picture.spec}"/>')


def parse_spec(text: str) -> tuple:
    """(kind, digest, width, height, orientation) of a ``data-pnp-picture`` value; ValueError when malformed."""
    kind, digest, w, h, orientation = text.split()
    if kind not in ("png", "jpeg", "svg") or not re.fullmatch(r"[0-9a-f]{32}", digest):
        raise ValueError(text)
    return kind, digest, float(w), float(h), int(orientation)


def calls(spec: str, x: float, y: float, w: float, h: float, aspect: str) -> tuple:
    """The display-list calls that draw a picture element (in the SVG's y-down user space):
    a clip to its box when it is cropped, then the picture over its whole place."""
    kind, digest, pw, ph, orientation = parse_spec(spec)
    fit, anchor = parse_aspect(aspect)
    px, py, dw, dh = placement(fit, anchor, (x, y, w, h), (pw, ph))
    ops = [("saveState", (), {})]
    if fit == "cover" and (dw > w + 1e-9 or dh > h + 1e-9):
        ops.append(("*clipPath", (("moveTo", (x, y), {}), ("lineTo", (x + w, y), {}), ("lineTo", (x + w, y + h), {}),
                                  ("lineTo", (x, y + h), {}), ("close", (), {})), {"stroke": 0, "fill": 0}))
    ops.append(("+picture", (kind, digest, orientation, px, py, dw, dh), {}))
    ops.append(("restoreState", (), {}))
    return tuple(ops)


# ---------------------------------------------------------------- turned as its EXIF orientation says
#: EXIF orientation -> how the stored picture's unit square maps onto the shown one (a, b, c, d, e, f).
_ORIENT = {
    1: (1, 0, 0, 1, 0, 0), 2: (-1, 0, 0, 1, 1, 0), 3: (-1, 0, 0, -1, 1, 1), 4: (1, 0, 0, -1, 0, 1),
    5: (0, -1, -1, 0, 1, 1), 6: (0, -1, 1, 0, 0, 1), 7: (0, 1, 1, 0, 0, 0), 8: (0, 1, -1, 0, 1, 0),
}


def matrix(orientation: int, x: float, y: float, w: float, h: float) -> tuple:
    """The transform from an image's unit square to its place (x, y, w, h) in a y-down
    user space, the stored picture turned by its EXIF orientation."""
    from reportlab.graphics.transform import mmult

    base = (w, 0.0, 0.0, -h, x, y + h)  # the unit square, turned upright
    return tuple(float(v) for v in mmult(base, _ORIENT.get(orientation, _ORIENT[1])))
