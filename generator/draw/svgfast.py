"""SVG text -> display list, quickly, for the SVG the templates write.

svglib reads any SVG into a reportlab drawing, and drawing that into a PDF
walks it again; most of the time of a cold build used to go there.  The
templates write a small part of SVG: shapes, paths, single-line text and
groups with transforms, styled by presentation attributes.  ``to_display_list``
reads that part and writes down directly the canvas calls that drawing
svglib's drawing of it makes (``displaylist.record``): the shapes svglib
builds, with the attributes it sets in the order it sets them, drawn the way
reportlab's PDF renderer draws them.  Anything outside that part (a style
sheet or ``style`` attribute, gradients, clipping, ``use``, nested ``svg``,
``tspan``, units other than plain numbers, a font family it does not know, an
XML declaration or doctype ...) makes it return None, and the SVG goes to
svglib as before.

Elliptical arcs and quadratic curves become cubic curves with the usual
formulas (the SVG implementation notes); the curves are those svglib draws,
to rounding.  Nothing here imports reportlab's graphics package (nor, with
it, platypus).
"""

from __future__ import annotations

import re
from xml.etree.ElementTree import ParseError, fromstring

from reportlab.graphics.transform import mmult, rotate, scale, translate

from ..art.curves import arc, quad_to_cubic
from ..art.fonts import DEFAULT_FONT, FAMILIES
from .displaylist import STATE_CALLS, make, path_calls, poly_calls
from .svgvalues import Unsupported, color, length, local, nudge, path_commands, picture_element, rgb

#: svglib's user unit: one CSS pixel is 0.75 pt.
PX_TO_PT = 0.75
#: svglib's default font size, in points.
DEFAULT_FONT_SIZE_PT = 12
_MOVE, _LINE, _CURVE, _CLOSE = 0, 1, 2, 3  # reportlab's path operators
_IDENTITY = (1, 0, 0, 1, 0, 0)
_FLIP = (1, 0, 0, -1, 0, 0)  # svglib's text group: scale(1, -1)
_BLACK = ("rgb", 0.0, 0.0, 0.0, 1)

#: The calls reportlab's renderer makes before drawing anything (its defaults,
#: with the embedded default font; ``fonts.graphics_default_font``).
PROLOGUE = (
    ("transform", (1, 0, 0, 1, 0, 0), {}), ("setStrokeColor", (_BLACK,), {}), ("setLineWidth", (1,), {}),
    ("setLineCap", (0,), {}), ("setLineJoin", (0,), {}), ("setDash", (), {}), ("setFillOverprint", (False,), {}),
    ("setStrokeOverprint", (False,), {}), ("setOverprintMask", (0,), {}), ("setFillColor", (_BLACK,), {}),
    ("=_fillMode", (0,), {}), ("setFont", (DEFAULT_FONT, 10), {}), ("setFont", (DEFAULT_FONT, 10), {}),
)

#: Presentation attributes, inherited from the enclosing elements.
STYLE = frozenset({"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
                   "stroke-linejoin", "stroke-linecap", "stroke-dasharray", "font-family", "font-weight",
                   "font-size", "font-style", "text-anchor"})
#: Attributes svglib reads nothing from for these elements (no style sheet, no ``use``).
IGNORED = frozenset({"id", "class", "opacity", "stroke-miterlimit", "version", "baseProfile", "data-pnp-fonts"})
#: Each element's own attributes.
GEOMETRY = {
    "svg": frozenset({"width", "height", "viewBox"}),
    "g": frozenset({"transform"}),
    "rect": frozenset({"x", "y", "width", "height", "rx", "ry", "transform"}),
    "circle": frozenset({"cx", "cy", "r", "transform"}),
    "ellipse": frozenset({"cx", "cy", "rx", "ry", "transform"}),
    "line": frozenset({"x1", "y1", "x2", "y2", "transform"}),
    "polygon": frozenset({"points", "transform"}),
    "path": frozenset({"d", "transform"}),
    "text": frozenset({"x", "y", "transform"}),
    "image": frozenset({"x", "y", "width", "height", "href", "preserveAspectRatio", "data-pnp-picture", "transform"}),
}
#: Elements svglib leaves out of the drawing.
SILENT = frozenset({"title", "desc", "metadata"})

_TRANSFORM = re.compile(r"\s*(matrix|translate|scale|rotate)\s*\(([^()]*)\)\s*,?")
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
_CAPS = {"butt": 0, "round": 1, "square": 2}


def to_display_list(svg: str):
    """The display list (``displaylist.DisplayList``) of an SVG text, or None when
    it uses anything this reader leaves to svglib."""
    if "<!" in svg or "<?" in svg or "!important" in svg:
        return None  # doctypes, entities, comments, CDATA, declarations: svglib's parser decides
    try:
        root = fromstring(svg)
    except (ParseError, ValueError):
        return None
    try:
        width, height, ops = _Emitter().calls(root)
    except (Unsupported, ValueError, TypeError, ZeroDivisionError, OverflowError, KeyError, IndexError):
        return None
    return make(width, height, ops)


class _Emitter:
    """Reads the element tree the way svglib does and writes down the calls of drawing the result."""

    def __init__(self):
        self.ops: list = []

    def calls(self, root) -> tuple[float, float, tuple]:
        """(width, height, calls) of the SVG document ``root``."""
        if local(root.tag) != "svg":
            raise Unsupported("not an svg element")
        style = self._style(root, {}, "svg")
        box = root.get("viewBox")
        if box is None:
            raise Unsupported("no viewBox")
        values = [float(v) for v in box.replace(",", " ").split()]
        if len(values) != 4:
            raise Unsupported("viewBox")
        bx, by, bw, bh = values
        if not bw or not bh:
            raise Unsupported("empty viewBox")
        width = self._outer(root.get("width", ""), bw)
        height = self._outer(root.get("height", ""), bh)
        # the viewBox scaled to the width and height, centred, y turned up (xMidYMid meet)
        x_scale = (width * PX_TO_PT) / bw
        y_scale = (height * PX_TO_PT) / bh
        uniform = min(x_scale, y_scale)
        tx = (width * PX_TO_PT - bw * uniform) / 2
        ty = (height * PX_TO_PT - bh * uniform) / 2
        transform = _IDENTITY
        if tx or ty:
            transform = mmult(transform, translate(tx, ty))
        transform = mmult(transform, scale(uniform, uniform * -1))
        transform = mmult(transform, translate(0 - bx, -bh - by))
        ops = self.ops
        ops.append(("saveState", (), {}))
        ops.extend(PROLOGUE)
        ops.append(("saveState", (), {}))  # the drawing
        ops.append(("transform", _IDENTITY, {}))
        self._group(transform, lambda: self._children(root, style))
        ops.append(("restoreState", (), {}))
        ops.append(("restoreState", (), {}))
        return float(width * PX_TO_PT), float(height * PX_TO_PT), tuple(ops)

    def _group(self, transform, body) -> None:
        ops = self.ops
        ops.append(("saveState", (), {}))
        ops.append(("transform", tuple(transform), {}))
        body()
        ops.append(("restoreState", (), {}))

    @staticmethod
    def _outer(text: str, default: float) -> float:
        """The root's width or height in user units (any unit reportlab knows)."""
        text = text.replace(",", " ").strip()
        if not text:
            return default
        if " " in text:
            raise Unsupported(f"size {text!r}")
        try:
            return float(text)
        except ValueError:
            pass
        if text.endswith(("%", "em", "ex", "ch", "vw", "vh", "vmin", "vmax", "q", "pc")):
            raise Unsupported(f"size {text!r}")
        if text.endswith("px"):
            return float(text[:-2])
        if text.endswith("pt"):
            return float(text[:-2]) * (96 / 72)
        from reportlab.lib.units import toLength

        return toLength(text) / PX_TO_PT

    @staticmethod
    def _style(element, inherited: dict, name: str) -> dict:
        own = GEOMETRY[name]
        style = inherited
        for key, value in element.attrib.items():
            if key in STYLE:
                value = value.strip()
                if value and value != "inherit":
                    if style is inherited:
                        style = dict(inherited)
                    style[key] = value
            elif key not in own and key not in IGNORED and not key.startswith("data-"):  # (data-*: for tests and tools)
                raise Unsupported(f"attribute {key!r} on <{name}>")
        return style

    def _children(self, element, style: dict) -> None:
        for child in element:
            name = local(child.tag)
            if name in SILENT:
                continue
            if name not in GEOMETRY or name == "svg":
                raise Unsupported(f"element <{name}>")
            child_style = self._style(child, style, name)
            text = child.get("transform")
            transform = self._transform(text, _IDENTITY) if text else _IDENTITY
            if name == "g":
                self._group(transform, lambda c=child, st=child_style: self._children(c, st))
                continue
            if len(child):
                raise Unsupported(f"children of <{name}>")
            draw = getattr(self, "_" + name)(child, child_style)  # what to draw, or None
            if draw is None:
                continue
            inner, body = draw
            if inner is not None:  # svglib's own group (paths, text): the transform goes in front of its own
                self._group(mmult(transform, inner) if text else inner, body)
            elif text:
                self._group(mmult(transform, _IDENTITY), body)
            else:
                body()

    @staticmethod
    def _transform(text: str, matrix) -> tuple:
        pos, text = 0, text.strip()
        while pos < len(text):
            m = _TRANSFORM.match(text, pos)
            if m is None:
                raise Unsupported(f"transform {text!r}")
            pos = m.end()
            args = m.group(2).strip().replace(",", " ").split()
            if not args:
                raise Unsupported(f"transform {text!r}")
            values = [float(a) for a in args]
            op = m.group(1)
            if op == "scale" and len(values) in (1, 2):
                matrix = mmult(matrix, scale(values[0], values[-1]))
            elif op == "translate" and len(values) in (1, 2):
                matrix = mmult(matrix, translate(values[0], values[1] if len(values) == 2 else 0))
            elif op == "rotate" and len(values) == 1:
                matrix = mmult(matrix, rotate(values[0]))
            elif op == "rotate" and len(values) == 3:
                angle, cx, cy = values
                matrix = mmult(matrix, translate(cx, cy))
                matrix = mmult(matrix, rotate(angle))
                matrix = mmult(matrix, translate(-cx, -cy))
            elif op == "matrix" and len(values) == 6:
                matrix = mmult(matrix, tuple(values))
            else:
                raise Unsupported(f"transform {text!r}")
        return matrix

    # ------------------------------------------------------------ presentation
    @staticmethod
    def _paint(style: dict) -> dict:
        """svglib's applyStyleOnShape: each attribute (inherited, else its default) converted, in its order."""
        get = style.get
        out: dict = {}
        fill = color(get("fill", "black"))
        opacity = get("fill-opacity")
        if opacity is None:
            opacity = fill[3] if fill is not None and fill[3] != 1 else 1
        out["fillColor"] = fill
        out["fillOpacity"] = float(opacity)
        out["fillMode"] = {"nonzero": 1, "evenodd": 0}.get(get("fill-rule", "nonzero"), "")
        stroke = color(get("stroke", "none"))
        out["strokeColor"] = stroke
        out["strokeWidth"] = length(get("stroke-width", "1"))
        opacity = get("stroke-opacity")
        if opacity is None:
            opacity = stroke[3] if stroke is not None and stroke[3] != 1 else 1
        out["strokeOpacity"] = float(opacity)
        join = get("stroke-linejoin")
        if join is not None:
            if join not in _JOINS:
                raise Unsupported(f"stroke-linejoin {join!r}")
            out["strokeLineJoin"] = _JOINS[join]
        cap = get("stroke-linecap")
        if cap is not None:
            if cap not in _CAPS:
                raise Unsupported(f"stroke-linecap {cap!r}")
            out["strokeLineCap"] = _CAPS[cap]
        dashes = get("stroke-dasharray")
        if dashes is not None and dashes != "none":
            parts = dashes.replace(",", " ").split()
            if not parts:
                raise Unsupported(f"stroke-dasharray {dashes!r}")
            out["strokeDashArray"] = [length(part) for part in parts]
        if fill is not None:
            fill[3] = out["fillOpacity"]
        if out["strokeWidth"] == 0:
            out["strokeColor"] = None
        return out

    def _state(self, paint: dict, order: tuple, text: bool = False) -> tuple[int, int]:
        """The calls for a shape's properties, in the order of its attributes; (stroke, fill) to draw with."""
        ops = self.ops
        stroke = fill = 0
        for key in order:
            if key not in paint:
                continue
            value = paint[key]
            call = STATE_CALLS.get(key)
            if call:
                ops.append((call, (value,), {}))
            elif key == "fillColor":
                if value is not None:
                    fill = 1
                    ops.append(("setFillColor", (rgb(value),), {}))
            elif key == "fillOpacity":
                ops.append(("setFillAlpha", (value,), {}))
            elif key == "strokeColor":
                if value is not None:
                    stroke = 1
                    ops.append(("setStrokeColor", (rgb(value),), {}))
            elif key == "strokeDashArray":
                ops.append(("setDash", (value, 0), {}) if value else ("setDash", (), {}))
            elif key == "strokeOpacity":
                ops.append(("setStrokeAlpha", (value,), {}))
            elif key == "font":
                ops.append(("setFont", value, {}))
                ops.append(("setFont", value, {}))
        return stroke, fill

    #: A solid shape's attributes in reportlab's order (its constructor's, then svglib's fill rule).
    SOLID = ("fillColor", "fillOpacity", "strokeColor", "strokeWidth", "strokeLineCap", "strokeLineJoin",
             "strokeDashArray", "strokeOpacity", "fillMode")
    #: A line's: a line shape's own, then the fill svglib gives it.
    LINE = ("strokeColor", "strokeWidth", "strokeLineCap", "strokeLineJoin", "strokeDashArray", "strokeOpacity",
            "fillColor", "fillOpacity", "fillMode")
    #: A string's: font, fill colour, then whatever svglib adds, in the order it adds it.
    STRING = ("font", "fillColor", "fillOpacity", "fillMode", "strokeColor", "strokeWidth", "strokeOpacity",
              "strokeLineJoin", "strokeLineCap", "strokeDashArray")

    def _shape(self, paint: dict, order: tuple, draw) -> None:
        """One node: save, its properties, its drawing, restore."""
        ops = self.ops
        ops.append(("saveState", (), {}))
        stroke, fill = self._state(paint, order)
        draw(stroke, fill)
        ops.append(("restoreState", (), {}))

    @classmethod
    def _solid(cls, paint: dict) -> dict:
        """A solid shape's properties: the constructor's defaults, then svglib's."""
        return {"strokeLineCap": 0, "strokeLineJoin": 0, "strokeDashArray": None, **paint}

    # ------------------------------------------------------------ shapes
    def _rect(self, el, style):
        get = el.get
        x, y = length(get("x", "")), length(get("y", ""))
        width, height = length(get("width", "")), length(get("height", ""))
        rx, ry = length(get("rx", "")), length(get("ry", ""))
        if rx > width / 2:
            rx = width / 2
        if ry > height / 2:
            ry = height / 2
        if rx and not ry:
            ry = rx
        elif ry and not rx:
            rx = ry
        paint = self._solid(self._paint(style))
        ops = self.ops

        def draw(stroke, fill):
            if rx == ry == 0:
                ops.append(("rect", (x, y, width, height), {"stroke": stroke, "fill": fill}))
            else:
                ops.append(("roundRect", (x, y, width, height, rx), {"fill": fill, "stroke": stroke}))
        return None, lambda: self._shape(paint, self.SOLID, draw)

    def _circle(self, el, style):
        get = el.get
        cx, cy, r = length(get("cx", "")), length(get("cy", "")), length(get("r", ""))
        paint = self._solid(self._paint(style))
        ops = self.ops
        return None, lambda: self._shape(paint, self.SOLID, lambda stroke, fill: ops.append(
            ("circle", (cx, cy, r), {"fill": fill, "stroke": stroke})))

    def _ellipse(self, el, style):
        get = el.get
        cx, cy = length(get("cx", "")), length(get("cy", ""))
        rx, ry = length(get("rx", "")), length(get("ry", ""))
        paint = self._solid(self._paint(style))
        ops = self.ops
        return None, lambda: self._shape(paint, self.SOLID, lambda stroke, fill: ops.append(
            ("ellipse", (cx - rx, cy - ry, cx + rx, cy + ry), {"fill": fill, "stroke": stroke})))

    def _line(self, el, style):
        get = el.get
        points = [length(get(a, "")) for a in ("x1", "y1", "x2", "y2")]
        nudge(points)
        paint = self._solid(self._paint(style))
        ops = self.ops

        def draw(stroke, fill):
            if stroke:
                ops.append(("line", tuple(points), {}))
        return None, lambda: self._shape(paint, self.LINE, draw)

    def _polygon(self, el, style):
        points = [length(p) for p in el.get("points", "").replace(",", " ").split()]
        if len(points) % 2 or not points:
            return None
        nudge(points)
        paint = self._solid(self._paint(style))
        calls = tuple(poly_calls(points, True))
        ops = self.ops
        return None, lambda: self._shape(paint, self.SOLID, lambda stroke, fill: ops.append(
            ("*drawPath", calls, {"stroke": stroke, "fill": fill})))

    def _path(self, el, style):
        d = el.get("d")
        if not d:
            return None
        commands = path_commands(d)
        if not commands or commands[0][0] not in "Mm":
            raise Unsupported("path data that does not start with a move")
        points: list[float] = []
        operators: list[int] = []
        unclosed: list[int] = []
        start: list[float] = []
        last = ""

        def move(x, y):
            points.extend((x, y))
            operators.append(_MOVE)

        def line(x, y):
            points.extend((x, y))
            operators.append(_LINE)

        def curve(*xy):
            points.extend(xy)
            operators.append(_CURVE)

        for i, (op, n) in enumerate(commands):
            if op in "Mm" and i > 0 and operators[-1] != _CLOSE:
                unclosed.append(len(operators))
            if op == "M":
                move(*n)
                start = points[-2:]
            elif op == "m":
                if len(points) >= 2:
                    x0, y0 = start if last in ("Z", "z") else points[-2:]
                    move(x0 + n[0], y0 + n[1])
                else:
                    move(*n)
                start = points[-2:]
            elif op == "L":
                line(*n)
            elif op == "l":
                line(points[-2] + n[0], points[-1] + n[1])
            elif op == "H":
                line(n[0], points[-1])
            elif op == "V":
                line(points[-2], n[0])
            elif op == "h":
                line(points[-2] + n[0], points[-1])
            elif op == "v":
                line(points[-2], points[-1] + n[0])
            elif op == "C":
                curve(*n)
            elif op == "c":
                x0, y0 = points[-2:]
                curve(x0 + n[0], y0 + n[1], x0 + n[2], y0 + n[3], x0 + n[4], y0 + n[5])
            elif op in "Qq":
                x0, y0 = points[-2:]
                qx, qy, xn, yn = n
                if op == "q":
                    qx, qy, xn, yn = x0 + qx, y0 + qy, x0 + xn, y0 + yn
                curve(*quad_to_cubic(x0, y0, qx, qy, xn, yn), xn, yn)
            elif op in "Aa":
                rx, ry, phi, large, sweep, xn, yn = n
                x0, y0 = points[-2:]
                if op == "a":
                    xn += x0
                    yn += y0
                if abs(rx) <= 1e-10 or abs(ry) <= 1e-10:
                    line(xn, yn)
                else:
                    for c in arc(x0, y0, rx, ry, phi, int(large), int(sweep), xn, yn):
                        curve(*c)
            else:  # Z, z
                operators.append(_CLOSE)
            last = op
        paint = self._solid(self._paint(style))
        if operators[-1] != _CLOSE:
            unclosed.append(len(operators))
        closed_copy = None
        if unclosed and paint["fillColor"] is not None:
            # svglib fills an open path through a closed copy drawn without a stroke
            closed_ops = list(operators)
            for at in reversed(unclosed):
                closed_ops.insert(at, _CLOSE)
            closed_copy = ({**paint, "strokeColor": None, "strokeWidth": 0}, closed_ops)
            paint = {**paint, "fillColor": None}
        ops = self.ops

        def path(paint_, operators_):
            mode = paint_["fillMode"]

            def draw(stroke, fill):
                calls, moves, closes = path_calls(operators_, points)
                if moves != closes:  # reportlab does not fill an open path
                    fill = 0
                ops.append(("*drawPath", tuple(calls), {"fill": fill, "stroke": stroke, "fillMode": mode}))
            self._shape(paint_, self.SOLID, draw)

        def body():
            if closed_copy is not None:
                path(*closed_copy)
            path(paint, operators)
        return _IDENTITY, body

    def _image(self, el, style):
        """A picture a design places (``placement.image_svg``): its own calls, as svglib's reading gives them."""
        spec = el.get("data-pnp-picture")
        if spec is None:
            raise Unsupported("an image that is not a placed picture")
        _, found = picture_element(el.get)
        ops = self.ops
        return None, lambda: ops.extend(found)

    def _text(self, el, style):
        get = el.get
        text = el.text
        if text:
            text = text.replace("\r\n", " ").replace("\n", " ").replace("\t", " ").strip()
            while "  " in text:
                text = text.replace("  ", " ")
        if not text:
            return _FLIP, lambda: None
        font = _font(style)
        size = length(style.get("font-size", f"{DEFAULT_FONT_SIZE_PT}pt"))
        x = length(get("x", "")) + 0.0
        y = -(length(get("y", "")) + 0.0 - 0.0)
        paint = self._paint(style)
        paint["font"] = (font, size)
        anchor = style.get("text-anchor", "start")
        if anchor not in ("start", "middle", "end"):
            raise Unsupported(f"text-anchor {anchor!r}")
        ops = self.ops

        def draw(stroke, fill):
            if fill:
                at = x
                if anchor != "start":
                    from reportlab.pdfbase.pdfmetrics import stringWidth

                    width = stringWidth(text, font, size, "utf8")
                    at = x - width if anchor == "end" else x - width * 0.5
                ops.append(("drawString", (at, y, text), {"mode": None}))
        return _FLIP, lambda: self._shape(paint, self.STRING, draw)


def _font(style: dict) -> str:
    family = style.get("font-family", "Helvetica")
    faces = FAMILIES.get(family)
    weight = style.get("font-weight", "normal")
    slant = style.get("font-style", "normal")
    if faces is None or weight not in ("normal", "bold") or slant not in ("normal", "italic"):
        raise Unsupported(f"font {family!r} {weight!r} {slant!r}")
    return faces[(weight == "bold") + 2 * (slant == "italic")]
