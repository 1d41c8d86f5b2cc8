"""Pictures on cards: found in the data folder, placed, clipped, embedded once, checked."""

from __future__ import annotations

import io

import numpy as np
import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image

import generator.draw.svgfast as svgfast
from generator.art import formats, pdfimages, pictures, placement
from generator.build import BuildOptions, build_game
from generator.diskcache import DiskCache, cache_folder
from model.errors import InputErrors
from model.sheets import load_project
from pnp.cli import main

from helpers import art_game, build_art, cards_pdf, design_point, placed, read_rows, set_cell, write_rows

MM = 72 / 25.4


@pytest.fixture
def data(tmp_path):
    return art_game(tmp_path / "data")


build = build_art


def images_of(pdf: bytes) -> list:
    """Every image XObject of a PDF, once each: (width, height, filter, has a soft mask, data)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    found = {}
    for page in reader.pages:
        def walk(resources):
            for obj in (resources or {}).get("/XObject", {}).values():
                x = obj.get_object()
                if x["/Subtype"] == "/Image":
                    found[obj.idnum] = (x["/Width"], x["/Height"], x.get("/Filter"), "/SMask" in x,
                                        x.get_data() if x.get("/Filter") != "/DCTDecode" else x._data)
                else:
                    walk(x.get("/Resources"))
        walk(page.get("/Resources"))
    return list(found.values())


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_each_picture_file_is_embedded_once_at_its_own_resolution(data, tmp_path):
    result = build(data, tmp_path / "out")
    pdf = cards_pdf(result)
    images = images_of(pdf)
    # astronaut (two copies of r1) once, as the JPEG file itself; the cat with its transparency as a soft
    # mask; the coffee's own rows; the sun (SVG) is no image at all but a vector form
    jpeg = [i for i in images if i[2] == "/DCTDecode"]
    assert len(jpeg) == 1 and jpeg[0][:2] == (512, 512)
    assert jpeg[0][4] == (data / "art" / "astro.jpg").read_bytes()
    flate = sorted(i[:4] for i in images if i[2] == "/FlateDecode")
    assert flate == [(451, 300, "/FlateDecode", True), (600, 400, "/FlateDecode", False)]
    assert pdf.count(b"/Subtype /Image") == 4  # astronaut, cat and its soft mask, coffee
    assert b"/Subtype /Form" in pdf and b"/Shading" in pdf  # the sun: a form with its gradient


def test_the_coffee_png_goes_in_as_it_is(data, tmp_path):
    pdf = cards_pdf(build(data, tmp_path / "out"))
    with Image.open(data / "art" / "coffee.png") as im:
        pixels = np.asarray(im.convert("RGB"))
    coffee = next(i for i in images_of(pdf) if i[:2] == (600, 400))
    assert np.array_equal(np.frombuffer(coffee[4], np.uint8).reshape(400, 600, 3), pixels)


def test_a_transparent_png_goes_in_pixel_for_pixel_with_its_transparency(data, tmp_path):
    pdf = cards_pdf(build(data, tmp_path / "out"))
    with Image.open(data / "art" / "cat.png") as im:
        assert im.mode == "RGBA"
        rgba = np.asarray(im)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    found = []
    for page in reader.pages:
        def walk(resources):
            for obj in (resources or {}).get("/XObject", {}).values():
                x = obj.get_object()
                if x["/Subtype"] == "/Image" and "/SMask" in x:
                    found.append(x)
                elif x["/Subtype"] == "/Form":
                    walk(x.get("/Resources"))
        walk(page.get("/Resources"))
    cat = found[0]
    h, w = rgba.shape[:2]
    colours = np.frombuffer(cat.get_data(), np.uint8).reshape(h, w, 3)
    alpha = np.frombuffer(cat["/SMask"].get_object().get_data(), np.uint8).reshape(h, w)
    assert np.array_equal(colours, rgba[:, :, :3]) and np.array_equal(alpha, rgba[:, :, 3])


def page_pixels(pdf: bytes, page: int = 0, dpi: int = 100):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return doc[page].render(scale=dpi / 72, rev_byteorder=True).to_numpy()[:, :, :3].copy(), doc[page].get_height()
    finally:
        doc.close()


def locate(data, pdf: bytes, card_id: str, dpi: int = 100):
    """at(u, v): the pixel of the cards PDF at ``u``, ``v`` mm from the top-left corner of the
    bleed of a design's first copy, wherever the layout put it (and however it turned it)."""
    game = load_project(data, ["tomb"]).games["tomb"]
    page, slot = placed(game, card_id)
    pixels, height = page_pixels(pdf, page, dpi)
    bleed = game.manifest.decks["relic"].size.bleed

    def at(u, v):
        x, y = design_point(slot, height / MM, u - bleed, v - bleed)
        return pixels[round(y * dpi / 25.4), round(x * dpi / 25.4)]
    return at


def test_a_picture_covers_its_box_is_clipped_to_it_and_shows_through_its_transparency(data, tmp_path):
    pdf = cards_pdf(build(data, tmp_path / "out"))
    cards = {card: locate(data, pdf, card) for card in ("r1", "r3")}

    def at(card, x_mm, y_mm):  # design millimetres from the card's top-left bleed corner
        return cards[card](x_mm, y_mm)

    # the astronaut covers the 69.5 x 45 mm box: scaled to 69.5 mm square, centred, the top and bottom cut
    photo = np.asarray(Image.open(data / "art" / "astro.jpg").convert("RGB")).astype(float)
    px, py, pw, ph = placement.placement("cover", "center", (0, 0, 69.5, 45), (512, 512))
    assert (px, pw) == (0, 69.5) and py == pytest.approx(-12.25)
    for x_mm, y_mm in ((10, 5), (35, 20), (60, 40), (20, 44)):
        u, v = int((x_mm - px) / pw * 512), int((y_mm - py) / ph * 512)
        expected = photo[max(0, v - 2):v + 3, max(0, u - 2):u + 3].mean(axis=(0, 1))
        assert np.abs(at("r1", x_mm, y_mm).astype(float) - expected).max() < 40, (x_mm, y_mm)
    # below the box: the card's own colour, not the rest of the photograph (it is cropped at 45 mm)
    assert tuple(at("r1", 10, 47)) == pytest.approx((0xF4, 0xEC, 0xD8), abs=3)
    # the cat's transparent corners show the card (its ellipse leaves them empty)
    cards["r2"] = locate(data, pdf, "r2")
    assert tuple(at("r2", 4, 4)) == pytest.approx((0xF4, 0xEC, 0xD8), abs=3)
    middle = at("r2", 34.75, 22.5)
    assert not np.allclose(middle, (0xF4, 0xEC, 0xD8), atol=10)


def test_the_svg_reader_and_svglib_give_the_same_bytes(data, tmp_path, monkeypatch):
    fast = cards_pdf(build(data, tmp_path / "fast"))
    monkeypatch.setattr(svgfast, "to_display_list", lambda svg: None)
    slow = cards_pdf(build(data, tmp_path / "slow"))
    assert fast == slow


def test_kept_form_streams_give_the_same_bytes_and_a_changed_picture_renders_only_its_designs(data, tmp_path):
    out = tmp_path / "out"
    first = build(data, out, cache=DiskCache(cache_folder(out)))
    cache = DiskCache(cache_folder(out))
    second = build(data, out, cache=cache)
    assert second.changed == [] and cards_pdf(second) == cards_pdf(first)
    assert cache.get_form(second.rendered.designs[0].front_key) is not None  # a design with a picture is kept
    with Image.open(data / "art" / "coffee.png") as im:
        im.transpose(Image.FLIP_LEFT_RIGHT).save(data / "art" / "coffee.png")
    third = build(data, out, cache=DiskCache(cache_folder(out)))
    assert third.changed == ["r3"]
    assert third.content_hash != second.content_hash  # the footer's hash covers the pictures
    assert cards_pdf(third) == cards_pdf(build(data, tmp_path / "cold"))


def test_low_resolution_is_a_warning_naming_file_row_and_dpi(data, tmp_path):
    warnings = [str(w) for w in build(data, tmp_path / "out").warnings]
    assert ("cards.csv:2:art: 'r1' (front): art/astro.jpg prints at 187 dpi (512 x 512 px over 69.5 x 69.5 mm); "
            "300 dpi prints sharp: use one of at least 821 x 821 px") in warnings


def test_a_low_resolution_picture_a_template_places_on_every_card_is_one_warning_naming_them(data, tmp_path):
    back = data / "templates" / "tomb" / "back.svg.j2"
    back.write_text(back.read_text(encoding="utf-8").replace('"art/sun.svg", B + 10, B + 20, TW - 20, TW - 20',
                                                             '"art/back.jpg", B + 2, B + 2, TW - 4, TW - 4'),
                    encoding="utf-8")
    (data / "art" / "back.jpg").write_bytes((data / "art" / "astro.jpg").read_bytes())
    warnings = [str(w) for w in build(data, tmp_path / "out").warnings]
    # every card's back: 512 px over a box 63.5 - 4 = 59.5 mm wide, 218.6 dpi; 300 dpi needs 702.8 px
    said = [w for w in warnings if w.startswith("templates/")]
    assert said == ["templates/tomb/back.svg.j2: art/back.jpg prints at 219 dpi (512 x 512 px over 59.5 x 59.5 mm); "
                    "300 dpi prints sharp: use one of at least 703 x 703 px (cards 'r1', 'r2', 'r3')"], warnings


@pytest.mark.parametrize("name, message", [
    ("../outside.png", "'../outside.png' leads outside the data folder; pictures must be inside it"),
    ("/etc/passwd.png", "'/etc/passwd.png' is an absolute path; name pictures relative to the data folder"),
    ("art/missing.png", "picture 'art/missing.png' not found in the data folder"),
    ("art/notes.txt", "'art/notes.txt' is not a PNG, JPEG or SVG file"),
    ("data:image/png;base64,AAAA", "is an address, not a file"),
    ("art/../art/coffee.png", "'art/../art/coffee.png' climbs with '..'; name the picture by its plain path inside "
                              "the data folder (art/coffee.png)"),
    ("art/folder.png", "'art/folder.png' is not a file (a folder, a pipe or a device); name a picture file"),
])
def test_a_bad_picture_name_is_one_error_at_its_cell(data, tmp_path, name, message):
    (tmp_path / "outside.png").write_bytes((data / "art" / "coffee.png").read_bytes())
    (data / "art" / "notes.txt").write_text("not a picture")
    (data / "art" / "folder.png").mkdir()
    set_cell(data / "cards.csv", 3, "art", name)
    code, output = run("build", "tomb", "--data", data, "--out", tmp_path / "out")
    assert code == 1
    errors = [line for line in output.strip().splitlines() if line.startswith("error ")]
    assert len(errors) == 1 and errors[0].startswith("error cards.csv:3:art: ") and message in errors[0]
    assert "Traceback" not in output and output.strip().splitlines()[-1].startswith("1 error")
    assert not (tmp_path / "out" / "tomb").exists()


def _bomb(path):
    """A PNG that claims 20,000 x 20,000 pixels in a few hundred kilobytes."""
    import struct
    import zlib

    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))

    row = b"\0" + b"\0" * 20000
    raw = zlib.compressobj(9)
    body = b"".join(raw.compress(row) for _ in range(20000)) + raw.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", body) + chunk(b"IEND", b""))


@pytest.mark.parametrize("make, message", [
    (lambda d: (d / "art" / "cut.png").write_bytes((d / "art" / "coffee.png").read_bytes()[:5000]),
     "'art/cut.png' is not a whole PNG file"),
    (lambda d: (d / "art" / "cut.jpg").write_bytes((d / "art" / "astro.jpg").read_bytes()[:9000]),
     "'art/cut.jpg' is not a whole JPEG file"),
    (lambda d: (d / "art" / "fake.png").write_bytes(b"GIF89a not a png at all"),
     "'art/fake.png' is a GIF file, not a PNG file; save it as a PNG (or name it by its kind)"),
    (lambda d: (d / "art" / "empty.png").write_bytes(b""), "'art/empty.png' is empty (0 bytes); save it again"),
    (lambda d: _bomb(d / "art" / "bomb.png"),
     "'art/bomb.png' is 20000 x 20000 px (400 million pixels); a picture may have at most 50 million"),
    (lambda d: (d / "art" / "evil.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script></svg>'),
     "'art/evil.svg' holds a <script> element, which is never run or shown; remove it"),
    (lambda d: (d / "art" / "far.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">'
        '<image xlink:href="http://example.com/x.png" width="10" height="10"/></svg>'),
     "'art/far.svg' refers to 'http://example.com/x.png' outside the file"),
    (lambda d: (d / "art" / "laughs.svg").write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><text>&b;</text></svg>'),
     "'art/laughs.svg' declares a DTD or entities"),
])
def test_a_broken_or_unsafe_picture_file_is_one_error(data, tmp_path, make, message):
    make(data)
    name = next(p.name for p in (data / "art").iterdir() if p.name in message)
    set_cell(data / "cards.csv", 3, "art", f"art/{name}")
    with pytest.raises(InputErrors) as exc:
        build(data, tmp_path / "out")
    assert len(exc.value.problems) == 1
    assert str(exc.value.problems[0]).startswith(f"cards.csv:3:art: {message}")  # then what to do about it


def test_an_svg_picture_with_an_external_reference_is_never_fetched(data, tmp_path, monkeypatch):
    import urllib.request

    fetched = []
    monkeypatch.setattr(urllib.request, "urlopen", lambda *a, **k: fetched.append(a))
    (data / "art" / "far.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                          '<image href="file:///etc/hostname" width="10" height="10"/></svg>')
    set_cell(data / "cards.csv", 3, "art", "art/far.svg")
    with pytest.raises(InputErrors):
        build(data, tmp_path / "out")
    assert fetched == []


def test_an_image_written_by_hand_in_a_template_is_an_error_that_names_the_helper(data, tmp_path):
    template = data / "templates" / "tomb" / "relic.svg.j2"
    template.write_text(template.read_text().replace('{{ picture(card.art, 0, 0, W, 45, fit="cover") }}',
                                                     '<image href="art/astro.jpg" x="0" y="0" width="10" height="10"/>'))
    with pytest.raises(InputErrors) as exc:
        build(data, tmp_path / "out")
    # one line, at the template's line, naming the cards it met (not one line per card)
    assert [str(p) for p in exc.value.problems if p.is_error] == [
        "templates/tomb/relic.svg.j2:4: <image href=\"art/astro.jpg\">: place pictures with picture(name, x, y, w, h) "
        "(docs/format.md, Pictures); it finds the file in the data folder, fits, clips and checks it (cards 'r1', 'r2', 'r3')"]


@pytest.mark.parametrize("name, message", [
    ("art/frame.png", "picture 'art/frame.png' not found in the data folder"),
    ("art/big.svg", "'art/big.svg' is 8.6 MB; an SVG picture may be at most 8 MB (simplify it, or save it as a PNG)"),
])
def test_a_bad_picture_the_template_names_is_one_error_at_its_line_naming_the_cards(data, tmp_path, name, message):
    (data / "art" / "big.svg").write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg">' + b" " * 9_000_000 + b"</svg>")
    template = data / "templates" / "tomb" / "relic.svg.j2"
    template.write_text(template.read_text().replace('{{ picture(card.art, 0, 0, W, 45, fit="cover") }}',
                                                     f'{{{{ picture("{name}", 0, 0, 10, 10) }}}}'))
    with pytest.raises(InputErrors) as exc:
        build(data, tmp_path / "out")
    assert [str(p) for p in exc.value.problems if p.is_error] == [
        f"templates/tomb/relic.svg.j2:4: {message} (cards 'r1', 'r2', 'r3')"]
    assert not (tmp_path / "out").exists()


def test_placement_follows_fit_and_anchor():
    box = (10.0, 20.0, 40.0, 40.0)
    assert placement.placement("cover", "center", box, (200, 100)) == (-10.0, 20.0, 80.0, 40.0)
    assert placement.placement("cover", "left", box, (200, 100)) == (10.0, 20.0, 80.0, 40.0)
    assert placement.placement("cover", "right", box, (200, 100)) == (-30.0, 20.0, 80.0, 40.0)
    assert placement.placement("contain", "center", box, (200, 100)) == (10.0, 30.0, 40.0, 20.0)
    assert placement.placement("contain", "top", box, (200, 100)) == (10.0, 20.0, 40.0, 20.0)
    assert placement.placement("stretch", "center", box, (200, 100)) == box


def test_a_jpeg_turned_by_its_exif_orientation_is_shown_upright(data, tmp_path):
    # a landscape photograph stored on its side with orientation 6 (turn 90 degrees clockwise to show)
    photo = Image.open(data / "art" / "coffee.png").convert("RGB")  # 600 x 400, cup in the middle
    sideways = photo.transpose(Image.ROTATE_90)  # stored 400 wide, 600 high
    exif = Image.Exif()
    exif[0x0112] = 6
    sideways.save(data / "art" / "turned.jpg", exif=exif, quality=95)
    found = pictures.inspect("art/turned.jpg", data / "art" / "turned.jpg")
    assert (found.width, found.height, found.orientation) == (600.0, 400.0, 6)
    rows = read_rows(data / "cards.csv")
    rows[3][rows[0].index("art")] = "art/turned.jpg"
    rows[1][rows[0].index("art")] = "art/coffee.png"
    write_rows(data / "cards.csv", rows)
    pdf = cards_pdf(build(data, tmp_path / "out"))
    plain, turned = locate(data, pdf, "r1", dpi=60), locate(data, pdf, "r3", dpi=60)  # coffee.png; the turned JPEG
    grid = [(u, v) for u in range(6, 64, 3) for v in range(4, 42, 3)]
    a = np.array([plain(u, v) for u, v in grid], float)
    b = np.array([turned(u, v) for u, v in grid], float)
    assert np.abs(a - b).mean() < 12  # the same picture, the same way up
    assert a.std() > 20  # a photograph, not a flat colour


def test_pnp_check_reads_the_pictures_and_text_without_building(data, tmp_path):
    code, output = run("check", "--data", data)
    assert code == 0
    assert ("warning cards.csv:2:art: 'r1' (front): art/astro.jpg prints at 187 dpi (512 x 512 px over 69.5 x 69.5 mm); "
            "300 dpi prints sharp: use one of at least 821 x 821 px") in output.splitlines()
    set_cell(data / "cards.csv", 4, "art", "art/nothing.png")
    code, output = run("check", "--data", data)
    assert code == 1
    assert "error cards.csv:4:art: picture 'art/nothing.png' not found in the data folder" in output.splitlines()
    assert not (data / "output").exists()


def test_exports_draw_the_pictures_the_same_with_any_number_of_workers(data, tmp_path):
    game = load_project(data, ["tomb"]).games["tomb"]
    made = []
    for workers in (1, 2):
        result = build_game(game, BuildOptions(out=tmp_path / f"out{workers}", targets=("png-cards",),
                                               settings={"png-cards": {"dpi": 100, "workers": workers}}),
                            reference=False, write=False)
        made.append({k.name: v for k, v in result.data.items()})
    assert made[0] == made[1]
    front = np.asarray(Image.open(io.BytesIO(made[0]["tomb-relic-r2-front.png"])).convert("RGB")).astype(float)
    corner = front[5, 5]  # the cat's transparent corner shows the card
    assert np.allclose(corner, (0xF4, 0xEC, 0xD8), atol=3)
    assert front[40:130, 80:190].std() > 20  # the photograph, not a flat colour


def test_a_picture_larger_than_the_card_never_prints_beyond_its_bleed(data, tmp_path):
    template = data / "templates" / "tomb" / "relic.svg.j2"
    template.write_text(template.read_text().replace('picture(card.art, 0, 0, W, 45, fit="cover")',
                                                     'picture(card.art, -30, -30, W + 60, H + 60, fit="cover")'))
    write_rows(data / "cards.csv", [r for r in read_rows(data / "cards.csv") if r[2] in ("id", "r3")])  # one card
    pdf = cards_pdf(build(data, tmp_path / "out"))
    at = locate(data, pdf, "r3")
    inside = np.array([at(u, v) for u in range(2, 68, 4) for v in range(2, 93, 6)], float)
    assert inside.std() > 20  # the photograph fills the whole card, bleed included
    # 1.5 mm beyond the bleed, on every side (between the cut lines' marks): white paper
    outside = [at(-1.5, v) for v in range(20, 70, 2)] + [at(71, v) for v in range(20, 70, 2)]
    outside += [at(u, -1.5) for u in range(15, 55, 2)] + [at(u, 96.4) for u in range(15, 55, 2)]
    assert (np.array(outside) >= 250).all()


def test_a_replaced_picture_is_never_up_to_date_and_one_saved_again_unchanged_is(data, tmp_path):
    out = tmp_path / "out"
    assert run("build", "tomb", "--data", data, "--out", out)[0] == 0
    code, output = run("build", "tomb", "--data", data, "--out", out)
    assert code == 0 and "up to date" in output  # nothing changed: nothing written
    before = (out / "tomb" / "tomb-cards.pdf").read_bytes()
    picture = data / "art" / "coffee.png"
    picture.write_bytes(picture.read_bytes())  # saved again as it was: a new time, the same picture
    code, output = run("build", "tomb", "--data", data, "--out", out)
    assert code == 0 and "up to date" in output
    with Image.open(data / "art" / "coffee.png") as im:
        im.transpose(Image.FLIP_TOP_BOTTOM).save(data / "art" / "coffee.png")  # the same name, another picture
    code, output = run("build", "tomb", "--data", data, "--out", out)
    assert code == 0 and "up to date" not in output
    assert (out / "tomb" / "tomb-cards.pdf").read_bytes() != before


@pytest.mark.parametrize("isal", [True, False])
def test_png_planes_compress_and_decompress_with_or_without_isal(monkeypatch, isal):
    import sys
    import zlib

    if not isal:
        monkeypatch.setitem(sys.modules, "isal", None)  # as on a machine without it: zlib's own
    rows = np.random.default_rng(3).integers(0, 8, size=(50, 301), dtype=np.uint8).tobytes()
    packed = formats.deflate(rows)
    assert zlib.decompress(packed) == rows  # a zlib stream, as PDF's FlateDecode reads it
    assert formats.inflate(zlib.compress(rows)) == rows
    assert formats.deflate(rows) == packed  # the same bytes every time


def _png_with_broken_rows(source, dest):
    """A copy of a PNG whose chunks are whole (each checksum right) but whose compressed rows are
    not a zlib stream: it passes the check made when the sheet is read, and fails when it is decoded."""
    import struct
    import zlib

    raw = source.read_bytes()
    out, pos = bytearray(raw[:8]), 8
    while pos < len(raw):
        length, tag = struct.unpack(">I4s", raw[pos:pos + 8])
        body = raw[pos + 8:pos + 8 + length]
        if tag == b"IDAT":
            body = bytes(b ^ 0x5A for b in body)
        out += struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
        pos += 12 + length
    dest.write_bytes(bytes(out))


@pytest.mark.parametrize("source, where, reason", [
    # the cat has transparency: split into colours and a soft mask when embedded, found then
    ("cat.png", "", ""),
    # coffee has none: the PDF would carry its compressed rows as they are, so they are checked when read
    ("coffee.png", ":art", "its rows"),
])
def test_a_png_whose_rows_do_not_decode_is_an_error_at_its_row_and_nothing_is_written(data, tmp_path, source,
                                                                                        where, reason):
    _png_with_broken_rows(data / "art" / source, data / "art" / "broken.png")
    rows = read_rows(data / "cards.csv")
    row = next(i for i, r in enumerate(rows[1:], start=2) if r[rows[0].index("art")] == f"art/{source}")
    set_cell(data / "cards.csv", row, "art", "art/broken.png")
    code, output = run("build", "tomb", "--data", data, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("error ")]
    assert len(errors) == 1
    assert errors[0].startswith(f"error cards.csv:{row}{where}: 'art/broken.png' is not a whole PNG file ({reason}")
    assert not (tmp_path / "out" / "tomb").exists()


def test_encoded_pictures_are_kept_as_files_and_a_damaged_one_is_made_again(data, tmp_path):
    out = tmp_path / "out"
    pdfimages._ENCODED.clear()  # encoded by no earlier test of this process
    first = cards_pdf(build(data, out, cache=DiskCache(cache_folder(out))))
    blobs = sorted((cache_folder(out) / "blobs").iterdir())
    assert len(blobs) == 2  # the cat's colours and its transparency
    for blob in blobs:  # a byte flipped in the middle of each: still a readable value, not the one written
        damaged = bytearray(blob.read_bytes())
        damaged[len(damaged) // 2] ^= 0xFF
        blob.write_bytes(bytes(damaged))
    pdfimages._ENCODED.clear()  # as in a new process
    again = cards_pdf(build(data, out, cache=DiskCache(cache_folder(out))))
    assert again == first
    (cache_folder(out) / "blobs" / blobs[0].name).write_bytes(blobs[0].read_bytes()[:100])  # cut short
    pdfimages._ENCODED.clear()
    assert cards_pdf(build(data, out, cache=DiskCache(cache_folder(out)))) == first
    pdfimages._ENCODED.clear()
    store = DiskCache(cache_folder(out))
    assert all(store.get_blob(key) is not None for key in (pdfimages._blob_key(d, m) for d, m in
                                                          _cat_keys(data)))  # made again, whole


def _cat_keys(data):
    digest = pictures.digest_of(data / "art" / "cat.png")
    return [(digest, False), (digest, True)]


def test_the_cards_pdf_with_pictures_has_every_object_where_its_cross_reference_says(data, tmp_path):
    # the pictures' data is put in after reportlab wrote the file: every offset must have moved with it
    import re

    pdf = cards_pdf(build(data, tmp_path / "out"))
    xref = int(pdf[pdf.rindex(b"startxref\n") + 10:].split()[0])
    assert pdf[xref:xref + 5] == b"xref\n"
    head = pdf.index(b"\n", xref + 5) + 1
    count = int(pdf[xref + 7:head - 1])
    used = 0
    for number in range(1, count):
        entry = pdf[head + 20 * number:head + 20 * number + 20]
        assert entry[17:18] == b"n"
        offset = int(entry[:10])
        assert pdf[offset:offset + len(b"%d 0 obj" % number)] == b"%d 0 obj" % number, number
        used += 1
    assert used == count - 1 > 0
    streams = list(re.finditer(rb"/Length (\d+)(?:(?!stream).)*?>>\nstream\n", pdf, re.S))
    images = [m for m in streams if b"/Subtype /Image" in pdf[pdf.rindex(b" obj", 0, m.start()):m.end()]]
    assert len(images) >= 3  # the JPEG, the PNGs and the cat's soft mask
    for m in streams:  # each stream's data ends where its Length says
        assert pdf[m.end() + int(m.group(1)):m.end() + int(m.group(1)) + 9] == b"endstream"
    assert len(pypdf.PdfReader(io.BytesIO(pdf), strict=True).pages) > 0


def test_pictures_read_ahead_by_a_helper_process_make_the_same_pdf(data, tmp_path, monkeypatch):
    # pnp build reads the pictures the sheets name, and encodes their PNGs into the build's cache,
    # in a helper process while it loads and checks; --no-cache starts none: the same PDF either way
    import os

    parent = os.getpid()
    real = pdfimages._png_encode

    def encode(raw):
        assert os.getpid() != parent, "a PNG the helper was given was encoded by the build itself"
        return real(raw)

    monkeypatch.setattr(pdfimages, "_png_encode", encode)
    monkeypatch.setattr(pdfimages._AheadPart, "cancel", lambda self: False)  # never taken over
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    pdfimages._ENCODED.clear()
    code, output = run("build", "tomb", "--data", data, "--out", tmp_path / "ahead")
    assert code == 0, output
    assert len(list((cache_folder(tmp_path / "ahead") / "blobs").iterdir())) == 2  # the cat's colours and mask
    assert not pdfimages._AHEAD and not pdfimages._AHEAD_PARTS
    monkeypatch.undo()
    pdfimages._ENCODED.clear()
    code, output = run("build", "tomb", "--data", data, "--out", tmp_path / "here", "--no-cache")
    assert code == 0, output
    assert not (tmp_path / "here" / ".pnp-cache").exists()
    assert ((tmp_path / "ahead" / "tomb" / "tomb-cards.pdf").read_bytes()
            == (tmp_path / "here" / "tomb" / "tomb-cards.pdf").read_bytes())


def test_a_png_not_started_in_the_background_is_encoded_where_it_is_needed(data):
    path = data / "art" / "cat.png"
    digest = pictures.inspect("art/cat.png", path).digest
    pdfimages._ENCODED.clear()

    class NotStarted:
        def cancel(self):
            return True

        def result(self):
            raise AssertionError("waited for")

    pdfimages._PENDING[digest] = NotStarted()
    store, pdfimages.STORE[0] = pdfimages.STORE[0], None
    try:
        found = pdfimages.encoded("png", digest, path)
    finally:
        pdfimages.STORE[0] = store
    assert found == pdfimages._png_encode(path.read_bytes())[0]
    assert digest not in pdfimages._PENDING


def _slow_encode(digest, path):
    """A helper's encoding that takes a minute (here: the helper of a build that failed)."""
    import time

    time.sleep(60)


def test_a_build_that_fails_stops_its_helper(data, tmp_path, monkeypatch):
    import multiprocessing
    import os
    import time

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(pdfimages, "_encode_ahead", _slow_encode)  # still at work when the build fails
    front = data / "templates" / "tomb" / "relic.svg.j2"
    front.write_text(front.read_text(encoding="utf-8").replace("{% endblock %}", "{{ nothing.here }}{% endblock %}", 1),
                     encoding="utf-8")
    started = time.monotonic()
    code, output = run("build", "tomb", "--data", data, "--out", tmp_path / "out")
    assert code == 1 and "Traceback" not in output
    assert time.monotonic() - started < 20  # not the helper's minute
    assert not pdfimages._AHEAD and not pdfimages._AHEAD_PARTS
    deadline = time.monotonic() + 5
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


def test_named_pictures_are_the_cells_that_name_picture_files():
    from model.sheets import Card

    cards = [Card("g", "d", "a", "A", 1, extra=(("art", " art/Cat.PNG "), ("n", 3), ("note", "a.png is nice"))),
             Card("g", "d", "b", "B", 1, extra=(("art", "art\\sun.svg"), ("back", "photos/x.JPEG"))),
             Card("g", "d", "c", "C", 1, extra=(("art", "art/Cat.PNG"),))]
    assert pictures.named_pictures(cards) == ["art/Cat.PNG", "art\\sun.svg", "photos/x.JPEG"]
