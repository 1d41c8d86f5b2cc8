"""Characters a game's font lacks: one warning per field and face listing them in code-point
order (and one for those no font has), the same lines in the same order from ``pnp check``
and ``pnp build``.  On a game of its own: the example game with symbols in its cells."""

from __future__ import annotations

import shutil

from click.testing import CliRunner

from pnp.cli import main

from helpers import REPO, read_rows, write_rows


def _game(dest):
    shutil.copytree(REPO / "docs" / "example", dest)
    rows = read_rows(dest / "cards.csv")
    text, name = rows[0].index("text"), rows[0].index("name")
    rows[1][text] = "Worth 5 ♞ ★ 文 中, **✈ and ♞** too."  # the same knight in the regular and the bold face
    rows[2][name] = "Mask ✈"
    rows[2][text] = "Worth 7. ✈ ★ ♞."
    write_rows(dest / "cards.csv", rows)
    return dest


def _warnings(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("warning cards.csv")]


def test_one_line_per_field_and_face_in_a_stable_order_from_check_and_build(tmp_path):
    data = _game(tmp_path / "data")
    runner = CliRunner()
    check = runner.invoke(main, ["check", "--data", str(data)], catch_exceptions=False)
    build = runner.invoke(main, ["build", "--data", str(data), "--out", str(tmp_path / "out")],
                          catch_exceptions=False)
    assert check.exit_code == 0 and build.exit_code == 0, check.output + build.output
    expected = [
        "warning cards.csv:2:text: 'scarab' (front): '★', '♞' are not in DejaVu Serif; printed in DejaVu Sans",
        "warning cards.csv:2:text: 'scarab' (front): '♞', '✈' are not in DejaVu Serif Bold; printed in DejaVu Sans "
        "Bold",
        "warning cards.csv:2:text: 'scarab' (front): '中', '文' are not in DejaVu Serif nor in any fallback font; they "
        "print as empty boxes",
        "warning cards.csv:3:name: 'mask' (front): '✈' is not in Fredoka One; printed in DejaVu Sans",  # its own font
        "warning cards.csv:3:text: 'mask' (front): '★', '♞', '✈' are not in DejaVu Serif; printed in DejaVu Sans",
    ]
    assert _warnings(check.output) == expected
    assert _warnings(build.output) == expected
