"""A game folder from a stranger: every way out of the sandbox and past a bound is one line.

A small game of its own ("crypt": one deck of three relics, a picture column) is
written once; each case copies it, puts one hostile line into its card template
(or one hostile file among its pictures, or one hostile cell) and runs
``pnp build`` on it.  Each must end with exit 1 and exactly one error line (the
template's file and line, or the cell), write nothing (no PDF, and the marker file
every escape aims at is never made), leave no process behind, and finish within
seconds."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main

from helpers import find_row, set_cell

SLUG = "crypt"
T = f"templates/{SLUG}/card.svg.j2"
BODY_LINE = 4  # the line of the card template each case writes into
CARDS = "(cards 'r1', 'r2', 'r3')"
MANIFEST = """[game]
title = "Crypt"
players = "2-4"
playtime = "10-20 min"

[decks.relic]
label = "Relics"
size = "poker"
front = "card.svg.j2"
[decks.relic.columns]
number = { type = "int", min = 0, max = 9 }
art = {}
"""
TEMPLATE = """{#- a relic -#}
{% extends "pnp/card.svg.j2" %}
{% block body %}
@BODY@
{{ text(card.name, B + 4, B + 6, TW - 8, 10, size=5, field="name") }}
{{ picture(card.art, B + 4, B + 20, TW - 8, 40, fit="contain") }}
{% endblock %}
"""
ROWS = ("game,deck,id,name,count,number,art\n"
        f"{SLUG},relic,r1,Urn,2,3,art/urn.png\n{SLUG},relic,r2,Mask,1,5,art/urn.png\n{SLUG},relic,r3,Ankh,1,1,\n")


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("crypt")
    folder = root / "templates" / SLUG
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(MANIFEST, encoding="utf-8")
    (folder / "card.svg.j2").write_text(TEMPLATE.replace("@BODY@", ""), encoding="utf-8")
    (root / "art").mkdir()
    Image.new("RGB", (800, 1000), "#c9a227").save(root / "art" / "urn.png")
    (root / "cards.csv").write_text(ROWS, encoding="utf-8")
    return root


def run_case(game: Path, tmp_path: Path, body: str = "", files: dict | None = None, cell: tuple | None = None,
             link: tuple | None = None) -> tuple[int, list[str], float]:
    """Build a copy of the game with ``body`` in its template, ``files`` added (path -> bytes or
    text) and ``cell`` (row id, column, value) changed; (exit code, error lines, seconds)."""
    data = tmp_path / "data"
    shutil.copytree(game, data)
    marker = tmp_path / "MARKER"
    template = data / "templates" / SLUG / "card.svg.j2"
    template.write_text(TEMPLATE.replace("@BODY@", body.replace("MARKER", str(marker))), encoding="utf-8")
    for name, content in (files or {}).items():
        path = data / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(path)
        else:
            path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    if link:
        (data / link[0]).symlink_to(link[1])
    if cell:
        set_cell(data / "cards.csv", find_row(data / "cards.csv", "id", cell[0]), cell[1], cell[2])
    before = {p for p in tmp_path.rglob("*")}
    children = {p.pid for p in psutil.Process().children(recursive=True)}
    out = tmp_path / "out"
    start = time.perf_counter()
    cwd = os.getcwd()
    try:
        result = CliRunner().invoke(main, ["build", "--data", str(data), "--out", str(out)])
    finally:
        os.chdir(cwd)
    seconds = time.perf_counter() - start
    assert not marker.exists(), "the template ran a command"
    made = {p for p in tmp_path.rglob("*")} - before
    assert not [p for p in made if p.is_file() and p.suffix in (".pdf", ".png", ".json")], made
    assert not [p for p in made if not p.is_relative_to(out)], made  # nothing written outside the output folder
    deadline = time.monotonic() + 10
    while {p.pid for p in psutil.Process().children(recursive=True)} - children and time.monotonic() < deadline:
        time.sleep(0.1)  # a pool's workers are ending
    assert not {p.pid for p in psutil.Process().children(recursive=True)} - children, "a process was left behind"
    assert "Traceback" not in result.output and "bug in pnp" not in result.output, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error ")]
    return result.exit_code, errors, seconds


def check(game, tmp_path, expected: str, **case) -> None:
    """One case: exit 1, the one error line expected ("{n}" stands for any number, "{*}" for any text), within
    seconds."""
    import re

    code, errors, seconds = run_case(game, tmp_path, **case)
    assert code == 1, errors
    assert len(errors) == 1, errors
    pattern = re.escape(f"error {expected}").replace(re.escape("{n}"), "[0-9,]+").replace(re.escape("{*}"), ".*")
    assert re.fullmatch(pattern, errors[0]), errors
    assert seconds < 30, f"took {seconds:.1f} s"


def at(message: str, line: int = BODY_LINE, file: str = T) -> str:
    """The expected line of a template mistake met in every card."""
    return f"{file}:{line}: {message} {CARDS}"


# ------------------------------------------------------------------ ways out
OPEN = "a template reads its values and calls its helpers only (docs/security.md)"
ESCAPES = {
    "lipsum globals, a shell command": (
        "{% set _ = lipsum.__globals__['os'].popen('touch MARKER').read() %}", at("'lipsum' is undefined")),
    "lipsum builtins, a file": (
        "{{ lipsum.__globals__['__builtins__']['open']('/etc/hostname').read() }}", at("'lipsum' is undefined")),
    "cycler's globals": (
        "{{ cycler.__init__.__globals__.os.popen('touch MARKER').read() }}",
        at(f"'__init__' of a class is not open to templates: {OPEN}")),
    "namespace's globals": (
        "{{ namespace.__init__.__globals__ }}", at(f"'__init__' of a class is not open to templates: {OPEN}")),
    "a helper's function": ("{{ text.fn.__globals__ }}", at(f"'fn' of a helper is not open to templates: {OPEN}")),
    "a method's owner": ("{{ card.get.__self__ }}", at(f"'__self__' of a method is not open to templates: {OPEN}")),
    "a string's class": (
        "{{ ''.__class__.__mro__[1].__subclasses__() }}", at(f"'__class__' of a string is not open to templates: {OPEN}")),
    "attr filter": ("{{ card|attr('__class__') }}", at(f"'__class__' of card is not open to templates: {OPEN}")),
    "format's fields": ("{{ '{0.__class__}'.format(card) }}",
                        at(f"'__class__' of card is not open to templates: {OPEN}")),
    "the game's folder": ("{{ game.folder }}", at(f"'folder' of game is a file path, not open to templates: {OPEN}")),
    "a path, read": ("{{ game.data_folder.joinpath('cards.csv').read_text() }}",
                     at(f"'data_folder' of game is a file path, not open to templates: {OPEN}")),
    "a module through nets": ("{{ nets.math.pi }}", at("nets has no attribute 'math'")),
    "a template's context": ("{{ self._TemplateReference__context }}",
                             at(f"'_TemplateReference__context' of TemplateReference is not open to templates: {OPEN}")),
    "a list changed": ("{% set x = [] %}{{ x.append(1) }}",
                       at("'append' of a list is not open to templates: a template changes nothing it is given")),
    "pprint": ("{{ game|pprint }}", f"{T}:{BODY_LINE}: template syntax error: No filter named 'pprint'."),
    "a template outside the folder": ("{% include '../../../etc/hostname' %}",
                                      f"{T}:{BODY_LINE}: template '../../../etc/hostname' not found"),
}


@pytest.mark.parametrize("body, expected", ESCAPES.values(), ids=ESCAPES.keys())
def test_no_way_out_of_the_sandbox(game, tmp_path, body, expected):
    check(game, tmp_path, expected, body=body)


def test_a_template_that_is_a_link_out_of_the_folder_is_not_read(game, tmp_path):
    check(game, tmp_path, at("template 'notes.j2' is a link that leads out of its folder; templates are read only "
                             "inside the game's template folder"),
          body="{% include 'notes.j2' %}", link=(f"templates/{SLUG}/notes.j2", "/etc/hostname"))


def test_a_link_out_of_the_template_folder_is_never_read(game, tmp_path, monkeypatch):
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("a file of the machine's, not the game's", encoding="utf-8")
    read = []
    real_bytes, real_text = Path.read_bytes, Path.read_text
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self.resolve()) or real_bytes(self))
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: read.append(self.resolve()) or real_text(self, *a, **k))
    data = tmp_path / "data"
    shutil.copytree(game, data)
    (data / "templates" / SLUG / "notes.j2").symlink_to(outside)
    result = CliRunner().invoke(main, ["check", "--data", str(data)])
    assert result.exit_code == 0, result.output
    assert read and outside not in read


def test_an_imported_macro_file_is_sandboxed_too(game, tmp_path):
    macros = "{% macro shell() %}\n{{ lipsum.__globals__['os'].popen('touch MARKER').read() }}\n{% endmacro %}\n"
    check(game, tmp_path, at("'lipsum' is undefined", 2, f"templates/{SLUG}/_macros.svg.j2"),
          body="{% import '_macros.svg.j2' as m %}{{ m.shell() }}",
          files={f"templates/{SLUG}/_macros.svg.j2": macros.replace("MARKER", str(tmp_path / "MARKER"))})


# ------------------------------------------------------------------ bounds
BOUNDS = {
    "a long string": ("{{ 'a' * 10**9 }}",
                      at("a repeated value of 1,000,000,000 characters; a template may make at most 1,000,000")),
    "a long list": ("{{ [1] * 10**9 }}", at("a repeated value of 1,000,000,000 items; a template may make at most 100,000")),
    "a long range": ("{{ range(10**9)|list }}",
                     at("range() of 1,000,000,000 items; a template may loop over at most 100,000")),
    "nested loops": ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
                     at("the template's loops ran more than 1,000,000 times in all")),
    "recursion": ("{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}",
                  at("macros call macros more than 50 deep (macro 'm')")),
    "a doubling string": ("{% set ns = namespace(s='ab' * 500) %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                          "{% endfor %}", at("a joined string ('~') of 1,024,000 characters; a template may make at most "
                                             "1,000,000")),
    "a huge number": ("{{ 10 ** 100000 }}",
                      at("10 ** 100000 is a number of about 332,193 bits; a template may make at most 4,096")),
    "a float too large": ("{{ 10.0 ** 400 }}", at("10.0 ** 400 is too large a number to make")),
    "a number that is not finite": ('<rect x="{{ 1e309 }}" width="3" height="3"/>',
                                    at("the template printed the number inf; numbers must be finite")),
    "nan": ("{{ (1e309 - 1e309) }}", at("the template printed the number nan; numbers must be finite")),
    "a % width": ("{{ '%0999999999d' % 1 }}", at("a format field '%0999999999' asks for 999,999,999 characters; a "
                                                  "template may make at most 1,000,000")),
    "a format width": ("{{ '{:>999999999}'.format(1) }}", at("a format field '{:>999999999}' asks for 999,999,999 "
                                                              "characters; a template may make at most 1,000,000")),
    "center": ("{{ 'x'|center(10**9) }}", at("|center was given 1,000,000,000; a template may ask for at most 1,000,000")),
    "ljust": ("{{ 'x'.ljust(10**9) }}", at("ljust() was given 1,000,000,000; a template may ask for at most 1,000,000")),
    "replace": ("{% set s = 'x' * 100000 %}{{ s|replace('', s) }}",
                at("|replace of 10,000,200,000 characters; a template may make at most 1,000,000")),
    "text() sizes": ("{{ text('x', 1, 1, 1e308, 1e308, size=1e308) }}",
                     at("text(): w is 1e+308; it must be between -10000 and 10000")),
    "text() at a thousand sizes": ("{{ text('word ' * 4000, 0, 0, 50, 50, size=200, min_size=0.01) }}",
                                   at("text(): 20,000 characters tried at 1,001 sizes (200 down to 0.01 mm) is more "
                                      "work than a text may take (2,000,000 characters times sizes); give it a "
                                      "narrower size range (min_size) or fewer characters")),
    "picture() sizes": ("{{ picture(card.art, 0, 0, 1e309, 5) }}", at("picture(): w is inf; it must be a finite number")),
    "icon() sizes": ("{{ icon('star', 'x', 1, 1) }}", at("icon(): cx must be a number, not 'x'")),
    "nested elements": ("{% for i in range(2000) %}<g>{% endfor %}{% for i in range(2000) %}</g>{% endfor %}",
                        at("the template nests elements more than 100 deep")),
    "many elements": ('{% for i in range(60000) %}<rect width="1" height="1"/>{% endfor %}',
                      at("the template wrote more than 50,000 elements")),
    "a long output": ("{% for i in range(100) %}{{ 'x' * 900000 }}{% endfor %}",
                      at("printed values ({{ }}) in all of {n} characters; a template may make at most 16,000,000")),
    "a long output of the template's own": ("{% for i in range(100000) %}" + "<!-- a comment of its own -->" * 20
                                            + "{% endfor %}",
                                            at("rendered text of {n} characters; a template may make at most "
                                               "4,000,000")),
    "a long macro": ("{% macro big() %}{% for i in range(100) %}{{ 'x' * 900000 }}{% endfor %}{% endmacro %}"
                     "{{ big() }}", at("printed values ({{ }}) in all of {n} characters; a template may make at "
                                       "most 16,000,000")),
    "a long set block": ("{% set big %}{% for i in range(5) %}{{ 'x' * 900000 }}{% endfor %}{% endset %}",
                         at("rendered text of 4,500,000 characters; a template may make at most 4,000,000")),
    "many long strings mapped": ("{{ (['a' * 900000] * 90000)|map('upper')|list|length }}",
                                 at("|list of a sequence of 16,200,000 characters in its items; a template may make "
                                    "at most 16,000,000")),
    "translate": ("{{ ('a' * 900000).translate({97: 'b' * 900000}) }}",
                  at("translate() of 810,000,000,000 characters; a template may make at most 1,000,000")),
    "lists summed": ("{{ ([[0] * 90000] * 90000)|sum(start=[]) }}",
                     at("|sum of lists of 8,100,000,000 items; a template may make at most 100,000")),
    "a template including itself": ("{% include 'card.svg.j2' %}",
                                    at("templates call, include, extend or import one another without end (or nest "
                                       "too deeply to read); break the circle")),
}


@pytest.mark.parametrize("body, expected", BOUNDS.values(), ids=BOUNDS.keys())
def test_every_bound_is_one_line_at_the_template(game, tmp_path, body, expected):
    check(game, tmp_path, expected, body=body)


def test_templates_including_one_another_without_end_are_one_line(game, tmp_path):
    check(game, tmp_path, at("templates call, include, extend or import one another without end (or nest too deeply "
                             "to read); break the circle", 1, f"templates/{SLUG}/_again.j2"),
          body="{% include '_again.j2' %}", files={f"templates/{SLUG}/_again.j2": "{% include '_again.j2' %}"})


def test_the_time_a_design_takes_is_bounded(game, tmp_path, monkeypatch):
    from dataclasses import replace

    from generator.art import limits

    monkeypatch.setattr(limits, "LIMITS", replace(limits.LIMITS, seconds=0.3))
    check(game, tmp_path, at("the template ran for more than 0.3 s (the time a design may take)"),
          body="{% for i in range(100000) %}{% set s = ('x' * 100000)|upper %}{% endfor %}")


# ------------------------------------------------------------------ SVG the template writes
SVG = {
    "a length that is not one": ('<rect x="abc" y="0" width="3" height="3"/>',
                                 f"{T}: the template gave SVG that cannot be drawn: Can't convert 'abc' to length {CARDS}"),
    "a number too large": ('<rect x="1e308" width="3" height="3"/>',
                           f"{T}: the SVG cannot be drawn: its drawing comes to the number 1e+308, which a PDF cannot "
                           f"hold; use smaller numbers {CARDS}"),
    "a number written as nan": ('<rect x="nan" width="3" height="3"/>',
                                f'{T}: in the SVG it gave, x="nan" holds the number nan; numbers in SVG must be finite '
                                f"and at most 1,000,000,000 {CARDS}"),
    "a scale too large": ('<svg viewBox="0 0 1e-300 1e-300" width="10" height="10"><rect width="1" height="1"/></svg>',
                          f"{T}: the SVG cannot be drawn: its drawing comes to the number 7.5e+300, which a PDF cannot "
                          f"hold; use smaller numbers {CARDS}"),
    "an element left open": ('<rect width="3" height="3">',
                             f"{T}: the template gave invalid SVG: a <rect> (line {{n}} of the SVG written) is not closed "
                             f"before </svg> {CARDS}"),
    "a stray character in a tag": ('<rect <oops width="3" height="3"/>',
                                   f"{T}: the template gave invalid SVG: error parsing attribute name, after: "
                                   f'...{{*}}"/><rect < {CARDS}'),
    "an image by hand": ('<image href="/etc/hostname" width="3" height="3"/>',
                         at('<image href="/etc/hostname">: place pictures with picture(name, x, y, w, h) '
                            "(docs/format.md, Pictures); it finds the file in the data folder, fits, clips and checks it")),
}


@pytest.mark.parametrize("body, expected", SVG.values(), ids=SVG.keys())
def test_svg_a_template_writes_that_cannot_be_drawn_is_one_line(game, tmp_path, body, expected):
    check(game, tmp_path, expected, body=body)


# ------------------------------------------------------------------ pictures
def _svg(body: str, box: str = "0 0 10 10") -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}">{body}</svg>'


def _bad_crc() -> bytes:
    import io
    import struct

    buffer = io.BytesIO()
    Image.new("RGB", (30, 40), "red").save(buffer, "PNG")
    data = bytearray(buffer.getvalue())
    at_ = data.find(b"IDAT")
    data[at_ + 4 + struct.unpack(">I", data[at_ - 4:at_])[0]] ^= 0xFF
    return bytes(data)


PICTURES = {
    "too many elements": ("art/many.svg", _svg('<rect width="1" height="1"/>' * 40000),
                          "'art/many.svg' has more than 30,000 elements; simplify it (fewer shapes, paths joined), or "
                          "save it as a PNG"),
    "nested too deeply": ("art/deep.svg", _svg("<g>" * 1000 + '<rect width="1" height="1"/>' + "</g>" * 1000),
                          "'art/deep.svg' nests elements more than 100 deep; flatten its groups"),
    "a length that is not one": ("art/abc.svg", _svg('<rect x="abc" width="5" height="5" style="fill:red"/>'),
                                 "'art/abc.svg' cannot be drawn: Can't convert 'abc' to length"),
    "a number too large": ("art/far.svg", _svg('<rect x="1e300" width="5" height="5"/>'),
                           "'art/far.svg' cannot be drawn: x=\"1e300\" holds the number 1e300; numbers in SVG must be "
                           "finite and at most 1,000,000,000"),
    "a viewBox too small": ("art/tiny.svg", _svg('<rect width="5" height="5"/>', "0 0 1e-300 1e-300"),
                            "'art/tiny.svg' has a viewBox of 1e-300 x 1e-300; give it a size between 0.000001 and "
                            "1,000,000,000"),
    "not well-formed": ("art/open.svg", _svg('<g><rect width="5" height="5"/>'),
                        "'art/open.svg' is not a readable SVG file (mismatched tag: line 1, column {n})"),
    "an empty PNG": ("art/empty.png", b"", "'art/empty.png' is empty (0 bytes); save it again"),
    "a misnamed PNG": ("art/named.png", _svg('<rect width="5" height="5"/>'),
                       "'art/named.png' is an SVG file, not a PNG file; save it as a PNG (or name it by its kind)"),
    "a PNG with a bad checksum": ("art/crc.png", _bad_crc(), "'art/crc.png' is not a whole PNG file (broken PNG file "
                                  "(bad header checksum in IDAT)); save it again"),
}


@pytest.mark.parametrize("name, content, expected", PICTURES.values(), ids=PICTURES.keys())
def test_a_hostile_picture_is_one_line_at_its_cell(game, tmp_path, name, content, expected):
    check(game, tmp_path, f"cards.csv:2:art: {expected}", files={name: content}, cell=("r1", "art", name))


def test_a_picture_svg_far_too_large_is_refused_before_it_is_read(game, tmp_path):
    def huge(path):  # 90 MB, most of it never written (a sparse file): refused by its size alone
        with open(path, "wb") as fh:
            fh.write(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">')
            fh.truncate(90 * 2**20)

    check(game, tmp_path, "cards.csv:2:art: 'art/huge.svg' is 90.0 MB; an SVG picture may be at most 8 MB (simplify "
                          "it, or save it as a PNG)", files={"art/huge.svg": huge}, cell=("r1", "art", "art/huge.svg"))


def test_a_picture_that_is_a_link_out_of_the_folder_is_not_read(game, tmp_path):
    outside = tmp_path / "secret.png"
    Image.new("RGB", (800, 1000), "red").save(outside)
    check(game, tmp_path, "cards.csv:2:art: 'art/secret.png' leads outside the data folder; pictures must be inside it",
          link=("art/secret.png", outside), cell=("r1", "art", "art/secret.png"))


def test_a_cell_too_long_for_the_reference_sheet_is_a_line_at_the_cell(game, tmp_path):
    name = ("Golden " * 1500).strip()
    check(game, tmp_path, f"cards.csv:2:name: 'r1': {len(name):,} characters; the reference sheet cannot lay so long "
                          "a value out on one a4 page; shorten it", cell=("r1", "name", name))


@pytest.mark.parametrize("name, expected", [
    ("cards.csv", "error cards.csv: is a link that leads out of the data folder; pnp reads sheets only inside it "
                  "(copy the file in)"),
    (f"templates/{SLUG}/game.toml", f"error templates/{SLUG}/game.toml: is a link that leads out of the data "
                                    "folder; pnp reads a game's files only inside it (copy the file in)"),
])
def test_a_sheet_or_manifest_that_is_a_link_out_of_the_folder_is_not_read(game, tmp_path, name, expected):
    data = tmp_path / "data"
    shutil.copytree(game, data)
    outside = tmp_path / "elsewhere" / Path(name).name
    outside.parent.mkdir()
    shutil.move(data / name, outside)  # the same content, but outside the folder
    (data / name).symlink_to(outside)
    result = CliRunner().invoke(main, ["build", "--data", str(data), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    assert [line for line in result.output.splitlines() if line.startswith("error ")] == [expected]
    assert not list((tmp_path / "out").rglob("*.pdf"))
