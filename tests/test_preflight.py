"""The preflight (``pnp check --preflight``) catches each problem it claims to: every check is shown
a print file broken on purpose in exactly one way, and says exactly that, one line per problem."""

from __future__ import annotations

import io
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from click.testing import CliRunner

from generator.stages.designs import RenderOptions, render_game
from generator.targets.preflight import Expect, expect_for, preflight
from generator.targets.shops import STANDARDS, PresetError, load_preset, parse_preset
from generator.targets import TARGETS
from generator.targets.pdfx import PdfxOptions
from model.sheets import load_project
from pnp.cli import main

from helpers import REPO

X4, X1A = STANDARDS["x-4"], STANDARDS["x-1a"]
DPI = 40
LIMIT = 239  # pnp's own profile: its largest total ink, 238.04 %, rounded up


@pytest.fixture(scope="module")
def good():
    """Good print files of the example game's curse (a front and a back page): X-1a flattened at 40 dpi,
    and X-4."""
    game = load_project(REPO / "docs" / "example", ["tiny-tombs"]).games["tiny-tombs"]
    rendered = render_game(replace(game, cards=[c for c in game.cards if c.deck == "curse"]), RenderOptions())
    out = {}
    for standard in (X1A, X4):
        made = TARGETS["pdfx"].make(rendered, PdfxOptions(standard, None, DPI if standard == X1A else None))
        out[standard] = bytes(made.files[Path("pdfx/tiny-tombs-curse.pdf")])
    return out


def check(data: bytes, standard: str = X1A, **expect) -> list[str]:
    return [str(p) for p in preflight(data, "print.pdf", Expect(standard, **{"min_dpi": DPI, **expect}))]


def broken(data: bytes, change) -> bytes:
    """The PDF after ``change(pdf)``."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        change(pdf)
        buffer = io.BytesIO()
        pdf.save(buffer)
        return buffer.getvalue()


def image_of(pdf, page: int = 0):
    return pdf.pages[page].Resources.XObject.Im0


def replace_image(pdf, pixels: np.ndarray, space: str, page: int = 0) -> None:
    """Page ``page``'s picture replaced by ``pixels`` (H x W x channels) in ``space``, drawn where it was."""
    image = pdf.make_stream(zlib.compress(np.ascontiguousarray(pixels, np.uint8).tobytes()))
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width, image.Height = pixels.shape[1], pixels.shape[0]
    image.ColorSpace, image.BitsPerComponent, image.Filter = pikepdf.Name(space), 8, pikepdf.Name.FlateDecode
    pdf.pages[page].Resources.XObject.Im0 = image


def add_content(pdf, page: int, content: bytes, **resources) -> None:
    """Draw ``content`` on page ``page`` after what it has, with more ``resources``."""
    obj = pdf.pages[page].obj
    for kind, entries in resources.items():
        table = obj.Resources.get(f"/{kind}")
        if table is None:
            obj.Resources[f"/{kind}"] = table = pikepdf.Dictionary()
        for name, value in entries.items():
            table[f"/{name}"] = value
    obj.Contents = pdf.make_stream(obj.Contents.read_bytes() + b"\n" + content)


def test_the_good_files_pass(good):
    assert check(good[X1A]) == []
    assert check(good[X4], X4) == []


def test_an_rgb_picture_in_pdfx_1a(good):
    def rgb(pdf):
        w, h = int(image_of(pdf).Width), int(image_of(pdf).Height)
        replace_image(pdf, np.full((h, w, 3), (200, 30, 120)), "/DeviceRGB")
    assert check(broken(good[X1A], rgb)) == [
        "print.pdf:page 1: picture Im0 (110 x 150 px) in DeviceRGB: PDF/X-1a allows only CMYK, grey and spot colours"]


def test_an_rgb_drawing_colour_in_either_standard(good):
    def rgb(pdf):
        add_content(pdf, 1, b"q 1 0 0.5 rg 10 10 20 20 re f Q")
    assert check(broken(good[X1A], rgb)) == [
        "print.pdf:page 2: a drawing colour in DeviceRGB: PDF/X-1a allows only CMYK, grey and spot colours"]
    assert check(broken(good[X4], rgb), X4) == [
        "print.pdf:page 2: a drawing colour in DeviceRGB, device-dependent RGB: PDF/X-4 asks for CMYK or ICC-based "
        "colour"]


def test_a_missing_output_intent(good):
    def drop(pdf):
        del pdf.Root.OutputIntents
    assert check(broken(good[X1A], drop)) == [
        "print.pdf: no PDF/X output intent (OutputIntents with S /GTS_PDFX): the printing condition is not named"]


def test_a_missing_version_key_and_a_wrong_standard(good):
    def drop(pdf):
        del pdf.trailer.Info.GTS_PDFXVersion
    assert check(broken(good[X1A], drop)) == [
        "print.pdf: no PDF/X version key (GTS_PDFXVersion) in the document information"]
    assert check(good[X4], X1A) == [
        "print.pdf: the file is PDF/X-4; the check asks for PDF/X-1a:2003",
        "print.pdf: PDF version 1.6; PDF/X-1a:2003 allows at most 1.4",
        "print.pdf:page 2: opacity 0.25 (ca in gRLs0): PDF/X-1a allows no transparency"]


def test_a_missing_trim_box(good):
    def drop(pdf):
        del pdf.pages[1].obj.TrimBox
    assert check(broken(good[X1A], drop)) == ["print.pdf:page 2: no TrimBox: the shop cannot tell where to cut"]


def test_a_picture_below_the_resolution_asked(good):
    def coarse(pdf):
        w, h = int(image_of(pdf).Width), int(image_of(pdf).Height)
        replace_image(pdf, np.zeros((h // 4, w // 4, 4)), "/DeviceCMYK")
    assert check(broken(good[X1A], coarse)) == [
        "print.pdf:page 1: picture Im0 (27 x 37 px) prints at 10 dpi, below 40 dpi"]
    # the same picture drawn at a quarter of its size would be fine: the resolution is where it is drawn
    assert check(good[X1A], min_dpi=41) == ["print.pdf:pages 1-2: picture Im0 (110 x 150 px) prints at 40 dpi, "
                                            "below 41 dpi"]


def test_too_much_ink(good):
    def heavy(pdf):
        w, h = int(image_of(pdf, 1).Width), int(image_of(pdf, 1).Height)
        pixels = np.zeros((h, w, 4))
        pixels[: h // 2] = 255  # 400 % on the upper half
        replace_image(pdf, pixels, "/DeviceCMYK", 1)
        add_content(pdf, 0, b"q 0.9 0.8 0.6 0.9 k 10 10 20 20 re f Q")
    assert check(broken(good[X1A], heavy)) == [
        f"print.pdf:page 1: total ink 320% in a drawing colour (0.9 0.8 0.6 0.9 k), above the {LIMIT}% limit",
        f"print.pdf:page 2: picture Im0 (110 x 150 px): total ink up to 400% (50.0% of its pixels above the {LIMIT}% "
        "limit)"]
    # a shop's own limit is the one checked
    assert check(good[X1A], max_ink=200)[0].startswith("print.pdf:page 1: picture Im0 (110 x 150 px): total ink "
                                                       "up to 2")


def test_the_ink_of_a_masked_picture_is_that_of_its_own_samples(good):
    # a black of K alone (100 % ink) with a soft mask: read through an RGB picture with alpha, as a masked
    # picture decodes by default, it would come back as 300 % of C, M and Y
    def masked(pdf):
        w, h = int(image_of(pdf).Width), int(image_of(pdf).Height)
        pixels = np.zeros((h, w, 4))
        pixels[..., 3] = 255
        replace_image(pdf, pixels, "/DeviceCMYK")
        mask = pdf.make_stream(zlib.compress(bytes([255]) * (w * h)))
        mask.Type, mask.Subtype, mask.ColorSpace = pikepdf.Name.XObject, pikepdf.Name.Image, pikepdf.Name.DeviceGray
        mask.Width, mask.Height, mask.BitsPerComponent, mask.Filter = w, h, 8, pikepdf.Name.FlateDecode
        image_of(pdf).SMask = mask
    assert check(broken(good[X1A], masked)) == [
        "print.pdf:page 1: picture Im0 (110 x 150 px) has a soft mask: PDF/X-1a allows no transparency"]


def test_a_font_that_is_not_embedded(good):
    def helvetica(pdf):
        font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                  BaseFont=pikepdf.Name.Helvetica)
        add_content(pdf, 1, b"BT /F9 12 Tf 20 20 Td (x) Tj ET", Font={"F9": font})
    assert check(broken(good[X1A], helvetica)) == ["print.pdf:page 2: font Helvetica is not embedded"]


def test_transparency_in_pdfx_1a(good):
    def see_through(pdf):
        add_content(pdf, 0, b"q /GS9 gs 0 0 0 1 k 10 10 20 20 re f Q /GS8 gs",
                    ExtGState={"GS9": pikepdf.Dictionary(ca=0.5), "GS8": pikepdf.Dictionary(
                        BM=pikepdf.Name.Multiply, SMask=pikepdf.Dictionary(S=pikepdf.Name.Luminosity))})
        pdf.pages[1].obj.Group = pikepdf.Dictionary(S=pikepdf.Name.Transparency)
        if "/Im0" not in pdf.pages[1].Resources.XObject:  # PDF/X-4: no picture to mask
            return
        image = image_of(pdf, 1)
        mask = pdf.make_stream(bytes(int(image.Width) * int(image.Height)))
        mask.Type, mask.Subtype, mask.ColorSpace = pikepdf.Name.XObject, pikepdf.Name.Image, pikepdf.Name.DeviceGray
        mask.Width, mask.Height, mask.BitsPerComponent = image.Width, image.Height, 8
        image.SMask = mask
    assert check(broken(good[X1A], see_through)) == [
        "print.pdf:page 1: opacity 0.5 (ca in GS9): PDF/X-1a allows no transparency",
        "print.pdf:page 1: a soft mask (GS8): PDF/X-1a allows no transparency",
        "print.pdf:page 1: blend mode Multiply (GS8): PDF/X-1a allows no transparency",
        "print.pdf:page 2: a transparency group on the page: PDF/X-1a allows no transparency",
        "print.pdf:page 2: picture Im0 (110 x 150 px) has a soft mask: PDF/X-1a allows no transparency"]
    assert check(broken(good[X4], see_through), X4) == []  # PDF/X-4 allows it


def test_a_shops_bleed_and_sizes(good):
    dtc = replace(expect_for(load_preset("dtc")), min_dpi=DPI)
    assert [str(p) for p in preflight(good[X1A], "print.pdf", dtc)] == [
        "print.pdf:pages 1-2: bleed 3.00, 3.00, 3.00, 3.00 mm (left, right, top, bottom); DriveThruCards asks for "
        "3.175 mm on every side"]

    def small(pdf):
        pdf.pages[0].obj.TrimBox = pikepdf.Array([20, 20, 150, 220])
    assert [str(p) for p in preflight(broken(good[X1A], small), "print.pdf", dtc)][:2] == [
        "print.pdf:page 1: bleed 7.06, 16.58, 17.29, 7.06 mm (left, right, top, bottom); DriveThruCards asks for "
        "3.175 mm on every side",
        "print.pdf:page 1: trim 45.86 x 70.56 mm is no DriveThruCards size (poker card (2.5 x 3.5 in): 63.5 x 88.9 mm)"]
    assert check(broken(good[X1A], small)) == []  # without a shop: any trim, at least 3 mm of bleed


def test_a_home_printing_pdf_fails_in_every_way_it_should(tmp_path):
    """The card sheets pnp build writes for a home printer: RGB, no PDF/X identification."""
    from generator.build import BuildOptions, build_game

    game = load_project(REPO / "docs" / "example", ["tiny-tombs"]).games["tiny-tombs"]
    result = build_game(game, BuildOptions(out=tmp_path, targets=("pdf-sheets",)), reference=False)
    (sheets,) = result.files
    poker = "(poker card (2.5 x 3.5 in): 63.5 x 88.9 mm)"
    assert [str(p) for p in preflight(sheets, "cards.pdf", expect_for(load_preset("dtc")))] == [
        "cards.pdf: no PDF/X version key (GTS_PDFXVersion) in the document information",
        "cards.pdf: no PDF/X output intent (OutputIntents with S /GTS_PDFX): the printing condition is not named",
        "cards.pdf:pages 1-4: bleed 3.00, 3.00, 3.00, 3.00 mm (left, right, top, bottom); DriveThruCards asks for "
        "3.175 mm on every side",
        f"cards.pdf:pages 1-2: trim 183.8 x 272 mm is no DriveThruCards size {poker}",
        "cards.pdf:pages 1-4: a drawing colour in DeviceRGB: PDF/X-1a allows only CMYK, grey and spot colours",
        "cards.pdf:pages 2, 4: opacity 0.25 (ca in gRLs0): PDF/X-1a allows no transparency",
        f"cards.pdf:pages 3-4: trim 183.8 x 202.5 mm is no DriveThruCards size {poker}"]


# ---------------------------------------------------------------- the command line
def test_pnp_check_preflight_passes_a_good_file_and_lists_a_broken_ones_problems(good, tmp_path):
    ok = tmp_path / "ok.pdf"
    ok.write_bytes(good[X4])
    result = CliRunner().invoke(main, ["check", "--preflight", str(ok)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "1 file passed the preflight against PDF/X (standard, boxes, bleed, colour, transparency, fonts, resolution, "
        "ink)."]
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(broken(good[X4], lambda pdf: pdf.pages[1].obj.__delitem__("/TrimBox")))
    result = CliRunner().invoke(main, ["check", "--preflight", str(ok), str(bad)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"error {bad}:page 2: no TrimBox: the shop cannot tell where to cut",
        "1 problem in 2 files checked against PDF/X (standard, boxes, bleed, colour, transparency, fonts, resolution, "
        "ink)."]


@pytest.mark.parametrize("args,code,message", [
    (["--shop", "tgc", "--preflight", "x.pdf"], 2,
     "error The Game Crafter takes RGB pictures, not PDF print files; the shops with a print-file preflight: dtc"),
    (["--shop", "nope", "--preflight", "x.pdf"], 2, "error unknown print shop 'nope'; known: dtc, mpc, tgc"),
    (["--preflight", "missing.pdf"], 1, "error missing.pdf: cannot read it (No such file or directory)"),
    (["--preflight", "README.md"], 1, "error README.md: not a PDF that can be read ("),
])
def test_pnp_check_preflight_refuses_clearly(monkeypatch, args, code, message):
    monkeypatch.chdir(REPO)
    result = CliRunner().invoke(main, ["check", *args])
    assert result.exit_code == code, result.output
    assert result.output.splitlines()[0].startswith(message)


def test_a_shop_needs_a_file_to_check():
    result = CliRunner().invoke(main, ["check", "--shop", "dtc"])
    assert result.exit_code == 2 and "Error: --shop applies to --preflight FILE.pdf" in result.output


# ---------------------------------------------------------------- the presets say what is checked
def test_a_shops_pdfx_table_is_checked_data():
    dtc = load_preset("dtc")
    assert dtc.pdfx.standard == X1A and dtc.pdfx.max_ink == 240 and dtc.pdfx.copies == "pages"
    assert dtc.pdfx.checked == ("standard", "boxes", "bleed", "colour", "transparency", "fonts", "resolution", "ink")
    assert len(dtc.pdfx.not_checked) == 3
    assert load_preset("tgc").pdfx is None and load_preset("mpc").pdfx is None
    base = {"shop": {"name": "X", "dpi": 300, "source": "s"},
            "sizes": {"poker": {"canvas": [825, 1125], "trim": [750, 1050], "confirmed": True}}}
    bad = dict(base, pdfx={"standard": "PDF/X-3", "max_ink": 500, "copies": "all", "checked": ["colour", "smell"],
                           "spot": True})
    with pytest.raises(PresetError) as exc:
        parse_preset("x", bad, "x.toml")
    assert str(exc.value) == "; ".join([
        "x.toml:pdfx.spot: unknown key; known: checked, copies, max_ink, min_dpi, not_checked, standard",
        "x.toml:pdfx.standard: expected one of PDF/X-1a:2003, PDF/X-4, got 'PDF/X-3'",
        "x.toml:pdfx.max_ink: expected a total ink limit of 100 to 400 (%), got 500",
        "x.toml:pdfx.copies: expected one of pages, manifest, got 'all'",
        "x.toml:pdfx.checked: expected a list of checks from standard, boxes, bleed, colour, transparency, fonts, "
        "resolution, ink, got ['colour', 'smell']"])
    some = parse_preset("x", dict(base, pdfx={"standard": "PDF/X-4", "checked": ["ink", "fonts"],
                                              "not_checked": ["varnish"]}), "x.toml")
    assert some.pdfx.checked == ("fonts", "ink") and some.pdfx.not_checked == ("varnish",)
    expect = expect_for(some)
    assert expect.checks == ("fonts", "ink") and expect.bleed == pytest.approx(3.175) and expect.standard == X4
