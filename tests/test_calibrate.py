"""``pnp calibrate``: the sheet's scales, read as a user reads them through the paper, give the
back offset a printer needs, for both duplex modes and with a correction applied."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from click.testing import CliRunner

from generator.sheets.calibrate import calibration_pdf, read_offset
from generator.sheets.layout import LayoutError, page_size
from pnp.cli import main

K = 25.4 / 72


def _ticks(data: bytes, duplex: str, page: str, shift=(0.0, 0.0)):
    """The scales as seen from the back with the light behind: the front's red ticks (turned over
    through the paper) and the back's black ones moved by a printer that lays the back ``shift``
    mm off (x right, y down, as seen on the back).  Per axis: the vernier's positions along the
    axis (0 to 10) and the main scale's value -> position."""
    w, h = page_size(page)
    sx, sy = shift
    out = {}
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        front, back = pdf.pages
        red = [ln for ln in front.lines if ln["stroking_color"] and ln["stroking_color"][0] > 0.5
               and ln["stroking_color"][1] < 0.2]
        black = [ln for ln in back.lines if ln["stroking_color"] in ((0,), (0, 0, 0), [0, 0, 0], 0)]
        for axis in ("X", "Y"):
            # X ticks are vertical lines (they stand across the axis), Y ticks horizontal ones
            def across(ln, axis=axis):
                return abs(ln["x1"] - ln["x0"]) < 0.01 if axis == "X" else abs(ln["top"] - ln["bottom"]) < 0.01

            def along(x, y, axis=axis):  # the position along the axis's values: right for X, down for Y
                return x if axis == "X" else -y

            vernier = []
            for ln in red:
                if across(ln):
                    x, y = ln["x0"] * K, (h * 72 / 25.4 - ln["top"]) * K
                    x, y = (x, h - y) if duplex == "short" else (w - x, y)  # seen through the turned paper
                    vernier.append(along(x, y))
            main = []
            for ln in black:
                if across(ln) and 3 < ((ln["x1"] - ln["x0"]) + (ln["bottom"] - ln["top"])) * K < 7:  # not the axes
                    x, y = ln["x0"] * K + sx, (h * 72 / 25.4 - ln["bottom"]) * K - sy
                    main.append(along(x, y))
            vernier.sort()
            main.sort()
            assert len(vernier) == 11 and len(main) == 31, (axis, len(vernier), len(main))
            out[axis] = (vernier, {j: p for j, p in zip(range(-10, 21), main)})
    return out


def _reading(data, duplex, page, shift=(0.0, 0.0)):
    scales = _ticks(data, duplex, page, shift)
    return tuple(round(read_offset(*scales[axis]), 1) for axis in ("X", "Y"))


@pytest.mark.parametrize("page,duplex", [("a4", "long"), ("letter", "short"), ("a4", "short"), ("letter", "long")])
def test_the_scales_read_the_offset_that_corrects_the_printer(page, duplex):
    data = calibration_pdf(page, duplex)
    assert _reading(data, duplex, page) == (0.0, 0.0)
    # a printer that lays the back 1.3 mm to the right and 0.4 mm up needs the backs moved back:
    # the scales read -1.3 and +0.4, the values --back-offset takes
    for shift in ((1.3, -0.4), (-2.7, 3.2), (0.0, -6.1), (4.9, 0.5)):
        assert _reading(data, duplex, page, shift) == (round(-shift[0], 1), round(-shift[1], 1))


def test_printed_with_the_offset_read_the_sheet_reads_zero():
    shift = (-0.8, 1.6)  # the printer's error, as seen on the back
    first = _reading(calibration_pdf("a4", "long"), "long", "a4", shift)
    assert first == (0.8, -1.6)
    corrected = calibration_pdf("a4", "long", back_offset=first)
    assert _reading(corrected, "long", "a4", shift) == (0.0, 0.0)


def test_the_sheet_has_a_100_mm_ruler_on_each_axis_and_its_instructions():
    data = calibration_pdf("letter", "long")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        front, back = pdf.pages
        lengths = sorted(round(max(ln["x1"] - ln["x0"], ln["bottom"] - ln["top"]) * K, 2) for ln in front.lines)
        assert lengths.count(100.0) == 2
        text = front.extract_text() + back.extract_text()
    assert "100 mm: measure this line" in text and "--back-offset X,Y" in text and "letter" in text
    with pytest.raises(LayoutError, match="printed duplex"):
        calibration_pdf("a4", "none")


def test_the_command_writes_the_sheet(tmp_path):
    result = CliRunner().invoke(main, ["calibrate", "--page", "letter", "--duplex", "short", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    path = tmp_path / "calibration-letter-short.pdf"
    assert f"wrote {path}" in result.output
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 2 and round(float(pdf.pages[0].width) * K, 1) == 215.9
    bad = CliRunner().invoke(main, ["calibrate", "--back-offset", "1", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and not (tmp_path / "x").exists()
    # more than the scales read: a slip (30 for 3.0), not a printer
    far = CliRunner().invoke(main, ["calibrate", "--back-offset", "30,0", "--out", str(tmp_path / "x")])
    assert far.exit_code == 2 and not (tmp_path / "x").exists()
    assert "'30,0': a back offset is at most 10 mm either way (what pnp calibrate reads)" in far.output
