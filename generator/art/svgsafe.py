"""Reading SVG files a designer brings (pictures, icons) without trusting them.

An SVG file may hold a script, an event handler, a reference to another file
or address, or an XML entity that expands without end.  None of it is ever
run or fetched: ``check`` refuses such a file with one line that says what it
found, before any reader (``svgfast``, svglib, a browser on the preview page)
sees it.  ``clean_icon`` reduces an icon to the plain shapes an icon may use
(groups, paths and basic shapes with presentation attributes; a ``style``
attribute is turned into them), with the editor's own elements and attributes
(Inkscape's, Illustrator's ...) left out.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
#: What an SVG file may not contain (anything that runs, embeds another document or fetches).
FORBIDDEN = frozenset({"script", "foreignObject", "iframe", "object", "embed", "audio", "video", "handler",
                       "listener", "animate", "set", "animateMotion", "animateTransform", "discard"})
#: Elements an icon may use.
ICON_ELEMENTS = frozenset({"svg", "g", "path", "rect", "circle", "ellipse", "line", "polygon", "polyline"})
ICON_SILENT = frozenset({"title", "desc", "metadata", "defs"})
#: Presentation attributes an icon's shapes keep.
ICON_STYLE = ("fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linejoin",
              "stroke-linecap", "stroke-dasharray")
ICON_GEOMETRY = {
    "g": ("transform",),
    "svg": (),
    "path": ("d", "transform"),
    "rect": ("x", "y", "width", "height", "rx", "ry", "transform"),
    "circle": ("cx", "cy", "r", "transform"),
    "ellipse": ("cx", "cy", "rx", "ry", "transform"),
    "line": ("x1", "y1", "x2", "y2", "transform"),
    "polygon": ("points", "transform"),
    "polyline": ("points", "transform"),
}
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.I)
BLACK = frozenset({"black", "#000", "#000000", "currentcolor", "rgb(0,0,0)"})


class UnsafeSvg(ValueError):
    """The file is not an SVG we read: the message says why, in words for the user."""


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _namespace(tag: str) -> str:
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""


def parse(data: bytes) -> ET.Element:
    """The root element of an SVG file, checked: no DTD or entities, no script,
    event handler or embedded document, and no reference outside the file."""
    head = data[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in data.lower():
        raise UnsafeSvg("declares a DTD or entities, which are not read; save it as plain SVG")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise UnsafeSvg(f"is not a readable SVG file ({exc})") from None
    if _local(root.tag) != "svg":
        raise UnsafeSvg(f"is not an SVG file (its root element is <{_local(root.tag)}>)")
    for el in root.iter():
        name = _local(el.tag)
        if name in FORBIDDEN:
            raise UnsafeSvg(f"holds a <{name}> element, which is never run or shown; remove it")
        for key, value in el.attrib.items():
            attr = _local(key)
            if attr.lower().startswith("on"):
                raise UnsafeSvg(f"holds an event handler ({attr} on <{name}>), which is never run; remove it")
            if attr == "href" and value.strip().lower().startswith("data:"):
                raise UnsafeSvg(f"embeds a picture as data (<{name}>), which is not read; save that picture as a "
                                "PNG or JPEG file and place it with picture()")
            if attr == "href" and not value.strip().startswith("#"):
                raise UnsafeSvg(f"refers to '{value[:60]}' outside the file (<{name}>), which is never fetched; "
                                "embed what it shows in the file itself")
            if "url(" in value.lower():
                for target in _URL.findall(value):
                    if not target.startswith("#"):
                        raise UnsafeSvg(f"refers to '{target[:60]}' outside the file, which is never fetched")
        if name == "style" and el.text:
            low = el.text.lower()
            if "@import" in low or any(not t.startswith("#") for t in _URL.findall(el.text)):
                raise UnsafeSvg("has a style sheet that loads other files, which is never done; remove it")
    wrong = expanded_problem(root)
    if wrong:
        raise UnsafeSvg(wrong)
    return root


# ---------------------------------------------------------------- <use>, expanded
#: Elements drawn only where a <use> (or a reference) names them, never where they stand.
_UNDRAWN = frozenset({"defs", "symbol"})
#: The <use> expansions svglib makes at most (``svglib.MAX_USE_EXPANSIONS``), skipping the rest.
MOST_USES = 10_000
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


def expanded_problem(root: ET.Element, limits=None) -> str | None:
    """What makes an SVG too large to draw once every ``<use>`` is expanded, if anything: more
    elements than a picture may have (``Limits.picture_elements``, the bound of the file's own),
    nested deeper than ``Limits.nesting``, more expansions than svglib makes, or a ``<use>``
    that comes back to itself.  A file of a few kB draws billions of elements that way (eleven
    levels of groups, each using the one below ten times): counted here over the file's
    elements and references, each once (its count with multiplicities), before svglib, which
    copies each use's element anew, reads it."""
    from .limits import in_force

    ids: dict[str, list[ET.Element]] = {}
    uses = False
    for el in root.iter():
        key = el.get("id")
        if key is not None:
            ids.setdefault(key.strip(), []).append(el)
        uses = uses or _local(el.tag) == "use"
    if not uses:
        return None
    limits = limits or in_force()
    most, deepest = limits.picture_elements, limits.nesting

    def frame(el: ET.Element) -> tuple:
        children = [c for c in el if _local(c.tag) not in _UNDRAWN]
        targets: list[ET.Element] = []
        if _local(el.tag) == "use":
            href = (el.get(_XLINK_HREF) or el.get("href") or "").strip()
            if href.startswith("#"):
                targets = ids.get(href[1:].strip(), [])
        return el, children, targets, iter(children + targets)

    done: dict[int, tuple[int, int, int]] = {}  # id(element) -> (elements, depth, expansions) it draws
    path: set[int] = {id(root)}
    stack = [frame(root)]
    while stack:
        el, children, targets, following = stack[-1]
        for after in following:
            if id(after) in done:
                continue
            if id(after) in path:
                return (f"has a <use> of '#{after.get('id', '').strip()}' inside that element itself (a circle "
                        "of references, never drawn to its end); remove the circle")
            path.add(id(after))
            stack.append(frame(after))
            break
        else:
            stack.pop()
            path.discard(id(el))
            kids = [done[id(c)] for c in children]
            target = max((done[id(t)] for t in targets), default=(0, 0, 0))
            elements = 1 + sum(k[0] for k in kids) + target[0]
            depth = 1 + max([k[1] for k in kids] + [target[1]])
            expansions = (1 if targets else 0) + sum(k[2] for k in kids) + target[2]
            if elements > most:
                return (f"draws more than {most:,} elements once its <use> references are expanded; simplify it "
                        "or save it as a PNG")
            if depth > deepest:
                return (f"nests elements more than {deepest} deep once its <use> references are expanded; "
                        "flatten it or save it as a PNG")
            if expansions > MOST_USES:
                return (f"expands its <use> references more than {MOST_USES:,} times; simplify it or save it as "
                        "a PNG")
            done[id(el)] = (elements, depth, expansions)
    return None


def view_box(root: ET.Element) -> tuple[float, float, float, float]:
    """The viewBox of an SVG root, else (0, 0, width, height) from plain numbers."""
    box = root.get("viewBox")
    try:
        if box:
            values = [float(v) for v in box.replace(",", " ").split()]
            if len(values) == 4 and values[2] > 0 and values[3] > 0:
                return tuple(values)  # type: ignore[return-value]
        w = float(re.sub(r"(px|pt)$", "", (root.get("width") or "").strip()))
        h = float(re.sub(r"(px|pt)$", "", (root.get("height") or "").strip()))
        if w > 0 and h > 0:
            return (0.0, 0.0, w, h)
    except ValueError:
        pass
    raise UnsafeSvg("has neither a viewBox nor a width and height in plain numbers; give it a viewBox")


def _attr(value: str) -> str:
    return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;"))


#: Where the text's colour goes in a cleaned icon's markup.
TEXT_COLOUR = "#fe01fd"  # a marker, replaced before anything draws it


def clean_icon(root: ET.Element) -> tuple[str, bool]:
    """(markup of the icon's shapes, whether it has colours of its own).

    In an icon without colours of its own, black (or unset, or ``currentColor``)
    paint is marked ``TEXT_COLOUR``, for the text's colour to replace (the
    shapes that set no fill inherit it); an icon that paints with any other
    colour keeps all of its colours, black included."""
    colours: set[str] = set()
    parts: list[str] = []

    def element(child: ET.Element, name: str) -> None:
            attrs: dict[str, str] = {}
            style = child.get("style") or ""
            for decl in style.split(";"):
                if ":" in decl:
                    k, v = (x.strip() for x in decl.split(":", 1))
                    if k in ICON_STYLE:
                        attrs[k] = v
            for key, value in child.attrib.items():
                if _namespace(key) not in ("",):
                    continue
                if key in ICON_STYLE or key in ICON_GEOMETRY.get(name, ()):
                    attrs[key] = value.strip()
            for key in ("fill", "stroke"):
                value = attrs.get(key)
                if value is None or value == "none":
                    continue
                if value.lower().replace(" ", "") in BLACK:
                    attrs[key] = "\0"
                else:
                    colours.add(value.lower())
            if name == "path" and "d" in attrs:
                attrs["d"] = absolute_path(attrs["d"])
            if name == "polyline":
                name = "path"
                points = attrs.pop("points", "").replace(",", " ").split()
                if len(points) < 4:
                    return
                attrs["d"] = "M" + " L".join(f"{points[i]} {points[i + 1]}" for i in range(0, len(points) - 1, 2))
                attrs.setdefault("fill", "none")
            if name == "svg":
                name = "g"
                attrs.pop("transform", None)
            parts.append(f"<{name}" + "".join(f' {k}="{_attr(v)}"' for k, v in sorted(attrs.items())))
            if name == "g":
                parts.append(">")
                walk(child)
                parts.append("</g>")
            else:
                parts.append("/>")

    def walk(el: ET.Element) -> None:
        for child in el:
            name = _local(child.tag)
            if _namespace(child.tag) not in ("", SVG_NS) or name in ICON_SILENT:
                if name == "defs" and len(child):
                    raise UnsafeSvg("uses <defs> (gradients, patterns, symbols ...); an icon takes plain shapes only")
                continue
            if name not in ICON_ELEMENTS or name == "svg":
                raise UnsafeSvg(f"uses <{name}>; an icon takes plain shapes only (path, rect, circle, ellipse, "
                                "line, polygon, polyline, g)")
            element(child, name)

    element(root, "svg")  # the root's own paint, as a group
    markup = "".join(parts)
    if "<g>" == markup[:3] and markup.count("<") == 2:
        raise UnsafeSvg("draws nothing")
    return markup.replace("\0", "#000000" if colours else TEXT_COLOUR), bool(colours)


# ---------------------------------------------------------------- path data
_TOKEN = re.compile(r"\s*,?\s*(?:([MLHVCSQTAZmlhvcsqtaz])|([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def _num(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _path_tokens(d: str) -> list[tuple[str, list[float]]]:
    """(command, numbers) of path data, arc flags read one digit each ("a1 1 0 011 1" included)."""
    out: list[tuple[str, list[float]]] = []
    pos, end = 0, len(d)
    command = None
    numbers: list[float] = []
    while pos < end:
        if d[pos:].strip(" \t\r\n,") == "":
            break
        if command is not None and command in "Aa" and len(numbers) % 7 in (3, 4):
            m = re.compile(r"\s*,?\s*([01])").match(d, pos)
            if m is not None:
                numbers.append(float(m.group(1)))
                pos = m.end()
                continue
        m = _TOKEN.match(d, pos)
        if m is None:
            raise UnsafeSvg(f"has path data it cannot read near '{d[pos:pos + 20]}'")
        pos = m.end()
        if m.group(1):
            if command is not None:
                out.append((command, numbers))
            command, numbers = m.group(1), []
        else:
            if command is None:
                raise UnsafeSvg("has path data that does not start with a command")
            numbers.append(float(m.group(2)))
    if command is not None:
        out.append((command, numbers))
    return out


def absolute_path(d: str) -> str:
    """Path data in absolute moves, lines, cubic curves and closes only: smooth
    curves, quadratic curves and arcs turned into cubic ones, as every reader draws them."""
    from .curves import arc, quad_to_cubic

    parts: list[str] = []
    x = y = sx = sy = 0.0
    last_c = last_q = None  # the previous curve's second control point (for S and T)
    for command, numbers in _path_tokens(d):
        upper = command.upper()
        arity = _ARITY[upper]
        rel = command != upper
        if arity == 0:
            if numbers:
                raise UnsafeSvg("has numbers after a close in its path data")
            parts.append("Z")
            x, y = sx, sy
            last_c = last_q = None
            continue
        if not numbers or len(numbers) % arity:
            raise UnsafeSvg(f"has a path command '{command}' with {len(numbers)} numbers")
        for i in range(0, len(numbers), arity):
            n = numbers[i:i + arity]
            ox, oy = (x, y) if rel else (0.0, 0.0)
            c = q = None
            if upper == "M":
                x, y = n[0] + ox, n[1] + oy
                sx, sy = x, y
                parts.append(f"M{_num(x)} {_num(y)}")
                upper = "L"  # a move's further pairs are lines
                command = "l" if rel else "L"
            elif upper in "LHV":
                if upper == "L":
                    x, y = n[0] + ox, n[1] + oy
                elif upper == "H":
                    x = n[0] + (x if rel else 0.0)
                else:
                    y = n[0] + (y if rel else 0.0)
                parts.append(f"L{_num(x)} {_num(y)}")
            elif upper in "CS":
                if upper == "C":
                    x1, y1 = n[0] + ox, n[1] + oy
                    rest = n[2:]
                else:
                    x1, y1 = (2 * x - last_c[0], 2 * y - last_c[1]) if last_c else (x, y)
                    rest = n
                x2, y2, xn, yn = rest[0] + ox, rest[1] + oy, rest[2] + ox, rest[3] + oy
                parts.append("C" + " ".join(_num(v) for v in (x1, y1, x2, y2, xn, yn)))
                c = (x2, y2)
                x, y = xn, yn
            elif upper in "QT":
                if upper == "Q":
                    qx, qy, xn, yn = n[0] + ox, n[1] + oy, n[2] + ox, n[3] + oy
                else:
                    qx, qy = (2 * x - last_q[0], 2 * y - last_q[1]) if last_q else (x, y)
                    xn, yn = n[0] + ox, n[1] + oy
                c1x, c1y, c2x, c2y = quad_to_cubic(x, y, qx, qy, xn, yn)
                parts.append("C" + " ".join(_num(v) for v in (c1x, c1y, c2x, c2y, xn, yn)))
                q = (qx, qy)
                x, y = xn, yn
            else:  # A
                rx, ry, phi, large, sweep, xn, yn = n
                xn, yn = xn + ox, yn + oy
                if abs(rx) <= 1e-10 or abs(ry) <= 1e-10:
                    parts.append(f"L{_num(xn)} {_num(yn)}")
                else:
                    for curve in arc(x, y, rx, ry, phi, int(large), int(sweep), xn, yn):
                        parts.append("C" + " ".join(_num(v) for v in curve))
                x, y = xn, yn
            last_c, last_q = c, q
    return " ".join(parts)
