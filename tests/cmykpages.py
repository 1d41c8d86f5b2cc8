"""A CMYK print file rendered back as the press prints it: its DeviceCMYK colours read through the
output profile (PDFium), and the flat parts of a rendered page."""

from __future__ import annotations

import io

import numpy as np
import pikepdf
from scipy.ndimage import maximum_filter, minimum_filter


def as_printed(data: bytes, icc: bytes) -> bytes:
    """The PDF with its DeviceCMYK colours and pictures in an ICCBased space of its output intent's
    profile: PDFium then renders them through the profile, as the press will print them."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        stream = pdf.make_stream(icc)
        stream.N = 4
        space = pikepdf.Array([pikepdf.Name.ICCBased, stream])
        done = set()

        def fix(obj, resources) -> bytes:
            out = []
            for item in pikepdf.parse_content_stream(obj):
                op = str(item.operator)
                if op in ("k", "K"):
                    out.append(pikepdf.ContentStreamInstruction([pikepdf.Name("/Printed")],
                                                                pikepdf.Operator("cs" if op == "k" else "CS")))
                    out.append(pikepdf.ContentStreamInstruction(item.operands,
                                                                pikepdf.Operator("sc" if op == "k" else "SC")))
                else:
                    out.append(item)
            if "/ColorSpace" not in resources:
                resources.ColorSpace = pikepdf.Dictionary()
            resources.ColorSpace.Printed = space
            for x in resources.get("/XObject", {}).values():
                if x.objgen in done:
                    continue
                done.add(x.objgen)
                if x.Subtype == "/Image" and x.get("/ColorSpace") == "/DeviceCMYK":
                    x.ColorSpace = space
                elif x.Subtype == "/Form":
                    if "/Resources" not in x:
                        x.Resources = pikepdf.Dictionary()
                    x.write(fix(x, x.Resources))
            for shading in resources.get("/Shading", {}).values():
                if shading.get("/ColorSpace") == "/DeviceCMYK":
                    shading.ColorSpace = space
            return pikepdf.unparse_content_stream(out)

        for page in pdf.pages:
            if "/Resources" not in page.obj:
                page.obj.Resources = pikepdf.Dictionary()
            page.obj.Contents = pdf.make_stream(fix(page.obj, page.obj.Resources))
        buffer = io.BytesIO()
        pdf.save(buffer)
        return buffer.getvalue()


def spread(pixels: np.ndarray) -> np.ndarray:
    """The largest difference of any channel within each pixel's 7 x 7 neighbourhood."""
    return (maximum_filter(pixels, size=(7, 7, 1)).astype(int) - minimum_filter(pixels, size=(7, 7, 1))).max(-1)
