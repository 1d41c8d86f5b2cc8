"""SVG's curves as the cubic curves every reader draws: quadratic curves and elliptical arcs
(the formulas of the SVG 1.1 implementation notes).  Used when an icon's path data is made
plain (``svgsafe``) and when a design's is read (``draw.svgfast``)."""

from __future__ import annotations

import math

def quad_to_cubic(x0, y0, x1, y1, x2, y2):
    """The cubic control points of the quadratic curve (x0, y0) (x1, y1) (x2, y2)."""
    c1x = x0 + 2 / 3 * (x1 - x0)
    c1y = y0 + 2 / 3 * (y1 - y0)
    return c1x, c1y, c1x + 1 / 3 * (x2 - x0), c1y + 1 / 3 * (y2 - y0)


def arc(x1, y1, rx, ry, phi, large, sweep, x2, y2) -> list[tuple]:
    """An elliptical arc as cubic curves (control, control, end), each at most a quarter turn
    (SVG 1.1 implementation notes, F.6.5 and F.6.6)."""
    if x1 == x2 and y1 == y2:
        return []
    rx, ry = abs(rx), abs(ry)
    cos_phi, sin_phi = math.cos(math.radians(phi)), math.sin(math.radians(phi))
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    px, py = cos_phi * dx + sin_phi * dy, -sin_phi * dx + cos_phi * dy
    scale = (px * px) / (rx * rx) + (py * py) / (ry * ry)
    if scale > 1:
        rx, ry = rx * math.sqrt(scale), ry * math.sqrt(scale)
    num = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px
    den = rx * rx * py * py + ry * ry * px * px
    factor = math.sqrt(max(0.0, num / den)) if den else 0.0
    if large == sweep:
        factor = -factor
    cxp, cyp = factor * rx * py / ry, -factor * ry * px / rx
    cx = cos_phi * cxp - sin_phi * cyp + (x1 + x2) / 2
    cy = sin_phi * cxp + cos_phi * cyp + (y1 + y2) / 2

    def angle(ux, uy, vx, vy):
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    ux, uy = (px - cxp) / rx, (py - cyp) / ry
    vx, vy = (-px - cxp) / rx, (-py - cyp) / ry
    start = angle(1.0, 0.0, ux, uy)
    extent = math.degrees(angle(ux, uy, vx, vy)) % 360
    if not sweep and extent > 0:
        extent -= 360
    elif sweep and extent < 0:
        extent += 360
    pieces = max(1, math.ceil(abs(extent) / 90 - 1e-9))  # quarter turns at most (a half ellipse: two)
    step = math.radians(extent / pieces)
    if step == 0:
        return []
    k = 4 / 3 * math.tan(step / 4)

    def point(t):
        ct, st = math.cos(t), math.sin(t)
        return (cx + rx * ct * cos_phi - ry * st * sin_phi, cy + rx * ct * sin_phi + ry * st * cos_phi,
                -rx * st * cos_phi - ry * ct * sin_phi, -rx * st * sin_phi + ry * ct * cos_phi)

    out = []
    t0 = start
    ax, ay, adx, ady = point(t0)
    for i in range(pieces):
        t1 = start + (i + 1) * step
        bx, by, bdx, bdy = point(t1)
        out.append((ax + k * adx, ay + k * ady, bx - k * bdx, by - k * bdy, bx, by))
        ax, ay, adx, ady = bx, by, bdx, bdy
    return out
