"""The CSV files pnp writes carry card names from a stranger's sheet: a name a spreadsheet would run as a
formula is written as text (a leading apostrophe); numbers, negative ones too, stay numbers."""

from __future__ import annotations

import csv
import io

from click.testing import CliRunner

from model.csvsafe import cell
from pnp.cli import main

from helpers import copy_example, set_cell

FORMULAS = ["=cmd|' /C calc'!A0", "+SUM(1+1)*cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0", "@SUM(1)", "\tx", "\rx"]


def test_a_cell_a_spreadsheet_would_read_as_a_formula_is_text():
    assert [cell(v) for v in FORMULAS] == ["'" + v for v in FORMULAS]
    assert [cell(v) for v in ("-3.5", "+2", "-0", "Scarab", "", "a=b", 7, -2.5, None)] == \
        ["-3.5", "+2", "-0", "Scarab", "", "a=b", 7, -2.5, None]


def test_the_export_manifest_writes_formula_names_as_text(tmp_path):
    data = copy_example(tmp_path / "data")
    set_cell(data / "cards.csv", 2, "name", FORMULAS[0])
    result = CliRunner().invoke(main, ["export", "tiny-tombs", "--data", str(data), "--to", "png", "--dpi", "36",
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "out" / "tiny-tombs" / "png" / "manifest.csv").read_text(encoding="utf-8")
    names = {r["component"] for r in csv.DictReader(io.StringIO(text))}
    assert "'" + FORMULAS[0] in names and FORMULAS[0] not in names
    assert not any(line.split(",", 2)[1].startswith("=") for line in text.splitlines()[1:])
