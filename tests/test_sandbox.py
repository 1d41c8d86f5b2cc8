"""What the sandbox keeps, besides its refusals (tests/test_hostile_folders.py): a cache that came
with a folder never runs, a player aid that lists the deck follows any row's edit, an SVG picture
is read once per build, emoji copy out of a PDF as written, the bounds leave room for real work,
and the bounds are set by the person who runs pnp."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from generator.build import BuildOptions, build_game
from generator.diskcache import DiskCache, cache_folder
from model.sheets import load_project

from helpers import REPO, read_rows, set_cell, write_rows

SLUG = "tiny-tombs"
AID = """{#- a player aid: every relic of the game, by value, with its copies -#}
{% extends "pnp/card.svg.j2" %}
{% block body %}
{{ text("Relics", B + 5, B + 6, TW - 10, 8, size=5, bold=True) }}
{% for relic in decks.relic|sort(attribute="number", reverse=True) %}
{{ text(relic.name ~ " x" ~ relic.count, B + 5, B + 16 + loop.index0 * 7, TW - 20, 6, size=3.5, anchor="start") }}
{% endfor %}
{% endblock %}
"""


@pytest.fixture
def example(tmp_path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(REPO / "docs" / "example", data, ignore=shutil.ignore_patterns("rules"))
    return data


def build(data: Path, out: Path):
    game = load_project(data, [SLUG]).games[SLUG]
    store = DiskCache(cache_folder(out))
    try:
        return build_game(game, BuildOptions(out=out), cache=store, reference=False)
    finally:
        store.close()


def pdf_text(pdf: Path) -> str:
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()


# ------------------------------------------------------------------ the rows in card templates
def test_a_player_aid_lists_the_deck_and_is_rendered_again_after_any_rows_edit(example, tmp_path):
    manifest = example / "templates" / SLUG / "game.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + '\n[decks.aid]\nlabel = "Player aids"\n'
                        'size = "poker"\nfront = "aid.svg.j2"\n', encoding="utf-8")
    (example / "templates" / SLUG / "aid.svg.j2").write_text(AID, encoding="utf-8")
    rows = read_rows(example / "cards.csv")
    write_rows(example / "cards.csv", rows + [[SLUG, "aid", "aid", "Player aid", "2"] + [""] * (len(rows[0]) - 5)])
    out = tmp_path / "out"
    first = build(example, out)
    cards = pdf_text(out / SLUG / f"{SLUG}-cards.pdf")
    assert "Death Mask x2" in cards and "Golden Scarab x3" in cards  # by value: the mask (7) first
    assert cards.index("Death Mask x2") < cards.index("Golden Scarab x3") < cards.index("Canopic Urn x4")
    assert "aid" in first.changed
    set_cell(example / "cards.csv", 2, "count", "5")  # the scarab's copies: another row than the aid's
    again = build(example, out)
    assert sorted(again.changed) == ["aid", "scarab"]  # the aid reads every row; the other relics do not
    assert "Golden Scarab x5" in pdf_text(out / SLUG / f"{SLUG}-cards.pdf")


def test_a_card_that_lists_the_deck_is_drawn_on_the_reference_sheet_too(example, tmp_path):
    """The example's reference sheet shows the relics (``<card deck="relic" ...>``): a relic template that
    reads the rows is given them there as on the card sheets."""
    relic = example / "templates" / SLUG / "relic.svg.j2"
    relic.write_text(relic.read_text(encoding="utf-8").replace(
        "{% block body %}", "{% block body %}<!-- {{ decks.relic|length }} of {{ cards|length }} -->", 1),
        encoding="utf-8")
    game = load_project(example, [SLUG]).games[SLUG]
    result = build_game(game, BuildOptions(out=tmp_path / "out"), write=False)
    assert any(path.name == f"{SLUG}-reference.pdf" for path in result.data)


def test_which_decks_read_the_rows_is_found_in_their_templates_code(example):
    from generator.stages.rows import reading_decks

    manifest = load_project(example, [SLUG]).games[SLUG].manifest
    assert reading_decks(manifest) == frozenset()  # the reference template reads them; no card template does
    relic = example / "templates" / SLUG / "relic.svg.j2"
    relic.write_text(relic.read_text(encoding="utf-8") + '{# cards #}<text>{{ "decks" }}{{ game.decks|length }}</text>',
                     encoding="utf-8")
    assert reading_decks(load_project(example, [SLUG]).games[SLUG].manifest) == frozenset()  # not in code
    relic.write_text(relic.read_text(encoding="utf-8") + "{{ cards|length }}", encoding="utf-8")
    assert reading_decks(load_project(example, [SLUG]).games[SLUG].manifest) == {"relic"}


# ------------------------------------------------------------------ the build cache
def _rebuild(example: Path, out: Path, count: str):
    """A build in a fresh environment (no template compiled in this process yet), after an edit."""
    from generator.stages import render

    render._ENVS.clear()
    set_cell(example / "cards.csv", 2, "count", count)
    return build(example, out)


def test_compiled_templates_in_a_cache_that_came_with_the_folder_never_run(example, tmp_path, monkeypatch):
    import hashlib
    import hmac
    import sqlite3

    import jinja2

    from generator.stages import render

    out = example / "output"
    build(example, out)
    _rebuild(example, out, "4")  # the database is there from the start: the compiled templates are kept, sealed
    db = cache_folder(out) / "cache.sqlite"
    # a stranger's compiled template: the relic template's code with a line that writes a file before it,
    # kept by the stranger's own cache (the folder was theirs, at this very place)
    marker = tmp_path / "MARKER"
    path = example / "templates" / SLUG / "relic.svg.j2"
    source = path.read_text(encoding="utf-8")
    raw = render.make_env(path.parent).compile(source, "relic.svg.j2", str(path), raw=True)
    store = DiskCache(cache_folder(out))
    kept = store.bytecode_cache()
    bucket = jinja2.bccache.Bucket(render.make_env(path.parent), kept.get_cache_key("relic.svg.j2", str(path)),
                                   hashlib.sha1(source.encode("utf-8")).hexdigest())
    bucket.code = compile(f"open({str(marker)!r}, 'w').close()\n" + raw, str(path), "exec")
    kept.dump_bytecode(bucket)
    store.close()
    with sqlite3.connect(db) as conn:
        evil = conn.execute("SELECT value FROM entries WHERE kind='jinja' AND key=?", (bucket.key,)).fetchone()[0]
    conn.close()
    copy = tmp_path / "copy.sqlite"
    shutil.copy(db, copy)
    db.unlink()
    shutil.move(copy, db)  # the same file as it arrives here: unpacked, another inode
    _rebuild(example, out, "5")
    assert not marker.exists()  # compiled again, never run
    # the seal is what kept it out: were it taken, the stranger's code would run
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: True)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE entries SET value=? WHERE kind='jinja' AND key=?", (evil, bucket.key))
    conn.close()
    _rebuild(example, out, "6")
    assert marker.exists()


def test_rendered_designs_in_a_cache_that_came_with_the_folder_are_rendered_again(example, tmp_path):
    """A stranger's cache holds each design's rendered SVG, sealed by their own copy of the database, printing
    what no template wrote."""
    import marshal
    import sqlite3

    from generator.diskcache import place_key, seal

    out = example / "output"
    build(example, out)
    db = cache_folder(out) / "cache.sqlite"
    key = place_key(db, "entries")  # the stranger's, where they built it

    def forge(conn):
        for k, value in conn.execute("SELECT key, value FROM entries WHERE kind='svg'").fetchall():
            fmt, front, back, warnings, notes, pictures = marshal.loads(value[16:])
            front = front.replace("</svg>", '<text x="5" y="20">FORGED</text></svg>')
            payload = marshal.dumps((fmt, front, back, warnings, notes, pictures))
            conn.execute("UPDATE entries SET value=? WHERE kind='svg' AND key=?",
                         (seal(key, f"svg\0{k}", payload) + payload, k))
    with sqlite3.connect(db) as conn:
        forge(conn)
    conn.close()
    # where the stranger built it, their entries are good (the check below can fail) ...
    forged = build(example, out)
    assert forged.changed == [] and "FORGED" in pdf_text(out / SLUG / f"{SLUG}-cards.pdf")
    # ... but the folder as it arrives here is another copy of the file: every design is rendered again
    arrived = tmp_path / "arrived"
    shutil.copytree(example, arrived)
    result = build(arrived, arrived / "output")
    assert sorted(result.changed) == sorted(c.id for c in load_project(arrived, [SLUG]).games[SLUG].cards)
    assert "FORGED" not in pdf_text(arrived / "output" / SLUG / f"{SLUG}-cards.pdf")


@pytest.mark.parametrize("name", ["../../../../dev/zero", "/dev/zero", "art/../../x.png", "art\\..\\..\\x.png"])
def test_a_kept_design_naming_a_picture_outside_the_folder_is_not_taken(name):
    # (a seal keeps a stranger's entries out; this keeps out one that would have the build read outside)
    import marshal

    from generator.diskcache import SVG_FORMAT, svg_loads

    good = (SVG_FORMAT, "<svg/>", None, (), (), (("art/scarab.png", "0" * 32),))
    assert svg_loads(marshal.dumps(good)) is not None
    assert svg_loads(marshal.dumps(good[:5] + (((name, "0" * 32),),))) is None


def test_a_kept_compiled_template_is_used_again(example, tmp_path, monkeypatch):
    from generator.stages import render

    out = tmp_path / "out"
    build(example, out)
    _rebuild(example, out, "4")
    compiled = []
    real = render.Sandbox.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return real(self, source, name, filename, raw, defer_init)
    monkeypatch.setattr(render.Sandbox, "compile", counting)
    _rebuild(example, out, "5")
    assert compiled == []


# ------------------------------------------------------------------ pictures
def test_an_svg_picture_is_read_once_per_build_whatever_process_meets_it(example, tmp_path):
    from model.workers import process_pool

    from generator.art import pdfimages

    out = tmp_path / "out"
    counted = tmp_path / "parses"
    path = example / "art" / "scarab.svg"
    store = DiskCache(cache_folder(out))
    pdfimages.STORE[0] = store
    try:
        with process_pool(2) as pool:
            futures = [pool.submit(_read_picture, path, counted) for _ in range(3)]
            sizes = [f.result() for f in futures]
        assert sizes[0] == sizes[1] == sizes[2]
        assert counted.read_text().count("parsed") == 1
    finally:
        pdfimages.STORE[0] = None
        store.close()


def _read_picture(path: Path, counted: Path):
    """In a worker: the picture's drawing, counting the times the file is parsed."""
    import time

    from generator.art.pictures import content_digest
    from generator.draw import svgpicture, svgread

    real = svgread.svg_to_display_list

    def counting(*args):
        with open(counted, "a") as fh:
            fh.write("parsed\n")
        time.sleep(0.5)  # long enough for the other workers to want it meanwhile
        return real(*args)
    svgread.svg_to_display_list = counting
    svgpicture._READ.clear()
    found, _ = svgpicture.drawn(path.name, content_digest(path.read_bytes()), path)
    return found.width, found.height


def test_nesting_at_the_bound_is_drawn(example, tmp_path):
    (example / "art" / "deep.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">' + '<g transform="translate(0.01 0)">' * 97
        + '<rect width="5" height="5" style="fill:#123456"/>' + "</g>" * 97 + "</svg>", encoding="utf-8")
    set_cell(example / "cards.csv", 2, "art", "art/deep.svg")
    relic = example / "templates" / SLUG / "relic.svg.j2"
    relic.write_text(relic.read_text(encoding="utf-8").replace(
        "{% block body %}\n", "{% block body %}\n{% for i in range(95) %}<g>{% endfor %}<rect width=\"1\" height=\"1\"/>"
        "{% for i in range(95) %}</g>{% endfor %}\n"), encoding="utf-8")
    build(example, tmp_path / "out")  # no error, no RecursionError in any reader
    assert (tmp_path / "out" / SLUG / f"{SLUG}-cards.pdf").is_file()


# ------------------------------------------------------------------ text out of the PDF
def test_characters_beyond_the_basic_plane_copy_out_of_the_pdf_as_written(example, tmp_path):
    set_cell(example / "cards.csv", 2, "name", "Grin 😀 𝔸")
    build(example, tmp_path / "out")
    pdf = tmp_path / "out" / SLUG / f"{SLUG}-cards.pdf"
    assert "Grin 😀 𝔸" in pdf_text(pdf)
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, check=True).stdout.decode()
        assert "😀 𝔸" in text and "\u1f60" not in text


def test_the_to_unicode_targets_are_utf16():
    from generator.art.tounicode import to_unicode_cmap, utf16

    assert utf16(0x41) == "0041" and utf16(0x1F600) == "D83DDE00" and utf16(0x1D538) == "D835DD38"
    assert "<01> <D83DDE00>" in to_unicode_cmap("F1", [0x41, 0x1F600])


# ------------------------------------------------------------------ the bounds are the runner's
def test_the_bounds_are_changed_by_pnp_limits_and_a_mistake_there_is_one_line():
    from generator.art.limits import Limits, LimitsError, from_environment

    assert from_environment("seconds=30, elements=100000") == Limits(seconds=30.0, elements=100_000)
    assert from_environment("") == Limits()
    for text, message in (("secs=3", "PNP_LIMITS: unknown limit 'secs'; known: seconds, string"),
                          ("loops=many", "PNP_LIMITS: loops='many' is not a number"),
                          ("seconds=-1", "PNP_LIMITS: seconds must be a number above 0")):
        with pytest.raises(LimitsError) as exc:
            from_environment(text)
        assert str(exc.value).startswith(message) and exc.value.exit_code == 2
