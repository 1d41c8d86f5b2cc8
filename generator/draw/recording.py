"""Recording a reportlab drawing as a display list (``displaylist.py``).

Only SVG that ``svgfast`` leaves to svglib reaches here: its drawing is
walked once (``_Walker``: the calls reportlab's PDF renderer makes for plain
shapes, worked out directly) or, for nodes the walker does not know, drawn by
reportlab's renderer onto a stand-in canvas that writes the calls down
(``_Recorder``).
"""

from __future__ import annotations

from .displaylist import (CANVAS_CALLS, PATH_CALLS, STATE_CALLS, DisplayList, Unsupported, dumps, make, path_calls,
                          poly_calls)


def _color(value):
    from reportlab.lib.colors import CMYKColor, Color

    if value is None:
        return None
    if type(value) is Color:
        return ("rgb", float(value.red), float(value.green), float(value.blue), value.alpha)
    if type(value) is CMYKColor:
        return ("cmyk", float(value.cyan), float(value.magenta), float(value.yellow), float(value.black),
                float(value.density), value.spotName, value.knockout, value.alpha)
    raise Unsupported(f"colour {type(value).__name__}")


class _Path:
    def __init__(self):
        self.ops: list = []

    def __getattr__(self, name):
        if name not in PATH_CALLS:
            raise Unsupported(f"path.{name}")

        def call(*args, **kwargs):
            self.ops.append((name, args, kwargs))
        return call


class _Marked(str):
    pass


class _MarkedSize(float):
    pass


class _Recorder:
    """Stands in for a reportlab canvas while the PDF renderer draws."""

    def __init__(self, fontname: str, fontsize: float):
        object.__setattr__(self, "ops", [])
        object.__setattr__(self, "_font", (fontname, fontsize))
        object.__setattr__(self, "_stack", [])
        object.__setattr__(self, "font_read", False)

    # The renderer reads the canvas font whenever it sets a font, and uses it
    # when a shape names only one of font and size: what it reads is marked,
    # so that setFont can tell whether the canvas's font was used.
    @property
    def _fontname(self):
        return _Marked(self._font[0])

    @property
    def _fontsize(self):
        return _MarkedSize(self._font[1])

    def __setattr__(self, name, value):
        if name == "_fillMode":
            self.ops.append(("=_fillMode", (value,), {}))
        else:
            raise Unsupported(f"canvas.{name} =")

    def saveState(self):
        self._stack.append(self._font)
        self.ops.append(("saveState", (), {}))

    def restoreState(self):
        object.__setattr__(self, "_font", self._stack.pop())
        self.ops.append(("restoreState", (), {}))

    def setFont(self, name, size, leading=None):
        if type(name) is _Marked or type(size) is _MarkedSize:
            object.__setattr__(self, "font_read", True)
            name, size = str(name), float(size)
        object.__setattr__(self, "_font", (name, size))
        self.ops.append(("setFont", (name, size) if leading is None else (name, size, leading), {}))

    def setFillColor(self, color, alpha=None):
        self.ops.append(("setFillColor", (_color(color),) if alpha is None else (_color(color), alpha), {}))

    def setStrokeColor(self, color, alpha=None):
        self.ops.append(("setStrokeColor", (_color(color),) if alpha is None else (_color(color), alpha), {}))

    def pnp_picture(self, *args):
        self.ops.append(("+picture", args, {}))

    def beginPath(self):
        return _Path()

    def drawPath(self, path, **kwargs):
        self.ops.append(("*drawPath", tuple(path.ops), kwargs))

    def clipPath(self, path, **kwargs):
        self.ops.append(("*clipPath", tuple(path.ops), kwargs))

    def __getattr__(self, name):  # only for names not defined above
        if name not in CANVAS_CALLS:
            raise Unsupported(f"canvas.{name}")

        def call(*args, **kwargs):
            self.ops.append((name, args, kwargs))
        return call


def record(drawing, fontname: str, fontsize: float) -> DisplayList | None:
    """The display list of a drawing drawn at (0, 0) on a canvas whose font is
    (``fontname``, ``fontsize``); None when it needs more than a display list holds."""
    try:
        try:
            ops, font_read = _Walker(fontname, fontsize).run(drawing)
        except _Unwalkable:  # a node the walker does not know: let reportlab's renderer draw it
            from .displaylist import render_drawing

            recorder = _Recorder(fontname, fontsize)
            render_drawing(drawing, recorder)
            ops, font_read = recorder.ops, recorder.font_read
        out = make(float(drawing.width), float(drawing.height), tuple(ops),
                   (fontname, fontsize) if font_read else None)
        dumps(out)  # refuse anything marshal cannot keep
    except (Unsupported, ValueError, TypeError, AttributeError):
        return None
    return out


class _Unwalkable(Exception):
    pass


class _Walker:
    """The calls reportlab's PDF renderer (``renderPDF.draw``) makes for a drawing
    of plain shapes, worked out directly: the same calls, arguments and order as
    recording it with ``_Recorder``, without the renderer's per-node bookkeeping.
    Any other node (images, widgets, clip paths ...) raises ``_Unwalkable``."""

    def __init__(self, fontname: str, fontsize: float):
        from reportlab import rl_config
        from reportlab.graphics import shapes
        from reportlab.lib.validators import DerivedValue

        self.shapes = shapes
        self.derived = DerivedValue
        self.base_properties = shapes.Shape.getProperties
        self.defaults = shapes.STATE_DEFAULTS
        self.sort = bool(rl_config.invariant)
        self.ops: list = []
        self.font = (fontname, fontsize)
        self.fonts: list = []
        self.font_read = False
        self.stroke = 0
        self.fill = 0
        self.text_state: list = []  # (textAnchor, fontName, fontSize) of the enclosing nodes

    def run(self, drawing):
        s = self.shapes
        if type(drawing) is not s.Drawing or getattr(drawing, "renderScale", 1.0) != 1.0 \
                or getattr(drawing, "_drawTimeCallback", None) is not None:
            raise _Unwalkable()
        defaults = dict(self.defaults)
        for k in self.defaults:
            a = "initial" + k[:1].upper() + k[1:]
            if hasattr(drawing, a):
                defaults[k] = getattr(drawing, a)
        defaults["transform"] = tuple(list(defaults["transform"])[:4]) + (0, 0)
        self.text_state.append((defaults["textAnchor"], defaults["fontName"], defaults["fontSize"]))
        self._save()
        self._apply(defaults)
        self._node(drawing)
        self._restore()
        return self.ops, self.font_read

    def _save(self):
        self.fonts.append(self.font)
        self.ops.append(("saveState", (), {}))

    def _restore(self):
        self.font = self.fonts.pop()
        self.ops.append(("restoreState", (), {}))

    def _apply(self, delta: dict) -> None:
        ops = self.ops
        for key, value in (sorted(delta.items()) if self.sort else delta.items()):
            call = STATE_CALLS.get(key)
            if call:
                ops.append((call, (value,), {}))
            elif key == "transform":
                ops.append(("transform", (value[0], value[1], value[2], value[3], value[4], value[5]), {}))
            elif key == "strokeColor":
                if value is None:
                    self.stroke = 0
                else:
                    self.stroke = 1
                    ops.append(("setStrokeColor", (_color(value),), {}))
            elif key == "strokeDashArray":
                if value:
                    if isinstance(value, (list, tuple)) and len(value) == 2 and isinstance(value[1], (tuple, list)):
                        phase, value = value[0], value[1]
                    else:
                        phase = 0
                    ops.append(("setDash", (value, phase), {}))
                else:
                    ops.append(("setDash", (), {}))
            elif key == "fillColor":
                if value is None:
                    self.fill = 0
                else:
                    self.fill = 1
                    ops.append(("setFillColor", (_color(value),), {}))
            elif key == "fontSize" or key == "fontName":
                name = delta["fontName"] if "fontName" in delta else None
                size = delta["fontSize"] if "fontSize" in delta else None
                if name is None or size is None:  # the canvas's font fills in: the list depends on it
                    self.font_read = True
                    name = str(self.font[0] if name is None else name)
                    size = float(self.font[1] if size is None else size)
                self.font = (name, size)
                ops.append(("setFont", (name, size), {}))
            elif key == "fillOpacity":
                if value is not None:
                    ops.append(("setFillAlpha", (value,), {}))
            elif key == "strokeOpacity":
                if value is not None:
                    ops.append(("setStrokeAlpha", (value,), {}))

    def _node(self, node) -> None:
        calls = getattr(node, "pnp_calls", None)
        if calls is not None:  # a picture a design places: its own calls (``placement.calls``)
            self.ops.extend(calls)
            return
        s = self.shapes
        clip = isinstance(node, s.Path) and node.isClipPath
        if clip or isinstance(node, s.UserNode) or getattr(node, "_drawTimeCallback", None) is not None:
            raise _Unwalkable()
        state = self.defaults
        derived = self.derived
        plain = _PLAIN
        delta = {}
        for k, v in node.__dict__.items():
            if type(v) not in plain and isinstance(v, derived):
                raise _Unwalkable()
            if k in state:
                delta[k] = v
        if type(node).getProperties is not self.base_properties:  # a shape that reports other values
            delta = {k: v for k, v in node.getProperties().items() if k in state}
        self._save()
        anchor, name, size = self.text_state[-1]
        self.text_state.append((delta.get("textAnchor", anchor), delta.get("fontName", name),
                                delta.get("fontSize", size)))
        self._apply(delta)
        self._draw(node)
        self.text_state.pop()
        self._restore()

    def _draw(self, node) -> None:
        s = self.shapes
        ops = self.ops
        if not node:
            return
        if isinstance(node, s.Line):
            if self.stroke:
                ops.append(("line", (node.x1, node.y1, node.x2, node.y2), {}))
        elif isinstance(node, s.Path):
            self._path(node)
        elif isinstance(node, s.String):
            self._string(node)
        elif isinstance(node, s.Group):
            for child in node.getContents():
                self._node(child)
        elif isinstance(node, s.Rect):
            if node.rx == node.ry == 0:
                ops.append(("rect", (node.x, node.y, node.width, node.height),
                            {"stroke": self.stroke, "fill": self.fill}))
            else:
                ops.append(("roundRect", (node.x, node.y, node.width, node.height, node.rx),
                            {"fill": self.fill, "stroke": self.stroke}))
        elif isinstance(node, s.Image):
            raise _Unwalkable()
        elif isinstance(node, s.Circle):
            ops.append(("circle", (node.cx, node.cy, node.r), {"fill": self.fill, "stroke": self.stroke}))
        elif isinstance(node, s.Ellipse):
            ops.append(("ellipse", (node.cx - node.rx, node.cy - node.ry, node.cx + node.rx, node.cy + node.ry),
                        {"fill": self.fill, "stroke": self.stroke}))
        elif isinstance(node, s.PolyLine):
            if self.stroke:
                ops.append(("*drawPath", tuple(poly_calls(node.points, False)), {}))
        elif isinstance(node, s.Polygon):
            ops.append(("*drawPath", tuple(poly_calls(node.points, True)), {"stroke": self.stroke, "fill": self.fill}))
        else:
            raise _Unwalkable()

    def _string(self, node) -> None:
        mode = getattr(node, "textRenderMode", 0)
        need_fill = mode in (0, 2, 4, 6)
        need_stroke = mode in (1, 2, 5, 6)
        if (self.fill and need_fill) or (self.stroke and need_stroke):
            anchor, font, size = self.text_state[-1]
            x, y, text = node.x, node.y, node.text
            if anchor not in ("start", "inherited"):
                from reportlab.pdfbase.pdfmetrics import stringWidth

                width = stringWidth(text, font, size, node.encoding)
                if anchor == "end":
                    x -= width
                elif anchor == "middle":
                    x -= width * 0.5
                else:
                    raise _Unwalkable()
            self.ops.append(("drawString", (x, y, text), {"mode": mode or None}))

    def _path(self, node) -> None:
        autoclose = getattr(node, "autoclose", "")
        fill, stroke = self.fill, self.stroke
        operators = node.operators
        if fill and autoclose == "pdf":
            operators = _closing(operators)
        try:
            calls, moves, closes = path_calls(operators, node.points)
        except ValueError:
            raise _Unwalkable() from None
        closed = moves == closes
        mode = getattr(node, "fillMode", None)
        path = tuple(calls)
        if autoclose == "svg":
            if fill and stroke and not closed:
                self.ops.append(("*drawPath", path, {"fill": fill, "stroke": 0}))
                self.ops.append(("*drawPath", path, {"stroke": stroke, "fill": 0, "fillMode": mode}))
            else:
                self.ops.append(("*drawPath", path, {"fill": fill, "stroke": stroke, "fillMode": mode}))
        elif autoclose == "pdf":
            self.ops.append(("*drawPath", path, {"fill": fill, "stroke": stroke, "fillMode": mode}))
        else:
            if not closed:
                fill = 0
            self.ops.append(("*drawPath", path, {"fill": fill, "stroke": stroke, "fillMode": mode}))


def _closing(operators) -> list:
    """reportlab's path operators with a close (3) after each subpath left open, before the move
    (0) that starts the next one and at the end: how a filled path is drawn with ``autoclose``
    "pdf"."""
    out: list = []
    moved = False
    previous = None
    for op in operators:
        if op == 0:
            if moved and previous != 3:
                out.append(3)
            moved = True
        out.append(op)
        previous = op
    if moved and previous != 3:
        out.append(3)
    return out


_PLAIN = frozenset({float, int, str, bool, tuple, list, type(None)})
