"""Text in black or a grey goes on the press in black ink alone (PDF/X-4 and the soft proof), a grey
as light as its four-ink print; shapes in the same colours keep the four-ink black."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import numpy as np
import pikepdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from generator.draw.cmyk import load_profile
from generator.stages.designs import RenderOptions, render_game
from generator.targets import TARGETS
from generator.targets.pdfx import PdfxOptions
from model.sheets import load_project
from pnp.cli import main

from cmykpages import as_printed, spread
from helpers import REPO

EXAMPLE = REPO / "docs" / "example"
MM = 72 / 25.4


def files(output) -> dict[Path, bytes]:
    return {p: bytes(d) for p, d in output.files.items() if p.suffix == ".pdf"}


def fills_by_operator(data: bytes) -> dict[str, set[tuple]]:
    """The fill colour (CMYK ``k`` or RGB ``rg``) in force at each text shown (``Tj``/``TJ``) and each
    shape filled (``f``), on every page and in every form it draws, following ``q``/``Q``."""
    found: dict[str, set[tuple]] = {"text": set(), "shape": set()}
    with pikepdf.open(io.BytesIO(data)) as pdf:
        def walk(obj, resources, fill) -> None:
            saved = []
            for item in pikepdf.parse_content_stream(obj):
                op = str(item.operator)
                if op == "q":
                    saved.append(fill)
                elif op == "Q":
                    fill = saved.pop()
                elif op in ("k", "rg"):
                    fill = tuple(round(float(v), 4) for v in item.operands)
                elif op in ("Tj", "TJ"):
                    found["text"].add(fill)
                elif op in ("f", "f*"):
                    found["shape"].add(fill)
                elif op == "Do":
                    x = resources.XObject[item.operands[0]]
                    if x.Subtype == "/Form":
                        walk(x, x.get("/Resources", resources), fill)

        for page in pdf.pages:
            walk(page.obj, page.obj.Resources, None)
    return found


@pytest.fixture(scope="module")
def inked(tmp_path_factory):
    """The example game's curses on white: a black and a grey word, a red one, and a black and a grey box."""
    data = tmp_path_factory.mktemp("inked") / "data"
    shutil.copytree(EXAMPLE, data)
    curse = data / "templates" / "tiny-tombs" / "curse.svg.j2"
    curse.write_text(
        '{% extends "pnp/card.svg.j2" %}\n'
        '{% block background %}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="#ffffff"/>{% endblock %}\n'
        '{% block body %}\n'
        '{{ text("IIII", B + 4, B + 4, TW - 8, 22, size=20, bold=True, fill="#000000") }}\n'
        '{{ text("IIII", B + 4, B + 28, TW - 8, 22, size=20, bold=True, fill="#555555") }}\n'
        '{{ text("IIII", B + 4, B + 52, TW - 8, 22, size=20, bold=True, fill="#c1121f") }}\n'
        '<rect x="{{ B + 4 }}" y="{{ B + 76 }}" width="20" height="10" fill="#000000"/>\n'
        '<rect x="{{ B + 30 }}" y="{{ B + 76 }}" width="20" height="10" fill="#555555"/>\n'
        '{% endblock %}\n', encoding="utf-8")
    game = load_project(data, ["tiny-tombs"]).games["tiny-tombs"]
    rendered = render_game(game, RenderOptions())
    return data, rendered, TARGETS["pdfx"].make(rendered, PdfxOptions())


def test_neutral_text_prints_in_black_ink_alone_and_shapes_keep_the_rich_black(inked):
    """The press's rule for text: black and grey letters in K only (four inks a hair out of register
    blur them), a grey as light as its four-ink print; shapes in the same colours and coloured text
    go through the profile as every other colour."""
    _, _, out = inked
    profile = load_profile()
    fills = fills_by_operator(files(out)[Path("pdfx/tiny-tombs-curse.pdf")])
    black, grey = (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0, profile.black_only(0x55))
    rich = tuple(round(int(v) / 255, 4) for v in profile.to_cmyk(np.array([0, 0, 0], np.uint8)))
    red = tuple(round(int(v) / 255, 4) for v in profile.to_cmyk(np.array([0xc1, 0x12, 0x1f], np.uint8)))
    assert {black, grey, red} <= fills["text"]
    rich_grey = tuple(round(int(v) / 255, 4) for v in profile.to_cmyk(np.array([0x55] * 3, np.uint8)))
    assert not {rich, rich_grey} & fills["text"]
    assert {rich, rich_grey} <= fills["shape"] and not {black, grey} & fills["shape"] and min(rich[:3]) > 0.3
    assert 0.6 < grey[3] < 0.9


def test_grey_text_in_black_ink_prints_as_light_as_the_grey_box_beside_it(inked):
    """Rendered back through the profile (PDFium, 150 dpi): the black word prints as the profile's 100 % K,
    lighter than the black box in four inks; the grey word within 2 L* of the grey box beside it."""
    from coloraide import Color

    _, rendered, out = inked
    profile = load_profile()
    data = files(out)[Path("pdfx/tiny-tombs-curse.pdf")]
    dpi = 150
    page = pdfium.PdfDocument(as_printed(data, profile.data))[0]
    got = page.render(scale=dpi / 72, rev_byteorder=True).to_numpy()[:, :, :3].astype(int)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        trim = float(pdf.pages[0].obj.TrimBox[0]) / MM
    design = next(d for d in rendered.designs if d.deck == "curse")
    b = design.size.bleed

    def band(top: float, height: float, left: float = 4, width: float | None = None) -> np.ndarray:
        """The flat pixels of a band of the design (millimetres from the trim's top left) darker than paper."""
        x0 = round((trim + left) * dpi / 25.4)
        x1 = round((trim + (left + width if width else design.size.width - 4)) * dpi / 25.4)
        y0, y1 = (round((trim + v) * dpi / 25.4) for v in (top, top + height))
        region = got[y0:y1, x0:x1]
        flat = spread(region.astype(np.uint8)) <= 6
        return region[flat & (region.max(-1) < 235)]

    def lightness(pixels) -> float:
        return Color("srgb", [float(v) / 255 for v in np.median(pixels, axis=0)]).convert("lab-d65")["lightness"]

    words = [band(top + 2, 18) for top in (b + 4, b + 28)]
    boxes = [band(b + 77, 8, left, 18) for left in (5, 31)]
    assert all(len(p) > 200 for p in words + boxes)
    assert lightness(words[0]) - lightness(boxes[0]) > 5  # black ink alone is not as deep as four inks
    assert abs(lightness(words[0]) - lightness(profile.to_rgb(np.array([[0, 0, 0, 255]], np.uint8)))) <= 3
    assert abs(lightness(words[1]) - lightness(boxes[1])) <= 2


def test_the_soft_proof_shows_neutral_text_as_black_ink_alone(inked, tmp_path):
    data, _, _ = inked
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--data", str(data), "--out", str(out), "--soft-proof"])
    assert result.exit_code == 0, result.output
    profile = load_profile()
    k_only = tuple(round(int(v) / 255, 4) for v in profile.to_rgb(np.array([0, 0, 0, 255], np.uint8)))
    four = tuple(round(int(v) / 255, 4) for v in profile.printed(np.array([0, 0, 0], np.uint8)))
    seen = fills_by_operator((out / "tiny-tombs" / "tiny-tombs-proof.pdf").read_bytes())
    assert k_only in seen["text"] and four not in seen["text"]
    assert four in seen["shape"]
