"""Property: whatever a designer writes into a sheet, a manifest or a template,
``pnp check`` (which loads, checks and renders everything) ends with a clean
result or clean problem lines, never a traceback.

The inputs grow from the game ``pnp new`` starts: a sheet of random headers and
cells, the starter's manifest with random values in its keys, and card templates
put together from random pieces of Jinja2 and SVG.  A bounded number of
examples (100 per test; PNP_FUZZ_EXAMPLES=N for more), derandomized so the run
is fast and the same on every machine (PNP_FUZZ_RANDOM=1 draws new ones)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.cli import main

SLUG = "fuzz"
SETTINGS = settings(max_examples=int(os.environ.get("PNP_FUZZ_EXAMPLES", 100)), deadline=None, derandomize=not os.environ.get("PNP_FUZZ_RANDOM"), database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz") / "start"
    result = CliRunner().invoke(main, ["new", SLUG, "--data", str(folder)], catch_exceptions=False)
    assert result.exit_code == 0
    return folder


def fresh(starter: Path, tmp_path_factory) -> Path:
    import shutil

    folder = tmp_path_factory.mktemp("case")
    shutil.copytree(starter, folder, dirs_exist_ok=True)
    return folder


def assert_clean(folder: Path) -> str:
    """pnp check on ``folder``: exit 0 or 1, no traceback, and problem lines when it fails."""
    cwd = os.getcwd()
    try:
        result = CliRunner().invoke(main, ["check", "--data", str(folder)])
    finally:
        os.chdir(cwd)
    output = result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), output
    assert result.exit_code in (0, 1), output
    assert "Traceback" not in output and "This is a bug in pnp" not in output, output
    if result.exit_code == 1:
        assert any(line.startswith("error ") for line in output.splitlines()), output
    return output


# ------------------------------------------------------------------ sheets
COLUMNS = ["game", "deck", "id", "name", "count", "color", "number", "text", "symbol", "expansion"]
cell = st.one_of(
    st.sampled_from(["", SLUG, "card", "red", "blue", "green", "1", "3", "0", "-2", "3.0", "x", "9", "10",
                     "base", "red-1", "<b>x</b>", "&amp;", "{{ 7*7 }}", "a,b", 'say "hi"', "line\nbreak"]),
    st.text(max_size=30),
)
header_name = st.one_of(st.sampled_from(COLUMNS + ["txt", "Name", "colour", "cout", "", "notes"]),
                        st.text(min_size=1, max_size=12))


@SETTINGS
@given(header=st.lists(header_name, min_size=1, max_size=9),
       rows=st.lists(st.lists(cell, max_size=10), max_size=6),
       delimiter=st.sampled_from([",", ";", "\t"]), crlf=st.booleans(), bom=st.booleans())
def test_any_sheet_gives_clean_lines(starter, tmp_path_factory, header, rows, delimiter, crlf, bom):
    import csv
    import io

    folder = fresh(starter, tmp_path_factory)
    text = io.StringIO()
    csv.writer(text, delimiter=delimiter, lineterminator="\r\n" if crlf else "\n").writerows([header, *rows])
    (folder / "cards.csv").write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.getvalue().encode("utf-8"))
    assert_clean(folder)


@SETTINGS
@given(data=st.binary(max_size=200))
def test_any_bytes_as_a_sheet_give_clean_lines(starter, tmp_path_factory, data):
    folder = fresh(starter, tmp_path_factory)
    (folder / "cards.csv").write_bytes(data)
    assert_clean(folder)


# ------------------------------------------------------------------ manifests
def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f'"{k}" = {toml_value(v)}' for k, v in value.items()) + " }"


def toml_text(data: dict, prefix: str = "") -> str:
    plain = {k: v for k, v in data.items() if not isinstance(v, dict) or not v or prefix.count(".") >= 2}
    tables = {k: v for k, v in data.items() if k not in plain}
    out = [f"[{prefix}]"] if prefix else []
    out += [f'"{k}" = {toml_value(v)}' for k, v in plain.items()]
    for k, v in tables.items():
        out.append(toml_text(v, f'{prefix}."{k}"' if prefix else f'"{k}"'))
    return "\n".join(out) + "\n"


scalar = st.one_of(st.booleans(), st.integers(-3, 200), st.floats(-10, 500, allow_nan=False),
                   st.sampled_from(["", "poker", "tarot", "int", "text", "color", "choice", "language", "goals",
                                    "cards", "circle", "#c0392b", "red", "card.svg.j2", "nope.svg.j2", "x"]),
                   st.text(max_size=12))
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.text(min_size=1, max_size=8), inner,
                                                                     max_size=3)), max_leaves=6)
PATHS = [("game", "title"), ("game", "font"), ("game", "players"), ("palette", "red"), ("palette", "red", "fill"),
         ("palette", "blue", "mark"), ("decks", "card"), ("decks", "card", "size"), ("decks", "card", "front"),
         ("decks", "card", "back"), ("decks", "card", "expected"), ("decks", "card", "sheet"),
         ("decks", "card", "columns"), ("decks", "card", "columns", "number"),
         ("decks", "card", "columns", "number", "type"), ("decks", "card", "columns", "color", "values"),
         ("decks", "card", "columns", "text", "max_length"), ("decks", "other"), ("sizes", "tile"),
         ("languages", "effect"), ("expansions",), ("reference",), ("reference", "template")]


@SETTINGS
@given(changes=st.lists(st.tuples(st.sampled_from(PATHS), value), min_size=1, max_size=4))
def test_any_manifest_gives_clean_lines(starter, tmp_path_factory, changes):
    folder = fresh(starter, tmp_path_factory)
    path = folder / "templates" / SLUG / "game.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    for keys, new in changes:
        node = data
        for key in keys[:-1]:
            if not isinstance(node.get(key), dict):
                node[key] = {}
            node = node[key]
        node[keys[-1]] = new
    path.write_text(toml_text(data), encoding="utf-8")
    assert_clean(folder)


def test_a_manifest_that_is_not_toml_gives_a_clean_line(starter, tmp_path_factory):
    folder = fresh(starter, tmp_path_factory)
    (folder / "templates" / SLUG / "game.toml").write_text("[game\ntitle = ", encoding="utf-8")
    assert "error templates/fuzz/game.toml" in assert_clean(folder)


def test_a_manifest_nested_past_what_can_be_read_gives_a_clean_line(starter, tmp_path_factory):
    folder = fresh(starter, tmp_path_factory)
    path = folder / "templates" / SLUG / "game.toml"
    path.write_text(path.read_text(encoding="utf-8") + "x = " + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    assert ("error templates/fuzz/game.toml: nests arrays or tables too deeply to be read (hundreds of levels); a "
            "manifest needs a few") in assert_clean(folder).splitlines()


# ------------------------------------------------------------------ templates
piece = st.one_of(
    st.sampled_from([
        "{{ card.name }}", "{{ card.nmae }}", "{{ card.number + 1 }}", "{{ card.number / 0 }}", "{{ card.text|upper }}",
        "{{ text(card.name, B, B, TW, 10) }}", "{{ text(card.text, 0, 0, 0, 0) }}", "{{ text(card.name, 1, 1, -5, 3) }}",
        "{{ text(None, 1, 1, 10, 10) }}", "{{ icon('star', CX, CY, 10) }}", "{{ icon('nope', CX, CY, 10) }}",
        "{{ icon(card.color, 1, 1, -3) }}", "{{ pal(card.color).fill }}", "{{ pal('mauve').nope }}",
        "{{ describe('effect', card) }}", "{% if card.number %}", "{% endif %}", "{% for x in range(3) %}",
        "{% endfor %}", "{{", "}}", "{%", "{# ", " #}", "{% include 'nope.j2' %}", "{% extends 'nope.j2' %}",
        "{{ nets.nope }}", "{{ W|fmt }}", "{{ 'x'|fmt }}", "{{ range(10**9)|list|length }}",
        '<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="#123456"/>', "<text>{{ card.name }}</text>",
        '<circle r="-1"/>', "<g>", "</g>", '<path d="M0,0 Lx"/>', '<image href="/etc/passwd" width="5" height="5"/>',
        "<svg>", "</svg>", "<!--", "-->", "&nbsp;", "&", "<", "]]>", '<use href="#nope"/>',
        '<linearGradient id="g"><stop offset="x"/></linearGradient>', '<rect fill="url(#nope)" width="3" height="3"/>',
    ]),
    st.text(max_size=10),
)


@SETTINGS
@given(pieces=st.lists(piece, max_size=8), extends=st.booleans())
def test_any_card_template_gives_clean_lines(starter, tmp_path_factory, pieces, extends):
    folder = fresh(starter, tmp_path_factory)
    body = "\n".join(pieces)
    text = ('{% extends "pnp/card.svg.j2" %}{% block body %}\n' + body + "\n{% endblock %}") if extends else body
    (folder / "templates" / SLUG / "card.svg.j2").write_text(text, encoding="utf-8")
    assert_clean(folder)


@SETTINGS
@given(pieces=st.lists(st.one_of(piece, st.sampled_from([
    "<h1>{{ game.title }}</h1>", "<p>x <b>y</b></p>", "<p><b>y</p>", "<para>x</para>", "<inventory/>",
    '<table widths="x"><tr><td>a</td></tr></table>', '<table widths="500"><tr><td>a</td></tr></table>',
    "<table></table>", '<card deck="card" id="red-1" width="30"/>', '<card deck="card" id="nope"/>',
    '<card deck="card" id="red-1" width="-4"/>', '<figure width="20"><svg viewBox="0 0 10 10"/></figure>',
    "<figure/>", '<spacer h="x"/>', '<spacer h="9999"/>', "<pagebreak/>", "<keep><p>k</p></keep>",
    "<row><p>a</p><p>b</p></row>", "<ul><li>{{ card }}</li></ul>", '<p><font color="nope">x</font></p>',
    '<p><img src="/etc/passwd"/></p>', "<p>{% for c in cards %}{{ c.name }} {% endfor %}</p>"])), max_size=8))
def test_any_reference_template_gives_clean_lines(starter, tmp_path_factory, pieces):
    folder = fresh(starter, tmp_path_factory)
    manifest = folder / "templates" / SLUG / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + '\n[reference]\ntemplate = "reference.xml.j2"\n',
                        encoding="utf-8")
    (folder / "templates" / SLUG / "reference.xml.j2").write_text(
        "<reference>\n" + "\n".join(pieces) + "\n</reference>\n", encoding="utf-8")
    assert_clean(folder)
