"""The per-design cache: what a one-row edit renders, the bytes it writes, damaged
and foreign caches, concurrent builds, --no-cache and pnp clean."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import generator.draw.svgread as svgread
from generator.draw import displaylist
from generator.build import BuildOptions, build_game
from generator.diskcache import DB_NAME, DiskCache, cache_folder
from model.sheets import load_project
from pnp.cli import main

from helpers import REPO, copy_game, find_row, set_cell

SLUG = "pyramid-scheme"


def build(data: Path, out: Path, cache=True, reference=True):
    game = load_project(data, [SLUG]).games[SLUG]
    store = DiskCache(cache_folder(out)) if cache else None
    result = build_game(game, BuildOptions(out=out), cache=store, reference=reference)
    if store is not None:
        store.close()
    return result


def pdfs(result) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in result.files}


class CountParses:
    def __init__(self, monkeypatch):
        self.svgs = []
        real = svgread.svg_to_drawing

        def counting(svg, where, problems):
            self.svgs.append(where)
            return real(svg, where, problems)
        monkeypatch.setattr(svgread, "svg_to_drawing", counting)


def test_a_one_row_edit_renders_and_parses_only_that_design(tmp_path, monkeypatch):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    first = build(data, out)
    first_bytes = pdfs(first)
    assert len(first.changed) == 92 and first.parsed > 0
    assert (cache_folder(out) / DB_NAME).is_file()

    again = build(data, out)  # nothing changed: nothing rendered, nothing parsed
    assert again.changed == [] and again.parsed == 0
    assert pdfs(again) == first_bytes

    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", "g07"), "name", "Mint Tycoon")
    parses = CountParses(monkeypatch)
    edited = build(data, out)
    assert edited.changed == ["g07"]
    assert edited.parsed == 2 and all("(g07)" in w for w in parses.svgs)  # its front and its back

    cold = build(data, tmp_path / "cold", cache=False)  # the same bytes as a build without any cache
    assert pdfs(edited) == pdfs(cold)
    assert pdfs(edited) != first_bytes


class CountRuns:
    """How many display lists run (the others' form streams come from the cache)."""

    def __init__(self, monkeypatch):
        self.runs = 0
        real = displaylist._run

        def counting(program, canvas, texts=None):
            self.runs += 1
            return real(program, canvas, texts)
        monkeypatch.setattr(displaylist, "_run", counting)


def test_card_sheets_take_unchanged_designs_from_kept_form_streams(tmp_path, monkeypatch):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    runs = CountRuns(monkeypatch)
    first = build(data, out, reference=False)
    assert runs.runs == 163  # every front and back drawn once (92 designs, some backs shared)
    runs.runs = 0
    again = build(data, out, reference=False)
    assert runs.runs == 0 and pdfs(again) == pdfs(first)

    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", "g07"), "name", "Mint Tycoon")
    edited = build(data, out, reference=False)
    assert runs.runs == 2  # the edited card: its front, and its back (which changed too: see above)
    assert pdfs(edited) == pdfs(build(data, tmp_path / "cold", cache=False, reference=False))


def test_a_new_character_runs_again_the_forms_whose_text_it_shifts(tmp_path, monkeypatch):
    """Text is encoded in the document's font subsets in order of first use: a character
    new to the document, on an early card, shifts the codes of later ones.  Those forms are
    made again, and the bytes are still those of a build without a cache."""
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", "g09"), "name", "Cactus Whisperer ½")  # a later card: "½" first
    build(data, out, reference=False)
    set_cell(cards, find_row(cards, "id", "g01"), "name", "Penny Pinchér")  # the first card: "é" before "½"
    runs = CountRuns(monkeypatch)
    edited = build(data, out, reference=False)
    # the edited card (front and back), and the few drawn after it whose non-ASCII text now has other
    # codes (the "½" card's, and any other first seen after the "é"); the rest came from the cache
    assert 2 < runs.runs < 12
    cold = build(data, tmp_path / "cold", cache=False, reference=False)
    assert pdfs(edited) == pdfs(cold)
    assert "Penny Pinchér" in pdf_text(tmp_path / "cold" / SLUG / f"{SLUG}-cards.pdf")


def pdf_text(path: Path) -> str:
    import pypdfium2

    doc = pypdfium2.PdfDocument(str(path))
    return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


def test_damaged_form_streams_are_ignored():
    from generator.sheets.pdf import FormStream

    for data in (b"", b"not marshal", displaylist.marshal.dumps((99, 1.0)), displaylist.marshal.dumps("x")):
        assert FormStream.loads(data) is None


def test_a_template_edit_renders_its_game_again_but_parses_only_what_changed(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    build(data, out, reference=False)
    police = data / "templates" / SLUG / "police.svg.j2"
    police.write_text(police.read_text(encoding="utf-8").replace(
        "{% endblock %}\n", '<circle cx="5" cy="5" r="1" fill="#000000"/>{% endblock %}\n', 1), encoding="utf-8")
    result = build(data, out, reference=False)
    assert len(result.changed) == 92  # any template may be read by any design: all are rendered
    police_designs = [c for c in load_project(data, [SLUG]).games[SLUG].cards if c.deck == "police"]
    assert 0 < result.parsed <= 2 * len(police_designs)  # but only the police SVGs changed
    assert pdfs(result) == pdfs(build(data, tmp_path / "cold", cache=False, reference=False))


def test_display_lists_replay_to_the_same_bytes_for_the_example_game(tmp_path):
    example = REPO / "docs" / "example"
    game = load_project(example).games["tiny-tombs"]
    plain = build_game(game, BuildOptions(out=tmp_path / "plain"))
    store = DiskCache(tmp_path / "cache")
    cold = build_game(game, BuildOptions(out=tmp_path / "cold"), cache=store)
    warm = build_game(game, BuildOptions(out=tmp_path / "warm"), cache=store)
    assert warm.parsed == 0
    for a, b, c in zip(plain.files, cold.files, warm.files, strict=True):
        assert a.read_bytes() == b.read_bytes() == c.read_bytes()


def test_damaged_entries_are_ignored_and_rebuilt(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    first = build(data, out, reference=False)
    first_bytes = pdfs(first)
    db = cache_folder(out) / DB_NAME
    with sqlite3.connect(db) as conn:  # flip a byte in every stored value
        rows = conn.execute("SELECT kind, key, value FROM entries").fetchall()
        for kind, key, value in rows:
            value = bytearray(value)
            value[-1] ^= 0xFF
            conn.execute("UPDATE entries SET value=? WHERE kind=? AND key=?", (bytes(value), kind, key))
    result = build(data, out, reference=False)
    assert len(result.changed) == 92
    assert pdfs(result) == first_bytes
    repaired = build(data, out, reference=False)  # and put back whole
    assert repaired.changed == [] and repaired.parsed == 0


@pytest.mark.parametrize("content", [b"not a database at all" * 100, b""])
def test_a_file_that_is_not_a_cache_is_set_aside(tmp_path, content):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    folder = cache_folder(out)
    folder.mkdir(parents=True)
    (folder / DB_NAME).write_bytes(content)
    result = build(data, out, reference=False)
    assert len(result.changed) == 92 and not result.warnings
    assert build(data, out, reference=False).changed == []


def test_a_database_of_another_layout_is_replaced(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    folder = cache_folder(out)
    folder.mkdir(parents=True)
    with sqlite3.connect(folder / DB_NAME) as conn:
        conn.execute("CREATE TABLE something (a, b)")
        conn.execute("INSERT INTO something VALUES (1, 2)")
    result = build(data, out, reference=False)
    assert len(result.changed) == 92
    assert build(data, out, reference=False).changed == []


def test_an_unusable_cache_folder_is_a_warning_not_a_failure(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    out.mkdir()
    cache_folder(out).write_text("a file where the cache folder should be")
    result = build(data, out, reference=False)
    assert result.files and [w.message for w in result.warnings if "build cache" in w.message]


def test_foreign_display_lists_are_refused():
    assert displaylist.loads(b"") is None
    assert displaylist.loads(b"\x00garbage") is None
    import marshal

    evil = marshal.dumps((displaylist.FORMAT, 1.0, 1.0, None, (("save", ("x",), {}),)))
    assert displaylist.loads(evil) is None  # only canvas calls from the allowed list
    ok = marshal.dumps((displaylist.FORMAT, 1.0, 1.0, None, (("saveState", (), {}), ("restoreState", (), {}))))
    assert displaylist.loads(ok) is not None


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def test_no_cache_and_clean(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    code, output = run("build", "--data", data, "--out", out, "--no-cache")
    assert code == 0, output
    assert not cache_folder(out).exists()
    code, output = run("build", "--data", data, "--out", out)
    assert code == 0 and (cache_folder(out) / DB_NAME).is_file()
    code, output = run("clean", "--data", data, "--out", out)
    assert code == 0 and f"removed {cache_folder(out)}" in output
    assert not cache_folder(out).exists() and (out / SLUG / f"{SLUG}-cards.pdf").is_file()
    code, output = run("clean", "--data", data, "--out", out, "--outputs")
    assert code == 0 and "no build cache" in output and not (out / SLUG).exists()


def test_two_builds_at_once_into_one_folder(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    command = [sys.executable, "-m", "pnp.cli", "build", SLUG, "--data", str(data), "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=REPO)
             for _ in range(2)]
    for p in procs:
        stdout, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stderr.decode()
    written = {p.name: p.read_bytes() for p in (out / SLUG).iterdir() if p.suffix == ".pdf"}
    assert not [p for p in (out / SLUG).iterdir() if p.name.startswith(".")]  # no temporary files left
    after = build(data, out)
    assert after.changed == [] and after.parsed == 0  # the cache they shared is whole
    assert pdfs(after) == written == pdfs(build(data, tmp_path / "cold", cache=False))
