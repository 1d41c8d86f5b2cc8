"""Every value from a sheet reaches every output as literal text.

A name and a text made of markup (tags, entities, a picture of the user's disk,
a script, quotes, a Jinja2 expression, a control character) are put into every
row of every deck of every bundled game; check, build, export, the edit loop's
pictures and the validation report must each treat them as text: nothing
crashes, no picture is pulled in, no element is made, and the PDFs print the
characters as written."""

from __future__ import annotations

import csv
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main

from helpers import REPO, copy_game

GAMES = ["drinking-pyramid", "golden-pyramid", "pyramid-scheme", "pyramid-shambo", "pyrrameds"]
PICTURE = "planted.png"  # a real picture: markup that read it would embed it


def hostile_name(folder: Path) -> str:
    return f'<b>&amp;</b> "q" \'x\' <img src="{folder / PICTURE}"/>{{{{7*7}}}}\x07'


TEXT = "<script>x</script><img src=x> &lt;]]>"  # within every deck's max_length


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    data = copy_game(root / "data", GAMES[0], REPO, *GAMES[1:])
    Image.new("RGB", (7, 5), "red").save(data / PICTURE)
    name = hostile_name(data)
    rows_per_game: dict[str, int] = {}
    for sheet in ("cards.csv", "goals.csv"):
        with (data / sheet).open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        head = rows[0]
        for r in rows[1:]:
            r[head.index("name")] = name
            if "text" in head and r[head.index("text")]:
                r[head.index("text")] = TEXT
            rows_per_game[r[0]] = rows_per_game.get(r[0], 0) + 1
        with (data / sheet).open("w", encoding="utf-8", newline="") as fh:
            csv.writer(fh, lineterminator="\n").writerows(rows)
    out = root / "out"
    return {"data": data, "out": out, "name": name.replace("\x07", ""), "designs": rows_per_game,
            "check": run("check", "--data", data),
            "build": run("build", "--data", data, "--out", out),
            "export": run("export", "--data", data, "--to", "tts", "--dpi", "36", "--out", out),
            "validate": run("validate", "--data", data, "--games", "20", "--skill-games", "0", "--out", out)}


def _text(pdf: Path) -> str:
    """The PDF's text without white space (a long name wraps inside its table cell)."""
    return re.sub(r"\s+", "", "".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages))


def _planted_pictures(pdf: Path) -> int:
    found = 0
    for page in pypdf.PdfReader(pdf).pages:
        for obj in (page["/Resources"].get("/XObject") or {}).values():
            obj = obj.get_object()
            if obj.get("/Subtype") == "/Image" and (obj.get("/Width"), obj.get("/Height")) == (7, 5):
                found += 1
    return found


def test_every_command_takes_them(hostile):
    for command in ("check", "build", "export", "validate"):
        code, output = hostile[command]
        assert code == 0 and "Traceback" not in output, (command, output[-3000:])
    lines = hostile["check"][1].splitlines()
    assert "warning cards.csv:2:name: invisible control character U+0007 removed: it cannot be printed" in lines


@pytest.mark.parametrize("game", GAMES)
def test_the_pdfs_print_them_as_written(hostile, game):
    folder = hostile["out"] / game
    reference = _text(folder / f"{game}-reference.pdf")
    # the inventory names every design (and the template may name some again), printed as written:
    # no bold, no entity decoded, no picture, the Jinja2 expression not evaluated
    assert reference.count(re.sub(r"\s+", "", hostile["name"])) >= hostile["designs"][game]
    cards = _text(folder / f"{game}-cards.pdf")
    assert "<b>&amp;" in cards or "<script>x</script>" in cards, cards[:2000]
    for pdf in folder.glob("*.pdf"):
        assert _planted_pictures(pdf) == 0, pdf


def test_every_card_picture_is_svg_with_the_text_as_text(hostile):
    from preview.session import Session

    session = Session(hostile["data"], None, hostile["out"] / "session", cache=False)
    snap = session.build(workers=1)
    session.close()
    assert snap.ok, snap.errors
    assert len(snap.svgs) > 300
    shown = 0
    for key, svg in snap.svgs.items():
        root = ET.fromstring(svg)  # well-formed
        tags = {el.tag.rsplit("}", 1)[-1] for el in root.iter()}
        assert not tags & {"b", "img", "script"}, (key, tags)
        for el in root.iter():
            if el.tag.rsplit("}", 1)[-1] == "image":
                assert PICTURE not in " ".join(el.attrib.values())
        text = " ".join(t for t in root.itertext())
        shown += "<b>&amp;</b>" in text or "<script>x</script>" in text
    assert shown > 200  # most designs print the name or the text, literally


def test_exports_and_the_validation_report_keep_them_as_text(hostile):
    name = hostile["name"]
    for game in GAMES:
        saved = json.loads((hostile["out"] / game / "tts" / f"{game}.json").read_text(encoding="utf-8"))
        assert name in json.dumps(saved, ensure_ascii=False).replace('\\"', '"')

    class Page(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.text = [], []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))

        def handle_data(self, data):
            self.text.append(data)

    named = 0
    for game in GAMES:
        page = Page()
        page.feed((hostile["out"] / game / "validation" / "report.html").read_text(encoding="utf-8"))
        assert not [t for t in page.tags if t[0] in ("script", "img") or PICTURE in str(t[1])]
        named += sum(name in t for t in page.text)
    assert named > 0  # the reports that name cards show the name as written
