"""Small builders for test data folders."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from model.errors import InputErrors
from model.sheets import load_project

REPO = Path(__file__).resolve().parents[1]
COMMON = {"game", "deck", "id", "name", "count", "color", "number", "symbol", "requires", "effect", "text",
          "expansion", "source"}


def copy_game(dest: Path, slug: str = "pyramid-scheme", root: Path = REPO, *more: str) -> Path:
    """A data folder holding one bundled game (or several: ``more``): its templates and its rows only."""
    slugs = (slug, *more)
    (dest / "templates").mkdir(parents=True, exist_ok=True)
    for s in slugs:
        shutil.copytree(root / "templates" / s, dest / "templates" / s)
    for name in ("cards.csv", "goals.csv"):
        src = root / name
        if not src.exists():
            continue
        with src.open(encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        keep = [rows[0]] + [r for r in rows[1:] if r and r[0] in slugs]
        # drop the other games' columns: empty in every kept row and not a common column
        used = [i for i, h in enumerate(keep[0]) if h in COMMON or any(r[i] for r in keep[1:])]
        keep = [[r[i] for i in used] for r in keep]
        if len(keep) > 1:
            write_rows(dest / name, keep)
    return dest


def read_rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def write_rows(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def set_cell(path: Path, row: int, column: str, value: str) -> None:
    """Change one cell; ``row`` counted as a spreadsheet shows it (header = 1)."""
    rows = read_rows(path)
    rows[row - 1][rows[0].index(column)] = value
    write_rows(path, rows)


def find_row(path: Path, column: str, value: str) -> int:
    rows = read_rows(path)
    i = rows[0].index(column)
    return next(n for n, r in enumerate(rows, start=1) if n > 1 and r[i] == value)


def errors_of(root: Path, games: list[str] | None = None) -> list[str]:
    """The error lines loading ``root`` gives (it must fail)."""
    with pytest.raises(InputErrors) as exc:
        load_project(root, games)
    return [str(p) for p in exc.value.problems]


EXAMPLE = REPO / "docs" / "example"
TOMBS_RULES = Path("templates") / "tiny-tombs" / "rules"


def copy_example(dest: Path) -> Path:
    """A private copy of the example game (docs/example) and its rules engine, to break."""
    shutil.copytree(EXAMPLE, dest, ignore=shutil.ignore_patterns("output"))
    return dest


def edit_rules(folder: Path, name: str, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) by ``new`` in one file of the example's rules."""
    path = folder / TOMBS_RULES / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
