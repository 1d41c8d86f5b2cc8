"""The per-design cache: what a one-row edit renders, the bytes it writes, damaged
and foreign caches, concurrent builds, --no-cache and pnp clean."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import generator.render as render
from generator import displaylist
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
        real = render.svg_to_drawing

        def counting(svg, where, problems):
            self.svgs.append(where)
            return real(svg, where, problems)
        monkeypatch.setattr(render, "svg_to_drawing", counting)


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
