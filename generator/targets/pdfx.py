"""Target ``pdfx``, and the shops whose preset asks for PDF/X (``dtc``): CMYK print files.

One PDF per deck, ``<folder>/<game>-<deck>.pdf``, each page one side of a card:
the card's trim (TrimBox) with its bleed all round (BleedBox, the page itself),
every colour in the CMYK of an ICC profile (``draw/cmyk.py``: the designer's
``--profile``, else the bundled one), an output intent carrying that profile,
and the PDF/X identification of the standard (document information and XMP
metadata, written with pikepdf).

- **PDF/X-4** keeps the artwork as it is drawn for the card sheets (vectors,
  text in embedded fonts, transparency) and converts its colours afterwards
  (``draw/recolour.py``: colour operators, pictures, gradients).
- **PDF/X-1a:2003** allows no transparency and no RGB, so each side is
  flattened: rasterised at the chosen resolution (``stages/raster.py``, the same path
  as every picture export) and converted pixel by pixel, one picture per page.

The plain ``--to pdfx`` export keeps each deck's own trim and gives every side
at least ``MIN_BLEED`` of bleed; a shop's export puts each design on the shop
size its trim fits (``shops.match_size``), centred, with the shop's bleed.
Where a page asks for more bleed than the design has, the edge of the artwork
is mirrored outwards (vectors) or its outermost pixels repeated (flattened).

Every side's colours are also measured against the profile (``Profile.gamut``);
a side with a colour that prints more than ``cmyk.GAMUT_DELTA_E`` away (CIEDE2000)
is a warning naming the card, and ``manifest.csv`` lists every page with its
component, copies and the largest difference.  Every file is preflighted
(``preflight.py``, beside it) before it is handed back; what the preflight finds is said
as warnings.  A deck no shop size fits is left out with a warning; a game with
nothing to write writes nothing.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.lib.units import mm

from model.errors import Problem
from model.manifest import Size

from ..stages.designs import RenderedDesign, RenderedGame
from ..stages.raster import MM_PER_INCH, Shot, centred_shot, rasterise
from .base import TargetOutput
from .cardfiles import manifest_csv, safe_name, sides
from .preflight import MIN_BLEED, Expect, expect_for, preflight
from .shops import STANDARDS, Preset, PrintSpec, fit_deck, load_preset

#: The resolution the colours of each side are measured at for the gamut report.
GAMUT_DPI = 50
#: Document dates: a fixed one, so that the same inputs give the same bytes (as the card sheets do).
DATE_PDF = "D:20000101000000+00'00'"
DATE_XMP = "2000-01-01T00:00:00+00:00"
#: The columns of ``manifest.csv``: one row per page.
PAGE_FIELDS = ("file", "page", "component", "copies", "deck", "id", "side", "delta_e", "out_of_gamut")


@dataclass(frozen=True)
class PdfxOptions:
    standard: str = STANDARDS["x-4"]
    profile: str | None = None  # the ICC file; None: the bundled profile
    dpi: int | None = None  # X-1a: the resolution sides are flattened at; None: the spec's least resolution
    workers: int = 1


@dataclass(frozen=True)
class CardPage:
    """One page: a side of a design on ``trim`` (its width and height as the page lies, with its bleed
    all round: the page is its full size); ``turn`` 90 when the design lies turned a quarter on it."""

    key: str
    design: RenderedDesign
    side: str
    trim: Size
    turn: int = 0
    canvas: tuple[int, int] | None = None  # the shop's pixels for the whole page (flattened), if it names them


class Pdfx:
    needs_designs = True

    def __init__(self, shop: str | None = None):
        self.shop = shop
        self.name = shop or "pdfx"
        self.folder = shop or "pdfx"

    @property
    def preset(self) -> Preset | None:
        return load_preset(self.shop) if self.shop else None

    def spec(self, options: PdfxOptions) -> PrintSpec:
        preset = self.preset
        if preset is not None and preset.pdfx is not None:
            return preset.pdfx
        return PrintSpec(standard=options.standard)

    def configure(self, build) -> PdfxOptions:
        settings = build.settings.get(self.name, {})
        dpi = settings.get("dpi")
        return PdfxOptions(settings.get("standard", STANDARDS["x-4"]), settings.get("profile"),
                           None if dpi is None else int(dpi), int(settings.get("workers", 1)))

    # ------------------------------------------------------------ pages
    def plan(self, rendered: RenderedGame, spec: PrintSpec) -> tuple[dict[str, list[CardPage]], list[Problem]]:
        """Deck name -> its pages, in order; the warnings for decks left out."""
        preset = self.preset
        slug = rendered.game.slug
        problems: list[Problem] = []
        out: dict[str, list[CardPage]] = {}
        for deck_name, designs in rendered.decks().items():
            deck = rendered.manifest.decks[deck_name]
            s = deck.size
            if preset is None:
                trim_w, trim_h, bleed, turn, canvas = s.width, s.height, max(s.bleed, MIN_BLEED), 0, None
            else:
                found = fit_deck(preset, slug, deck_name, deck)
                if isinstance(found, Problem):
                    problems.append(found)
                    continue
                size, turned = found
                trim_w, trim_h = preset.trim_mm(size)
                bleed, turn, canvas = preset.bleed_mm(size), 90 if turned else 0, size.canvas
            trim = Size(deck_name, trim_w, trim_h, bleed)
            pages = []
            for design in designs:
                copies = design.count if spec.copies == "pages" else 1
                for _ in range(copies):
                    for side, key in sides(design):
                        pages.append(CardPage(key, design, side, trim, turn, canvas))
            out[deck_name] = pages
        return out, problems

    # ------------------------------------------------------------ the target
    def make(self, rendered: RenderedGame, options: PdfxOptions) -> TargetOutput:
        from ..draw.cmyk import load_profile

        spec = self.spec(options)
        profile = load_profile(options.profile)
        decks, problems = self.plan(rendered, spec)
        if any(p.is_error for p in problems) or not decks:
            return TargetOutput({}, problems)  # nothing fits: nothing written, not even a folder
        slug = rendered.game.slug
        title = rendered.manifest.title
        gamuts = measure_gamut(rendered, decks, profile, options.workers)
        problems += gamut_problems(decks, gamuts, profile, self.folder)
        files: dict[Path, bytes] = {}
        rows = []
        flight: list[Problem] = []
        expect = preflight_expect(self.preset, spec, options)
        x1a = spec.standard == STANDARDS["x-1a"]
        dpi = options.dpi or spec.min_dpi
        for deck_name, pages in decks.items():
            label = rendered.manifest.decks[deck_name].label
            if x1a:
                data = flattened_pdf(pages, rendered.drawings, profile, dpi, options.workers)
            else:
                data = vector_pdf(pages, rendered.drawings, profile, f"{title} - {label}")
            data = identify(data, spec.standard, profile, f"{title} - {label}")
            name = Path(self.folder) / f"{safe_name(slug)}-{safe_name(deck_name)}.pdf"
            files[name] = data
            flight += preflight_problems(data, name, expect)
            for number, page in enumerate(pages, start=1):
                g = gamuts.get(page.key)
                rows.append({"file": name.name, "page": number, "component": page.design.card.name,
                             "copies": page.design.count if spec.copies == "manifest" else 1,
                             "deck": page.design.deck, "id": page.design.card.id, "side": page.side,
                             "delta_e": f"{g.delta_e:.1f}" if g else "",
                             "out_of_gamut": f"{100 * g.outside:.1f}" if g else ""})
        files[Path(self.folder) / "manifest.csv"] = manifest_csv(rows, PAGE_FIELDS)
        notes = [f"{self.folder}/: {spec.standard}, CMYK through {profile_label(profile)}"
                 + (f", flattened at {dpi} dpi" if x1a else "")]
        if x1a and dpi < spec.min_dpi:
            notes.append(f"--dpi {dpi} is below the {spec.min_dpi} dpi the preflight asks for: a file to look at, "
                         "not to print")
        checked = ", ".join(spec.checked)
        notes.append(f"preflight of {len(decks)} file{'s' if len(decks) != 1 else ''} ({checked}): "
                     + (f"{len(flight)} problem{'s' if len(flight) != 1 else ''} (above)" if flight else "passed"))
        return TargetOutput(files, problems + flight, 0, owns=[Path(self.folder)], notes=notes)


def profile_label(profile, hint: bool = True) -> str:
    """The profile by name, and where it comes from (pnp's own: with how to give the shop's, if ``hint``)."""
    own = " (pnp's own profile; --profile FILE.icc for the shop's)" if hint else " (pnp's own profile)"
    return f"'{profile.name}'" + (own if profile.bundled else f" ({profile.source})")


# ---------------------------------------------------------------- gamut
def measure_gamut(rendered: RenderedGame, decks: dict[str, list[CardPage]], profile, workers: int = 1) -> dict:
    """Drawing key -> its ``cmyk.Gamut``, from a raster of the whole side (with its own bleed)."""
    keys = {}
    for pages in decks.values():
        for page in pages:
            keys.setdefault(page.key, page.design.size)
    shots = [Shot(key, _px(s.full_width, GAMUT_DPI), _px(s.full_height, GAMUT_DPI), GAMUT_DPI, 0.0, 0.0,
                  s.full_width, s.full_height) for key, s in keys.items()]
    pixels = rasterise(shots, rendered.drawings, workers, fmt="array")
    return {shot.key: profile.gamut(p) for shot, p in zip(shots, pixels)}


def gamut_problems(decks: dict[str, list[CardPage]], gamuts: dict, profile, folder: str = "pdfx") -> list[Problem]:
    """A warning per colour that prints more than ``GAMUT_DELTA_E`` away (the worst colour of each
    side that has one): what it prints as, by how much, and on which sides (the first few named,
    with the share of the side in colours that far off; the manifest lists every side)."""
    from ..draw.cmyk import GAMUT_DELTA_E, Shift

    said = set()
    by_colour: dict[tuple, list] = {}
    for pages in decks.values():
        for page in pages:
            g = gamuts.get(page.key)
            if page.key in said or g is None or not g.out_of_gamut:
                continue
            said.add(page.key)
            worst = g.worst
            by_colour.setdefault((worst.rgb, worst.printed), []).append((page, g))
    out = []
    for (rgb, printed), sides_ in by_colour.items():
        page, _ = sides_[0]
        card = page.design.card
        worst = max(g.worst.delta_e for _, g in sides_)
        named = ", ".join(f"'{p.design.card.id}' {p.side} ({100 * g.outside:.0f}%)" for p, g in sides_[:3])
        more = f" and {len(sides_) - 3} more" if len(sides_) > 3 else ""
        count = f"{len(sides_)} side{'s' if len(sides_) != 1 else ''}"
        out.append(Problem(card.sheet, card.row, None,
                           f"{Shift.hex(rgb)} prints as {Shift.hex(printed)}, out of the profile's gamut (CIEDE2000 "
                           f"{worst:.1f}), on {count}: {named}{more} (the share of each side printing more than "
                           f"{GAMUT_DELTA_E:g} away; {folder}/manifest.csv lists every side)", "warning"))
    return out


def _px(length_mm: float, dpi: float) -> int:
    """Whole pixels covering ``length_mm`` at ``dpi`` (rounded up: never below the resolution)."""
    return max(1, math.ceil(length_mm * dpi / MM_PER_INCH - 1e-6))


# ---------------------------------------------------------------- PDF/X-4: vectors
def vector_pdf(pages: list[CardPage], drawings, profile, title: str) -> bytes:
    """The pages drawn as the card sheets draw their designs, then every colour taken to CMYK."""
    from ..draw.canvas import end_form
    from ..draw.displaylist import draw_picture
    from ..draw.recolour import convert_pdf
    from ..sheets.pdf import new_canvas
    from ..stages.raster import picture_of

    buffer = io.BytesIO()
    first = pages[0]
    c = new_canvas(buffer, first.trim.full_width, first.trim.full_height, title, "print file")
    forms: dict[str, str] = {}
    for page in pages:
        name = forms.get(page.key)
        if name is None:
            name = forms[page.key] = f"D{len(forms)}"
            picture = picture_of(drawings, page.key)
            c.beginForm(name, 0, 0, picture.width, picture.height)
            draw_picture(c, picture, lambda k=page.key: drawings[k])
            end_form(c, name)
        w, h = page.trim.full_width * mm, page.trim.full_height * mm
        c.setPageSize((w, h))
        b = page.trim.bleed * mm
        c.setTrimBox((b, b, w - b, h - b))
        c.setBleedBox((0, 0, w, h))
        _place(c, name, page)
        c.showPage()
    c.save()
    data, _ = convert_pdf(buffer.getvalue(), profile, "cmyk")
    return data


def _place(c, form: str, page: CardPage) -> None:
    """The design's form centred on the page (turned when the page says so), its artwork mirrored
    outwards across the edge of its bleed where the page's bleed is wider."""
    size = page.design.size
    fw, fh = size.full_width * mm, size.full_height * mm
    c.saveState()
    clip = c.beginPath()
    clip.rect(0, 0, page.trim.full_width * mm, page.trim.full_height * mm)
    c.clipPath(clip, stroke=0, fill=0)
    c.translate(page.trim.full_width * mm / 2, page.trim.full_height * mm / 2)
    if page.turn:
        c.rotate(page.turn)
    # the page as the design lies, around its middle
    half_w = (page.trim.full_height if page.turn else page.trim.full_width) * mm / 2
    half_h = (page.trim.full_width if page.turn else page.trim.full_height) * mm / 2
    extra_w, extra_h = half_w - fw / 2, half_h - fh / 2
    for ix in (-1, 0, 1):
        for iy in (-1, 0, 1):
            if (ix and extra_w <= 1e-6) or (iy and extra_h <= 1e-6):
                continue
            c.saveState()
            if ix or iy:  # the strip beyond one edge (or corner) of the design's bleed
                x0, x1 = ((-fw / 2, fw / 2) if ix == 0 else (fw / 2, half_w) if ix > 0 else (-half_w, -fw / 2))
                y0, y1 = ((-fh / 2, fh / 2) if iy == 0 else (fh / 2, half_h) if iy > 0 else (-half_h, -fh / 2))
                strip = c.beginPath()
                strip.rect(x0, y0, x1 - x0, y1 - y0)
                c.clipPath(strip, stroke=0, fill=0)
                c.translate(ix * fw, iy * fh)
                c.scale(-1 if ix else 1, -1 if iy else 1)
            c.translate(-fw / 2, -fh / 2)
            c.doForm(form)
            c.restoreState()
    c.restoreState()


# ---------------------------------------------------------------- PDF/X-1a: flattened
def flattened_pdf(pages: list[CardPage], drawings, profile, dpi: int, workers: int = 1) -> bytes:
    """Each page one CMYK picture: the side rasterised at ``dpi`` and converted through the profile."""
    import zlib

    import numpy as np
    import pikepdf

    shots = []
    for page in pages:
        s = page.design.size
        if page.canvas is not None and abs(dpi - _canvas_dpi(page)) < 1e-6:
            w, h = page.canvas
        else:
            w, h = _px(page.trim.full_width, dpi), _px(page.trim.full_height, dpi)
        if page.turn:  # rendered as the design lies, then turned upright
            w, h = h, w
        shot = centred_shot(page.key, s.full_width, s.full_height, s.bleed, dpi, w, h)
        shots.append(replace(shot, turn=page.turn) if page.turn else shot)
    distinct = list(dict.fromkeys(shots))
    pixels = rasterise(distinct, drawings, workers, fmt="array")
    pdf = pikepdf.new()
    images = {}
    for shot, rgb in zip(distinct, pixels):
        cmyk = np.ascontiguousarray(profile.to_cmyk(rgb))
        image = pdf.make_stream(zlib.compress(cmyk.tobytes(), 6))
        image.Type = pikepdf.Name.XObject
        image.Subtype = pikepdf.Name.Image
        image.Width, image.Height = int(cmyk.shape[1]), int(cmyk.shape[0])
        image.ColorSpace = pikepdf.Name.DeviceCMYK
        image.BitsPerComponent = 8
        image.Filter = pikepdf.Name.FlateDecode
        images[shot] = image
    for page, shot in zip(pages, shots):
        w, h = page.trim.full_width * mm, page.trim.full_height * mm
        b = page.trim.bleed * mm
        content = pdf.make_stream(f"q {_num(w)} 0 0 {_num(h)} 0 0 cm /Im0 Do Q".encode())
        obj = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=pikepdf.Array([0, 0, _num(w), _num(h)]),
                                 BleedBox=pikepdf.Array([0, 0, _num(w), _num(h)]),
                                 TrimBox=pikepdf.Array([_num(b), _num(b), _num(w - b), _num(h - b)]),
                                 Resources=pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=images[shot])),
                                 Contents=content)
        pdf.pages.append(pikepdf.Page(obj))
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True)
    return buffer.getvalue()


def _canvas_dpi(page: CardPage) -> float:
    """The resolution at which the shop's canvas pixels cover the page exactly."""
    return page.canvas[0] / (page.trim.full_width / MM_PER_INCH)


def _num(value: float) -> float:
    return round(value, 4)


# ---------------------------------------------------------------- PDF/X identification
def identify(data: bytes, standard: str, profile, title: str) -> bytes:
    """The PDF with what PDF/X asks of a document: the output intent (the profile embedded), the
    version keys in the document information and the XMP metadata, the trapping key, fixed dates."""
    import pikepdf

    x1a = standard == STANDARDS["x-1a"]
    with pikepdf.open(io.BytesIO(data)) as pdf:
        icc = pdf.make_stream(profile.data)
        icc.N = 4
        intent = pikepdf.Dictionary(Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
                                    OutputConditionIdentifier=pikepdf.String("Custom"),
                                    OutputCondition=pikepdf.String(profile.name),
                                    Info=pikepdf.String(profile.name),
                                    RegistryName=pikepdf.String("http://www.color.org"),
                                    DestOutputProfile=icc)
        pdf.Root.OutputIntents = pikepdf.Array([intent])
        info = pikepdf.Dictionary(Title=pikepdf.String(title), Creator=pikepdf.String("pnp print-and-play toolchain"),
                                  Producer=pikepdf.String("pnp (reportlab, pikepdf, LittleCMS)"),
                                  CreationDate=pikepdf.String(DATE_PDF), ModDate=pikepdf.String(DATE_PDF),
                                  Trapped=pikepdf.Name("/False"),
                                  GTS_PDFXVersion=pikepdf.String("PDF/X-1:2003" if x1a else "PDF/X-4"))
        if x1a:
            info.GTS_PDFXConformance = pikepdf.String("PDF/X-1a:2003")
        pdf.trailer.Info = pdf.make_indirect(info)
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            meta["dc:title"] = title
            meta["xmp:CreateDate"] = DATE_XMP
            meta["xmp:ModifyDate"] = DATE_XMP
            meta["xmp:MetadataDate"] = DATE_XMP
            meta["xmp:CreatorTool"] = "pnp print-and-play toolchain"
            meta["pdf:Producer"] = "pnp (reportlab, pikepdf, LittleCMS)"
            meta["pdf:Trapped"] = "False"
            if x1a:
                meta["pdfx:GTS_PDFXVersion"] = "PDF/X-1:2003"
                meta["pdfx:GTS_PDFXConformance"] = "PDF/X-1a:2003"
            else:
                meta["pdfxid:GTS_PDFXVersion"] = "PDF/X-4"
        buffer = io.BytesIO()
        pdf.save(buffer, deterministic_id=True, force_version="1.4" if x1a else "1.6",
                 object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return buffer.getvalue()


# ---------------------------------------------------------------- preflight
def preflight_expect(preset: Preset | None, spec: PrintSpec, options: PdfxOptions) -> Expect:
    """What the preflight checks every file of the export against."""
    expect = expect_for(preset, spec)
    if options.dpi is not None and options.dpi < expect.min_dpi:  # asked for: said once, not on every page
        expect = replace(expect, min_dpi=options.dpi)
    return expect


def preflight_problems(data: bytes, name: Path, expect: Expect) -> list[Problem]:
    """What the preflight finds in a file just made, as warnings (the file is still written)."""
    found = preflight(data, str(name), expect)
    return [replace(p, severity="warning") for p in found]
