"""reportlab canvases: print-ready sheets of components.

Each distinct drawing becomes one PDF form XObject, drawn once and placed for
every copy.  Pages carry TrimBox and BleedBox, crop marks, a footer, embedded
fonts only, and the document asks viewers not to scale when printing.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.graphics import renderPDF
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .fonts import DEFAULT_FONT, register_fonts
from .layout import Rect, Sheet, Slot

MARK_WIDTH_PT = 0.3
FOOTER_SIZE_PT = 6.0


@dataclass
class Placement:
    slot: Slot
    key: str  # drawing-cache key


@dataclass
class Page:
    sheet: Sheet
    placements: list[Placement]
    footer: str
    marks: bool = True


def new_canvas(buffer: io.BytesIO, page_w: float, page_h: float, title: str, subject: str) -> Canvas:
    register_fonts()
    c = Canvas(buffer, pagesize=(page_w * mm, page_h * mm), invariant=True, initialFontName=DEFAULT_FONT,
               initialFontSize=FOOTER_SIZE_PT, pageCompression=1)
    c.setTitle(title)
    c.setSubject(subject)
    c.setAuthor("pnp")
    c.setCreator("pnp print-and-play toolchain")
    c.setViewerPreference("PrintScaling", "None")
    return c


def _give_form_its_graphics_states(canvas: Canvas, name: str) -> None:
    """reportlab writes a form's fonts and XObjects into its resources but not
    its ExtGState (transparency), so a form using opacity would name graphics
    states the PDF never defines.  Build the resources ourselves."""
    from reportlab.pdfbase import pdfdoc

    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    states = getattr(form, "ExtGState", None)
    if not states:
        return
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = states
    form.Resources = resources


def _box(r: Rect) -> tuple[float, float, float, float]:
    return (r.x * mm, r.y * mm, r.right * mm, r.top * mm)


class SheetWriter:
    """Writes pages of placed drawings into one PDF."""

    def __init__(self, canvas: Canvas, drawings: dict):
        self.c = canvas
        self.drawings = drawings
        self.forms: dict[str, str] = {}

    def _form(self, key: str) -> str:
        name = self.forms.get(key)
        if name is None:
            name = f"D{len(self.forms)}"
            d = self.drawings[key]
            self.c.beginForm(name, 0, 0, d.width, d.height)
            renderPDF.draw(d, self.c, 0, 0)
            self.c.endForm()
            _give_form_its_graphics_states(self.c, name)
            self.forms[key] = name
        return name

    def page(self, page: Page) -> None:
        c = self.c
        sheet = page.sheet
        c.setPageSize((sheet.page_w * mm, sheet.page_h * mm))
        c.setTrimBox(_box(sheet.trim_box))
        c.setBleedBox(_box(sheet.bleed_box))
        for p in page.placements:
            form = self._form(p.key)
            s = p.slot
            bleed = sheet.bleed
            c.saveState()
            path = c.beginPath()
            path.rect(s.clip.x * mm, s.clip.y * mm, s.clip.w * mm, s.clip.h * mm)
            c.clipPath(path, stroke=0, fill=0)
            if s.rotation == 180:
                c.translate((s.trim.right + bleed) * mm, (s.trim.top + bleed) * mm)
                c.rotate(180)
            else:
                c.translate((s.trim.x - bleed) * mm, (s.trim.y - bleed) * mm)
            c.doForm(form)
            c.restoreState()
        if page.marks:
            c.setLineWidth(MARK_WIDTH_PT)
            c.setStrokeColorRGB(0, 0, 0)
            for m in sheet.marks:
                c.line(m.x0 * mm, m.y0 * mm, m.x1 * mm, m.y1 * mm)
        c.setFont(DEFAULT_FONT, FOOTER_SIZE_PT)
        c.setFillColorRGB(0.35, 0.35, 0.35)
        c.drawCentredString(sheet.page_w / 2 * mm, 1.0 * mm, page.footer)
        c.showPage()
