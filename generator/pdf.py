"""reportlab canvases: print-ready sheets of components.

Each distinct drawing becomes one PDF form XObject, drawn once and placed for
every copy.  Pages carry TrimBox and BleedBox, crop marks (or full cut lines
where the layout says so), a dashed fold line on gutterfold pages, a footer
inside the printable area, embedded fonts only, and the document asks viewers
not to scale when printing.  A proof page also outlines each component's trim
line, its safe area and the text boxes whose text did not fit.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .displaylist import draw_picture
from .fonts import DEFAULT_FAMILY, DEFAULT_FONT, register_fonts
from .layout import FOOTER_BASELINE, SAFE_MARGIN, Rect, Sheet, Slot

MARK_WIDTH_PT = 0.3
FOLD_WIDTH_PT = 0.4
FOOTER_SIZE_PT = 6.0
PROOF_TRIM = (0.85, 0.0, 0.0)  # red: the cut
PROOF_SAFE = (0.0, 0.35, 0.9)  # blue, dashed: keep what matters inside
PROOF_OVERFLOW = (0.9, 0.0, 0.75)  # magenta, thick: text that did not fit


@dataclass
class Placement:
    slot: Slot
    key: str  # drawing-cache key
    shape: str = "rect"  # the component's shape, for proofs
    boxes: tuple = ()  # proofs: (x, y, w, h) in the design's millimetres (origin top-left of the bleed)


@dataclass
class Page:
    sheet: Sheet
    placements: list[Placement]
    footer: str
    marks: bool = True
    proof: bool = False


def new_canvas(buffer: io.BytesIO, page_w: float, page_h: float, title: str, subject: str) -> Canvas:
    register_fonts(DEFAULT_FAMILY)  # the footer's; a drawing's own fonts are registered as it is drawn
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
            picture = self.drawings.picture(key) if hasattr(self.drawings, "picture") else self.drawings[key]
            self.c.beginForm(name, 0, 0, picture.width, picture.height)
            draw_picture(self.c, picture, lambda: self.drawings[key])  # a display list is replayed
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
            if page.proof:
                self._proof(p, bleed)
            c.restoreState()
        if page.marks:
            c.setLineWidth(MARK_WIDTH_PT)
            c.setStrokeColorRGB(0, 0, 0)
            for m in sheet.marks + sheet.cut_lines:
                c.line(m.x0 * mm, m.y0 * mm, m.x1 * mm, m.y1 * mm)
        if sheet.folds:
            c.saveState()
            c.setLineWidth(FOLD_WIDTH_PT)
            c.setStrokeColorRGB(0.45, 0.45, 0.45)
            c.setDash(3, 2)
            for f in sheet.folds:
                c.line(f.x0 * mm, f.y0 * mm, f.x1 * mm, f.y1 * mm)
            c.restoreState()
        c.setFont(DEFAULT_FONT, FOOTER_SIZE_PT)
        c.setFillColorRGB(0.35, 0.35, 0.35)
        c.drawCentredString(sheet.page_w / 2 * mm, (sheet.printer_margin + FOOTER_BASELINE) * mm, page.footer)
        c.showPage()

    def _proof(self, p: Placement, bleed: float) -> None:
        """Trim line, safe area and overflowing text boxes, in the placed form's coordinates."""
        c = self.c
        trim = p.slot.trim
        full_h = trim.h + 2 * bleed
        c.setDash()
        for color, inset, width, dash in ((PROOF_TRIM, 0.0, 0.35, None), (PROOF_SAFE, SAFE_MARGIN, 0.35, (2, 1.5))):
            w, h = trim.w - 2 * inset, trim.h - 2 * inset
            if w <= 0 or h <= 0:
                continue
            c.setStrokeColorRGB(*color)
            c.setLineWidth(width)
            c.setDash(*dash) if dash else c.setDash()
            x, y = (bleed + inset) * mm, (bleed + inset) * mm
            if p.shape == "circle":
                c.ellipse(x, y, x + w * mm, y + h * mm, stroke=1, fill=0)
            else:
                c.rect(x, y, w * mm, h * mm, stroke=1, fill=0)
        c.setDash()
        c.setStrokeColorRGB(*PROOF_OVERFLOW)
        c.setLineWidth(0.9)
        for x, y, w, h in p.boxes:
            c.rect(x * mm, (full_h - y - h) * mm, w * mm, h * mm, stroke=1, fill=0)
