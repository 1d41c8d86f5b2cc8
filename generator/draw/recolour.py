"""A finished PDF's colours taken through a CMYK profile, with pikepdf.

``Recolour(profile, "cmyk")`` turns every colour of a document into the
profile's CMYK, keeping vectors and text: the colour operators of every content
stream (pages, forms, tiling patterns: ``rg``/``RG``, ``g``/``G``, and
``sc``/``scn`` in an RGB or grey colour space, which becomes DeviceCMYK), every
picture (decoded, converted pixel by pixel and compressed again; its soft mask
kept) and every axial or radial gradient (its colour function sampled in 256
steps in CMYK).  Text in a neutral colour (black or a grey) is set in black ink
alone, the press's rule for text (four inks slightly out of register blur small
letters): the K tint the profile prints as light as the four-ink grey
(``Profile.black_only``), pure black 100 % K; every other shape in that colour
keeps the four-ink (rich) black.  (The soft proof shows the same.)  ``Recolour(profile, "proof")`` makes the soft proof: every
colour replaced by the sRGB colour it prints as (sRGB -> CMYK -> sRGB), so any
viewer shows what the printed card will look like.  CMYK colours already in a
document are left alone for print and shown through the profile in a proof.

What it does not convert (inline images, mesh gradients, colour spaces of
other kinds) it leaves and names in ``skipped``; the preflight then reports
whatever colour it left.
"""

from __future__ import annotations

import zlib
from decimal import Decimal
from dataclasses import dataclass, field

from .cmyk import Profile

#: Steps a gradient's colour function is sampled in after conversion.
GRADIENT_STEPS = 256


def _kind(space, resources=None) -> str:
    """'rgb', 'gray', 'cmyk' or 'other' for a colour space (a name, possibly a resource, or an array)."""
    import pikepdf

    if isinstance(space, pikepdf.Name):
        name = str(space)
        if name in ("/DeviceRGB", "/RGB"):
            return "rgb"
        if name in ("/DeviceGray", "/G"):
            return "gray"
        if name in ("/DeviceCMYK", "/CMYK"):
            return "cmyk"
        found = resources.get("/ColorSpace", {}).get(name) if resources is not None else None
        return _kind(found) if found is not None else "other"
    if isinstance(space, pikepdf.Array) and len(space):
        family = str(space[0])
        if family == "/CalRGB":
            return "rgb"
        if family == "/CalGray":
            return "gray"
        if family == "/ICCBased":
            return {1: "gray", 3: "rgb", 4: "cmyk"}.get(int(space[1].get("/N", 0)), "other")
    return "other"


class GraphicsState:
    """What a content stream's walk keeps of the graphics state: the fill and stroke colour spaces in
    force (as ``_kind`` names them) and a transformation, saved by ``q`` and restored by ``Q``."""

    def __init__(self, ctm=(1, 0, 0, 1, 0, 0)):
        self.fill = self.stroke = "gray"
        self.ctm = ctm
        self._saved = []

    def step(self, op: str, kind: str | None = None) -> None:
        """Follow ``q``, ``Q`` and the colour-space operators (``cs``/``CS`` with the space's ``kind``;
        ``rg``, ``k``, ``g`` and their stroking forms set theirs)."""
        if op == "q":
            self._saved.append((self.fill, self.stroke, self.ctm))
        elif op == "Q" and self._saved:
            self.fill, self.stroke, self.ctm = self._saved.pop()
        elif kind is not None or op in _SETS:
            kind = kind or _SETS[op]
            if op.islower():
                self.fill = kind
            else:
                self.stroke = kind

    def space(self, op: str) -> str:
        """The colour space ``sc``/``scn`` (fill) or ``SC``/``SCN`` (stroke) set a colour in."""
        return self.fill if op.islower() else self.stroke


_SETS = {"rg": "rgb", "RG": "rgb", "g": "gray", "G": "gray", "k": "cmyk", "K": "cmyk"}


@dataclass
class Recolour:
    profile: Profile
    mode: str = "cmyk"  # "cmyk": DeviceCMYK for print; "proof": sRGB as printed
    skipped: list[str] = field(default_factory=list)
    _colours: dict = field(default_factory=dict, repr=False)
    _done: set = field(default_factory=set, repr=False)

    @property
    def space(self) -> str:
        return "/DeviceCMYK" if self.mode == "cmyk" else "/DeviceRGB"

    # ------------------------------------------------------------ colours
    def colour(self, kind: str, values) -> list[float] | None:
        """A colour of ``kind`` in the output space (4 values for print, 3 for a proof); None: keep it."""
        if kind == "cmyk" and self.mode == "cmyk":
            return None
        key = (kind, tuple(round(float(v) * 255) for v in values))
        found = self._colours.get(key)
        if found is None:
            found = self._colours[key] = self._convert(kind, [key[1]])[0]
        return found

    def _convert(self, kind: str, rows) -> list[list[float]]:
        """Rows of 8-bit values of ``kind`` -> rows of floats in the output space."""
        import numpy as np

        pixels = np.clip(np.asarray(rows, dtype=float), 0, 255).astype(np.uint8)
        if kind == "gray":
            pixels = np.repeat(pixels[:, :1], 3, axis=1)
        if kind == "cmyk":
            out = self.profile.to_rgb(pixels)
        elif self.mode == "cmyk":
            out = self.profile.to_cmyk(pixels)
        else:
            out = self.profile.printed(pixels)
        return [[round(int(v) / 255, 4) for v in row] for row in out]

    def _text_black(self, grey: int) -> list[float]:
        """The colour text in the sRGB grey ``grey`` (0-255) prints in: black ink alone (as it prints, in a proof)."""
        ink = [0.0, 0.0, 0.0, self.profile.black_only(grey)]
        return ink if self.mode == "cmyk" else self._convert("cmyk", [[round(v * 255) for v in ink]])[0]

    # ------------------------------------------------------------ documents
    def document(self, pdf) -> None:
        """Convert every page of ``pdf`` (a pikepdf.Pdf) in place."""
        for page in pdf.pages:
            page.obj.Contents = pdf.make_stream(self._converted(pdf, page, page.obj))
            self._group_space(page.obj)

    def _first(self, obj) -> bool:
        """Whether ``obj`` is met for the first time (an object shared by pages is converted once)."""
        if obj.objgen != (0, 0) and obj.objgen in self._done:
            return False
        self._done.add(obj.objgen)
        return True

    def _converted(self, pdf, content, obj) -> bytes:
        """The content stream of a page, form or tiling pattern (``obj``) converted, after its resources."""
        import pikepdf

        resources = obj.get("/Resources", pikepdf.Dictionary())
        self._resources(pdf, resources)
        return self._content(pikepdf.parse_content_stream(content), resources)

    def _group_space(self, obj) -> None:
        """A transparency group's blending colour space in the output space."""
        import pikepdf

        group = obj.get("/Group")
        if group is not None and "/CS" in group:
            group.CS = pikepdf.Name(self.space)

    def _resources(self, pdf, resources) -> None:
        for obj in resources.get("/XObject", {}).values():
            if not self._first(obj):
                continue
            if obj.get("/Subtype") == "/Image":
                self._image(obj)
            elif obj.get("/Subtype") == "/Form":
                obj.write(self._converted(pdf, obj, obj))
                self._group_space(obj)
        for name, shading in resources.get("/Shading", {}).items():
            self._shading(pdf, shading, name)
        for name, pattern in resources.get("/Pattern", {}).items():
            if not self._first(pattern):
                continue
            if int(pattern.get("/PatternType", 0)) == 2:
                self._shading(pdf, pattern.Shading, name)
            else:
                pattern.write(self._converted(pdf, pattern, pattern))

    def _content(self, instructions, resources) -> bytes:
        import pikepdf

        out = []
        state = GraphicsState()
        text = TextBlack(self._text_black)
        for item in instructions:
            if isinstance(item, pikepdf.ContentStreamInlineImage):
                self.skipped.append("an inline image")
                out.append(item)
                continue
            operands, operator = list(item.operands), item.operator
            op = str(operator)
            out.extend(text.before(op))
            if op in ("rg", "RG", "g", "G", "k", "K"):
                new = self.colour(_SETS[op], operands)
                if new is not None:
                    stroking = op.isupper()
                    if not stroking:
                        text.fill(_SETS[op], operands, new)
                    op = ("K" if stroking else "k") if len(new) == 4 else ("RG" if stroking else "rg")
                    operands, operator = new, pikepdf.Operator(op)
                elif not op.isupper():
                    text.fill("cmyk", operands, None)
                state.step(op)
            elif op in ("cs", "CS"):
                kind = _kind(operands[0], resources)
                if kind in ("rgb", "gray") or (kind == "cmyk" and self.mode == "proof"):
                    operands = [pikepdf.Name(self.space)]
                state.step(op, kind)
            elif op in ("sc", "scn", "SC", "SCN"):
                kind = state.space(op)
                if kind in ("rgb", "gray", "cmyk") and all(isinstance(v, (int, float, Decimal)) for v in operands):
                    new = self.colour(kind, operands)
                    if new is not None:
                        operands = new
                    if op.islower():
                        text.fill(kind, item.operands, new)
                elif op.islower():
                    text.fill("other", operands, None)
            else:
                state.step(op)
            out.append(pikepdf.ContentStreamInstruction(operands, operator))
        return pikepdf.unparse_content_stream(out)

    def _image(self, obj) -> None:
        import numpy as np
        import pikepdf

        if obj.get("/ImageMask", False):
            return
        try:
            image = pikepdf.PdfImage(obj).as_pil_image()
        except Exception:  # a kind pikepdf cannot decode: left for the preflight to report
            self.skipped.append(f"a picture in a colour space pikepdf cannot decode ({obj.get('/ColorSpace')})")
            return
        if image.mode == "CMYK":
            if self.mode == "cmyk":  # already the printer's inks
                return
            out = self.profile.to_rgb(np.asarray(image))
        else:
            pixels = np.asarray(image.convert("RGB"))
            out = self.profile.to_cmyk(pixels) if self.mode == "cmyk" else self.profile.printed(pixels)
        for key in ("/Decode", "/DecodeParms"):
            if key in obj:
                del obj[key]
        obj.write(zlib.compress(np.ascontiguousarray(out).tobytes(), 6), filter=pikepdf.Name.FlateDecode)
        obj.ColorSpace = pikepdf.Name(self.space)
        obj.BitsPerComponent = 8

    def _shading(self, pdf, shading, name) -> None:
        import pikepdf

        if not self._first(shading):
            return
        kind = _kind(shading.get("/ColorSpace"))
        if kind == "other" or (kind == "cmyk" and self.mode == "cmyk"):
            if kind == "other":
                self.skipped.append(f"gradient {name} in colour space {shading.get('/ColorSpace')}")
            return
        if int(shading.get("/ShadingType", 0)) not in (2, 3) or "/Function" not in shading:
            self.skipped.append(f"gradient {name} of type {shading.get('/ShadingType')}")
            return
        function = shading.Function
        domain = [float(v) for v in shading.get("/Domain", [0, 1])]
        try:
            samples = [evaluate_function(function, domain[0] + (domain[1] - domain[0]) * i / (GRADIENT_STEPS - 1))
                       for i in range(GRADIENT_STEPS)]
        except UnsupportedFunction:
            self.skipped.append(f"gradient {name} with a colour function of another kind")
            return
        converted = self._convert(kind, [[round(v * 255) for v in s] for s in samples])
        data = bytes(round(v * 255) for row in converted for v in row)
        n = len(converted[0])
        sampled = pdf.make_stream(data)
        sampled.FunctionType = 0
        sampled.Domain = pikepdf.Array(domain)
        sampled.Range = pikepdf.Array([0, 1] * n)
        sampled.Size = pikepdf.Array([GRADIENT_STEPS])
        sampled.BitsPerSample = 8
        shading.Function = sampled
        shading.ColorSpace = pikepdf.Name(self.space)
        if "/Background" in shading:
            shading.Background = pikepdf.Array(self.colour(kind, shading.Background)
                                               or list(shading.Background))


#: operators that show text (in the fill colour, as the bundled drawing code sets it)
_SHOWS = frozenset(("Tj", "TJ", "'", '"'))
#: operators that paint with the fill colour what is not text
_PAINTS = frozenset(("f", "F", "f*", "B", "B*", "b", "b*", "sh", "Do", "BI"))


class TextBlack:
    """Neutral text in black ink alone, the rest of a content stream as converted.

    It follows the fill colour set in a content stream (saved by ``q``, restored by ``Q``): when
    text is shown while the fill is a neutral RGB or grey colour, a K-only fill is set just before
    it; when a shape is then filled, the four-ink colour the stream set is set again first.
    ``black(grey)`` gives the colour for text in a grey (CMYK, or sRGB in a soft proof)."""

    def __init__(self, black):
        self.black_of = black
        self.neutral: tuple | None = None  # (the K-only colour, the four-ink one) of the fill in force
        self.black = False  # the K-only colour is the one set now
        self._saved: list[tuple] = []

    def fill(self, kind: str, values, converted) -> None:
        """A fill colour was set: ``values`` in ``kind``, ``converted`` to CMYK (None: kept as it was)."""
        self.black = False
        self.neutral = None
        if converted is None or kind not in ("rgb", "gray"):
            return
        levels = {round(float(v) * 255) for v in values}
        if len(levels) == 1:
            self.neutral = (self.black_of(min(255, max(0, levels.pop()))), list(converted))

    def before(self, op: str) -> list:
        """The instructions to put before ``op``."""
        import pikepdf

        if op == "q":
            self._saved.append((self.neutral, self.black))
        elif op == "Q":
            if self._saved:
                self.neutral, self.black = self._saved.pop()
        elif op in ("cs", "CS"):
            if op == "cs":  # (a new colour space: its initial colour, set as that space's)
                self.fill("other", (), None)
        elif self.neutral is not None and (op in _SHOWS if not self.black else op in _PAINTS):
            self.black = not self.black
            colour = self.neutral[0] if self.black else self.neutral[1]
            return [pikepdf.ContentStreamInstruction(colour, pikepdf.Operator("k" if len(colour) == 4 else "rg"))]
        return []


class UnsupportedFunction(Exception):
    pass


def evaluate_function(function, t: float) -> list[float]:
    """A type 2 (exponential) or type 3 (stitching) function at ``t``."""
    kind = int(function.get("/FunctionType", -1))
    domain = [float(v) for v in function.get("/Domain", [0, 1])]
    t = min(max(t, domain[0]), domain[1])
    if kind == 2:
        c0 = [float(v) for v in function.get("/C0", [0.0])]
        c1 = [float(v) for v in function.get("/C1", [1.0])]
        n = float(function.get("/N", 1))
        span = domain[1] - domain[0] or 1.0
        x = ((t - domain[0]) / span) ** n
        return [a + x * (b - a) for a, b in zip(c0, c1)]
    if kind == 3:
        parts = list(function.Functions)
        bounds = [domain[0], *(float(v) for v in function.get("/Bounds", [])), domain[1]]
        encode = [float(v) for v in function.Encode]
        for i, part in enumerate(parts):
            if t < bounds[i + 1] or i == len(parts) - 1:
                lo, hi = bounds[i], bounds[i + 1]
                e0, e1 = encode[2 * i], encode[2 * i + 1]
                u = e0 if hi == lo else e0 + (t - lo) * (e1 - e0) / (hi - lo)
                return evaluate_function(part, u)
    raise UnsupportedFunction(kind)


def convert_pdf(data: bytes, profile: Profile, mode: str = "cmyk") -> tuple[bytes, list[str]]:
    """A PDF's bytes with every colour converted (see ``Recolour``), and what was left as it was."""
    import io

    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        recolour = Recolour(profile, mode)
        recolour.document(pdf)
        buffer = io.BytesIO()
        pdf.save(buffer, deterministic_id=True, compress_streams=True)
    return buffer.getvalue(), list(dict.fromkeys(recolour.skipped))
