"""A manifest that cannot be read: its error comes first, and the errors that would only
follow from it (its rows' unknown game, a column only it declares) are left out, in
``check``, ``build``, ``watch`` and ``preview`` alike."""

from __future__ import annotations

import pytest

from preview.session import Session, summary

from helpers import new_game, read_rows, run_pnp, write_rows

SLUG = "letters"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A game of its own (``pnp new``) with a column ``art`` declared, and then a table header left open."""
    root = tmp_path_factory.mktemp("unreadable")
    manifest = new_game(root, SLUG) / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    text = text.replace("text = { max_length = 120 }", 'text = { max_length = 120 }\nart = {}\n\n[decks.aid\nlabel = "Aid"')
    manifest.write_text(text, encoding="utf-8")
    rows = read_rows(root / "cards.csv")
    write_rows(root / "cards.csv", [rows[0] + ["art"]] + [r + [""] for r in rows[1:]])
    return root


@pytest.fixture(scope="module")
def toml_error(data):
    """The one line the manifest's mistake gets, at the line of the open table."""
    line = (data / "templates" / SLUG / "game.toml").read_text(encoding="utf-8").splitlines().index("[decks.aid") + 1
    return (f"error templates/letters/game.toml:{line}: not a valid TOML file: Expected ']' at the end of a table "
            "declaration (column 11)")


def test_check_gives_the_manifest_error_alone(data, toml_error):
    code, output = run_pnp("check", "--data", data)
    assert code == 1
    assert output.splitlines() == [toml_error, "1 error."]
    code, output = run_pnp("check", SLUG, "--data", data)
    assert (code, output.splitlines()) == (1, [toml_error, "1 error."])


def test_build_gives_the_manifest_error_alone(data, toml_error, tmp_path):
    code, output = run_pnp("build", "--data", data, "--out", tmp_path / "out")
    assert code == 1
    assert output.splitlines() == [toml_error, "1 error; nothing was written."]
    assert not (tmp_path / "out" / SLUG).exists()


def test_the_manifest_error_comes_before_another_games_errors(data, toml_error, tmp_path):
    import shutil

    other = shutil.copytree(data, tmp_path / "two")
    new_game(other, "other")
    rows = read_rows(other / "cards.csv")
    rows[-1][rows[0].index("number")] = "seven"
    write_rows(other / "cards.csv", rows)
    code, output = run_pnp("check", "--data", other)
    assert code == 1
    assert output.splitlines() == [toml_error, "error cards.csv:7:number: 'seven' is not a whole number",
                                   "2 errors."]


def test_watch_and_preview_show_the_manifest_error_alone(data, toml_error, tmp_path):
    session = Session(data, out=tmp_path / "out")  # what pnp watch and pnp preview build with
    try:
        snap = session.build()
    finally:
        session.close()
    assert snap.errors == [toml_error]
    assert summary(snap)[1:] == [toml_error]
