"""The report's plots: well-formed inline SVG, every plot drawn, the same from the same figures."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from validator.report import render_html
from validator.validate import Options, validate_game


@pytest.fixture(scope="module")
def report(ps_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    validate_game(ps_data, Options(games=200, players=4, seed=2, workers=1, skill_games=0, out=out))
    folder = out / "pyramid-scheme" / "validation"
    return json.loads((folder / "summary.json").read_text()), (folder / "report.html").read_text()


def test_every_plot_is_well_formed_svg(report):
    summary, html = report
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    # minutes, turns, seats, lead and drama, goals, cards
    assert len(svgs) == 6
    ns = "{http://www.w3.org/2000/svg}"
    for svg in svgs:
        root = ET.fromstring(svg)
        assert root.get("viewBox") and root.findall(f".//{ns}text")
        assert len(root.findall(f".//{ns}path")) > 3  # axes and the data


def test_the_report_renders_the_same_from_its_summary(report):
    summary, html = report
    assert render_html(summary) == html  # plots depend on the figures only
