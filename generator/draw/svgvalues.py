"""The values of the SVG the templates write, read as svglib reads them (``svgfast``):
element names, lengths, colours and path data.  Anything outside what is read here raises
``Unsupported``, and the SVG goes to svglib instead."""

from __future__ import annotations

import re

from ..art.placement import calls

_PATH_TOKEN = re.compile(r"\s*,?\s*([MLHVCQAZmlhvcqaz]|[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "A": 7, "Z": 0}
_HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")
_NAME = re.compile(r"[a-zA-Z]+")


class Unsupported(Exception):
    """Outside the part of SVG read here: svglib reads it instead."""


def local(tag) -> str:
    if not isinstance(tag, str):
        raise Unsupported("not an element")
    return tag.rsplit("}", 1)[-1]


def length(text: str, default: float = 0.0) -> float:
    """An attribute length in user units: a number (svglib reads whatever float() reads as one), px or pt."""
    text = text.replace(",", " ").strip()
    if not text:
        return default
    if " " in text:
        raise Unsupported("a list where one length is expected")
    try:
        return float(text)
    except ValueError:
        pass
    if text.endswith("px"):
        return float(text[:-2])
    if text.endswith("pt"):
        return float(text[:-2]) * (96 / 72)
    raise Unsupported(f"length {text!r}")


def picture_element(get) -> tuple[tuple[float, float, float, float], tuple]:
    """The box (x, y, width, height) of a placed picture's ``<image>`` element, whose attributes
    ``get`` reads, and the calls that draw it (``placement.calls``): as both SVG readers take it."""
    box = tuple(length(get(a, "")) for a in ("x", "y", "width", "height"))
    return box, calls(get("data-pnp-picture"), *box, get("preserveAspectRatio", ""))


_COLORS: dict[str, tuple] = {}


def color(text: str) -> list | None:
    """A colour value as [red, green, blue, alpha], as reportlab's colours (svglib's conversion) give them;
    None for none.  A new list each time: a fill's alpha is set from its opacity."""
    if not text or text == "none":
        return None
    found = _COLORS.get(text)
    if found is None:
        if text == "black":  # svglib's default fill: reportlab's black
            found = (0.0, 0.0, 0.0, 1)
        elif _HEX.fullmatch(text):
            digits = text[1:] if len(text) == 7 else "".join(2 * c for c in text[1:])
            val = int(digits, 16)
            found = (((val >> 16) & 0xFF) / 255.0, ((val >> 8) & 0xFF) / 255.0, (val & 0xFF) / 255.0, 1)
        elif _NAME.fullmatch(text) and text != "currentColor":
            from reportlab.lib import colors

            named = getattr(colors, text, None)
            if type(named) is not colors.Color or colors.cssParse(text) is not None:
                raise Unsupported(f"colour {text!r}")
            found = (named.red, named.green, named.blue, named.alpha)
        else:
            raise Unsupported(f"colour {text!r}")
        _COLORS[text] = found
    return list(found)


def rgb(color: list) -> tuple:
    """A colour as a display list holds it (``displaylist._color``)."""
    return ("rgb", float(color[0]), float(color[1]), float(color[2]), color[3])


def nudge(points: list[float]) -> None:
    """A shape whose points all coincide is not drawn by reportlab; move its first x a hair."""
    if len(points) < 4:
        return
    x, y = points[0], points[1]
    if all(points[i] == x and points[i + 1] == y for i in range(2, len(points) - 1, 2)):
        points[0] *= 1.0000001


def path_commands(d: str) -> list[tuple[str, list[float]]]:
    """(command, numbers) pairs of path data; a move's further pairs are lines."""
    out: list[tuple[str, list[float]]] = []
    pos, end = 0, len(d.rstrip())
    command = None
    pending: list[float] = []

    def flush():
        if command is None:
            if pending:
                raise Unsupported("numbers before the first command")
            return
        arity = _ARITY[command.upper()]
        if arity == 0:
            if pending:
                raise Unsupported("numbers after a close")
            out.append((command, []))
            return
        if not pending or len(pending) % arity:
            raise Unsupported(f"{command} with {len(pending)} numbers")
        op = command
        for i in range(0, len(pending), arity):
            args = pending[i:i + arity]
            if command in "Aa" and (args[3] not in (0.0, 1.0) or args[4] not in (0.0, 1.0)):
                raise Unsupported("arc flags")
            out.append((op, args))
            if op == "M":
                op = "L"
            elif op == "m":
                op = "l"

    while pos < end:
        m = _PATH_TOKEN.match(d, pos)
        if m is None:
            raise Unsupported("path data")
        token = m.group(1)
        pos = m.end()
        if token.isalpha():
            flush()
            command, pending = token, []
        else:
            if command is not None and command in "Aa" and len(pending) % 7 in (3, 4) and token not in ("0", "1"):
                raise Unsupported("arc flags")  # compact flags ("01") are svglib's to split
            pending.append(float(token))
    flush()
    return out
