"""Display lists: a drawing as the canvas calls that draw it, kept as plain data.

Drawing a parsed SVG into a PDF walks reportlab's shape tree and works out
the graphics state of every node before it makes any canvas call.  A display
list holds the calls that walk makes, written down once: by ``svgfast`` while
it reads an SVG, or by ``record`` (``recording.py``) from a drawing svglib
read.  ``replay`` makes the same calls, in the same order, on a real canvas,
so the PDF bytes are the same as ``renderPDF.draw``'s while the walk is
skipped.  The canvas still does everything that depends on the document
(font subsets, graphics-state names), so a display list may be replayed into
any document.

A display list also carries its *program* (``compile_program``): the calls
worked out once into the content-stream text the canvas would write for
them, with only what depends on the document or on the canvas's state left
as instructions (the font of a string and its subset, transparency states,
the fill rule in force, a transform the canvas merges into the one before
it).  ``replay`` runs the program (``_run``): the same bytes, in a fraction of
the time.  The calls themselves are kept only when they do not compile.

A display list is made of tuples, strings and numbers only: it is stored with
``marshal`` (``dumps``/``loads``), and ``loads`` accepts nothing but calls
from ``CANVAS_CALLS`` and ``PATH_CALLS`` and instructions from
``PROGRAM_OPS``, so a damaged or foreign entry is refused (``None``) rather
than run.  A picture file a design places (``art/pictures.py``) is one call,
``+picture`` (its kind, digest, orientation and place), and one program
instruction; the canvas the call runs on places it (its ``pnp_picture``:
``canvas.PictureCanvas`` adds the file's data to its document, once).  A display
list knows nothing of how a picture is drawn.  A drawing that needs anything else (an image of svglib's own, an
unusual colour class) has no display list and is drawn the usual way.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Callable

FORMAT = 3

#: Canvas calls a display list may hold (what reportlab's PDF renderer makes for
#: svglib's shapes); ``*drawPath``/``*clipPath`` carry a path's own calls.
CANVAS_CALLS = frozenset({
    "saveState", "restoreState", "setFont", "transform", "translate", "scale", "rotate", "setLineWidth",
    "setLineCap", "setLineJoin", "setMiterLimit", "setDash", "setFillColor", "setStrokeColor", "setFillAlpha",
    "setStrokeAlpha", "setFillOverprint", "setStrokeOverprint", "setOverprintMask", "rect", "roundRect",
    "circle", "ellipse", "line", "drawString", "*drawPath", "*clipPath", "=_fillMode", "+picture",
})
PATH_CALLS = frozenset({"moveTo", "lineTo", "curveTo", "close", "arc", "arcTo", "rect", "ellipse", "circle",
                        "roundRect"})
#: Program instructions (besides plain strings, which are content-stream text):
#: q/Q save and restore, cm transform, fm fill rule, f font, a graphics-state
#: value, pr/pe/pd a rectangle, a shape or a path painted with the fill rule in
#: force, pc a clipping path, t a string, i a picture.
PROGRAM_OPS = frozenset({"q", "Q", "cm", "fm", "f", "a", "pr", "pe", "pd", "pc", "t", "i"})
PICTURE_KINDS = frozenset({"png", "jpeg", "svg"})


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
    #: the calls as content-stream text and instructions (``compile_program``); None: replay the calls
    program: tuple | None = None
    fonts: tuple = ()  # the font names the calls set

    def fits(self, canvas) -> bool:
        return self.font_state is None or (canvas._fontname, canvas._fontsize) == self.font_state


def make(width: float, height: float, ops: tuple, font_state: tuple | None = None) -> DisplayList:
    """A display list of some calls: their program when they compile to one
    (the calls themselves are then not kept), else the calls."""
    program = compile_program(ops)
    fonts = tuple(sorted({args[0] for name, args, _ in ops if name == "setFont"}))
    return DisplayList(width, height, ops if program is None else (), font_state, program, fonts)


#: The shape properties (reportlab's and svglib's names) that are one canvas call of their value
#: each, and that call: how both SVG readers write them down.
STATE_CALLS = {"strokeWidth": "setLineWidth", "strokeLineCap": "setLineCap", "strokeLineJoin": "setLineJoin",
               "fillMode": "=_fillMode", "fillOverprint": "setFillOverprint", "strokeOverprint": "setStrokeOverprint",
               "overprintMask": "setOverprintMask"}


def poly_calls(points, close: bool) -> list:
    """The path calls of a point list (x0, y0, x1, y1, ...): a move to its first point, a line
    to each other one, and a close when ``close``."""
    calls = [("moveTo", (points[0], points[1]), {})]
    calls += [("lineTo", (points[i], points[i + 1]), {}) for i in range(2, len(points), 2)]
    if close:
        calls.append(("close", (), {}))
    return calls


def path_calls(operators, points) -> tuple[list, int, int]:
    """The path calls of reportlab's path operators (0 move, 1 line, 2 curve, 3 close) over
    their points, with how many moves and closes they hold (as many of each: every subpath is
    closed).  ValueError for another operator."""
    calls, i, moves, closes = [], 0, 0, 0
    for code in operators:
        if code == 0:
            moves += 1
            calls.append(("moveTo", (points[i], points[i + 1]), {}))
            i += 2
        elif code == 1:
            calls.append(("lineTo", (points[i], points[i + 1]), {}))
            i += 2
        elif code == 2:
            calls.append(("curveTo", tuple(points[i:i + 6]), {}))
            i += 6
        elif code == 3:
            closes += 1
            calls.append(("close", (), {}))
        else:
            raise ValueError(f"path operator {code!r}")
    return calls, moves, closes


def _uncolor(value):
    from reportlab.lib.colors import CMYKColor, Color

    if value is None:
        return None
    if value[0] == "rgb":
        return Color(value[1], value[2], value[3], value[4])
    if value[0] == "cmyk":
        return CMYKColor(*value[1:6], spotName=value[6], knockout=value[7], alpha=value[8])
    raise Unsupported(f"colour {value[0]!r}")


# ---------------------------------------------------------------- replaying
def replay(display_list: DisplayList, canvas, texts: list | None = None) -> bool:
    """Make the recorded calls on ``canvas``, as ``renderPDF.draw(drawing, canvas, 0, 0)`` would.

    When the display list holds a program, it is run, each string it draws goes to
    ``texts`` as (font name, text) in order, and the answer is True; else (the
    calls replayed one by one) False."""
    if display_list.program is not None:  # (canvases that enforce a colour space are not supported)
        _run(display_list.program, canvas, texts)
        return True
    run_calls(display_list.ops, canvas)
    return False


def run_calls(ops, canvas) -> None:
    """Make recorded calls on a canvas (or on anything with the same methods)."""
    for name, args, kwargs in ops:
        first = name[0]
        if first == "+":  # a picture file: placed by the canvas (``canvas.PictureCanvas``, ``recording._Recorder``)
            canvas.pnp_picture(*args)
        elif first == "*":
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


# ---------------------------------------------------------------- programs
def _alpha_ok(a) -> bool:
    return isinstance(a, (float, int)) and 0 <= a <= 1


class _NotCompiled(Exception):
    pass


def _compilers():
    """Call name -> function(args, kwargs, out) appending the call's program to ``out``."""
    from reportlab.lib.rl_accel import fp_str
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.pathobject import PDFPathObject

    def transform(args, kwargs, out):
        if kwargs:
            raise _NotCompiled()
        out.append(("cm", *args, "%s cm" % fp_str(*args)))

    def line_width(args, kwargs, out):
        if kwargs:
            raise _NotCompiled()
        out.append("%s w" % fp_str(args[0]))

    def mode(op):
        def f(args, kwargs, out):
            if kwargs or args[0] not in (0, 1, 2):
                raise _NotCompiled()
            out.append("%d %s" % (args[0], op))
        return f

    def dash(args, kwargs, out):
        if kwargs:
            raise _NotCompiled()
        array, phase = (args + ([], 0)[len(args):])[:2]
        if isinstance(array, (int, float)):
            array, phase = (array, phase), 0
        if not isinstance(array, (list, tuple)) or any(not isinstance(v, (int, float)) or v < 0 for v in array) \
                or not isinstance(phase, (int, float)) or phase < 0 or (array and sum(array) <= 0):
            raise _NotCompiled()
        out.append("[%s] %s d" % (fp_str(array), phase))

    def color(op, key):
        def f(args, kwargs, out):
            value = args[0]
            if kwargs or value is None or value[0] != "rgb":
                raise _NotCompiled()
            out.append("%s %s" % (fp_str((value[1], value[2], value[3])), op))
            alpha = args[1] if len(args) > 1 and args[1] is not None else value[4]
            if alpha is not None:
                if not _alpha_ok(alpha):
                    raise _NotCompiled()
                out.append(("a", key, alpha))
        return f

    def alpha(key):
        def f(args, kwargs, out):
            if kwargs or not _alpha_ok(args[0]):
                raise _NotCompiled()
            out.append(("a", key, args[0]))
        return f

    def state(key, convert=lambda v: v):
        def f(args, kwargs, out):
            if kwargs:
                raise _NotCompiled()
            out.append(("a", key, convert(args[0])))
        return f

    def fill_mode(args, kwargs, out):
        out.append(("fm", args[0]))

    fonts: dict = {}

    def font(args, kwargs, out):
        name = args[0]
        dynamic = fonts.get(name)
        if dynamic is None:
            dynamic = fonts[name] = bool(pdfmetrics.getFont(name)._dynamicFont)
        if kwargs or not dynamic:
            raise _NotCompiled()
        size = args[1]
        out.append(("f", name, size, args[2] if len(args) > 2 and args[2] is not None else size * 1.2))

    def rect(args, kwargs, out):
        x, y, width, height = args
        out.append(("pr", "n %s re " % fp_str(x, y, width, height), kwargs.get("stroke", 1), kwargs.get("fill", 0)))

    def shape(name):
        def f(args, kwargs, out):
            path = PDFPathObject()
            if name == "circle":
                cx, cy, r = args
                x1, x2, y1, y2 = cx - r, cx + r, cy - r, cy + r
                path.ellipse(x1, y1, x2 - x1, y2 - y1)
            elif name == "ellipse":
                x1, y1, x2, y2 = args
                path.ellipse(x1, y1, x2 - x1, y2 - y1)
            else:
                path.roundRect(*args)
            out.append(("pe", tuple(path._code), kwargs.get("stroke", 1), kwargs.get("fill", 0)))
        return f

    def line(args, kwargs, out):
        if kwargs:
            raise _NotCompiled()
        x1, y1, x2, y2 = args
        out.append("n %s m %s l S" % (fp_str(x1, y1), fp_str(x2, y2)))

    path_ops = {"moveTo": "%s m", "lineTo": "%s l", "curveTo": "%s c"}

    def draw_path(args, kwargs, out):
        code = ["n"]
        for call, a, k in args:
            if call == "close":
                code.append("h")
            else:
                fmt = path_ops.get(call)
                if fmt is None or k:
                    raise _NotCompiled()
                code.append(fmt % fp_str(*a))
        if len(code) > 1 and not code[1].endswith(" m"):  # as PDFPathObject insists
            raise _NotCompiled()
        out.append(("pd", " ".join(code) if len(code) > 1 else "", kwargs.get("stroke", 1),
                    kwargs.get("fill", 0), kwargs.get("fillMode")))

    def clip_path(args, kwargs, out):
        if kwargs.get("stroke", 1) or kwargs.get("fill", 0) or kwargs.get("fillMode") is not None:
            raise _NotCompiled()
        path = PDFPathObject()
        for call, a, k in args:
            if call not in ("moveTo", "lineTo", "curveTo", "close") or k:
                raise _NotCompiled()
            getattr(path, call)(*a)
        out.append(("pc", path.getCode()))

    def picture(args, kwargs, out):
        kind, digest, orientation, x, y, w, h = args
        if kwargs or kind not in PICTURE_KINDS:
            raise _NotCompiled()
        out.append(("i", kind, digest, orientation, x, y, w, h))

    def draw_string(args, kwargs, out):
        if not set(kwargs) <= {"mode"}:
            raise _NotCompiled()
        x, y, text = args
        out.append(("t", x, y, text, kwargs.get("mode")))

    return {
        "transform": transform, "setLineWidth": line_width, "setLineCap": mode("J"), "setLineJoin": mode("j"),
        "setDash": dash, "setFillColor": color("rg", "ca"), "setStrokeColor": color("RG", "CA"),
        "setFillAlpha": alpha("ca"), "setStrokeAlpha": alpha("CA"), "setFillOverprint": state("op"),
        "setStrokeOverprint": state("OP"), "setOverprintMask": state("OPM", lambda v: v and 1 or 0),
        "=_fillMode": fill_mode, "setFont": font, "rect": rect, "circle": shape("circle"),
        "ellipse": shape("ellipse"), "roundRect": shape("roundRect"), "line": line, "*drawPath": draw_path,
        "drawString": draw_string, "*clipPath": clip_path, "+picture": picture,
    }


_COMPILERS: dict | None = None
_MEMO: dict = {}  # (call, arguments) -> its instructions, for calls without keyword arguments
MEMO_SIZE = 50000


def compile_program(ops: tuple) -> tuple | None:
    """The content-stream text reportlab's canvas writes for ``ops`` (from a
    ``saveState`` to its ``restoreState``), with what depends on the document
    or on the canvas's state at the time left as instructions; None for calls
    it does not know (they are replayed as calls)."""
    global _COMPILERS
    if _COMPILERS is None:
        _COMPILERS = _compilers()
    compilers = _COMPILERS
    if len(ops) < 2 or ops[0][0] != "saveState" or ops[-1][0] != "restoreState" or ops[0][1] or ops[-1][1]:
        return None
    depth = 0
    out: list = []
    save, restore = ("q",), ("Q",)
    memo = _MEMO
    try:
        for name, args, kwargs in ops[1:-1]:
            if name == "saveState":
                depth += 1
                out.append(save)
            elif name == "restoreState":
                depth -= 1
                if depth < 0:
                    return None
                out.append(restore)
            elif kwargs:
                compilers[name](args, kwargs, out)
            else:  # the state calls repeat: each distinct one is worked out once
                try:
                    done = memo.get((name, args))
                except TypeError:  # arguments that cannot be a key (a list)
                    compilers[name](args, kwargs, out)
                    continue
                if done is None:
                    first = len(out)
                    compilers[name](args, kwargs, out)
                    if len(memo) < MEMO_SIZE:
                        memo[(name, args)] = tuple(out[first:])
                else:
                    out.extend(done)
    except (_NotCompiled, ValueError, TypeError, KeyError, IndexError, AssertionError):
        return None
    if depth != 0:
        return None
    # The canvas writes its code joined by newlines: runs of text become one string
    # (no run ends in a transform the canvas could fold the next one into).
    merged: list = []
    for ins in out:
        if type(ins) is not str and ins[0] == "pe":  # a shape's path, then its painting
            merged.append(("pr", "\n".join(ins[1]) + "\n", ins[2], ins[3]))
        elif type(ins) is str and merged and type(merged[-1]) is str:
            merged[-1] = merged[-1] + "\n" + ins
        else:
            merged.append(ins)
    return tuple(merged)


def _run(program: tuple, canvas, texts: list | None = None) -> None:
    """Write a program into ``canvas``: what replaying its calls writes, and the same state after.
    ``texts`` (a list) receives (font name, text) of each string drawn, in order."""
    from reportlab.pdfgen.canvas import FILL_EVEN_ODD, PATH_OPS

    canvas.saveState()
    code = canvas._code
    append = code.append
    fill_mode = canvas._fillMode
    font = (canvas._fontname, canvas._fontsize, canvas._leading)
    # The graphics-state values (transparency ...) of each saved level: the canvas
    # copies them at every save; here a level copies them only when it changes one.
    ext = canvas._extgstate
    owned = True
    stack = []
    transparent = False
    for ins in program:
        if type(ins) is str:
            append(ins)
            continue
        op = ins[0]
        if op == "a":
            key = ins[1]
            if key == "ca" or key == "CA":
                if not transparent:  # as canvas.setFillAlpha/setStrokeAlpha do
                    canvas._doc.ensureMinPdfVersion("transparency")
                    transparent = True
                if ins[2] == ext._d.get(key, ext.defaults[key]):  # unchanged: ExtGState.set writes nothing
                    continue
            if not owned:
                ext = canvas._extgstate = ext.pushCopy()
                owned = True
            ext.set(canvas, key, ins[2])
        elif op == "q":
            stack.append((fill_mode, font, ext, owned))
            owned = False
            append("q")
        elif op == "Q":
            append("Q")
            fill_mode, font, ext, owned = stack.pop()
            canvas._extgstate = ext
        elif op == "pr":
            append(ins[1] + PATH_OPS[ins[2], ins[3], fill_mode])
        elif op == "pe":
            code.extend(ins[1])
            append(PATH_OPS[ins[2], ins[3], fill_mode])
        elif op == "pd":
            append(ins[1])
            append(PATH_OPS[ins[2], ins[3], fill_mode if ins[4] is None else ins[4]])
        elif op == "cm":
            if code and code[-1][-3:] == " cm":  # the canvas folds it into the transform before
                canvas.transform(*ins[1:7])
            else:
                append(ins[7])
        elif op == "pc":
            append("%s%s%s" % (ins[1], " W* " if fill_mode == FILL_EVEN_ODD else " W ", PATH_OPS[0, 0, fill_mode]))
        elif op == "i":
            canvas.pnp_picture(*ins[1:])
        elif op == "fm":
            fill_mode = ins[1]
        elif op == "f":
            font = ins[1:4]
        elif op == "t":
            canvas._fontname, canvas._fontsize, canvas._leading = font
            canvas.drawString(ins[1], ins[2], ins[3], mode=ins[4])
            if texts is not None:
                texts.append((font[0], ins[3]))
    canvas.restoreState()


def fonts_of(display_list: DisplayList) -> set[str]:
    """The font names a display list sets."""
    return set(display_list.fonts)


def pictures_of(display_list: DisplayList) -> list[tuple[str, str]]:
    """(kind, digest) of every picture a display list draws, in order, each once."""
    found = [(ins[1], ins[2]) for ins in display_list.program or () if type(ins) is tuple and ins[0] == "i"]
    found += [(args[0], args[1]) for name, args, _ in display_list.ops if name == "+picture"]
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------- storing
def _plain(d: DisplayList) -> tuple:
    return (FORMAT, d.width, d.height, d.font_state, d.ops, d.program, d.fonts)


def dumps(display_list: DisplayList) -> bytes:
    return marshal.dumps(_plain(display_list))


def _program_ok(program) -> bool:
    for ins in program:
        if type(ins) is str:
            continue
        if type(ins) is not tuple or not ins or ins[0] not in PROGRAM_OPS:
            return False
        if ins[0] == "pe" and not all(type(p) is str for p in ins[1]):
            return False
        if ins[0] in ("pr", "pd", "cm", "pc") and type(ins[1 if ins[0] != "cm" else 7]) is not str:
            return False
        if ins[0] == "i" and not _picture_ok(ins[1:]):
            return False
    return True


def _picture_ok(args) -> bool:
    return (len(args) == 7 and args[0] in PICTURE_KINDS and type(args[1]) is str and len(args[1]) == 32
            and all(c in "0123456789abcdef" for c in args[1]) and type(args[2]) is int
            and all(type(v) is float for v in args[3:]))


def loads(data: bytes) -> DisplayList | None:
    """A display list from ``dumps``; None for anything else (damaged, foreign, another format)."""
    try:
        value = marshal.loads(data)
        if type(value) is not tuple or len(value) not in (5, 7) or value[0] != FORMAT:
            return None
        if len(value) == 5:  # the calls alone: replayed as calls
            value = (*value, None, tuple(sorted({op[1][0] for op in value[4] if op[0] == "setFont"})))
        _, width, height, font_state, ops, program, fonts = value
        if type(width) is not float or type(height) is not float or type(ops) is not tuple:
            return None
        if font_state is not None and (type(font_state) is not tuple or len(font_state) != 2):
            return None
        if not {op[0] for op in ops} <= CANVAS_CALLS:
            return None
        if any(op[0] == "+picture" and not _picture_ok(op[1]) for op in ops):
            return None
        paths = [op[1] for op in ops if op[0][0] == "*"]
        if paths and not {p[0] for path in paths for p in path} <= PATH_CALLS:
            return None
        if program is not None and (type(program) is not tuple or not _program_ok(program)):
            return None
        if type(fonts) is not tuple or not all(type(f) is str for f in fonts):
            return None
    except (EOFError, ValueError, TypeError, IndexError, KeyError):
        return None
    return DisplayList(width, height, ops, font_state, program, fonts)


def draw_picture(canvas, picture, drawing_of: Callable[[], object] | None = None,
                 texts: list | None = None) -> bool:
    """Draw at (0, 0) a display list or a reportlab Drawing.  A display list that
    relied on another canvas font is drawn from ``drawing_of()`` instead.  True
    when a display list's program was run (its strings then went to ``texts``, see
    ``replay``)."""
    if isinstance(picture, DisplayList):
        if picture.fits(canvas):
            from ..art.fonts import ensure_faces

            ensure_faces(*fonts_of(picture))
            return replay(picture, canvas, texts)
        if drawing_of is None:
            raise ValueError("this display list needs the canvas font it was recorded with")
        picture = drawing_of()
    render_drawing(picture, canvas)
    return False


def render_drawing(drawing, canvas) -> None:
    """``renderPDF.draw(drawing, canvas, 0, 0)``, with the pictures a design places
    (``art/placement.py``) drawn by their own calls."""
    from reportlab.graphics.renderPDF import _PDFRenderer

    global _RENDERER
    if _RENDERER is None:
        class _Renderer(_PDFRenderer):
            def drawImage(self, image):
                calls = getattr(image, "pnp_calls", None)
                if calls is None:
                    return super().drawImage(image)
                run_calls(calls, self._canvas)

        _RENDERER = _Renderer
    from reportlab.graphics.renderbase import renderScaledDrawing

    _RENDERER().draw(renderScaledDrawing(drawing), canvas, 0, 0)


_RENDERER = None
