"""A manifest's tables may hold keys of the game's own (its templates and rules engine read them), so an
unknown key there is kept; one that is a slip for a key pnp reads (``bak`` for ``back``) is a warning at
its line that names the key meant, for ``check`` and ``build`` alike, and the game still builds.  A value
out of shape (a negative count, a size without its height) is one plain error line."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from pnp.cli import main

SLUG = "keys"
WHERE = f"templates/{SLUG}/game.toml"


@pytest.fixture(scope="module")
def starter(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keys")
    assert CliRunner().invoke(main, ["new", SLUG, "--data", str(folder)]).exit_code == 0
    return folder


def run(folder, *args) -> tuple[int, list[str]]:
    cwd = os.getcwd()
    try:
        result = CliRunner().invoke(main, [*args, "--data", str(folder)])
    finally:
        os.chdir(cwd)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, [line for line in result.output.splitlines() if line.startswith(("warning ", "error "))]


def with_manifest(starter, tmp_path, change) -> object:
    import shutil

    folder = tmp_path / "game"
    shutil.copytree(starter, folder)
    path = folder / "templates" / SLUG / "game.toml"
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    return folder


def line_of(folder, text: str) -> int:
    lines = (folder / "templates" / SLUG / "game.toml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(text))


SLIPS = {
    "a deck's key": (lambda t: t.replace('back = "back.svg.j2"', 'bak = "back.svg.j2"'), "bak =",
                     "decks.card.bak: unknown key 'bak'; did you mean 'back'? (kept as a key of the game's own)"),
    "a key of [game]": (lambda t: t.replace('font = "DejaVu Sans"', 'fnot = "DejaVu Sans"'), "fnot =",
                        "game.fnot: unknown key 'fnot'; did you mean 'font'? (kept as a key of the game's own)"),
    "a table": (lambda t: t + '\n[refrence]\ntemplate = "reference.xml.j2"\n', "[refrence]",
                "refrence: unknown table 'refrence'; did you mean 'reference'? (kept as a table of the game's own)"),
}


@pytest.mark.parametrize("change, at, message", SLIPS.values(), ids=SLIPS.keys())
@pytest.mark.parametrize("command", ["check", "build"])
def test_a_slip_for_a_key_pnp_reads_is_a_warning_at_its_line(starter, tmp_path, change, at, message, command):
    folder = with_manifest(starter, tmp_path, change)
    extra = ["--out", str(tmp_path / "out")] if command == "build" else []
    code, lines = run(folder, command, *extra)
    assert code == 0, lines
    assert lines == [f"warning {WHERE}:{line_of(folder, at)}:{message}"]


SHAPES = {
    "a negative count": (lambda t: t.replace('label = "Cards"', 'label = "Cards"\nexpected = -5'),
                         "error templates/keys/game.toml [decks.card]:expected: '-5' is not a count or a table of "
                         "counts per box"),
    "a negative length": (lambda t: t.replace("text = { max_length = 120 }", "text = { max_length = -1 }"),
                          "error templates/keys/game.toml:decks.card.columns.text.max_length: -1 is not a length; "
                          "give 1 or more characters"),
    "a title past what a page heads": (lambda t: t.replace('title = "Keys"', 'title = "' + "K" * 1000 + '"'),
                                       "error templates/keys/game.toml:4:game.title: a title of 1,000 characters; a "
                                       "title has at most 200 (it heads the reference sheet and every page's footer)"),
    "a size without its height": (lambda t: t.replace('size = "poker"', 'size = { name = "odd", width = 60 }'),
                                  "error templates/keys/game.toml [decks.card]: size 'odd' needs its height in "
                                  "millimetres"),
}


@pytest.mark.parametrize("change, said", SHAPES.values(), ids=SHAPES.keys())
def test_a_value_out_of_shape_is_one_line(starter, tmp_path, change, said):
    code, lines = run(with_manifest(starter, tmp_path, change), "check")
    assert code == 1 and lines == [said], lines


def test_a_game_folder_whose_name_starts_with_a_dot_is_one_line(starter, tmp_path):
    # (templates/.pnp-cache would build into output/.pnp-cache, the build cache's own folder)
    import shutil

    folder = tmp_path / "game"
    shutil.copytree(starter, folder)
    (folder / "templates" / SLUG).rename(folder / "templates" / ".pnp-cache")
    sheet = folder / "cards.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace(f"\n{SLUG},", "\n.pnp-cache,"), encoding="utf-8")
    code, lines = run(folder, "build", "--out", str(tmp_path / "out"))
    assert (code, lines) == (1, ["error templates/.pnp-cache: a game's folder name is its slug and may not start "
                                 "with '.'; rename the folder (pnp new SLUG starts one)"])
    assert not (tmp_path / "out").exists()


def test_keys_of_the_games_own_are_kept_quietly(starter, tmp_path):
    def own(text: str) -> str:
        return (text.replace('label = "Cards"', 'label = "Cards"\npiece = "small"\nflavour = "dry"')
                + "\n[scoring]\nbonus = 3\n")
    folder = with_manifest(starter, tmp_path, own)
    assert run(folder, "check") == (0, [])
    from model.sheets import load_project

    manifest = load_project(folder, [SLUG]).games[SLUG].manifest
    assert manifest.raw["decks"]["card"]["piece"] == "small" and manifest.raw["scoring"] == {"bonus": 3}
