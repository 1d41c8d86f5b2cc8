"""Display lists: a drawing as the canvas calls that draw it, kept as plain data.

Drawing a parsed SVG into a PDF walks reportlab's shape tree and works out
the graphics state of every node before it makes any canvas call.  ``record``
runs that walk once, against a stand-in canvas that writes the calls down;
``replay`` makes the same calls, in the same order, on a real canvas, so the
PDF bytes are the same as ``renderPDF.draw``'s while the walk is skipped.  The
canvas still does everything that depends on the document (font subsets,
graphics-state names), so a display list may be replayed into any document.

A display list is made of tuples, strings and numbers only: it is stored with
``marshal`` (``dumps``/``loads``), and ``loads`` accepts nothing but calls
from ``CANVAS_CALLS`` and ``PATH_CALLS``, so a damaged or foreign entry is
refused (``None``) rather than run.  A drawing that needs anything else (an
image, an unusual colour class) has no display list and is drawn the usual
way.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Callable

FORMAT = 1

#: Canvas calls a display list may hold (what reportlab's PDF renderer makes for
#: svglib's shapes); ``*drawPath``/``*clipPath`` carry a path's own calls.
CANVAS_CALLS = frozenset({
    "saveState", "restoreState", "setFont", "transform", "translate", "scale", "rotate", "setLineWidth",
    "setLineCap", "setLineJoin", "setMiterLimit", "setDash", "setFillColor", "setStrokeColor", "setFillAlpha",
    "setStrokeAlpha", "setFillOverprint", "setStrokeOverprint", "setOverprintMask", "rect", "roundRect",
    "circle", "ellipse", "line", "drawString", "*drawPath", "*clipPath", "=_fillMode",
})
PATH_CALLS = frozenset({"moveTo", "lineTo", "curveTo", "close", "arc", "arcTo", "rect", "ellipse", "circle",
                        "roundRect"})


class Unsupported(Exception):
    """The drawing makes a call a display list cannot hold."""


@dataclass(frozen=True)
class DisplayList:
    width: float
    height: float
    ops: tuple
    #: the canvas font (name, size) the drawing relied on, when it read it; a
    #: replay onto a canvas in another font state draws the usual way instead
    font_state: tuple | None = None

    def fits(self, canvas) -> bool:
        return self.font_state is None or (canvas._fontname, canvas._fontsize) == self.font_state


# ---------------------------------------------------------------- recording
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


def _uncolor(value):
    from reportlab.lib.colors import CMYKColor, Color

    if value is None:
        return None
    if value[0] == "rgb":
        return Color(value[1], value[2], value[3], value[4])
    if value[0] == "cmyk":
        return CMYKColor(*value[1:6], spotName=value[6], knockout=value[7], alpha=value[8])
    raise Unsupported(f"colour {value[0]!r}")


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
    from reportlab.graphics import renderPDF

    recorder = _Recorder(fontname, fontsize)
    try:
        renderPDF.draw(drawing, recorder, 0, 0)
        out = DisplayList(float(drawing.width), float(drawing.height), tuple(recorder.ops),
                          (fontname, fontsize) if recorder.font_read else None)
        marshal.dumps(_plain(out))  # refuse anything marshal cannot keep
    except (Unsupported, ValueError, TypeError, AttributeError):
        return None
    return out


# ---------------------------------------------------------------- replaying
def replay(display_list: DisplayList, canvas) -> None:
    """Make the recorded calls on ``canvas``, as ``renderPDF.draw(drawing, canvas, 0, 0)`` would."""
    for name, args, kwargs in display_list.ops:
        first = name[0]
        if first == "*":
            path = canvas.beginPath()
            for call, a, k in args:
                getattr(path, call)(*a, **k)
            getattr(canvas, name[1:])(path, **kwargs)
        elif first == "=":
            setattr(canvas, name[1:], args[0])
        elif name == "setFillColor" or name == "setStrokeColor":
            getattr(canvas, name)(_uncolor(args[0]), *args[1:])
        else:
            getattr(canvas, name)(*args, **kwargs)


def fonts_of(display_list: DisplayList) -> set[str]:
    """The font names a display list sets."""
    return {args[0] for name, args, _ in display_list.ops if name == "setFont"}


# ---------------------------------------------------------------- storing
def _plain(d: DisplayList) -> tuple:
    return (FORMAT, d.width, d.height, d.font_state, d.ops)


def dumps(display_list: DisplayList) -> bytes:
    return marshal.dumps(_plain(display_list))


def loads(data: bytes) -> DisplayList | None:
    """A display list from ``dumps``; None for anything else (damaged, foreign, another format)."""
    try:
        value = marshal.loads(data)
        if type(value) is not tuple or len(value) != 5 or value[0] != FORMAT:
            return None
        _, width, height, font_state, ops = value
        if type(width) is not float or type(height) is not float or type(ops) is not tuple:
            return None
        if font_state is not None and (type(font_state) is not tuple or len(font_state) != 2):
            return None
        if not {op[0] for op in ops} <= CANVAS_CALLS:
            return None
        paths = [op[1] for op in ops if op[0][0] == "*"]
        if paths and not {p[0] for path in paths for p in path} <= PATH_CALLS:
            return None
    except (EOFError, ValueError, TypeError, IndexError, KeyError):
        return None
    return DisplayList(width, height, ops, font_state)


def draw_picture(canvas, picture, drawing_of: Callable[[], object] | None = None) -> None:
    """Draw at (0, 0) a display list or a reportlab Drawing.  A display list that
    relied on another canvas font is drawn from ``drawing_of()`` instead."""
    if isinstance(picture, DisplayList):
        if picture.fits(canvas):
            from .fonts import ensure_faces

            ensure_faces(*fonts_of(picture))
            replay(picture, canvas)
            return
        if drawing_of is None:
            raise ValueError("this display list needs the canvas font it was recorded with")
        picture = drawing_of()
    from reportlab.graphics import renderPDF

    renderPDF.draw(picture, canvas, 0, 0)
