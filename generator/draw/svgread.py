"""SVG text -> display list (``displaylist.py``), or a reportlab Drawing where it must be one.

The SVG the templates write is read straight into a display list by ``svgfast``; any other
SVG (a picture file, a template that writes what ``svgfast`` leaves alone) is read by svglib
and its drawing recorded (``recording``).  The pictures a design places (``<image>`` with
``data-pnp-picture``) become the same display-list calls either way (``art.placement``).
"""

from __future__ import annotations

import io

from model.errors import Problems

from ..art.fonts import DEFAULT_FONT, ensure_for_svg, ensure_for_svglib, graphics_default_font
from ..art.limits import display_list_problem


#: The font state of a new page or form in the PDF writers, which display lists are recorded against.
RECORD_FONT = (DEFAULT_FONT, 6.0)


def record_display_list(drawing):
    from .recording import record

    return record(drawing, *RECORD_FONT)


def svg_to_display_list(svg: str, where: str, problems: Problems):
    """(display list, drawing) of an SVG text.  The SVG the templates write is
    read straight into a display list by ``svgfast`` (drawing None); anything
    else is read by svglib and its drawing recorded (the drawing is returned
    too when the list depends on the canvas font, or when there is no list).
    (None, None), with a problem, when it cannot be read."""
    ensure_for_svg(svg)
    from .svgfast import to_display_list

    found = to_display_list(svg)
    drawing = None
    if found is None:
        drawing = svg_to_drawing(svg, where, problems)
        if drawing is None:
            return None, None
        found = record_display_list(drawing)
    wrong = display_list_problem(found) if found is not None and found.program is None else None
    if wrong:  # a number its drawing comes to that no PDF holds (the program would not compile)
        _read_problem(problems, where, f"the SVG cannot be drawn: {wrong}")
        return None, None
    return found, (drawing if drawing is not None and (found is None or found.font_state is not None) else None)


def svg_to_drawing(svg: str, where: str, problems: Problems):
    """The reportlab Drawing svglib reads from an SVG text (None, with a problem, when it cannot be read)."""
    ensure_for_svglib(svg)
    graphics_default_font()
    from lxml import etree
    from svglib.svglib import svg2rlg

    data = svg.encode("utf-8")
    wrong = not_well_formed(data)
    if wrong:  # (svglib's parser recovers: it would draw what comes before the mistake and drop the rest)
        _read_problem(problems, where, f"the template gave invalid SVG: {wrong}")
        return None
    try:
        drawing = (_svg2rlg if "data-pnp-picture" in svg else svg2rlg)(io.BytesIO(data))
    except etree.XMLSyntaxError as exc:
        _read_problem(problems, where, f"the template gave invalid SVG: {exc}")
        return None
    except Exception as exc:  # noqa: BLE001 - svglib on SVG a designer wrote: what it cannot read is their mistake
        _read_problem(problems, where, f"the template gave SVG that cannot be drawn: {exc}")
        return None
    if drawing is None:
        _read_problem(problems, where, "the template gave SVG that could not be read")
    return drawing


def not_well_formed(data: bytes) -> str | None:
    """Why ``data`` is not well-formed XML (None when it is), in words that are the same for every card a
    template mistake meets: an element left open by its name, any other mistake by lxml's message and the
    last few characters before the place it was found.  Entities are left unexpanded and nothing is fetched."""
    import re

    from lxml import etree

    try:
        etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (0, 0)
        message = re.sub(r",? line \d+, column \d+$", "", (exc.msg or str(exc)).strip())
        left_open = re.fullmatch(r"Opening and ending tag mismatch: (\S+) line (\d+) and (\S+)", message)
        if left_open:
            name, at, closing = left_open.groups()
            return f"a <{name}> (line {at} of the SVG written) is not closed before </{closing}>"
        lines = data.decode("utf-8", errors="replace").splitlines()
        before = " ".join(lines[line - 1][:column].split()) if 0 < line <= len(lines) else ""
        return f"{message}, after: {'...' if len(before) > 40 else ''}{before[-40:]}" if before else message
    return None


def _read_problem(problems: Problems, where: str, message: str) -> None:
    """A problem reading a design's SVG, at its template (``where``: "templates/GAME/FILE (ID)"),
    naming the card, so that the designs a template mistake meets are one line."""
    file, _, design = where.partition(" (")
    problems.error(file, None, None, f"{message} (card '{design[:-1]}')" if design.endswith(")") else message)


def _svg2rlg(source):
    """svglib's ``svg2rlg``, with the pictures a design places (``placement.image_svg``)
    read into nodes that draw them by their own calls (``placement.calls``), the
    calls ``svgfast`` writes for them (``svgvalues.picture_element``)."""
    from reportlab.graphics.shapes import Image
    from svglib.svglib import SvgRenderer, load_svg_file

    from .svgvalues import picture_element

    root = load_svg_file(source, resolve_entities=False)
    if root is None:
        return None
    renderer = SvgRenderer(source)
    href_target = renderer.xlink_href_target

    def target(node, group=None):
        if node.attrib.get("data-pnp-picture"):
            return "pnp-picture"  # drawn by its own calls, never read by svglib
        return href_target(node, group)

    def convert_image(node):
        (x, y, w, h), found = picture_element(node.attrib.get)
        image = Image(x, y, w, h, None)
        image.pnp_calls = found
        return image

    renderer.xlink_href_target = target
    renderer.shape_converter.convertImage = convert_image
    return renderer.render(root)
