"""docs/custom-game.md, followed to the letter in an empty folder.

Its fenced blocks are the steps: ``sh`` blocks are commands (``pnp ...`` or
``rm FILE``), each of which must succeed; a block tagged ``file=PATH`` is a
whole file to write; ``copy=PATH,...`` names files the reader brings from
elsewhere (a font: the test takes them from docs/example/); ``shows=PATH`` is
a file as a command wrote it;
``console`` blocks are a command (``$ ...``) and lines of its output, run on
the files as they are (or, with ``edit=FILE:ROW:COLUMN=VALUE`` for a sheet,
``edit=FILE:LINE:OLD=NEW`` for another file, on a copy with that one change),
with the exit code ``exit=N`` (default 0).  At the end the folder must be
docs/example/, file for file, and its PDFs what the page says they are.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from pnp.cli import main

from helpers import REPO, read_rows, write_rows

PAGE = REPO / "docs" / "custom-game.md"
EXAMPLE = REPO / "docs" / "example"
BLOCK = re.compile(r"^```(\S*)([^\n]*)\n(.*?)^```$", re.S | re.M)


def blocks():
    """(kind, {attribute: value}, body) of every fenced block of the page, in order."""
    out = []
    for kind, info, body in BLOCK.findall(PAGE.read_text(encoding="utf-8")):
        attributes = dict(a.split("=", 1) for a in info.split() if "=" in a)
        out.append((kind, attributes, body))
    return out


def pnp(folder: Path, line: str):
    args = shlex.split(line)
    assert args[0] == "pnp", f"the page runs '{line}': only pnp commands and rm are expected"
    import os

    cwd = os.getcwd()
    os.chdir(folder)  # the reader runs every command in their own folder
    try:
        result = CliRunner().invoke(main, args[1:], catch_exceptions=False)
    finally:
        os.chdir(cwd)
    return result.exit_code, result.output


def edit(folder: Path, spec: str) -> None:
    where, value = spec.split("=", 1)
    name, line, what = where.split(":", 2)
    path = folder / name
    if path.suffix == ".csv":  # a cell: row as a spreadsheet shows it, column by its header
        rows = read_rows(path)
        rows[int(line) - 1][rows[0].index(what)] = value
        write_rows(path, rows)
    else:  # a change on one line of a text file
        lines = path.read_text(encoding="utf-8").split("\n")
        assert what in lines[int(line) - 1], f"{spec}: '{what}' is not on line {line}"
        lines[int(line) - 1] = lines[int(line) - 1].replace(what, value)
        path.write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture(scope="module")
def followed(tmp_path_factory):
    """The folder after every step of the page, and what each command printed."""
    folder = tmp_path_factory.mktemp("reader") / "my-games"
    folder.mkdir()
    steps = []
    for kind, attributes, body in blocks():
        if "file" in attributes:
            path = folder / attributes["file"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
        elif "copy" in attributes:
            for name in attributes["copy"].split(","):
                (folder / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(EXAMPLE / name, folder / name)
        elif "shows" in attributes:
            steps.append(("shows", attributes["shows"], body, (folder / attributes["shows"]).read_text("utf-8")))
        elif kind == "sh":
            for line in body.splitlines():
                if not line.strip() or line.startswith("#"):
                    continue
                if line.startswith("rm "):
                    (folder / line.split(None, 1)[1]).unlink()
                    continue
                code, output = pnp(folder, line)
                steps.append(("sh", line, code, output))
        elif kind == "console":
            here = folder
            if "edit" in attributes:
                here = folder.parent / "edited"
                shutil.rmtree(here, ignore_errors=True)
                shutil.copytree(folder, here, ignore=shutil.ignore_patterns("output"))
                edit(here, attributes["edit"])
            command, *expected = body.rstrip("\n").split("\n")
            assert command.startswith("$ ")
            code, output = pnp(here, command[2:])
            steps.append(("console", command, (code, int(attributes.get("exit", 0))), (expected, output)))
    return folder, steps


def test_the_page_has_steps_of_every_kind():
    kinds = [(k, tuple(sorted(a))) for k, a, _ in blocks()]
    assert ("sh", ()) in kinds and ("console", ("edit", "exit")) in kinds and ("console", ()) in kinds
    # four templates, the manifest and the sheet; then four pictures, an icon, the manifest, a template
    # and the sheet again
    assert sum("file" in a for _, a, _ in blocks()) == 14
    assert sum("copy" in a for _, a, _ in blocks()) == 1  # the font and its licence


def test_every_command_of_the_page_works_and_prints_what_it_shows(followed):
    _, steps = followed
    for kind, what, result, more in steps:
        if kind == "sh":
            assert result == 0, f"{what}:\n{more}"
            assert "Traceback" not in more
        elif kind == "console":
            code, wanted = result
            expected, output = more
            assert code == wanted, f"{what}:\n{output}"
            lines = [line.rstrip() for line in output.splitlines()]
            for line in expected:
                assert line in lines, f"{what}: the page shows '{line}'; the command printed:\n{output}"
        elif kind == "shows":
            assert result == more, f"{what} is not what the page shows"


def test_the_result_is_docs_example(followed):
    """docs/example, but for its rules engine, which docs/engine-tutorial.md writes
    (tests/test_engine_tutorial.py follows that page)."""
    folder, _ = followed
    made = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() and "output" not in p.relative_to(folder).parts)
    example = sorted(p.relative_to(EXAMPLE).as_posix() for p in EXAMPLE.rglob("*")
                     if p.is_file() and not {"output", "rules"} & set(p.relative_to(EXAMPLE).parts))
    assert made == example
    for name in made:
        assert (folder / name).read_bytes() == (EXAMPLE / name).read_bytes(), name


def test_the_pdfs_are_what_the_page_says(followed):
    folder, _ = followed
    out = folder / "output" / "tiny-tombs"
    cards = pypdf.PdfReader(out / "tiny-tombs-cards.pdf")
    # the 12 relics and 2 curses share two sheets of eight, each page of fronts followed by its backs
    assert len(cards.pages) == 4
    fronts = [cards.pages[i].extract_text() for i in (0, 2)]
    assert "Golden Scarab" in fronts[0] and "Lapis Ankh" in fronts[1] and "Mummy's Curse" in fronts[1]
    assert all("Tiny Tombs" in cards.pages[i].extract_text() for i in (1, 3))
    reference = " ".join(p.extract_text() for p in pypdf.PdfReader(out / "tiny-tombs-reference.pdf").pages)
    reference = re.sub(r"\s+", " ", reference)
    for text in ("Your turn", "The relics", "Death Mask 7 Worth 7. Nobody may steal it.",
                 "Relics: 4 designs, 12 components (rulebook: 12, matches)",
                 "Curses: 1 design, 2 components (rulebook: 2, matches)"):
        assert text in reference
