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


def design_point(slot, page_h: float, u: float, v: float) -> tuple[float, float]:
    """Where the point ``u`` mm right of and ``v`` mm below a design's top-left trim corner lands
    on its page, as (x, y) in mm from the page's top-left corner, whichever way the slot turns it."""
    import math

    w, h = slot.design_size
    dx, dy = u - w / 2, h / 2 - v  # from the design's middle, y upwards
    a = math.radians(slot.rotation)
    x = slot.trim.x + slot.trim.w / 2 + dx * math.cos(a) - dy * math.sin(a)
    y = slot.trim.y + slot.trim.h / 2 + dx * math.sin(a) + dy * math.cos(a)
    return x, page_h - y


def placed(game, card_id: str, side: str = "front", **options):
    """(page index, slot) of a design's first copy in the cards PDF built with these sheet options."""
    from generator.designs import RenderOptions, render_game
    from generator.targets.pdf_sheets import SheetOptions, plan_pages

    rendered = render_game(game, RenderOptions())
    design = next(d for d in rendered.designs if d.card.id == card_id)
    key = design.front_key if side == "front" else design.back_key
    pages, _, _ = plan_pages(rendered, SheetOptions(**options))
    for i, page in enumerate(pages):
        for p in page.placements:
            if p.key == key:
                return i, p.slot
    raise KeyError(card_id)


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
