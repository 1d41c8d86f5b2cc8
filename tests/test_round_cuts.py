"""A round component (``shape = "circle"``) is printed with its cut: a thin circle on its
trim, to cut along or to set a circle punch on, besides the crop marks on its tangents;
other components get none.  Read back from the marker game's printed pages."""

from __future__ import annotations

import pdfplumber
import pytest

from model.sheets import load_project

from printed import SLUG, Box, builder, marker_game

TOL = 0.35  # mm
BUILDS = {"a4": dict(page="a4"), "a4-shared": dict(page="a4", layout="shared")}


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    data = marker_game(tmp_path_factory.mktemp("marker"))
    return builder(load_project(data, [SLUG]).games[SLUG], tmp_path_factory.mktemp("out"), BUILDS)


def _circles(path, index: int) -> list[Box]:
    """The curves drawn on a page that close on themselves, as boxes in mm from the top-left."""
    k = 25.4 / 72
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[index]
        return [Box(c["x0"] * k, c["top"] * k, c["x1"] * k, c["bottom"] * k) for c in page.curves
                if len(c.get("pts", [])) > 4]


@pytest.mark.parametrize("name", list(BUILDS))
def test_every_round_component_has_its_cut_circle_and_nothing_else_has_one(name, build):
    path, pages, found = build(name)
    chips = 0
    for i, on_page in enumerate(found):
        circles = _circles(path, i)
        round_ones = [f for key, f in on_page.items() if key[0] == "chip"]
        for f in round_ones:  # on its trim, 30 mm across
            assert any(c.close_to(f.trim, TOL) for c in circles), f"{name} p{i + 1}: no cut circle on {f.marker.id}"
            assert f.trim.x1 - f.trim.x0 == pytest.approx(30, abs=2 * TOL)
        assert len(circles) == len(round_ones), f"{name} p{i + 1}: {len(circles)} circles, {len(round_ones)} chips"
        chips += len(round_ones)
    assert chips == 3
