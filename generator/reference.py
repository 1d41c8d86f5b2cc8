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
from xml.etree import ElementTree as ET

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (CondPageBreak, Flowable, KeepTogether, PageBreak, Paragraph, SimpleDocTemplate,
                                Spacer, Table, TableStyle)

from model.errors import Problems
from model.sheets import Game

from .fonts import DEFAULT_FONT, FAMILIES, ensure_faces, face, register_fonts
from .layout import page_size
from .displaylist import draw_picture
from .render import DrawingCache, Renderer, use_fonts

MARGIN = 15 * mm


def styles(family: str) -> dict[str, ParagraphStyle]:
    regular, bold = face(family), face(family, True)
    base = ParagraphStyle("body", fontName=regular, bulletFontName=regular, fontSize=9.5, leading=12.5, spaceAfter=3)
    return {
        "h1": ParagraphStyle("h1", parent=base, fontName=bold, fontSize=20, leading=24, spaceAfter=6),
        "h2": ParagraphStyle("h2", parent=base, fontName=bold, fontSize=13.5, leading=17, spaceBefore=8,
                             spaceAfter=4, textColor=colors.HexColor("#222222")),
        "h3": ParagraphStyle("h3", parent=base, fontName=bold, fontSize=10.5, leading=13.5, spaceBefore=5,
                             spaceAfter=2),
        "p": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "li": ParagraphStyle("li", parent=base, leftIndent=10, bulletIndent=2, spaceAfter=1.5),
        "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5, spaceAfter=0),
        "cellb": ParagraphStyle("cellb", parent=base, fontName=bold, fontSize=8.5, leading=10.5, spaceAfter=0),
        "caption": ParagraphStyle("caption", parent=base, fontSize=8, leading=10, alignment=TA_CENTER),
    }


def _inner(el: ET.Element) -> str:
    """The inline markup inside an element, as reportlab's paragraph parser takes it."""
    text = (el.text or "")
    for child in el:
        text += ET.tostring(child, encoding="unicode")
    return text.strip()


class DrawingFlowable(Flowable):
    """A reportlab Drawing (or its display list) scaled to a width in points, centred or left-aligned."""

    def __init__(self, drawing, width: float, align: str = "CENTER"):
        super().__init__()
        self.drawing = drawing
        self.scale = width / drawing.width if drawing.width else 1.0
        self.width = width
        self.height = drawing.height * self.scale
        self.hAlign = align

    def wrap(self, aw, ah):
        return self.width, self.height

    def draw(self):
        self.canv.saveState()
        self.canv.scale(self.scale, self.scale)
        draw_picture(self.canv, self.drawing)
        self.canv.restoreState()


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

    # ------------------------------------------------------------ inventory
    def inventory(self) -> list:
        st = self.st
        out = []
        grand = 0
        expected_total = 0
        cards = self.game.select(self.expansions)
        for name, deck in self.manifest.decks.items():
            rows = [c for c in cards if c.deck == name]
            if not rows:
                continue
            cols = [c for c in ("color", "number", "symbol") if c in deck.columns]
            extra = [c for c in deck.columns if c not in ("color", "number", "symbol", "requires", "effect", "text")
                     and deck.columns[c].type in ("choice", "int")]
            head = ["id", "name", *cols, *extra, "count"]
            data = [[Paragraph(h, st["cellb"]) for h in head]]
            widths = _widths(len(head), len(cols) + len(extra))
            cell = st["cell"]
            for c in rows:
                vals = [c.id, c.name, *[c.get(k) if c.get(k) not in (None, "") else "–" for k in cols],
                        *[c.get(k) if c.get(k) not in (None, "") else "–" for k in extra], c.count]
                # a value that fits on one line is drawn as a plain string (laying out a
                # paragraph per cell is most of the time of a large inventory)
                data.append([str(v) if _fits(str(v), cell, w) else Paragraph(_xml(str(v)), cell)
                             for v, w in zip(vals, widths)])
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
            data.append([Paragraph(f"<b>{deck.label}: {_plural(len(rows), 'design')}, {_plural(total, 'component')}{verdict}</b>",
                                   st["cell"])] + [""] * (len(head) - 1))
            t = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
            t.setStyle(TableStyle([
                ("FONTNAME", (0, 0), (-1, -1), face(self.manifest.font)),
                ("FONTSIZE", (0, 1), (-1, -2), cell.fontSize),
                ("LEADING", (0, 1), (-1, -2), cell.leading),
                ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#bbbbbb")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")),
                ("SPAN", (0, -1), (-1, -1)),
                ("BACKGROUND", (0, -1), (-1, -1), colors.HexColor("#f6f6f6")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
            ]))
            out += [CondPageBreak(40 * mm), Paragraph(f"{deck.label} ({total})", st["h3"]), t, Spacer(1, 3 * mm)]
        summary = f"<b>All components: {grand}</b>"
        if expected_total:
            summary += f" (expected: {expected_total})"
        out.append(Paragraph(summary, st["p"]))
        return out

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
            return [Paragraph(_inner(el), st[tag])]
        if tag == "ul":
            return [Paragraph(_inner(li), st["li"], bulletText="•") for li in el.findall("li")]
        if tag == "ol":
            return [Paragraph(_inner(li), st["li"], bulletText=f"{i}.") for i, li in enumerate(el.findall("li"), 1)]
        if tag == "pagebreak":
            return [PageBreak()]
        if tag == "spacer":
            return [Spacer(1, float(el.get("h", "4")) * mm)]
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
        self.problems.error(self.where, None, None, f"unknown element <{tag}>; known: h1, h2, h3, p, small, caption, "
                            "ul, ol, table, figure, card, row, keep, spacer, pagebreak, inventory")
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
                    cells.append(Paragraph(_inner(td), st["cellb" if header and r == 0 else "cell"]))
            data.append(cells)
        widths = [float(w) * mm for w in el.get("widths", "").split(",")] if el.get("widths") else None
        t = Table(data, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
        style = [("FONTNAME", (0, 0), (-1, -1), face(self.manifest.font)),
                 ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#bbbbbb")),
                 ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                 ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]
        if header:
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eeeeee")))
        t.setStyle(TableStyle(style))
        return t

    def row(self, el: ET.Element) -> Table:
        """Children side by side (e.g. several card pictures)."""
        cells = [self.element(child) for child in el]
        t = Table([cells], hAlign="CENTER")
        t.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), face(self.manifest.font)),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 3),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 3)]))
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
        width = float(el.get("width", str(drawing.width / mm))) * mm
        out = [DrawingFlowable(drawing, width, el.get("align", "CENTER"))]
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
            self.problems.error(self.where, None, None, f"<card deck='{deck_name}' id='{card_id}'>: no such card")
            return []
        template = deck.back if side == "back" and deck.back else deck.front
        svg = self.renderer.svg(template, deck, card)
        if svg is None:
            return []
        _, drawing = self.cache.picture(svg, self.where, self.problems)
        if drawing is None:
            return []
        return [DrawingFlowable(drawing, float(el.get("width", "30")) * mm)]


CELL_PADDING = 12  # the table's left and right padding, points


def _fits(text: str, style: ParagraphStyle, width: float) -> bool:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return "\n" not in text and stringWidth(text, style.fontName, style.fontSize) <= width - CELL_PADDING


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _widths(n: int, middle: int) -> list[float]:
    usable = 180 * mm
    fixed = [28 * mm, 0, *([20 * mm] * middle), 14 * mm]
    fixed[1] = usable - sum(fixed)
    return fixed[:n]


def build_reference(game: Game, expansions: set[str] | None, page: str, problems: Problems, cache: DrawingCache,
                    digest: str) -> tuple[bytes | None, int]:
    """The reference PDF bytes and its page count; (None, 0) when ``problems``
    has errors (the template's, or earlier ones)."""
    use_fonts(game.manifest)  # the game's own families, if it has any
    register_fonts(game.manifest.font)
    rb = ReferenceBuilder(game, expansions, problems, cache)
    story = []
    if game.manifest.reference:
        xml = rb.renderer.svg(game.manifest.reference, None, None, cards=game.select(expansions),
                              decks={name: game.deck(name, expansions) for name in game.manifest.decks},
                              languages=game.manifest.languages)
        if xml is not None and re.search(r"<i[ >]", xml):
            ensure_faces(*FAMILIES[game.manifest.font])  # <i> in a paragraph sets the italic faces
        if xml is not None:
            try:
                root = ET.fromstring(xml)
            except ET.ParseError as exc:
                problems.error(rb.where, exc.position[0], None, f"the template gave invalid XML: {exc}")
                root = None
            if root is not None:
                story = rb.flowables(root)
    else:
        story = [Paragraph(f"{_xml(game.title)}: card inventory", rb.st["h1"]), *rb.inventory()]
    if problems.errors:
        return None, 0
    page_w, page_h = page_size(page)
    buffer = io.BytesIO()
    title = game.title
    pages = {"n": 0}

    def footer(canvas, doc):
        canvas.saveState()
        canvas.setFont(DEFAULT_FONT, 7)
        canvas.setFillColorRGB(0.4, 0.4, 0.4)
        canvas.drawCentredString(page_w * mm / 2, 8 * mm, f"{title} · reference · page {doc.page} · {digest}")
        canvas.restoreState()
        pages["n"] = doc.page

    doc = SimpleDocTemplate(buffer, pagesize=(page_w * mm, page_h * mm), leftMargin=MARGIN, rightMargin=MARGIN,
                            topMargin=MARGIN, bottomMargin=MARGIN, title=f"{title} - reference", author="pnp",
                            creator="pnp print-and-play toolchain", invariant=True, initialFontName=DEFAULT_FONT)
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue(), pages["n"]
