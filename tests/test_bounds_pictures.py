"""An SVG picture is bounded by what it draws once its ``<use>`` references are expanded, not by
its own elements alone (docs/security.md): a file of 5 kB (eleven levels of groups, each using
the one below ten times) drew 10^11 elements, svglib copying each use's element anew (minutes,
gigabytes, then "fine"); a ``<use>`` that comes back to itself was a raw line of svglib's on
stderr.  Each is now one line at the picture's cell, exit 1, within seconds."""

from __future__ import annotations

import csv
import shutil
import time
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from generator.art import svgsafe
from generator.art.limits import Limits

from helpers import run_bounded

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "example"
HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">'
RECT = '<rect width="1" height="1"/>'


def check(tmp_path: Path, svg: str, timeout: float = 40) -> tuple[int, list[str], str, float]:
    """``pnp check`` of a copy of the example game whose first relic's picture is ``svg``:
    (exit code, its error and warning lines, all it wrote, seconds)."""
    data = tmp_path / "data"
    shutil.copytree(EXAMPLE, data, ignore=shutil.ignore_patterns("output", "rules"))
    (data / "art" / "x.svg").write_text(svg, encoding="utf-8")
    with (data / "cards.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    rows[1][rows[0].index("art")] = "art/x.svg"
    with (data / "cards.csv").open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)
    return run_bounded(data, "check", timeout=timeout)


def nested(levels: int = 11, each: int = 10) -> str:
    """Groups, each using the one below ``each`` times: ``each ** levels`` rectangles drawn."""
    groups = [f'<g id="a0">{RECT * each}</g>']
    groups += [f'<g id="a{k}">' + f'<use xlink:href="#a{k - 1}"/>' * each + "</g>" for k in range(1, levels)]
    return f'{HEAD}<defs>{"".join(groups)}</defs><use xlink:href="#a{levels - 1}"/></svg>'


def broad(rects: int = 25_000, uses: int = 4_000) -> str:
    return f'{HEAD}<defs><g id="b">{RECT * rects}</g></defs>' + '<use href="#b"/>' * uses + "</svg>"


def chain(links: int) -> str:
    """Each group using the one before it: nested ``links`` deep once expanded."""
    groups = ['<g id="c0"><rect width="1" height="1"/></g>']
    groups += [f'<g id="c{k}"><use href="#c{k - 1}"/></g>' for k in range(1, links)]
    return f'{HEAD}<defs>{"".join(groups)}</defs><use href="#c{links - 1}"/></svg>'


CELL = "error cards.csv:2:art: 'art/x.svg' "
TOO_MANY = "draws more than 30,000 elements once its <use> references are expanded; simplify it or save it as a PNG"


@pytest.mark.slow
@pytest.mark.parametrize("svg, said", [
    (nested(), TOO_MANY),
    (broad(), TOO_MANY),
    (f'{HEAD}<g id="a">{RECT}<use href="#a"/></g></svg>', "has a <use> of '#a' inside that element itself"),
    (f'{HEAD}<use id="u" xlink:href="#u"/></svg>', "has a <use> of '#u' inside that element itself"),
    (f'{HEAD}<defs><g id="p"><use href="#q"/></g><g id="q"><use href="#p"/></g></defs><use href="#p"/></svg>',
     "inside that element itself (a circle of references, never drawn to its end); remove the circle"),
    (chain(150), "nests elements more than 100 deep once its <use> references are expanded; flatten it or save it "
                 "as a PNG"),
    (f'{HEAD}<defs><rect id="r" width="1" height="1"/></defs>' + '<use href="#r"/>' * 11_000 + "</svg>",
     "expands its <use> references more than 10,000 times"),
], ids=["eleven-levels-of-ten", "25000-rects-used-4000-times", "group-using-itself", "use-of-itself",
        "two-using-each-other", "chain-150-deep", "11000-uses"])
def test_a_picture_too_large_once_its_uses_are_expanded_is_one_line_at_its_cell(tmp_path, svg, said):
    code, lines, output, seconds = check(tmp_path, svg)
    assert code == 1
    assert len(lines) == 1 and lines[0].startswith(CELL) and said in lines[0], lines
    assert "Circular" not in output and "Too many <use>" not in output  # no raw line of svglib's
    assert seconds < 30


@pytest.mark.slow
def test_a_picture_that_uses_its_shapes_within_the_bound_is_fine(tmp_path):
    svg = (f'{HEAD}<defs><symbol id="s" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c1121f"/></symbol>'
           f'<g id="row">' + "".join(f'<use href="#s" x="{10 * i}" width="10" height="10"/>' for i in range(10))
           + "</g></defs>" + "".join(f'<use xlink:href="#row" y="{10 * j}"/>' for j in range(10)) + "</svg>")
    code, lines, output, seconds = check(tmp_path, svg)
    assert (code, lines) == (0, []), output


def count(svg: str, **bounds) -> str | None:
    return svgsafe.expanded_problem(ET.fromstring(svg), Limits(**bounds))


def test_the_count_is_of_the_elements_drawn_each_use_with_its_multiplicity():
    # 100 uses (10 rows of 10) of a symbol of 1 circle: the root, 10 rows (each a use, a group and 10 uses of a
    # symbol and its circle), defs and what is in them counted only where used
    svg = (f'{HEAD}<defs><symbol id="s"><circle r="4"/></symbol><g id="row">' + '<use href="#s"/>' * 10
           + "</g></defs>" + '<use href="#row"/>' * 10 + "</svg>")
    drawn = 1 + 10 * (1 + 1 + 10 * (1 + 2))  # 321
    assert count(svg, picture_elements=drawn) is None
    assert "draws more than 320 elements" in count(svg, picture_elements=drawn - 1)
    assert count(nested(11, 10)).startswith("draws more than 30,000 elements")
    assert count(f"{HEAD}{RECT * 5}</svg>") is None  # no <use>: the file's own count (svg_shape) bounds it
    assert count(f'{HEAD}<use href="#nothing"/></svg>') is None


def test_a_picture_that_expands_too_far_is_refused_where_it_is_read():
    start = time.monotonic()
    with pytest.raises(svgsafe.UnsafeSvg, match="once its <use> references are expanded"):
        svgsafe.parse(nested().encode())
    with pytest.raises(svgsafe.UnsafeSvg, match="a circle of references"):
        svgsafe.parse(f'{HEAD}<g id="a"><use href="#a"/></g></svg>'.encode())
    assert svgsafe.parse(chain(40).encode()) is not None
    assert time.monotonic() - start < 2
