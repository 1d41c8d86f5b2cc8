"""``pnp build --only``: an id two games share prints for both and says so; ``GAME:ID``
picks one game's component; a game or id that does not exist is one line, exit 2."""

from __future__ import annotations

import pypdf
import pytest
from click.testing import CliRunner

from pnp.cli import main

from helpers import REPO, copy_game


@pytest.fixture(scope="module")
def two_games(tmp_path_factory):
    """Pyramid Scheme and The Golden Pyramid: both have a component with the id 'aid'."""
    return copy_game(tmp_path_factory.mktemp("data"), "pyramid-scheme", REPO, "golden-pyramid")


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def _written(out):
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*.pdf"))


def test_an_id_two_games_share_prints_for_both_and_says_which(two_games, tmp_path):
    code, output = run("build", "--data", two_games, "--out", tmp_path, "--only", "aid")
    assert code == 0, output
    assert ("note --only: 'aid' is in 2 games, printed for each: golden-pyramid, pyramid-scheme (GAME:ID prints one, "
            "e.g. golden-pyramid:aid)") in output.splitlines()
    assert _written(tmp_path) == ["golden-pyramid/golden-pyramid-selected.pdf",
                                  "pyramid-scheme/pyramid-scheme-selected.pdf"]


def test_game_and_id_picks_one_games_component(two_games, tmp_path):
    code, output = run("build", "--data", two_games, "--out", tmp_path, "--only", "golden-pyramid:aid,g01")
    assert code == 0, output
    assert "note --only" not in output
    assert _written(tmp_path) == ["golden-pyramid/golden-pyramid-selected.pdf",
                                  "pyramid-scheme/pyramid-scheme-selected.pdf"]  # g01 is Pyramid Scheme's alone
    text = " ".join(p.extract_text() for p in
                    pypdf.PdfReader(tmp_path / "pyramid-scheme" / "pyramid-scheme-selected.pdf").pages)
    assert "Penny Pincher" in text and "Player aids" not in text
    golden = " ".join(p.extract_text() for p in
                      pypdf.PdfReader(tmp_path / "golden-pyramid" / "golden-pyramid-selected.pdf").pages)
    assert "Player aids" in golden
    code, output = run("build", "--data", two_games, "--out", tmp_path / "one", "--only", "pyramid-scheme:aid")
    assert code == 0 and _written(tmp_path / "one") == ["pyramid-scheme/pyramid-scheme-selected.pdf"]


@pytest.mark.parametrize("only, message", [
    ("pyramid-shambo:aid", "'pyramid-shambo:aid': no game 'pyramid-shambo'; games: golden-pyramid, pyramid-scheme"),
    ("golden-pyramid:g01", "no component with the id 'g01' in golden-pyramid"),
    ("zz9", "no component with the id 'zz9' in golden-pyramid, pyramid-scheme"),
])
def test_an_unknown_game_or_id_is_one_line_and_writes_nothing(two_games, tmp_path, only, message):
    code, output = run("build", "--data", two_games, "--out", tmp_path, "--only", only)
    assert code == 2 and message in output, output
    assert _written(tmp_path) == []
