"""Preflight: what a print shop's preflight checks in a PDF, one line per problem.

``preflight(file, name, expect)`` reads a PDF with pikepdf and checks, as far as
``expect.checks`` asks (a shop's preset says which of its specifications are
checked, ``shops.PrintSpec``):

- ``standard``: the PDF/X version key (``GTS_PDFXVersion``, with
  ``GTS_PDFXConformance`` for X-1a, and ``pdfxid:GTS_PDFXVersion`` in the XMP
  metadata for X-4) naming the standard asked for, the ``Trapped`` key, a PDF
  version the standard allows, no encryption, and a PDF/X output intent with
  an embedded CMYK profile;
- ``boxes``: every page's TrimBox and BleedBox, the trim inside the bleed inside
  the page; ``bleed``: the bleed on every side, exactly the shop's (or at least
  ``MIN_BLEED`` without a shop), and the trim one of the shop's sizes;
- ``colour``: no RGB or device-independent colour in PDF/X-1a (only CMYK, grey
  and spot colours), no device RGB in PDF/X-4: drawing colours, pictures,
  gradients, inline images;
- ``transparency`` (PDF/X-1a only): no opacity below 1, soft mask, blend mode
  other than Normal, or transparency group;
- ``fonts``: every font used embedded;
- ``resolution``: every picture at least ``min_dpi`` where it is drawn (its
  pixels over its size on the page, through every transformation);
- ``ink``: total ink (C + M + Y + K) of every CMYK colour, gradient and picture
  pixel within the limit: the shop's, else the output intent profile's
  (``cmyk.ink_limit``).

The same problem on several pages is one line naming the pages
(``print.pdf:pages 1-4, 9: no TrimBox``).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from model.errors import Problem

from .shops import CHECKS, STANDARDS, Preset, PrintSpec

#: The least bleed on every side when no shop says otherwise (mm; the usual print-shop figure, which
#: a plain ``--to pdfx`` page gets).
MIN_BLEED = 3.0
#: How far a page's bleed or trim may be from the shop's (mm): a hundredth of an inch's rounding.
BOX_TOLERANCE = 0.05
#: Total ink a colour may exceed the limit by (%): an 8-bit value's rounding on each of four inks.
INK_TOLERANCE = 0.5
MM_PER_PT = 25.4 / 72
#: The highest PDF version each standard allows.
MAX_VERSION = {STANDARDS["x-1a"]: "1.4", STANDARDS["x-4"]: "1.6"}


@dataclass(frozen=True)
class Expect:
    """What a file is checked against."""

    standard: str | None = None  # None: the one the file claims (PDF/X-4 rules when it claims none)
    label: str = ""  # who asks (a shop's name), for the messages
    bleed: float | None = None  # exactly this bleed on every side (mm); None: at least ``min_bleed``
    min_bleed: float = MIN_BLEED
    trims: tuple[tuple[str, float, float], ...] = ()  # (label, width, height) in mm; empty: any trim
    min_dpi: float = 300
    max_ink: float | None = None  # %; None: the output intent profile's limit
    checks: tuple[str, ...] = CHECKS


def expect_for(preset: Preset | None, spec: PrintSpec | None = None) -> Expect:
    """What a shop's preset (or none: a plain PDF/X) asks of a print file."""
    spec = spec or (preset.pdfx if preset is not None else None)
    asks = {} if spec is None else {"standard": spec.standard, "min_dpi": spec.min_dpi, "max_ink": spec.max_ink,
                                    "checks": spec.checked}  # else Expect's defaults
    if preset is None:
        return Expect(label="PDF/X", **asks)
    bleeds = {round(preset.bleed_mm(s), 3) for s in preset.sizes}
    trims = tuple((s.label.lower(), *preset.trim_mm(s)) for s in preset.sizes)
    return Expect(label=preset.name, bleed=bleeds.pop() if len(bleeds) == 1 else None, trims=trims, **asks)


@dataclass
class _Findings:
    pages: dict[str, list[int]] = field(default_factory=dict)  # message -> pages (0: the document)

    def add(self, page: int, message: str) -> None:
        found = self.pages.setdefault(message, [])
        if page not in found:
            found.append(page)

    def problems(self, name: str) -> list[Problem]:
        out = []
        for message, pages in sorted(self.pages.items(), key=lambda kv: (min(kv[1]), list(self.pages).index(kv[0]))):
            where = None if pages == [0] else _pages_label(sorted(p for p in pages if p))
            out.append(Problem(name, None, where, message))
        return out


def _pages_label(pages: list[int]) -> str:
    runs = []
    for p in pages:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    text = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
    return f"page {text}" if len(pages) == 1 else f"pages {text}"


def preflight(source: bytes | Path | str, name: str, expect: Expect = Expect()) -> list[Problem]:
    """Every problem a print shop's preflight would raise about the PDF ``source`` (its bytes or
    its path), one per line, located by page; ``name`` is the file as the lines name it."""
    import pikepdf

    try:
        pdf = pikepdf.open(io.BytesIO(source) if isinstance(source, (bytes, bytearray)) else source)
    except OSError as exc:
        return [Problem(name, None, None, f"cannot read it ({exc.strerror or exc})")]
    except (pikepdf.PdfError, ValueError) as exc:
        return [Problem(name, None, None, f"not a PDF that can be read ({str(exc).splitlines()[0]})")]
    with pdf:
        return _Check(pdf, expect).run().problems(name)


class _Check:
    def __init__(self, pdf, expect: Expect):
        self.pdf = pdf
        self.expect = expect
        self.found = _Findings()
        self.standard = expect.standard
        self.ink_limit = expect.max_ink
        self._images: dict = {}
        self._parsed: dict = {}

    def on(self, check: str) -> bool:
        return check in self.expect.checks

    # ------------------------------------------------------------ the document
    def run(self) -> _Findings:
        claimed = self._identification()
        if self.standard is None:
            self.standard = claimed or STANDARDS["x-4"]
        if self.ink_limit is None:
            self.ink_limit = self._intent_limit()
        for number, page in enumerate(self.pdf.pages, start=1):
            self._page(number, page)
        return self.found

    def _identification(self) -> str | None:
        """The standard the file claims; its problems when the ``standard`` check is on."""
        import pikepdf

        pdf, add = self.pdf, (lambda m: self.found.add(0, m)) if self.on("standard") else (lambda m: None)
        info = pdf.trailer.get("/Info", pikepdf.Dictionary())
        version = str(info.get("/GTS_PDFXVersion", "")) or None
        conformance = str(info.get("/GTS_PDFXConformance", "")) or None
        claimed = None
        if version is None:
            add("no PDF/X version key (GTS_PDFXVersion) in the document information")
        elif version.startswith("PDF/X-1") and conformance and conformance.startswith("PDF/X-1a"):
            claimed = conformance
        elif version.startswith("PDF/X-1"):
            add(f"GTS_PDFXVersion says {version} but no GTS_PDFXConformance (PDF/X-1a:...) says which part")
            claimed = version
        else:
            claimed = version
        asked = self.expect.standard
        if asked and claimed and claimed != asked:
            add(f"the file is {claimed}; {self.expect.label or 'the check'} asks for {asked}")
        standard = asked or claimed
        if standard == STANDARDS["x-4"]:
            xmp = pdf.open_metadata()
            if xmp.get("pdfxid:GTS_PDFXVersion") != "PDF/X-4":
                add("no pdfxid:GTS_PDFXVersion 'PDF/X-4' in the XMP metadata")
        if str(info.get("/Trapped", "")) not in ("/True", "/False"):
            add("no Trapped key (True or False) in the document information")
        if standard in MAX_VERSION and _version(pdf.pdf_version) > _version(MAX_VERSION[standard]):
            add(f"PDF version {pdf.pdf_version}; {standard} allows at most {MAX_VERSION[standard]}")
        if pdf.is_encrypted:
            add("encrypted; PDF/X allows no encryption")
        intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == "/GTS_PDFX"]
        if not intents:
            add("no PDF/X output intent (OutputIntents with S /GTS_PDFX): the printing condition is not named")
        else:
            profile = intents[0].get("/DestOutputProfile")
            if profile is None and str(intents[0].get("/OutputConditionIdentifier", "Custom")) == "Custom":
                add("the output intent embeds no profile and names no registered printing condition")
            elif profile is not None and int(profile.get("/N", 0)) != 4:
                add(f"the output intent's profile has {profile.get('/N')} components, not CMYK's 4")
        return claimed

    def _intent_limit(self) -> float | None:
        from ..draw.cmyk import ProfileError, ink_limit, profile_of

        for intent in self.pdf.Root.get("/OutputIntents", []):
            profile = intent.get("/DestOutputProfile")
            if intent.get("/S") == "/GTS_PDFX" and profile is not None:
                try:
                    return float(ink_limit(profile_of(profile.read_bytes(), "the output intent")))
                except ProfileError:
                    return None
        return None

    # ------------------------------------------------------------ pages
    def _page(self, number: int, page) -> None:
        import pikepdf

        obj = page.obj
        media = _box(obj.get("/MediaBox"))
        trim, bleed = _box(obj.get("/TrimBox")), _box(obj.get("/BleedBox"))
        if self.on("boxes"):
            if trim is None:
                self.found.add(number, "no TrimBox: the shop cannot tell where to cut")
            if bleed is None:
                self.found.add(number, "no BleedBox")
            if trim is not None and bleed is not None and not _inside(trim, bleed):
                self.found.add(number, "the TrimBox reaches outside the BleedBox")
            if bleed is not None and media is not None and not _inside(bleed, media):
                self.found.add(number, "the BleedBox reaches outside the page (MediaBox)")
        if self.on("bleed") and trim is not None:
            self._bleed(number, trim, bleed or media)
        resources = obj.get("/Resources", pikepdf.Dictionary())
        if self.on("transparency") and self.standard == STANDARDS["x-1a"]:
            group = obj.get("/Group")
            if group is not None and group.get("/S") == "/Transparency":
                self.found.add(number, "a transparency group on the page: PDF/X-1a allows no transparency")
        self._walk(pikepdf.parse_content_stream(page), resources, (1, 0, 0, 1, 0, 0), number, 0)

    def _bleed(self, number: int, trim, bleed) -> None:
        expect = self.expect
        sides = [(trim[0] - bleed[0]) * MM_PER_PT, (trim[1] - bleed[1]) * MM_PER_PT,
                 (bleed[2] - trim[2]) * MM_PER_PT, (bleed[3] - trim[3]) * MM_PER_PT]
        shown = ", ".join(f"{v:.2f}" for v in (sides[0], sides[2], sides[3], sides[1]))
        if expect.bleed is not None:
            if any(abs(s - expect.bleed) > BOX_TOLERANCE for s in sides):
                self.found.add(number, f"bleed {shown} mm (left, right, top, bottom); {expect.label} asks for "
                                       f"{expect.bleed:g} mm on every side")
        elif min(sides) < expect.min_bleed - BOX_TOLERANCE:
            self.found.add(number, f"bleed {shown} mm (left, right, top, bottom); at least {expect.min_bleed:g} mm "
                                   "on every side is asked")
        if expect.trims:
            w, h = (trim[2] - trim[0]) * MM_PER_PT, (trim[3] - trim[1]) * MM_PER_PT
            if not any(max(abs(a - tw), abs(b - th)) <= BOX_TOLERANCE
                       for _, tw, th in expect.trims for a, b in ((w, h), (h, w))):
                sizes = "; ".join(f"{label}: {tw:.4g} x {th:.4g} mm" for label, tw, th in expect.trims)
                self.found.add(number, f"trim {w:.4g} x {h:.4g} mm is no {expect.label} size ({sizes})")

    # ------------------------------------------------------------ content
    def _instructions(self, stream):
        key = stream.objgen
        found = self._parsed.get(key) if key != (0, 0) else None
        if found is None:
            import pikepdf

            found = pikepdf.parse_content_stream(stream)
            if key != (0, 0):
                self._parsed[key] = found
        return found

    def _walk(self, instructions, resources, ctm, page: int, depth: int) -> None:
        import pikepdf

        from ..draw.recolour import GraphicsState

        if depth > 20:  # forms within forms this deep: a loop
            return
        state = GraphicsState(ctm)
        for item in instructions:
            if isinstance(item, pikepdf.ContentStreamInlineImage):
                self._inline_image(item, page)
                continue
            op, operands = str(item.operator), item.operands
            if op == "cm" and len(operands) == 6:
                state.ctm = _mul(tuple(float(v) for v in operands), state.ctm)
            elif op in ("rg", "RG"):
                self._colour(page, "rgb", "a drawing colour", "DeviceRGB")
            elif op in ("k", "K"):
                self._ink(page, [float(v) for v in operands], f"a drawing colour ({_values(operands)} {op})")
            elif op in ("cs", "CS"):
                space = operands[0] if operands else None
                kind = self._space(space, resources)
                if kind not in ("gray", "cmyk", "spot", "pattern"):
                    self._colour(page, kind, "a drawing colour", _space_name(space, resources))
                state.step(op, kind)
            elif op in ("sc", "scn", "SC", "SCN"):
                kind = state.space(op)
                numbers = all(isinstance(v, (int, float, Decimal)) for v in operands)
                if kind == "cmyk" and len(operands) == 4 and numbers:
                    self._ink(page, [float(v) for v in operands], f"a drawing colour ({_values(operands)} {op})")
                elif kind == "pattern" and operands and isinstance(operands[-1], pikepdf.Name):
                    pattern = resources.get("/Pattern", {}).get(str(operands[-1]))
                    if pattern is not None:
                        self._pattern(pattern, page, state.ctm, depth)
            elif op == "gs" and operands:
                found = resources.get("/ExtGState", {}).get(str(operands[0]))
                if found is not None:
                    self._state(found, page, str(operands[0]).lstrip("/"))
            elif op == "sh" and operands:
                shading = resources.get("/Shading", {}).get(str(operands[0]))
                if shading is not None:
                    self._shading(shading, page, f"gradient {str(operands[0]).lstrip('/')}")
            elif op == "Tf" and operands:
                font = resources.get("/Font", {}).get(str(operands[0]))
                if font is not None:
                    self._font(font, page)
            elif op == "Do" and operands:
                xobject = resources.get("/XObject", {}).get(str(operands[0]))
                if xobject is not None:
                    self._xobject(xobject, str(operands[0]).lstrip("/"), page, state.ctm, depth, resources)
            else:
                state.step(op)

    def _xobject(self, obj, name: str, page: int, ctm, depth: int, resources) -> None:
        import pikepdf

        subtype = obj.get("/Subtype")
        if subtype == "/Image":
            self._image(obj, name, page, ctm)
        elif subtype == "/Form":
            matrix = tuple(float(v) for v in obj.get("/Matrix", [1, 0, 0, 1, 0, 0]))
            group = obj.get("/Group")
            if (self.on("transparency") and self.standard == STANDARDS["x-1a"] and group is not None
                    and group.get("/S") == "/Transparency"):
                self.found.add(page, f"form {name} is a transparency group: PDF/X-1a allows no transparency")
            own = obj.get("/Resources", resources if resources is not None else pikepdf.Dictionary())
            self._walk(self._instructions(obj), own, _mul(matrix, ctm), page, depth + 1)

    def _pattern(self, pattern, page: int, ctm, depth: int) -> None:
        import pikepdf

        if int(pattern.get("/PatternType", 0)) == 2:
            self._shading(pattern.Shading, page, "a gradient pattern")
        else:
            own = pattern.get("/Resources", pikepdf.Dictionary())
            matrix = tuple(float(v) for v in pattern.get("/Matrix", [1, 0, 0, 1, 0, 0]))
            self._walk(self._instructions(pattern), own, matrix, page, depth + 1)

    # ------------------------------------------------------------ colour
    def _space(self, space, resources=None) -> str:
        """rgb, gray, cmyk, lab, icc-gray, icc-rgb, icc-cmyk, spot, pattern, indexed-..., other."""
        import pikepdf

        if isinstance(space, pikepdf.Name):
            name = str(space)
            simple = {"/DeviceRGB": "rgb", "/RGB": "rgb", "/DeviceGray": "gray", "/G": "gray",
                      "/DeviceCMYK": "cmyk", "/CMYK": "cmyk", "/Pattern": "pattern"}
            if name in simple:
                return simple[name]
            found = resources.get("/ColorSpace", {}).get(name) if resources is not None else None
            return self._space(found) if found is not None else "other"
        if isinstance(space, pikepdf.Array) and len(space):
            family = str(space[0])
            if family == "/ICCBased":
                return {1: "icc-gray", 3: "icc-rgb", 4: "icc-cmyk"}.get(int(space[1].get("/N", 0)), "other")
            if family in ("/Separation", "/DeviceN"):
                alternate = self._space(space[2])
                return "spot" if alternate in ("cmyk", "gray") else f"spot-{alternate}"
            if family in ("/Indexed", "/I"):
                base = self._space(space[1], resources)
                return base
            if family == "/Pattern":
                return "pattern"
            return {"/CalRGB": "cal-rgb", "/CalGray": "cal-gray", "/Lab": "lab"}.get(family, "other")
        return "other"

    def _colour(self, page: int, kind: str, what: str, space_name: str) -> None:
        if not self.on("colour"):
            return
        if self.standard == STANDARDS["x-1a"]:
            if kind not in ("gray", "cmyk", "spot", "pattern"):
                self.found.add(page, f"{what} in {space_name}: PDF/X-1a allows only CMYK, grey and spot colours")
        elif kind in ("rgb", "spot-rgb"):
            self.found.add(page, f"{what} in {space_name}, device-dependent RGB: PDF/X-4 asks for CMYK or "
                                 "ICC-based colour")

    def _ink(self, page: int, values: list[float], what: str) -> None:
        if not self.on("ink") or self.ink_limit is None:
            return
        total = 100 * sum(values)
        if total > self.ink_limit + INK_TOLERANCE:
            self.found.add(page, f"total ink {total:.0f}% in {what}, above the {self.ink_limit:g}% limit")

    def _state(self, state, page: int, name: str) -> None:
        if not (self.on("transparency") and self.standard == STANDARDS["x-1a"]):
            return
        for key in ("/CA", "/ca"):
            if key in state and float(state[key]) < 1:
                self.found.add(page, f"opacity {float(state[key]):g} ({key[1:]} in {name}): PDF/X-1a allows no "
                                     "transparency")
        mask = state.get("/SMask")
        if mask is not None and str(mask) != "/None":
            self.found.add(page, f"a soft mask ({name}): PDF/X-1a allows no transparency")
        blend = state.get("/BM")
        if blend is not None and str(blend) not in ("/Normal", "/Compatible"):
            self.found.add(page, f"blend mode {str(blend)[1:]} ({name}): PDF/X-1a allows no transparency")

    def _shading(self, shading, page: int, what: str) -> None:
        kind = self._space(shading.get("/ColorSpace"))
        self._colour(page, kind, what, _space_name(shading.get("/ColorSpace")))
        if kind == "cmyk" and "/Function" in shading:
            from ..draw.recolour import evaluate_function, UnsupportedFunction

            domain = [float(v) for v in shading.get("/Domain", [0, 1])]
            try:
                worst = max(sum(evaluate_function(shading.Function, domain[0] + (domain[1] - domain[0]) * i / 32))
                            for i in range(33))
            except (UnsupportedFunction, TypeError, ValueError, AttributeError):
                return
            self._ink(page, [worst], what)

    def _font(self, font, page: int) -> None:
        if not self.on("fonts"):
            return
        subtype = str(font.get("/Subtype", ""))
        if subtype == "/Type3":
            return
        described = font.DescendantFonts[0] if subtype == "/Type0" and "/DescendantFonts" in font else font
        descriptor = described.get("/FontDescriptor")
        if descriptor is None or not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            self.found.add(page, f"font {str(font.get('/BaseFont', '?'))[1:]} is not embedded")

    def _inline_image(self, item, page: int) -> None:
        import pikepdf

        space = item.iimage.obj.get("/ColorSpace", item.iimage.obj.get("/CS"))
        if space is not None:
            kind = self._space(space if not isinstance(space, pikepdf.Name) or str(space) not in ("/RGB", "/G", "/CMYK")
                               else pikepdf.Name({"/RGB": "/DeviceRGB", "/G": "/DeviceGray",
                                                  "/CMYK": "/DeviceCMYK"}[str(space)]))
            self._colour(page, kind, "an inline picture", _space_name(space))

    def _image(self, obj, name: str, page: int, ctm) -> None:
        import numpy as np
        import pikepdf

        w, h = int(obj.get("/Width", 0)), int(obj.get("/Height", 0))
        what = f"picture {name} ({w} x {h} px)"
        info = self._images.get(obj.objgen)
        if info is None:
            mask = bool(obj.get("/ImageMask", False))
            kind = "gray" if mask else self._space(obj.get("/ColorSpace"))
            ink = None
            if kind == "cmyk" and self.on("ink") and self.ink_limit is not None:
                try:
                    pixels = np.asarray(_cmyk_pixels(pikepdf.PdfImage(obj)), dtype=np.uint16)
                    totals = pixels.sum(axis=-1) * (100 / 255)
                    ink = (float(totals.max()), float((totals > self.ink_limit + INK_TOLERANCE).mean()))
                except Exception:  # a picture pikepdf cannot decode: its ink is not measured
                    ink = None
            soft = "/SMask" in obj or int(obj.get("/SMaskInData", 0)) > 0
            info = self._images[obj.objgen] = (kind, ink, soft, _space_name(obj.get("/ColorSpace")))
        kind, ink, soft, space_name = info
        if not bool(obj.get("/ImageMask", False)):
            self._colour(page, kind, what, space_name)
        if ink is not None and self.on("ink") and ink[0] > self.ink_limit + INK_TOLERANCE:
            self.found.add(page, f"{what}: total ink up to {ink[0]:.0f}% ({100 * ink[1]:.1f}% of its pixels above "
                                 f"the {self.ink_limit:g}% limit)")
        if soft and self.on("transparency") and self.standard == STANDARDS["x-1a"]:
            self.found.add(page, f"{what} has a soft mask: PDF/X-1a allows no transparency")
        if self.on("resolution") and w and h:
            width_in = math.hypot(ctm[0], ctm[1]) / 72
            height_in = math.hypot(ctm[2], ctm[3]) / 72
            if width_in > 0 and height_in > 0:
                dpi = min(w / width_in, h / height_in)
                if dpi < self.expect.min_dpi - 0.5:
                    self.found.add(page, f"{what} prints at {dpi:.0f} dpi, below {self.expect.min_dpi:g} dpi")


def _cmyk_pixels(image):
    """The CMYK samples of a CMYK picture as stored (its /Decode applied), without its soft mask: pikepdf 10
    composites a mask into an alpha channel, by way of RGB, which would measure an RGB conversion's ink."""
    try:
        im = image.as_pil_image(apply_mask=False)
    except TypeError:  # (pikepdf before 10 has no apply_mask, and applies no mask)
        im = image.as_pil_image()
    return im if im.mode == "CMYK" else im.convert("CMYK")


def _version(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in str(text).split("."))
    except ValueError:
        return (0,)


def _box(value) -> tuple[float, float, float, float] | None:
    if value is None or len(value) != 4:
        return None
    x0, y0, x1, y1 = (float(v) for v in value)
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _inside(inner, outer, slack: float = 0.01) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def _mul(m, n):
    """The matrix ``m`` then ``n`` (PDF's ``m x n``)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _values(operands) -> str:
    return " ".join(f"{float(v):g}" for v in operands)


def _space_name(space, resources=None) -> str:
    import pikepdf

    if isinstance(space, pikepdf.Name):
        found = resources.get("/ColorSpace", {}).get(str(space)) if resources is not None else None
        return _space_name(found) if found is not None else str(space)[1:]
    if isinstance(space, pikepdf.Array) and len(space):
        family = str(space[0])[1:]
        if family == "ICCBased":
            return f"ICCBased ({int(space[1].get('/N', 0))} components)"
        if family in ("Indexed", "I"):
            return f"Indexed {_space_name(space[1], resources)}"
        return family
    return str(space)
