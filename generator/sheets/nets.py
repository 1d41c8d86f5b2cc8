"""Geometry of fold-up components (nets), exposed to templates as ``nets``.

Everything here is plain numbers and points in millimetres (x right, y down, as
in the card templates), so that a template can draw a net with ``<polygon>`` and
``<line>`` elements and a test can check it without rendering anything.

The solid is a right square pyramid: base edge ``a``, height ``h``.  Two flat
layouts are offered:

``fan``
    the four triangular faces side by side around the apex, a glue tab on the
    last free edge, and optionally the square base hanging from one face (with
    tabs on its three other edges).  Without the base the piece is hollow with
    an open bottom, like a Looney pyramid.  The most compact layout for tall
    pyramids: a fan spans four face angles (about 123 degrees for a Looney
    pyramid) instead of a full cross.
``cross``
    the square base in the middle and a face on each of its edges, a glue tab
    on one side edge of every face.  The classic school net; compact for flat
    pyramids.

A :class:`Net` holds the faces (with a local frame each, for placing pips or
text upright on a face), the glue tabs, the fold lines (score these) and the
outline (cut along it).  :meth:`Net.fold` folds the net back up in 3D from its
own points and reports the solid it makes, so that tests can check that the
drawing really is the pyramid it claims to be.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..art.limits import in_force
from .netbounds import LEAST_STEP, MOST_FACES, count, few, turn_step  # noqa: F401 - the bounds, named here too

Point = tuple[float, float]

#: default glue tab depth as a fraction of the base edge (clamped to TAB_MIN..TAB_MAX mm)
TAB_FRACTION = 0.22
TAB_MIN = 3.0
TAB_MAX = 7.0


# --------------------------------------------------------------------------- the solid
@dataclass(frozen=True)
class SquarePyramid:
    """A right square pyramid: ``base`` edge and apex ``height`` in mm."""

    base: float
    height: float

    def __post_init__(self):
        if self.base <= 0 or self.height <= 0:
            raise ValueError(f"a pyramid needs a positive base and height, got {self.base} x {self.height}")

    @property
    def slant(self) -> float:
        """Slant height: apex to the middle of a base edge, along a face."""
        return math.hypot(self.height, self.base / 2)

    @property
    def lateral_edge(self) -> float:
        """Apex to a base corner."""
        return math.hypot(self.height, self.base / math.sqrt(2))

    @property
    def apex_angle(self) -> float:
        """Angle of a face at the apex, degrees."""
        return math.degrees(2 * math.atan2(self.base / 2, self.slant))

    @property
    def base_angle(self) -> float:
        """Angle of a face at a base corner, degrees."""
        return (180.0 - self.apex_angle) / 2

    @property
    def face_tilt(self) -> float:
        """Angle between a face and the base plane, degrees (the fold at a base edge)."""
        return math.degrees(math.atan2(self.height, self.base / 2))

    @property
    def dihedral(self) -> float:
        """Interior angle between two neighbouring faces, degrees."""
        # normals of two adjacent faces of the pyramid centred at the origin
        a, h = self.base / 2, self.height
        n1 = (h, 0.0, a)
        n2 = (0.0, h, a)
        cos = _dot(n1, n2) / (_norm(n1) * _norm(n2))
        return 180.0 - math.degrees(math.acos(max(-1.0, min(1.0, cos))))

    @property
    def fan_angle(self) -> float:
        """How wide the four faces spread when laid flat around the apex, degrees."""
        return 4 * self.apex_angle

    def scaled(self, k: float) -> "SquarePyramid":
        """The same shape, ``k`` times the size."""
        return SquarePyramid(self.base * k, self.height * k)

    def face(self) -> tuple[Point, Point, Point]:
        """One face flat: base corners at (0, 0) and (a, 0), apex above (negative y)."""
        return (0.0, 0.0), (self.base, 0.0), (self.base / 2, -self.slant)


def pyramid(base: float, height: float) -> SquarePyramid:
    return SquarePyramid(float(base), float(height))


# --------------------------------------------------------------------------- flat pieces
@dataclass(frozen=True)
class Face:
    """A polygon of the net.  For a triangular face ``points`` are (left base
    corner, right base corner, apex) seen from the printed side with the base
    at the bottom; the local frame puts x along the base edge from its middle
    (to the right) and y from the base edge towards the apex."""

    points: tuple[Point, ...]
    kind: str = "face"  # "face" (a side), "base" (the square), "tab" (glue)
    index: int = 0

    @property
    def p0(self) -> Point:
        return self.points[0]

    @property
    def p1(self) -> Point:
        return self.points[1]

    @property
    def origin(self) -> Point:
        """Middle of the base edge."""
        return _mid(self.p0, self.p1)

    @property
    def ux(self) -> Point:
        return _unit(_sub(self.p1, self.p0))

    @property
    def uy(self) -> Point:
        """Unit vector from the base edge towards the inside of the face."""
        ux = self.ux
        cand = (ux[1], -ux[0])
        inner = _sub(self.centroid, self.origin)
        return cand if _dot2(cand, inner) > 0 else (-cand[0], -cand[1])

    @property
    def angle(self) -> float:
        """Rotation (degrees) that turns upright text to sit on this face's base edge."""
        ux = self.ux
        return math.degrees(math.atan2(ux[1], ux[0]))

    @property
    def centroid(self) -> Point:
        n = len(self.points)
        return (sum(p[0] for p in self.points) / n, sum(p[1] for p in self.points) / n)

    def at(self, x: float, y: float) -> Point:
        """The net point ``x`` mm along the base edge from its middle and ``y`` mm towards the apex."""
        o, ux, uy = self.origin, self.ux, self.uy
        return (o[0] + x * ux[0] + y * uy[0], o[1] + x * ux[1] + y * uy[1])

    def width_at(self, y: float) -> float:
        """Width of a triangular face at ``y`` mm above its base edge."""
        base = _dist(self.p0, self.p1)
        if len(self.points) != 3:
            return base
        height = abs(_dot2(_sub(self.points[2], self.origin), self.uy))
        return max(0.0, base * (1 - y / height)) if height else 0.0

    def row(self, n: int, y: float, spacing: float) -> list[Point]:
        """``n`` points in a row parallel to the base edge, ``y`` mm above it, centred."""
        n = count("row()", "n", n, in_force().items, "points")
        return [self.at((i - (n - 1) / 2) * spacing, y) for i in range(n)]

    def svg_points(self) -> str:
        return svg_points(self.points)

    def transformed(self, fn) -> "Face":
        return Face(tuple(fn(p) for p in self.points), self.kind, self.index)


@dataclass(frozen=True)
class Fold:
    """A fold (score) line from ``a`` to ``b``; ``between`` names the two pieces it joins."""

    a: Point
    b: Point
    between: tuple[str, str] = ("", "")

    @property
    def length(self) -> float:
        return _dist(self.a, self.b)

    def transformed(self, fn) -> "Fold":
        return Fold(fn(self.a), fn(self.b), self.between)


@dataclass(frozen=True)
class Folded:
    """The solid a net folds into, rebuilt in 3D from the net's own points."""

    apex: tuple[float, float, float]
    corners: tuple[tuple[float, float, float], ...]  # the base corners, in order around
    closure: float  # mm: how far the glued edges miss each other (0 for a true net)

    @property
    def height(self) -> float:
        """Distance from the apex to the plane of the base corners."""
        c = self.corners
        n = _cross(_sub3(c[1], c[0]), _sub3(c[2], c[0]))
        return abs(_dot(_sub3(self.apex, c[0]), n)) / _norm(n)

    @property
    def base_edges(self) -> list[float]:
        c = self.corners
        return [_norm(_sub3(c[(i + 1) % len(c)], c[i])) for i in range(len(c))]

    @property
    def diagonals(self) -> tuple[float, float]:
        c = self.corners
        return _norm(_sub3(c[2], c[0])), _norm(_sub3(c[3], c[1]))

    @property
    def lateral_edges(self) -> list[float]:
        return [_norm(_sub3(self.apex, p)) for p in self.corners]


@dataclass(frozen=True)
class Net:
    """A flat layout of a pyramid: faces, glue tabs, fold lines and the cut outline."""

    pyramid: SquarePyramid
    layout: str  # "fan" or "cross"
    faces: tuple[Face, ...]  # the four sides, in order around the pyramid
    base: Face | None
    tabs: tuple[Face, ...]
    folds: tuple[Fold, ...]
    outline: tuple[Point, ...]  # closed polygon: cut along it
    apex: Point | None = None  # the shared apex (fan layout)

    # ---- measures
    @property
    def bbox(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.outline]
        ys = [p[1] for p in self.outline]
        return min(xs), min(ys), max(xs), max(ys)

    @property
    def width(self) -> float:
        x0, _, x1, _ = self.bbox
        return x1 - x0

    @property
    def height(self) -> float:
        _, y0, _, y1 = self.bbox
        return y1 - y0

    @property
    def area(self) -> float:
        """Area inside the cut outline, mm²."""
        return abs(_shoelace(self.outline))

    @property
    def pieces(self) -> tuple[Face, ...]:
        return self.faces + ((self.base,) if self.base else ()) + self.tabs

    # ---- placing
    def transformed(self, fn) -> "Net":
        return Net(self.pyramid, self.layout, tuple(f.transformed(fn) for f in self.faces),
                   self.base.transformed(fn) if self.base else None, tuple(t.transformed(fn) for t in self.tabs),
                   tuple(f.transformed(fn) for f in self.folds), tuple(fn(p) for p in self.outline),
                   fn(self.apex) if self.apex else None)

    def moved(self, dx: float, dy: float) -> "Net":
        return self.transformed(lambda p: (p[0] + dx, p[1] + dy))

    def rotated(self, degrees: float, about: Point = (0.0, 0.0)) -> "Net":
        c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        ox, oy = about

        def fn(p):
            x, y = p[0] - ox, p[1] - oy
            return (ox + x * c - y * s, oy + x * s + y * c)

        return self.transformed(fn)

    def centered(self, cx: float, cy: float) -> "Net":
        """Moved so that its bounding box is centred on (cx, cy)."""
        x0, y0, x1, y1 = self.bbox
        return self.moved(cx - (x0 + x1) / 2, cy - (y0 + y1) / 2)

    def fitted(self, width: float, height: float, margin: float = 0.0) -> "Net":
        """Centred in a ``width`` x ``height`` box; ValueError if it does not fit with ``margin``."""
        if self.width + 2 * margin > width + 1e-6 or self.height + 2 * margin > height + 1e-6:
            raise ValueError(f"a {self.width:.1f} x {self.height:.1f} mm net does not fit a {width:g} x {height:g} mm "
                             f"box with {margin:g} mm margins")
        return self.centered(width / 2, height / 2)

    def tightest(self, step: float = 0.5) -> "Net":
        """Rotated to the smallest bounding-box area (ties: the wider box), moved to the origin;
        ``step``: degrees between the turns tried (at least ``LEAST_STEP``)."""
        step = turn_step(step)
        best = None
        a = 0.0
        while a < 180.0:
            r = self.rotated(a)
            key = (round(r.width * r.height, 3), -r.width)
            if best is None or key < best[0]:
                best = (key, r)
            a += step
        r = best[1]
        x0, y0, _, _ = r.bbox
        return r.moved(-x0, -y0)

    # ---- drawing helpers
    def outline_path(self) -> str:
        return path(self.outline)

    # ---- folding
    def fold(self) -> Folded:
        """Fold the net up and report the solid, from the net's points alone."""
        if self.layout == "fan":
            return _fold_fan(self)
        return _fold_cross(self)


# --------------------------------------------------------------------------- layouts
def tab_depth(p: SquarePyramid) -> float:
    """The default glue tab depth for a pyramid (mm)."""
    return max(TAB_MIN, min(TAB_MAX, p.base * TAB_FRACTION))


def glue_tab(a: Point, b: Point, depth: float, angle_a: float = 45.0, angle_b: float = 45.0,
             away_from: Point | None = None) -> tuple[Point, Point, Point, Point]:
    """A trapezoid glue tab on edge a-b, ``depth`` mm deep, on the side away from ``away_from``.

    ``angle_a`` and ``angle_b`` (degrees) are the tab's angles at a and b: keep
    each smaller than the angle of the face it is glued under, so the tab stays
    hidden.  Returns (a, a', b', b) where a' and b' are the outer corners.
    """
    ux = _unit(_sub(b, a))
    n = (ux[1], -ux[0])
    if away_from is not None and _dot2(n, _sub(away_from, _mid(a, b))) > 0:
        n = (-n[0], -n[1])
    length = _dist(a, b)
    inset_a = depth / math.tan(math.radians(angle_a))
    inset_b = depth / math.tan(math.radians(angle_b))
    if inset_a + inset_b > length - 0.5:
        scale = (length - 0.5) / (inset_a + inset_b)
        depth *= scale
        inset_a *= scale
        inset_b *= scale
    a2 = (a[0] + n[0] * depth + ux[0] * inset_a, a[1] + n[1] * depth + ux[1] * inset_a)
    b2 = (b[0] + n[0] * depth - ux[0] * inset_b, b[1] + n[1] * depth - ux[1] * inset_b)
    return a, a2, b2, b


def fan_net(p: SquarePyramid, tab: float | None = None, base: bool = False) -> Net:
    """The four faces side by side around the apex, symmetric about the vertical
    through the apex (apex at the top, at the origin); a glue tab on the last
    face's free edge.  ``base=True`` hangs the square base from the second face,
    with glue tabs on its three free edges (a closed pyramid)."""
    tab = tab_depth(p) if tab is None else tab
    e = p.lateral_edge
    half = math.radians(p.apex_angle)
    apex = (0.0, 0.0)
    # base corners V0..V4 on a circle of radius e around the apex, fanning downwards
    start = math.pi / 2 + 2 * half  # V0 on the left, measured with y down
    corners = [(e * math.cos(start - i * half), e * math.sin(start - i * half)) for i in range(5)]
    faces = tuple(Face((corners[i], corners[i + 1], apex), "face", i) for i in range(4))
    folds = [Fold(apex, corners[i], (f"face{i - 1}", f"face{i}")) for i in (1, 2, 3)]
    # the seam tab on the free edge of the last face, A-V4; it goes under face 0
    inner_angle = p.apex_angle * 0.75
    seam = glue_tab(corners[4], apex, tab, angle_a=min(45.0, p.base_angle * 0.75), angle_b=inner_angle,
                    away_from=faces[3].centroid)
    tabs = [Face(seam, "tab", 0)]
    folds.append(Fold(apex, corners[4], ("face3", "tab0")))
    base_face = None
    outline: list[Point] = [apex, corners[0], corners[1]]
    if base:
        # the square hangs below face 1 (corners V1-V2), away from the apex
        v1, v2 = corners[1], corners[2]
        ux = _unit(_sub(v2, v1))
        n = (ux[1], -ux[0])
        if _dot2(n, _sub(apex, v1)) > 0:
            n = (-n[0], -n[1])
        q1 = (v1[0] + n[0] * p.base, v1[1] + n[1] * p.base)
        q2 = (v2[0] + n[0] * p.base, v2[1] + n[1] * p.base)
        # base as seen from outside the solid: corners in the order of the face above it
        base_face = Face((v2, v1, q1, q2), "base", 0)
        folds.append(Fold(v1, v2, ("face1", "base")))
        centre = _mid(q1, v2)
        t1 = glue_tab(v1, q1, tab, away_from=centre)
        t2 = glue_tab(q1, q2, tab, away_from=centre)
        t3 = glue_tab(q2, v2, tab, away_from=centre)
        for i, t in enumerate((t1, t2, t3), start=1):
            tabs.append(Face(t, "tab", i))
            folds.append(Fold(t[0], t[3], ("base", f"tab{i}")))
        outline += [t1[1], t1[2], q1, t2[1], t2[2], q2, t3[1], t3[2], v2]
    else:
        outline.append(corners[2])
    outline += [corners[3], corners[4], seam[1], seam[2]]
    return Net(p, "fan", faces, base_face, tuple(tabs), tuple(folds), tuple(_dedupe(outline)), apex)


def cross_net(p: SquarePyramid, tab: float | None = None) -> Net:
    """The square base in the middle (centred on the origin), a face on each
    edge, and a glue tab on the right-hand side edge of every face."""
    tab = tab_depth(p) if tab is None else tab
    h = p.base / 2
    sq = [(-h, h), (h, h), (h, -h), (-h, -h)]  # bottom-left, bottom-right, top-right, top-left (y down)
    faces = []
    tabs = []
    folds = []
    outline: list[Point] = []
    for i in range(4):
        a, b = sq[i], sq[(i + 1) % 4]  # edge, counter-clockwise on screen
        mid = _mid(a, b)
        out = _unit(mid)  # from the centre outwards
        apex = (mid[0] + out[0] * p.slant, mid[1] + out[1] * p.slant)
        # seen from outside, the face's base runs from b to a (left to right) with the apex on top
        face = Face((b, a, apex), "face", i)
        faces.append(face)
        folds.append(Fold(a, b, ("base", f"face{i}")))
        t = glue_tab(a, apex, tab, angle_a=min(45.0, p.base_angle * 0.75), angle_b=p.apex_angle * 0.75,
                     away_from=face.centroid)
        tabs.append(Face(t, "tab", i))
        folds.append(Fold(a, apex, (f"face{i}", f"tab{i}")))
        outline += [a, t[1], t[2], apex]
    base_face = Face(tuple(sq), "base", 0)
    return Net(p, "cross", tuple(faces), base_face, tuple(tabs), tuple(folds), tuple(_dedupe(outline)), None)


# --------------------------------------------------------------------------- folding
def _fold_fan(net: Net) -> Folded:
    return fold_fan(net.apex, [net.faces[0].p0] + [f.p1 for f in net.faces])


def fold_fan(apex: Point, corners) -> Folded:
    """Fold a fan of triangles sharing ``apex`` (flat points; ``corners`` are the
    base corners V0..Vn in order, V0 and Vn being the same corner once glued).

    Every fold turns by the same angle (the solid is symmetric); the angle is
    found at which the last free edge meets the first.  Nothing about the
    pyramid is assumed: the solid comes from the flat points alone."""
    corners = few("fold_fan()", "corners", corners, MOST_FACES + 1)
    vec = [(q[0] - apex[0], q[1] - apex[1], 0.0) for q in corners]
    n = len(vec) - 1

    def chain(phi: float) -> list[tuple[float, float, float]]:
        # rotation of each face's flat coordinates into 3D; the first face stays in the plane
        rot = _identity()
        out = [vec[0], vec[1]]
        for i in range(1, n):
            rot = _matmul(rot, _axis_rotation(_unit3(vec[i]), phi))
            out.append(_apply(rot, vec[i + 1]))
        return out

    def gap(phi: float) -> float:
        c = chain(phi)
        return _norm(_sub3(c[n], c[0]))

    phi = _minimise(gap, [k * math.pi / 720 for k in range(-719, 720) if k])
    c = chain(phi)
    return Folded((0.0, 0.0, 0.0), tuple(c[:n]), gap(phi))


def _minimise(fn, grid: list[float]) -> float:
    """The argument of the smallest value of ``fn``: a grid search, then golden sections."""
    step = abs(grid[1] - grid[0])
    best = min(grid, key=fn)
    lo, hi = best - step, best + step
    for _ in range(80):
        m1 = lo + (hi - lo) * 0.382
        m2 = lo + (hi - lo) * 0.618
        if fn(m1) < fn(m2):
            hi = m2
        else:
            lo = m1
    return (lo + hi) / 2


def _fold_cross(net: Net) -> Folded:
    return fold_cross(net.base.points, [f.points for f in net.faces])


def fold_cross(base, faces) -> Folded:
    """Fold a cross: ``base`` is the flat base polygon, ``faces`` the triangles
    (base corner, base corner, apex) standing on its edges.  Each face turns up
    about its base edge by the same angle; the angle is found at which the
    apexes meet."""
    faces = few("fold_cross()", "faces", faces, MOST_FACES)
    corners = tuple((p[0], p[1], 0.0) for p in base)

    def apexes(theta: float):
        out = []
        for b, a, apex in faces:
            axis = _unit3((a[0] - b[0], a[1] - b[1], 0.0))
            v = (apex[0] - b[0], apex[1] - b[1], 0.0)
            r = _apply(_axis_rotation(axis, theta), v)
            out.append((b[0] + r[0], b[1] + r[1], r[2]))
        return out

    def spread(theta: float) -> float:
        ps = apexes(theta)
        return max(_norm(_sub3(ps[i], ps[j])) for i in range(len(ps)) for j in range(i + 1, len(ps)))

    theta = _minimise(spread, [k * math.pi / 720 for k in range(-719, 720) if k])
    ps = apexes(theta)
    apex = tuple(sum(p[k] for p in ps) / len(ps) for k in range(3))
    return Folded(apex, corners, spread(theta))


# --------------------------------------------------------------------------- SVG helpers
def svg_points(points) -> str:
    """``points`` as an SVG ``points`` attribute: "x,y x,y ..."."""
    return " ".join(f"{x:.3f},{y:.3f}" for x, y in points)


def path(points, closed: bool = True) -> str:
    """``points`` as an SVG path: "M x,y L ... Z"."""
    pts = list(points)
    d = f"M{pts[0][0]:.3f},{pts[0][1]:.3f}" + "".join(f" L{x:.3f},{y:.3f}" for x, y in pts[1:])
    return d + (" Z" if closed else "")


def polar(cx: float, cy: float, r: float, degrees: float) -> Point:
    """The point ``r`` mm from (cx, cy) at ``degrees`` (0 = right, clockwise on the page, y down)."""
    t = math.radians(degrees)
    return (cx + r * math.cos(t), cy + r * math.sin(t))


def distance(a: Point, b: Point) -> float:
    return _dist(a, b)


def distance_to_line(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the line through ``a`` and ``b``."""
    ux = _unit(_sub(b, a))
    v = _sub(p, a)
    return abs(v[0] * ux[1] - v[1] * ux[0])


def direction(a: Point, b: Point, upright: bool = True) -> float:
    """The angle (degrees) of the line from ``a`` to ``b``, for rotating text along it;
    with ``upright`` turned by 180 degrees when needed so the text never reads upside down."""
    deg = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    if upright:
        if deg > 90:
            deg -= 180
        elif deg <= -90:
            deg += 180
    return deg


def angle_at(p: Point, a: Point, b: Point) -> float:
    """The angle a-p-b at ``p``, degrees."""
    u, v = _unit(_sub(a, p)), _unit(_sub(b, p))
    return math.degrees(math.acos(max(-1.0, min(1.0, _dot2(u, v)))))


# --------------------------------------------------------------------------- vector bits
def _sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def _mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _unit(v: Point) -> Point:
    n = math.hypot(*v)
    return (v[0] / n, v[1] / n)


def _dot2(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _shoelace(pts) -> float:
    s = 0.0
    for i, p in enumerate(pts):
        q = pts[(i + 1) % len(pts)]
        s += p[0] * q[1] - q[0] * p[1]
    return s / 2


def _dedupe(pts: list[Point]) -> list[Point]:
    out: list[Point] = []
    for p in pts:
        if not out or _dist(out[-1], p) > 1e-9:
            out.append(p)
    if len(out) > 1 and _dist(out[0], out[-1]) <= 1e-9:
        out.pop()
    return out


def _dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b))


def _norm(a) -> float:
    return math.sqrt(_dot(a, a))


def _sub3(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _unit3(v):
    n = _norm(v)
    return (v[0] / n, v[1] / n, v[2] / n)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _identity():
    return ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def _axis_rotation(u, theta):
    """Rodrigues: rotation by ``theta`` about the unit axis ``u``."""
    x, y, z = u
    c, s = math.cos(theta), math.sin(theta)
    t = 1 - c
    return ((t * x * x + c, t * x * y - s * z, t * x * z + s * y),
            (t * x * y + s * z, t * y * y + c, t * y * z - s * x),
            (t * x * z - s * y, t * y * z + s * x, t * z * z + c))


def _matmul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def _apply(m, v):
    return tuple(sum(m[i][k] * v[k] for k in range(3)) for i in range(3))


__all__ = ["SquarePyramid", "Face", "Fold", "Folded", "Net", "pyramid", "fan_net", "cross_net", "fold_fan", "fold_cross", "glue_tab",
           "tab_depth", "svg_points", "path", "polar", "distance", "distance_to_line", "direction", "angle_at"]
