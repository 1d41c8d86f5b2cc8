"""Reference sheets: a game's ``reference.xml.j2`` rendered to a PDF with platypus
(made by the ``reference`` target, ``targets/reference.py``).

The template produces a small XML document (see docs/format.md, "Reference
sheets"): headings, paragraphs with reportlab's inline markup, lists, tables,
inline SVG figures drawn with the same helpers as the cards, pictures of
rendered cards, and ``<inventory/>``, the generated list of every design with
its count per deck, checked against the counts the manifest expects.
"""

from __future__ import annotations

import io
import re
import time
from xml.etree import ElementTree as ET

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (CondPageBreak, KeepTogether, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table,
                                TableStyle)
from reportlab.platypus.doctemplate import LayoutError

from model.errors import Problems
from model.sheets import Game

from ..art.fonts import DEFAULT_FONT, FAMILIES, ensure_faces, face, register_fonts
from ..art.limits import in_force
from ..sheets.layout import page_size
from ..draw.canvas import PictureCanvas
from .flow import MIN_ROWS_APART, DrawingFlowable, SplitTable, keep_starts, narrowed, smallest_text
from .render import DrawingCache, Renderer, use_fonts
from .rows import game_rows

MARGIN = 15 * mm
FRAME_PADDING = 12  # points: a platypus frame's top and bottom padding, 6 each


def styles(family: str) -> dict[str, ParagraphStyle]:
    regular, bold = face(family), face(family, True)
    base = ParagraphStyle("body", fontName=regular, bulletFontName=regular, fontSize=9.5, leading=12.5, spaceAfter=3)
    return {
        # headings stay on the page of what follows them
        "h1": ParagraphStyle("h1", parent=base, fontName=bold, fontSize=20, leading=24, spaceAfter=6, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=base, fontName=bold, fontSize=13.5, leading=17, spaceBefore=8,
                             spaceAfter=4, textColor=colors.HexColor("#222222"), keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=base, fontName=bold, fontSize=10.5, leading=13.5, spaceBefore=5,
                             spaceAfter=2, keepWithNext=1),
        "p": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "li": ParagraphStyle("li", parent=base, leftIndent=10, bulletIndent=2, spaceAfter=1.5),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5, spaceAfter=0),
        "cellb": ParagraphStyle("cellb", parent=base, fontName=bold, fontSize=8.5, leading=10.5, spaceAfter=0),
        "caption": ParagraphStyle("caption", parent=base, fontSize=8, leading=10, alignment=TA_CENTER),
    }


def _inner(el: ET.Element) -> str:
    """The inline markup inside an element, as reportlab's paragraph parser takes it.

    Text is escaped again (the parser reads ``&lt;`` as ``<``): a value from a
    sheet prints as it is written, never as markup (``<img src=...>`` in a cell
    is text, not a picture)."""
    text = _xml(el.text or "")
    for child in el:
        text += ET.tostring(child, encoding="unicode")  # the child's own text and its tail, escaped
    return text.strip()


def parse_lines(xml: str) -> tuple[ET.Element, dict[int, int]]:
    """The root of an XML text and the line each element starts on (by ``id``)."""
    parser = ET.XMLPullParser(events=("start",))
    lines: dict[int, int] = {}
    root = None
    for number, line in enumerate(xml.splitlines(keepends=True), 1):
        parser.feed(line)
        for _, el in parser.read_events():
            lines[id(el)] = number
            root = el if root is None else root
    parser.close()
    if root is None:
        raise ET.ParseError("no element found")
    return root, lines


class ReferenceBuilder:
    def __init__(self, game: Game, expansions: set[str] | None, problems: Problems, cache: DrawingCache):
        self.game = game
        self.expansions = expansions
        self.problems = problems
        self.cache = cache
        self.manifest = game.manifest
        self.st = styles(self.manifest.font)
        self.where = f"templates/{game.slug}/{self.manifest.reference}"
        self.renderer = Renderer(self.manifest, problems, cache.store)
        self.rows = game_rows(game, expansions)  # cards and decks, for the templates that list them
        self.lines: dict[int, int] = {}  # id(element) -> its line in the XML the template gave
        self.width = 180 * mm  # the width and height the page leaves (set for the page by build_reference)
        self.height = 267 * mm

    @property
    def middle_columns(self) -> int:
        """Columns of an inventory table besides id, name and count that fit the page's width."""
        room = self.width - INVENTORY_FIXED - INVENTORY_NAME
        return max(1, min(MIDDLE_COLUMNS, int(room // INVENTORY_COLUMN)))

    def sized(self, el: ET.Element, what: str, drawing, svg: str, width: float, turn: bool,
              look_for: str) -> DrawingFlowable:
        """A picture at the ``width`` asked (points), or larger where its smallest text
        would print below the game's floor, within the page (narrower where the page is);
        turned a quarter (``turn``) when only that keeps its text at the floor, as a
        landscape page would.  Text the page is too small for is a warning."""
        floor = self.manifest.text_floor
        smallest = smallest_text(svg)  # (size, viewBox width), user units
        need = floor * smallest[1] / smallest[0] if smallest else 0.0  # the width that keeps the floor
        width = max(width, need)
        ratio = drawing.height / drawing.width if drawing.width else 1.0
        high = self.height - 2 * ROW_PADDING  # what a page holds, in a <row> (or a table's cell) too
        room = min(self.width, high / ratio)
        turned = False
        if width > room + 0.01:
            room_turned = min(high, self.width / ratio)
            if turn and need > room + 0.01 and room_turned > room:
                turned, room = True, room_turned
            width = min(width, room)
        if smallest and need > width + 0.01:
            size = smallest[0] * width / smallest[1]
            self.warn(el, f"{what}: its smallest text prints at {size:.1f} pt on a page this size, below the "
                      f"game's {floor:g} pt floor (text_floor in game.toml)", look_for)
        return DrawingFlowable(drawing, width, el.get("align", "CENTER"), turned)

    def warn(self, el: ET.Element | None, message: str, look_for: str = "") -> None:
        """A warning at an element of the reference template (see ``error``)."""
        self.error(el, message, look_for, warning=True)

    def error(self, el: ET.Element | None, message: str, look_for: str = "", warning: bool = False) -> None:
        """A problem of the reference template at an element: on the template's
        line when ``look_for`` is written there once, else naming the line of
        the XML the template gave."""
        row = None
        if look_for and self.manifest.reference:
            try:
                source = (self.manifest.folder / self.manifest.reference).read_text(encoding="utf-8")
            except OSError:
                source = ""
            found = [n for n, line in enumerate(source.splitlines(), 1) if look_for in line]
            row = found[0] if len(found) == 1 else None
        if row is None and el is not None and id(el) in self.lines:
            message += f" (line {self.lines[id(el)]} of the XML the template gave)"
        (self.problems.warn if warning else self.problems.error)(self.where, row, None, message)

    def para(self, markup: str, style: ParagraphStyle, el: ET.Element | None = None, flowing: bool = True,
             **kw) -> list:
        """[Paragraph] of inline markup; a markup reportlab cannot read is a problem, not a crash,
        and so is one longer than a text may be (``Limits.text``; ``CELL_TEXTS`` times that in a
        table's cell, not ``flowing`` over pages): reportlab lays a paragraph out again on each
        page it reaches, all that is left of it, so one of a million characters took it hours."""
        most = in_force().text * (1 if flowing else CELL_TEXTS)
        if len(markup) > most:
            tag = el.tag if el is not None else "p"
            what = "a paragraph, heading or list item" if flowing else "a table's cell"
            self.error(el, f"<{tag}>: {len(markup):,} characters; {what} of a reference sheet may have at most "
                       f"{most:,}; split it or shorten it", f"<{tag}")
            return []
        try:
            return [(Heading if getattr(style, "keepWithNext", 0) else Paragraph)(markup, style, **kw)]
        except Exception as exc:  # noqa: BLE001 - the template's inline markup: its mistake, told as one line
            text = str(exc).strip()
            text = text.split(" caused exception ", 1)[-1].replace("paraparser: ", "").split(" attrMap=")[0]
            text = " ".join(text.split())
            attribute = re.search(r"invalid attribute name (\S+)", text)
            self.error(el, f"<{el.tag if el is not None else 'p'}>: inline markup reportlab cannot read: {text}",
                       f"{attribute[1]}=" if attribute else "")
            return []

    # ------------------------------------------------------------ inventory
    def inventory(self) -> list:
        st = self.st
        out = []
        grand = 0
        expected_total = 0
        cards = self.rows["cards"]
        for name, deck in self.manifest.decks.items():
            rows = [c for c in cards if c.deck == name]
            if not rows:
                continue
            cols = [c for c in ("color", "number", "symbol") if c in deck.columns]
            extra = [c for c in deck.columns if c not in ("color", "number", "symbol", "requires", "effect", "text")
                     and deck.columns[c].type in ("choice", "int")]
            middle = [*cols, *extra]
            # more columns than fit beside id, name and count: the table is split into
            # parts of MIDDLE_COLUMNS columns each, every part repeating id, name and count
            per = self.middle_columns
            parts = [middle[i:i + per] for i in range(0, len(middle), per)] or [[]]
            total = sum(c.count for c in rows)
            grand += total
            expected = self.manifest.expected(name, self.expansions)
            expected_total += expected or 0
            if expected is None:
                verdict = ""
            elif expected == total:
                verdict = f" ({deck.expected_source}: {expected}, matches)"
            else:
                diff = total - expected
                verdict = (f" <font color='#c1121f'>({deck.expected_source}: {expected}, "
                           f"{abs(diff)} {'too many' if diff > 0 else 'missing'})</font>")
            label = _xml(deck.label)
            out += [CondPageBreak(40 * mm), Heading(f"{label} ({total})", st["h3"])]
            for number, part in enumerate(parts, 1):
                if number > 1:
                    out.append(Paragraph(f"{label}, continued ({number}/{len(parts)}): "
                                         f"{_xml(', '.join(part))}", st["small"]))
                last = number == len(parts)
                t = self.inventory_table(rows, part, last and
                                         f"<b>{label}: {_plural(len(rows), 'design')}, "
                                         f"{_plural(total, 'component')}{verdict}</b>", fitted=len(parts) > 1)
                out += [t, Spacer(1, 3 * mm)]
        summary = f"<b>All components: {grand}</b>"
        if expected_total:
            summary += f" (expected: {expected_total})"
        out.append(Paragraph(summary, st["p"]))
        return out

    def rich(self, value: str) -> str:
        """A cell's text with its markup, as a paragraph sets it (``Kit.rich``)."""
        from .kit import Kit

        ensure_faces(*FAMILIES[self.manifest.font])  # <b> and <i> set the family's other faces
        return str(Kit(self.manifest, None, self.problems, icons=self.renderer.icons).rich(value))

    def inventory_table(self, rows: list, columns: list[str], summary: str | bool, fitted: bool = False) -> Table:
        """The inventory of one deck: id, name, ``columns``, count; a last row with
        ``summary`` when given.  ``fitted``: the middle columns as wide as their
        values need (within limits), for the parts of a split table."""
        st = self.st
        head = ["id", "name", *columns, "count"]
        data = [[Paragraph(_xml(h), st["cellb"]) for h in head]]
        cell = st["cell"]
        values = [[c.get(k) if c.get(k) not in (None, "") else "–" for k in columns] for c in rows]
        widths = _widths(len(head), len(columns), self.width)
        if fitted:
            widths = _fitted_widths(columns, values, cell, st["cellb"], self.width)
        for c, middle in zip(rows, values):
            vals = [c.id, c.name, *middle, c.count]
            # a value that fits on one line is drawn as a plain string (laying out a
            # paragraph per cell is most of the time of a large inventory)
            line = [str(v) if _fits(str(v), cell, w) else Paragraph(_xml(str(v)), cell)
                    for v, w in zip(vals, widths)]
            if _MARKUP.search(c.name):  # set as the cards set it: **bold**, *italic*, [red]colour[/]
                line[1] = Paragraph(self.rich(c.name), cell)
            data.append(line)
        if summary:
            data.append([Paragraph(summary, st["cell"])] + [""] * (len(head) - 1))
        style = [
            ("FONTNAME", (0, 0), (-1, -1), face(self.manifest.font)),
            ("FONTSIZE", (0, 1), (-1, -2 if summary else -1), cell.fontSize),
            ("LEADING", (0, 1), (-1, -2 if summary else -1), cell.leading),
            ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#bbbbbb")),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
        ]
        if summary:
            style += [("SPAN", (0, -1), (-1, -1)), ("BACKGROUND", (0, -1), (-1, -1), colors.HexColor("#f6f6f6"))]
        style += [("VALIGN", (0, 0), (-1, -1), "TOP"), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                  ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)]
        t = SplitTable(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
        t.tail = MIN_ROWS_APART + bool(summary)
        t.setStyle(TableStyle(style))
        return t

    # ------------------------------------------------------------ markup
    def flowables(self, root: ET.Element) -> list:
        out = []
        for el in root:
            out += self.element(el)
        return out

    def element(self, el: ET.Element) -> list:
        st = self.st
        tag = el.tag
        if tag in ("h1", "h2", "h3", "p", "small", "caption"):
            return self.para(_inner(el), st[tag], el)
        if tag == "ul":
            return [p for li in el.findall("li") for p in self.para(_inner(li), st["li"], li, bulletText="•")]
        if tag == "ol":
            return [p for i, li in enumerate(el.findall("li"), 1)
                    for p in self.para(_inner(li), st["li"], li, bulletText=f"{i}.")]
        if tag == "pagebreak":
            return [PageBreak()]
        if tag == "spacer":
            h = _mm(el.get("h"), 4, zero=True)
            if h is None:
                self.error(el, f"<spacer h=\"{el.get('h')}\">: give a height in mm", "<spacer")
                return []
            return [Spacer(1, h)]
        if tag == "inventory":
            return self.inventory()
        if tag == "keep":
            return [KeepTogether(self.flowables(el))]
        if tag == "table":
            return [self.table(el)]
        if tag == "figure":
            return self.figure(el)
        if tag == "card":
            return self.card_picture(el)
        if tag == "row":
            return [self.row(el)]
        self.error(el, f"unknown element <{tag}>; known: {', '.join(ELEMENTS)}", f"<{tag}")
        return []

    def table(self, el: ET.Element) -> Table:
        st = self.st
        header = el.get("header", "1") == "1"
        data = []
        for r, tr in enumerate(el.findall("tr")):
            cells = []
            for td in tr:
                if len(td) == 1 and td[0].tag in ("figure", "card"):
                    cells.append(self.element(td[0]))
                else:
                    cells.append(self.para(_inner(td), st["cellb" if header and r == 0 else "cell"], td, False))
            data.append(cells)
        if not data:
            self.error(el, "<table> has no <tr> rows", "<table")
            return Spacer(1, 0)
        columns = max(len(r) for r in data)
        data = [r + [""] * (columns - len(r)) for r in data]
        widths = None
        if el.get("widths"):
            try:
                widths = [float(w) * mm for w in el.get("widths", "").split(",")]
            except ValueError:
                self.error(el, f"<table widths=\"{el.get('widths')}\">: give column widths in mm, e.g. 20,60",
                           "widths=")
                return Spacer(1, 0)
            if len(widths) != columns or any(w <= 0 for w in widths):
                self.error(el, f"<table widths=\"{el.get('widths')}\">: {len(widths)} widths for {columns} "
                           "columns; give one positive width (mm) per column", "widths=")
                return Spacer(1, 0)
            if sum(widths) > self.width:  # narrower columns on a narrower page, in the same proportions
                widths = narrowed(widths, self.width)
        t = SplitTable(data, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
        style = [("FONTNAME", (0, 0), (-1, -1), face(self.manifest.font)),
                 ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#bbbbbb")),
                 ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                 ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]
        if header:
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")))
        t.setStyle(TableStyle(style))
        return t

    def row(self, el: ET.Element) -> Table:
        """Children side by side (e.g. several card pictures), in as many lines as the page's width needs."""
        cells = [self.element(child) for child in el]
        lines: list[list] = [[]]
        used = 0.0
        for cell in cells:
            # a picture's width; a caption under it wraps to that (a paragraph alone: its longest word)
            w = max((f.minWidth() if isinstance(f, Paragraph) else f.wrap(self.width, self.height)[0]
                     for f in cell), default=0.0) + 2 * ROW_PADDING
            if lines[-1] and used + w > self.width + 0.01:
                lines.append([])
                used = 0.0
            lines[-1].append(cell)
            used += w
        columns = max(len(line) for line in lines)
        t = Table([line + [""] * (columns - len(line)) for line in lines], hAlign="CENTER")
        t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), face(self.manifest.font)),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), ROW_PADDING),
                               ("RIGHTPADDING", (0, 0), (-1, -1), ROW_PADDING)]))
        return t

    def figure(self, el: ET.Element) -> list:
        svg_el = el.find("{http://www.w3.org/2000/svg}svg")
        if svg_el is None:
            svg_el = el.find("svg")
        if svg_el is None:
            self.problems.error(self.where, None, None, "<figure> needs an <svg> child")
            return []
        svg_el.set("xmlns", "http://www.w3.org/2000/svg") if "xmlns" not in svg_el.attrib else None
        svg = ET.tostring(svg_el, encoding="unicode")
        _, drawing = self.cache.picture(svg, self.where, self.problems)
        if drawing is None:
            return []
        width = _mm(el.get("width"), drawing.width / mm)
        if width is None:
            self.error(el, f"<figure width=\"{el.get('width')}\">: give a positive width in mm", "<figure")
            return []
        out = [self.sized(el, "<figure>", drawing, svg, width, turn=True, look_for="<figure")]
        if el.get("caption"):
            out.append(Paragraph(_xml(el.get("caption")), self.st["caption"]))
        return out

    def card_picture(self, el: ET.Element) -> list:
        deck_name = el.get("deck", "")
        card_id = el.get("id", "")
        side = el.get("side", "front")
        deck = self.manifest.decks.get(deck_name)
        card = next((c for c in self.game.cards if c.id == card_id and c.deck == deck_name), None)
        if deck is None or card is None:
            self.error(el, f"<card deck='{deck_name}' id='{card_id}'>: no such card", f"id=\"{card_id}\"")
            return []
        template = deck.back if side == "back" and deck.back else deck.front
        # (a card template that lists the deck sees the rows here too)
        svg = self.renderer.svg(template, deck, card, **self.rows)
        if svg is None:
            return []
        # a mistake in the card's SVG is the card template's (said once with the card's own)
        _, drawing = self.cache.picture(svg, f"templates/{self.game.slug}/{template} ({card.id})", self.problems)
        if drawing is None:
            return []
        width = _mm(el.get("width"), 30)
        if width is None:
            self.error(el, f"<card width=\"{el.get('width')}\">: give a positive width in mm", f"id=\"{card_id}\"")
            return []
        return [self.sized(el, f"<card id=\"{card_id}\">", drawing, svg, width, turn=True,
                           look_for=f"id=\"{card_id}\"")]


CELL_PADDING = 12  # the table's left and right padding, points
CELL_TEXTS = 5  # a table's cell (laid out once: it never flows over pages) holds this many texts' characters at most
ROW_PADDING = 3  # points either side of each picture of a <row>
#: Columns of an inventory table besides id, name and count (at most; fewer on a narrow page); a deck with more
#: is split into several tables.
MIDDLE_COLUMNS = 5
INVENTORY_FIXED = 42 * mm  # the id and count columns of an inventory table
INVENTORY_NAME = 38 * mm  # the least an inventory's name column keeps
INVENTORY_COLUMN = 20 * mm  # one of its middle columns


#: The characters that may start markup in a cell (the text engine reads a cell without them as plain words).
_MARKUP = re.compile(r"[*\[\]:~\\]")


def _fits(text: str, style: ParagraphStyle, width: float) -> bool:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return "\n" not in text and stringWidth(text, style.fontName, style.fontSize) <= width - CELL_PADDING


#: The elements of a reference sheet, as docs/format.md lists them.
ELEMENTS = ("h1", "h2", "h3", "p", "small", "caption", "ul", "ol", "table", "figure", "card", "row", "keep", "spacer",
            "pagebreak", "inventory")


def _mm(value: str | None, default: float, zero: bool = False) -> float | None:
    """A length attribute in mm, in points; None when it is not a usable number."""
    if value is None:
        return default * mm
    try:
        n = float(value)
    except ValueError:
        return None
    return n * mm if (n > 0 or zero and n == 0) and n < 10_000 else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _widths(n: int, middle: int, usable: float) -> list[float]:
    fixed = [28 * mm, 0, *([INVENTORY_COLUMN] * middle), 14 * mm]
    fixed[1] = usable - sum(fixed)
    return fixed[:n]


def _fitted_widths(columns: list[str], values: list[list], cell: ParagraphStyle, head: ParagraphStyle,
                   usable: float) -> list[float]:
    """id, name, the middle columns as wide as their longest value or header
    (20 to 50 mm, narrower when they would leave the name less than 38 mm), count."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    fixed, name_min = INVENTORY_FIXED, INVENTORY_NAME
    natural = []
    for i, column in enumerate(columns):
        need = max([stringWidth(column, head.fontName, head.fontSize)] +
                   [stringWidth(str(r[i]), cell.fontName, cell.fontSize) for r in values]) + CELL_PADDING
        natural.append(min(max(need, 20 * mm), 50 * mm))
    room = usable - fixed - name_min
    if sum(natural) > room:
        natural = [w * room / sum(natural) for w in natural]
    return [28 * mm, usable - fixed - sum(natural), *natural, 14 * mm]


#: What the flowables reportlab names are, in the reference template's words.
_FLOWABLES = {"DrawingFlowable": "a <figure> or <card>", "Table": "a <row>", "SplitTable": "a <table>",
              "Paragraph": "a paragraph", "Heading": "a heading", "KeepTogether": "a <keep>"}


def layout_problem(text: str) -> str:
    """reportlab's layout error in the template's words: what is too large, and the room there is."""
    if text.startswith(LAYOUT_TIME):
        return f"{text}; make it shorter or split it with <pagebreak/>"
    found = re.search(r"<(\w+)(?: at |@).*?\(([\d.]+) x ([\d.]+)\)(?:, tallest cell [\d.]+ points,)?\s+too large on "
                      r"page (\d+) in frame '\w+'\(([\d.]+) x ([\d.]+)", text, re.S)
    if found is None:
        text = " ".join(re.sub(r"@0x[0-9A-Fa-f]+| at 0x[0-9A-Fa-f]+", "", text).split())  # no object's address
        return f"{text[:200]}{'...' if len(text) > 200 else ''}; make the element smaller"
    kind, w, h, page, fw, fh = found.groups()
    what = _FLOWABLES.get(kind, f"an element ({kind})")
    return (f"{what} of {float(w) / mm:.0f} x {float(h) / mm:.0f} mm does not fit a page "
            f"({float(fw) / mm:.0f} x {float(fh) / mm:.0f} mm of room, page {page}); make it smaller")


#: A cell longer than this may not fit one page of a reference sheet's table or paragraph.
LONG_CELL = 1_000


def _long_cells(cards) -> list[tuple]:
    """(card, column, characters) of every cell longer than ``LONG_CELL``."""
    out = []
    for card in cards:
        for column in ("name", "text", *(k for k, _ in card.extra)):
            value = card.get(column)
            if isinstance(value, str) and len(value) > LONG_CELL:
                out.append((card, column, len(value)))
    return out


class Heading(Paragraph):
    """A heading (``keepWithNext`` in its style): kept with the start of what follows it.  The
    parts of one too long for a page keep with nothing: reportlab keeps each part with what
    follows it again, and a part that still does not fit a page was put on a new page without
    end."""

    def split(self, aW, aH):
        parts = super().split(aW, aH)
        for part in parts:
            part.keepWithNext = 0
        return parts


def loose_ends(story: list) -> list:
    """The story with the headings that have nothing to be kept with set loose: the last ones of
    the story, or of a ``<keep>`` at its end, and those before a ``<keep>`` (which reportlab does
    not group with them).  reportlab keeps such a heading with nothing but itself, and one taller
    than a page was moved to a new page without end (a heading of a thousand words took the
    reference sheet forever)."""
    run: list = []

    def loosen() -> None:
        for heading in run:
            heading.keepWithNext = 0
        run.clear()

    def visit(flowables: list) -> None:
        for flowable in flowables:
            if isinstance(flowable, _CONTAINERS):
                loosen()
                visit(flowable._content)  # laid out in the story's stream where it is split over pages
            elif flowable.getKeepWithNext():
                run.append(flowable)
            else:
                run.clear()

    visit(story)
    loosen()
    return story


class BoundedDocTemplate(SimpleDocTemplate):
    """A document laid out within the time a reference sheet may take (``Limits.seconds``): past
    it, a ``LayoutError`` (whatever reportlab was doing with the story, it does not end)."""

    def handle_flowable(self, flowables):
        deadline = getattr(self, "_pnp_deadline", None)
        if deadline is None:
            deadline = self._pnp_deadline = time.monotonic() + in_force().seconds
        elif time.monotonic() > deadline:
            raise LayoutError(f"{LAYOUT_TIME} {in_force().seconds:g} s")
        return super().handle_flowable(flowables)


#: What the layout error of a reference sheet laid out past its time starts with.
LAYOUT_TIME = "laying it out took more than"
#: The flowables of a story reportlab does not keep a heading with (``doctemplate._ktAllow``): a <keep>.
_CONTAINERS = (KeepTogether,)


def build_reference(game: Game, expansions: set[str] | None, page: str, problems: Problems, cache: DrawingCache,
                    digest: str) -> tuple[bytes | None, int]:
    """The reference PDF bytes and its page count; (None, 0) when ``problems``
    has errors (the template's, or earlier ones)."""
    use_fonts(game.manifest)  # the game's own families, if it has any
    register_fonts(game.manifest.font)
    rb = ReferenceBuilder(game, expansions, problems, cache)
    rb.width = page_size(page)[0] * mm - 2 * MARGIN
    rb.height = page_size(page)[1] * mm - 2 * MARGIN - FRAME_PADDING
    story = []
    if game.manifest.reference:
        xml = rb.renderer.svg(game.manifest.reference, None, None, **rb.rows, languages=game.manifest.languages)
        if xml is not None and re.search(r"<i[ >]", xml):
            ensure_faces(*FAMILIES[game.manifest.font])  # <i> in a paragraph sets the italic faces
        if xml is not None:
            try:
                root, rb.lines = parse_lines(xml)
            except ET.ParseError as exc:
                problems.error(rb.where, None, None, f"the template gave invalid XML: {exc} (line "
                               f"{exc.position[0]} of the XML it gave)" if hasattr(exc, "position") else
                               f"the template gave invalid XML: {exc}")
                root = None
            if root is not None:
                story = rb.flowables(root)
    else:
        story = [Heading(f"{_xml(game.title)}: card inventory", rb.st["h1"]), *rb.inventory()]
    if problems.errors:
        return None, 0
    page_w, page_h = page_size(page)
    buffer = io.BytesIO()
    title = game.title
    pages = {"n": 0}

    def footer(canvas, doc):
        # printed at actual size, like the card sheets: the page is what is cut (to the paper's edge)
        canvas.setTrimBox((0, 0, page_w * mm, page_h * mm))
        canvas.setViewerPreference("PrintScaling", "None")
        canvas.saveState()
        canvas.setFont(DEFAULT_FONT, 7)
        canvas.setFillColorRGB(0.4, 0.4, 0.4)
        canvas.drawCentredString(page_w * mm / 2, 8 * mm, f"{title} · reference · page {doc.page} · {digest}")
        canvas.restoreState()
        pages["n"] = doc.page

    doc = BoundedDocTemplate(buffer, pagesize=(page_w * mm, page_h * mm), leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN, bottomMargin=MARGIN, title=f"{title} - reference", author="pnp",
                            creator="pnp print-and-play toolchain", invariant=True, initialFontName=DEFAULT_FONT)
    try:
        doc.build(loose_ends(keep_starts(story)), onFirstPage=footer, onLaterPages=footer, canvasmaker=PictureCanvas)
    except (LayoutError, ValueError) as exc:  # something the template asked for that cannot be laid out
        long = _long_cells(rb.rows["cards"])
        for card, column, size in long:  # a cell too long for a page: the cell's mistake, not the template's
            problems.error(card.sheet, card.row, column, f"'{card.id}': {size:,} characters; the reference sheet "
                           f"cannot lay so long a value out on one {page} page; shorten it")
        if not long:  # a warning: the card sheets are written all the same, without a reference sheet for this page
            problems.warn(rb.where, None, None, f"the reference sheet cannot be laid out on {page}, so it is left "
                          f"out: {layout_problem(str(exc))}")
        return None, 0
    return buffer.getvalue(), pages["n"]
