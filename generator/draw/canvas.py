"""The canvas every PDF is drawn on, and the picture files it places.

``PictureCanvas`` is reportlab's canvas with one more method, ``pnp_picture``: a
display list's picture call (``+picture``, ``displaylist.run_calls``) asks the canvas
it runs on to place the file, and this one adds each picture file to its document
once, however many designs use it (``xobject``).  A JPEG is embedded as it is (its
DCT data), a PNG by the image data ``art/pdfimages.py`` makes of it (with a soft
mask when it has transparency); an SVG picture stays vector, a form drawn from its
own display list.  A PNG is read when the document is made, and a JPEG not even
then: the PDF holds a range of its file (``splice``).  (The recorder of svglib's
drawings has a ``pnp_picture`` of its own, which writes the call down:
``recording.py``.)

``end_form`` ends a form as reportlab's ``endForm`` does, with the resources
reportlab leaves out (``give_form_its_graphics_states``).
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfbase.pdfdoc import (PDFArray, PDFDictionary, PDFName, PDFObject, PDFResourceDictionary, PDFStream,
                                      format as pdf_format, xObjectName)
from reportlab.pdfgen.canvas import Canvas

from ..art.formats import png_head, png_info
from ..art.pdfimages import encoded
from ..art.pictures import source
from ..art.placement import matrix
from .splice import SPLICED


class PictureCanvas(Canvas):
    """A reportlab canvas that places the picture files display lists draw."""

    def pnp_picture(self, kind: str, digest: str, orientation: int, x: float, y: float, w: float, h: float) -> None:
        draw(self, kind, digest, orientation, x, y, w, h)


def end_form(canvas: Canvas, name: str) -> None:
    """``canvas.endForm()``, the form's resources completed (``give_form_its_graphics_states``)."""
    shading = dict(canvas._shadingUsed)  # the form's gradients, forgotten by endForm
    canvas.endForm()
    give_form_its_graphics_states(canvas, name, shading)


def give_form_its_graphics_states(canvas: Canvas, name: str, shading: dict | None = None) -> None:
    """reportlab writes a form's fonts and XObjects into its resources but not
    its ExtGState (transparency) nor its shadings (gradients), so a form using
    them would name graphics states the PDF never defines.  Build the resources
    ourselves."""
    form = canvas._doc.idToObject[xObjectName(name)]
    states = getattr(form, "ExtGState", None)
    if not states and not shading:
        return
    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if states:
        resources.ExtGState = states
    if shading:
        resources.setShading(shading)
    form.Resources = resources


def draw(canvas, kind: str, digest: str, orientation: int, x: float, y: float, w: float, h: float) -> None:
    """Draw a picture at its place on a canvas (in the current, y-down, user space)."""
    from reportlab.lib.rl_accel import fp_str

    name = xobject(canvas, kind, digest)
    if kind == "svg":
        fw, fh = _SVG_SIZES[digest]
        m = (w / fw, 0.0, 0.0, -h / fh, x, y + h)
    else:
        m = matrix(orientation, x, y, w, h)
    canvas._code.append("q %s cm /%s Do Q" % (fp_str(*m), canvas._doc.getXObjectName(name)))
    canvas._formsinuse.append(name)
    canvas._currentPageHasImages = 1


def xobject_name(digest: str) -> str:
    return f"pic{digest[:20]}"


def xobject(canvas, kind: str, digest: str) -> str:
    """The form name of a picture in the canvas's document, added the first time."""
    name = xobject_name(digest)
    doc = canvas._doc
    reg = doc.getXObjectName(name)
    if reg in doc.idToObject:
        return name
    path = source(digest)
    if kind == "svg":
        _svg_form(canvas, name, digest, path)
    else:
        image = _LazyImage(kind, digest, path)
        doc.Reference(image, reg)
        if image.needs_mask:
            mask = _LazyImage(kind, digest, path, mask=True)
            image.smask = doc.Reference(mask, doc.getXObjectName(name + "m"))
    return name


def _svg_form(canvas, name: str, digest: str, path: Path) -> None:
    """An SVG picture as a form: its own display list (or drawing), drawn once per document."""
    from .displaylist import draw_picture
    from model.errors import Problems

    from .svgpicture import drawn
    from .svgread import svg_to_drawing

    found, drawing = drawn(path.name, digest, path)  # read once per build, kept in the build's store
    picture = found if found is not None else drawing
    _SVG_SIZES[digest] = (float(picture.width), float(picture.height))
    canvas.beginForm(name, 0, 0, picture.width, picture.height)
    draw_picture(canvas, picture, lambda: drawing or svg_to_drawing(
        path.read_bytes().decode("utf-8", errors="replace"), path.name, Problems()))
    end_form(canvas, name)


_SVG_SIZES: dict = {}


class _LazyImage(PDFObject):
    """An image XObject whose data is read from its file when the document is written."""

    def __init__(self, kind: str, digest: str, path: Path, mask: bool = False):
        self.kind, self.digest, self.path, self.mask = kind, digest, path, mask
        self.smask = None
        self.needs_mask = False
        if kind == "png" and not mask:
            head = path.read_bytes() if path.stat().st_size < 64 * 1024 else png_head(path)
            info = png_info(head) or {}
            self.needs_mask = info.get("colour") in (4, 6) or bool(info.get("trns"))

    def format(self, document):
        entries, content = encoded(self.kind, self.digest, self.path, self.mask)
        parts = getattr(document, SPLICED, None)
        if parts is None and not isinstance(content, (bytes, bytearray)):
            content = content.read()  # a range of the picture's file: its bytes, here
        stream = PDFStream(content=content)
        d = stream.dictionary
        d["Type"] = PDFName("XObject")
        d["Subtype"] = PDFName("Image")
        for key, value in entries:
            if key in ("ColorSpace", "Filter"):
                d[key] = PDFName(value) if isinstance(value, str) else value
            elif key == "Decode":
                d[key] = PDFArray(value)
            elif key == "DecodeParms":
                d[key] = PDFDictionary(dict(value))
            else:
                d[key] = value
        d["Length"] = len(content)
        if self.smask is not None:
            d["SMask"] = self.smask
        if parts is None:
            return stream.format(document)
        # the document is written with a marker in place of the data, put in by ``splice``: the
        # megabytes of a picture are copied once into the file instead of once per layer of
        # reportlab's formatting (the stream, the object, the file, the buffer)
        marker = b"\x00\x01pnp-picture-%08d\x01\x00" % len(parts)
        parts.append((marker, content))
        return pdf_format(PDFDictionary(d.dict.copy()), document) + b"\nstream\n" + marker + b"endstream\n"
