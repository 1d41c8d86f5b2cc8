"""Pictures of single components, from the same vector artwork as the PDFs.

A ``Shot`` asks for one drawing on a canvas of whole pixels: where the
drawing's bleed box goes on the canvas (so a canvas may cut the bleed off, or
ask for more bleed than the design has) and at what resolution.  Shots are
written as pages of a PDF, each drawing once as a form drawn exactly as
``pdf.SheetWriter`` draws it on the card sheets, and the pages are rasterised
with PDFium (``pypdfium2``); there is no second drawing path.  Where the canvas reaches beyond the
design's bleed, the outermost row or column of pixels is repeated outwards, as
print shops ask for "extended bleed".

Large batches render in worker processes, one PDF per worker; the result is
the same whichever the number of workers.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.lib.units import mm

MM_PER_INCH = 25.4
MIN_DPI = 36
MAX_DPI = 1200


@dataclass(frozen=True)
class Shot:
    """One drawing on a canvas of ``width`` x ``height`` pixels at ``dpi``; the
    drawing's bleed box (``full_w`` x ``full_h`` mm) has its top-left corner at
    pixel (``left``, ``top``), fractions allowed; ``turn`` turns the finished
    picture a quarter (90), a half (180) or three quarters (270) anticlockwise."""

    key: str
    width: int
    height: int
    dpi: float
    left: float
    top: float
    full_w: float
    full_h: float
    turn: int = 0

    @property
    def scale(self) -> float:
        """Pixels per millimetre."""
        return self.dpi / MM_PER_INCH


def centred_shot(key: str, full_w: float, full_h: float, bleed: float, dpi: float, width: int, height: int,
                 trim_w: float | None = None, trim_h: float | None = None) -> Shot:
    """A shot whose canvas is centred on the component's trim box."""
    s = dpi / MM_PER_INCH
    trim_w = full_w - 2 * bleed if trim_w is None else trim_w
    trim_h = full_h - 2 * bleed if trim_h is None else trim_h
    cx = width / 2 - (bleed + trim_w / 2) * s
    cy = height / 2 - (bleed + trim_h / 2) * s
    return Shot(key, width, height, dpi, cx, cy, full_w, full_h)


def picture_of(drawings, key: str):
    """What to draw ``key`` with: a display list when the render stage kept one, else the drawing."""
    return drawings.picture(key) if hasattr(drawings, "picture") else drawings[key]


def _page_pdf(shots: list[Shot], pictures: dict, drawings=None) -> bytes:
    """One page per shot, each exactly its canvas at its resolution; the pictures are
    drawn as the card sheets draw them (``pdf.SheetWriter``), on a canvas set up the same way."""
    from ..draw.displaylist import draw_picture
    from ..draw.canvas import end_form
    from ..sheets.pdf import new_canvas

    buffer = io.BytesIO()
    c = new_canvas(buffer, 10, 10, "pictures", "pictures")
    forms: dict[str, str] = {}
    for shot in shots:
        name = forms.get(shot.key)
        if name is None:
            name = f"D{len(forms)}"
            picture = pictures[shot.key]
            c.beginForm(name, 0, 0, picture.width, picture.height)
            draw_picture(c, picture, (lambda k=shot.key: drawings[k]) if drawings is not None else None)
            end_form(c, name)
            forms[shot.key] = name
        pt = 72.0 / shot.dpi  # points per pixel
        page_w, page_h = shot.width * pt, shot.height * pt
        c.setPageSize((page_w, page_h))
        c.saveState()
        c.translate(shot.left * pt, page_h - shot.top * pt - shot.full_h * mm)
        c.doForm(name)
        c.restoreState()
        c.showPage()
    c.save()
    return buffer.getvalue()


def _extend_bleed(pixels, shot: Shot):
    """Repeat the outermost pixels of the drawing outwards where the canvas is
    larger than the drawing's bleed box."""
    import numpy as np

    s = shot.scale
    x0 = max(0, math.ceil(shot.left - 1e-6))
    y0 = max(0, math.ceil(shot.top - 1e-6))
    x1 = min(shot.width, math.floor(shot.left + shot.full_w * s + 1e-6))
    y1 = min(shot.height, math.floor(shot.top + shot.full_h * s + 1e-6))
    if (x0, y0, x1, y1) == (0, 0, shot.width, shot.height) or x1 <= x0 or y1 <= y0:
        return pixels
    inner = pixels[y0:y1, x0:x1]
    return np.pad(inner, ((y0, shot.height - y1), (x0, shot.width - x1), (0, 0)), mode="edge")


def _render(pdf_bytes: bytes, shots: list[Shot], fmt: str):
    """Rasterise every page; PNG bytes (``fmt="png"``) or RGB arrays."""
    import numpy as np
    import pypdfium2 as pdfium
    from PIL import Image

    pdf = pdfium.PdfDocument(pdf_bytes)
    out = []
    try:
        for i, shot in enumerate(shots):
            page = pdf[i]
            bitmap = page.render(scale=shot.dpi / 72.0, rev_byteorder=True, prefer_bgrx=False)
            pixels = bitmap.to_numpy()[:, :, :3]
            if pixels.shape[:2] != (shot.height, shot.width):  # PDFium rounds the page size up
                pixels = np.ascontiguousarray(pixels[:shot.height, :shot.width])
                if pixels.shape[:2] != (shot.height, shot.width):
                    pad = ((0, shot.height - pixels.shape[0]), (0, shot.width - pixels.shape[1]), (0, 0))
                    pixels = np.pad(pixels, pad, mode="edge")
            pixels = _extend_bleed(pixels, shot)
            if shot.turn:
                pixels = np.rot90(pixels, shot.turn // 90)
            page.close()
            if fmt == "png":
                buffer = io.BytesIO()
                image = Image.fromarray(np.ascontiguousarray(pixels), "RGB")
                image.save(buffer, "PNG", dpi=(shot.dpi, shot.dpi), compress_level=1)
                out.append(buffer.getvalue())
            else:
                out.append(np.ascontiguousarray(pixels))
    finally:
        pdf.close()
    return out


def _work(shots: list[Shot], pictures: dict, fmt: str, drawings=None, sources: dict | None = None):
    if sources:  # picture files the designs place, known in the process that rendered them
        from ..art import pictures as picture_files

        picture_files.SOURCES.update(sources)
    return _render(_page_pdf(shots, pictures, drawings), shots, fmt)


def rasterise(shots: list[Shot], drawings: dict, workers: int = 1, fmt: str = "png") -> list:
    """The picture of every shot, in order: PNG bytes, or RGB arrays (``fmt="array"``).

    Identical shots are rendered once.  With ``workers`` > 1 the distinct shots
    are shared out between worker processes, each with its own PDF."""
    distinct = list(dict.fromkeys(shots))
    if not distinct:
        return []
    parts = max(1, min(workers, len(distinct) // 8 or 1))
    if parts == 1:
        pictures = _work(distinct, {k: picture_of(drawings, k) for k in {s.key for s in distinct}}, fmt, drawings)
    else:
        from model.workers import process_pool

        from ..art.pictures import SOURCES

        chunks = [distinct[i::parts] for i in range(parts)]  # interleaved: sizes and costs even out
        with process_pool(parts) as pool:
            futures = [pool.submit(_work, chunk, {k: picture_of(drawings, k) for k in {s.key for s in chunk}}, fmt,
                                   None, dict(SOURCES)) for chunk in chunks]
            results = [f.result() for f in futures]
        pictures = [None] * len(distinct)
        for i, result in enumerate(results):
            for j, picture in enumerate(result):
                pictures[i + j * parts] = picture
    by_shot = dict(zip(distinct, pictures))
    return [by_shot[s] for s in shots]
