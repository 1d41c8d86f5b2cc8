"""A build whose inputs, options and earlier outputs are unchanged writes nothing and says the PDFs
are up to date; anything changed, deleted or asked differently builds again."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from pnp.cli import main

from helpers import copy_game, find_row, set_cell

SLUG = "drinking-pyramid"
ID = "2H"  # the two of hearts


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def state(folder):
    return {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture
def built(tmp_path):
    data = copy_game(tmp_path / "data", SLUG)
    out = tmp_path / "out"
    code, output = run("build", "--data", data, "--out", out)
    assert code == 0 and "wrote" in output
    return data, out


def test_an_unchanged_build_writes_nothing_and_says_so(built):
    data, out = built
    before = state(out / SLUG)
    code, output = run("build", "--data", data, "--out", out)
    assert code == 0
    assert "The PDFs are up to date" in output and "wrote" not in output
    assert state(out / SLUG) == before


@pytest.mark.parametrize("change", ["delete", "modify", "cell", "template", "option"])
def test_a_changed_input_option_or_output_builds_again(built, change):
    data, out = built
    cards = out / SLUG / f"{SLUG}-cards.pdf"
    args = []
    if change == "delete":
        cards.unlink()
    elif change == "modify":
        cards.write_bytes(cards.read_bytes() + b"\n% edited")
    elif change == "cell":
        path = data / "cards.csv"
        set_cell(path, find_row(path, "id", ID), "name", "Deuce of Hearts")
    elif change == "template":
        template = data / "templates" / SLUG / "card.svg.j2"
        template.write_text(template.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    else:
        args = ["--page", "letter"]
    code, output = run("build", "--data", data, "--out", out, *args)
    assert code == 0 and f"wrote {cards}" in output and "up to date" not in output
    assert cards.is_file() and not cards.read_bytes().endswith(b"% edited")
    if change == "option":  # the A4 build's files were overwritten: asked again, it builds again
        code, output = run("build", "--data", data, "--out", out)
        assert "wrote" in output
        args = []
    code, output = run("build", "--data", data, "--out", out, *args)
    assert "up to date" in output  # and now they are


def test_no_cache_always_builds_and_warnings_are_said_again(built):
    data, out = built
    code, output = run("build", "--data", data, "--out", out, "--no-cache")
    assert "wrote" in output
    path = data / "cards.csv"
    set_cell(path, find_row(path, "id", ID), "name", "A name far too long for the card it is printed on " * 3)
    code, first = run("build", "--data", data, "--out", out)
    warnings = [line for line in first.splitlines() if line.startswith("warning")]
    assert warnings and "wrote" in first
    code, again = run("build", "--data", data, "--out", out)
    assert "up to date" in again and [line for line in again.splitlines() if line.startswith("warning")] == warnings


def test_an_up_to_date_build_does_not_load_the_drawing_machinery(built):
    """What keeps it as quick as starting pnp: no reportlab, no templates, no build cache opened."""
    data, out = built
    script = ("import sys\nfrom pnp.cli import main\n"
              f"main(['build', '--data', {str(data)!r}, '--out', {str(out)!r}], standalone_mode=False)\n"
              "print(sorted(m for m in ('reportlab', 'jinja2', 'generator.stages.designs', 'generator.diskcache', "
              "'pandas') if m in sys.modules))\n")
    # run from the data folder: the same pnp as this process (the installed one), not the checkout's files,
    # whose times would make another code digest
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=data, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"
