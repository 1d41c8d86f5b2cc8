"""reportlab canvases: print-ready sheets of components.

Each distinct drawing becomes one PDF form XObject, drawn once and placed for
every copy.  Pages carry TrimBox and BleedBox, crop marks (or full cut lines
where the layout says so), a dashed fold line on gutterfold pages, a footer
inside the printable area, embedded fonts only, and the document asks viewers
not to scale when printing.  A proof page also outlines each component's trim
line, its safe area and the text boxes whose text did not fit.
"""

from __future__ import annotations

import hashlib
import io
import marshal
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from ..art.fonts import DEFAULT_FAMILY, DEFAULT_FONT, register_fonts
from ..draw.canvas import PictureCanvas, end_form, give_form_its_graphics_states
from ..draw.displaylist import draw_picture
from .layout import FOOTER_BAND, FOOTER_BASELINE, SAFE_MARGIN, Rect, Sheet, Slot

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
    c = PictureCanvas(buffer, pagesize=(page_w * mm, page_h * mm), invariant=True, initialFontName=DEFAULT_FONT,
                      initialFontSize=FOOTER_SIZE_PT, pageCompression=1)
    c.setTitle(title)
    c.setSubject(subject)
    c.setAuthor("pnp")
    c.setCreator("pnp print-and-play toolchain")
    c.setViewerPreference("PrintScaling", "None")
    return c


def _box(r: Rect) -> tuple[float, float, float, float]:
    return (r.x * mm, r.y * mm, r.right * mm, r.top * mm)


# ---------------------------------------------------------------- kept form streams
#: the layout of a kept form stream (``FormStream.dumps``); another value is not read
FORM_FORMAT = 2


@dataclass(frozen=True)
class FormStream:
    """A design's form XObject as running its display list wrote it, kept so that a
    later document can take the content instead of running the list again.

    The content names fonts by the document's subset names and encodes text in the
    document's subset codes, both given in order of first use.  So the strings the
    form draws are kept with it (``texts``: font name and text, in order), and a
    digest of what encoding them gave (``signature``).  In a new document,
    ``applies`` encodes the same strings in the same order - what running the list
    would do to the document's fonts - and the content is taken only when that
    gives the same subset names and codes: the bytes are then the ones a run
    writes.  Otherwise the list is run as usual (encoding the strings again
    changes nothing)."""

    width: float
    height: float
    content: bytes  # the form's stream after the canvas preamble
    texts: tuple  # ((font name, text), ...) in the order drawn
    signature: bytes
    states: tuple  # ((graphics state name, key, value), ...): the form's ExtGState entries
    transparent: bool  # the form asked the document for transparency
    canvas_font: tuple  # (font name, size) of the canvas the form was made on
    pictures: tuple = ()  # ((kind, digest), ...): the picture files the content draws (``pictures.py``)

    def dumps(self) -> bytes:
        return marshal.dumps((FORM_FORMAT, self.width, self.height, self.content, self.texts, self.signature,
                              self.states, self.transparent, self.canvas_font, self.pictures))

    @classmethod
    def loads(cls, data: bytes) -> "FormStream | None":
        try:
            value = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return None
        if type(value) is not tuple or len(value) != 10 or value[0] != FORM_FORMAT:
            return None
        form = cls(*value[1:])
        if type(form.content) is not bytes or type(form.texts) is not tuple or type(form.signature) is not bytes:
            return None
        from ..draw.displaylist import PICTURE_KINDS

        if type(form.pictures) is not tuple or not all(
                type(p) is tuple and len(p) == 2 and p[0] in PICTURE_KINDS and type(p[1]) is str
                and len(p[1]) == 32 for p in form.pictures):
            return None
        return form

    def applies(self, canvas: Canvas) -> bool:
        return (canvas._fontname, canvas._fontsize) == self.canvas_font and _encode(canvas, self.texts) == self.signature


def _encode(canvas: Canvas, texts) -> bytes | None:
    """Encode ``texts`` in the canvas's document as drawing them does (subset codes and
    names given on first use); a digest of the result, or None when a font is not an
    embedded TrueType font."""
    from reportlab.pdfbase.pdfmetrics import getFont

    from ..art.fonts import ensure_faces

    ensure_faces(*{name for name, _ in texts})  # a kept form may be the first to use a face in this process
    doc = canvas._doc
    h = hashlib.blake2b(digest_size=16)
    fonts: dict = {}
    for name, text in texts:
        font = fonts.get(name)
        if font is None:
            font = fonts[name] = getFont(name)
            if not getattr(font, "_dynamicFont", False):
                return None
        h.update(name.encode())
        for subset, chunk in font.splitString(text, doc):
            h.update(b"\0")
            h.update(font.getSubsetInternalName(subset, doc).encode())
            h.update(b"\1")
            h.update(chunk)
        h.update(b"\2")
    return h.digest()


def _kept_form(canvas: Canvas, name: str, picture, texts: list) -> FormStream | None:
    """What to keep of the form just made from a display list; None when it uses more than
    its own content, fonts and picture files (other forms, colour spaces, shadings, annotations)."""
    from reportlab.pdfbase import pdfdoc

    from ..draw.displaylist import pictures_of
    from ..draw.canvas import xobject_name

    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    used = tuple(pictures_of(picture))
    if form.XObjects and set(form.XObjects.dict) != {pdfdoc.xObjectName(xobject_name(d)) for _, d in used}:
        return None
    if form.Annots or getattr(form, "_colorsUsed", None) or getattr(form, "_shadingUsed", None):
        return None
    preamble = pdfdoc.pdfdocEnc(canvas._preamble)
    stream = form.stream
    if not isinstance(stream, bytes) or not stream.startswith(preamble + b"\n"):
        return None
    signature = _encode(canvas, texts)
    if signature is None:
        return None
    states = []
    ext = getattr(form, "ExtGState", None)
    if ext:
        for state_name, entry in ext.dict.items():
            ((key, value),) = entry.dict.items()
            if not isinstance(value, (bool, int, float, str)):
                return None
            states.append((state_name, key, value))
    # running the list asks for transparency at any opacity it sets, even one that writes no state
    transparent = any(type(op) is tuple and op[0] == "a" and op[1] in ("ca", "CA") for op in picture.program)
    return FormStream(float(picture.width), float(picture.height), stream[len(preamble) + 1:], tuple(texts), signature,
                      tuple(states), transparent, (canvas._fontname, canvas._fontsize), used)


def _add_kept_form(canvas: Canvas, name: str, kept: FormStream) -> None:
    """Add ``kept`` to the document as the form ``name``, as beginForm ... endForm would."""
    from reportlab.pdfbase import pdfdoc

    from ..draw.canvas import xobject

    names = [xobject(canvas, kind, digest) for kind, digest in kept.pictures]  # each picture once per document
    form = pdfdoc.PDFFormXObject(lowerx=0, lowery=0, upperx=kept.width, uppery=kept.height)
    form.compression = canvas._pageCompression
    form.stream = pdfdoc.pdfdocEnc(canvas._preamble) + b"\n" + kept.content
    form._colorsUsed = {}
    form.ExtGState = (pdfdoc.PDFDictionary({n: pdfdoc.PDFDictionary({k: v}) for n, k, v in kept.states})
                      if kept.states else None)
    form.XObjects = canvas._doc.xobjDict(names) if names else None
    form.Annots = []
    if kept.transparent:
        canvas._doc.ensureMinPdfVersion("transparency")
    canvas._doc.addForm(name, form)
    canvas._currentPageHasImages = 1  # as entering and leaving a form leaves it


class SheetWriter:
    """Writes pages of placed drawings into one PDF.

    ``forms`` (with ``get_form(key)`` and ``put_form(key, FormStream)``, e.g. the
    build cache through ``designs.Drawings``) keeps each design's form stream:
    a design whose display list ran in an earlier document is added from it."""

    def __init__(self, canvas: Canvas, drawings: dict, forms=None):
        self.c = canvas
        self.drawings = drawings
        self.forms: dict[str, str] = {}
        self.kept = forms
        self.reused = 0  # forms taken from ``kept``

    def _form(self, key: str) -> str:
        name = self.forms.get(key)
        if name is None:
            name = f"D{len(self.forms)}"
            kept = self.kept.get_form(key) if self.kept is not None else None
            if kept is not None and kept.applies(self.c):
                _add_kept_form(self.c, name, kept)
                give_form_its_graphics_states(self.c, name)
                self.reused += 1
            else:
                picture = self.drawings.picture(key) if hasattr(self.drawings, "picture") else self.drawings[key]
                texts = [] if self.kept is not None else None
                self.c.beginForm(name, 0, 0, picture.width, picture.height)
                ran = draw_picture(self.c, picture, lambda: self.drawings[key], texts)  # a display list is run
                end_form(self.c, name)
                if ran and texts is not None:
                    made = _kept_form(self.c, name, picture, texts)
                    if made is not None:
                        self.kept.put_form(key, made)
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
            design_w, design_h = s.design_size
            c.saveState()
            path = c.beginPath()
            path.rect(s.clip.x * mm, s.clip.y * mm, s.clip.w * mm, s.clip.h * mm)
            c.clipPath(path, stroke=0, fill=0)
            if s.rotation:  # turned about the middle of its trim box
                c.translate((s.trim.x + s.trim.w / 2) * mm, (s.trim.y + s.trim.h / 2) * mm)
                c.rotate(s.rotation)
                c.translate(-(design_w / 2 + bleed) * mm, -(design_h / 2 + bleed) * mm)
            else:
                c.translate((s.trim.x - bleed) * mm, (s.trim.y - bleed) * mm)
            c.doForm(form)
            if page.proof:
                self._proof(p, design_w, design_h, bleed)
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
        baseline = sheet.printer_margin + FOOTER_BASELINE
        if sheet.footer_top:  # the band the fronts' footer band turns into
            baseline = sheet.page_h - sheet.printer_margin - FOOTER_BAND + FOOTER_BASELINE
        c.drawCentredString(sheet.page_w / 2 * mm, baseline * mm, page.footer)
        c.showPage()

    def _proof(self, p: Placement, design_w: float, design_h: float, bleed: float) -> None:
        """Trim line, safe area and overflowing text boxes, in the placed form's coordinates."""
        c = self.c
        full_h = design_h + 2 * bleed
        c.setDash()
        for color, inset, width, dash in ((PROOF_TRIM, 0.0, 0.35, None), (PROOF_SAFE, SAFE_MARGIN, 0.35, (2, 1.5))):
            w, h = design_w - 2 * inset, design_h - 2 * inset
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
