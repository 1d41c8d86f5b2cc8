"""Starting a game: what ``pnp new`` writes, planned first, then written all
at once and never over anything.

A ``Plan`` holds the files of a new game (relative to the data folder) and its
sample rows for ``cards.csv``.  ``generator.scaffold`` fills one with a
manifest, templates and rows; further parts of a game (a rules engine) add
their files to the same plan.  ``write_plan`` refuses a game that exists in
any form (its folder, a file of the plan, rows of it in the sheet), then
writes every file and the rows together (``model.atomic``): the rows are added
at the end of an existing ``cards.csv`` with its own separator, quoting, line
ends and byte-order mark, the lines above them kept byte for byte.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from .atomic import write_files
from .errors import PnpError, Problems

#: A game's slug: the name of its folder, its ``game`` cell and its output folder.
SLUG = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
MAX_SLUG = 40
#: The columns of a cards.csv that ``pnp new`` starts.
NEW_SHEET_COLUMNS = ("game", "deck", "id", "name", "count", "color", "number", "symbol", "text", "expansion")


class BadSlug(PnpError):
    """A slug that cannot name a game (a mistake on the command line)."""

    exit_code = 2


class GameExists(PnpError):
    """``pnp new`` met a game (or a file) that is already there; it never overwrites."""


def suggest_slug(text: str) -> str:
    """``My Game!`` -> ``my-game``."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    slug = "-".join(words)
    if slug and not slug[0].isalpha():
        slug = "game-" + slug
    return slug[:MAX_SLUG].strip("-")


def check_slug(slug: str, taken: dict[str, str] | None = None) -> None:
    """Raise BadSlug for a slug that cannot name a game; ``taken`` maps slugs
    that must not be used to the reason (the bundled games' rules engines)."""
    if not SLUG.match(slug) or len(slug) > MAX_SLUG:
        hint = suggest_slug(slug)
        raise BadSlug(f"'{slug}' cannot name a game: use lowercase letters, digits and single '-' between them, "
                      f"starting with a letter, at most {MAX_SLUG} characters" + (f" (e.g. {hint})" if hint else ""))
    if taken and slug in taken:
        raise BadSlug(f"'{slug}' is taken: {taken[slug]}; pick another slug")


def title_of(slug: str) -> str:
    """``tiny-tombs`` -> ``Tiny Tombs``."""
    return " ".join(w.capitalize() for w in slug.split("-"))


@dataclass
class Plan:
    """What starting a game writes: ``files`` (path relative to ``root`` -> text)
    and ``rows`` for cards.csv (column -> value)."""

    root: Path
    slug: str
    files: dict[Path, str] = field(default_factory=dict)
    rows: list[dict[str, str]] = field(default_factory=list)

    def add(self, path: str | Path, text: str) -> None:
        self.files[Path(path)] = text


@dataclass
class Written:
    """What ``write_plan`` wrote, relative to the data folder."""

    files: list[Path]
    sheet: Path
    rows: int
    new_sheet: bool  # cards.csv was made (else the rows were added to it)
    left_out: list[str]  # columns of the rows that the existing sheet does not have


def _existing_rows(path: Path, slug: str) -> list[int]:
    from .tables import read_table

    problems = Problems()
    table = read_table(path, problems)
    if table is None:
        raise GameExists(f"{path.name} cannot be read ({problems.errors[0].message}); fix it before adding a game")
    _, rows = table
    return [n for n, values in rows if (values.get("game") or "").strip() == slug]


def _append(path: Path, rows: list[dict[str, str]]) -> tuple[bytes, list[str]]:
    """The bytes of ``path`` with ``rows`` added at the end, in the file's own CSV dialect."""
    from .tables import csv_delimiter

    data = path.read_bytes()  # kept as it is, byte-order mark and all
    text = data.decode("utf-8-sig")
    first = text.split("\n", 1)[0]
    delimiter = csv_delimiter(first)
    newline = "\r\n" if first.endswith("\r") else "\n"
    header = [h.strip() for h in next(csv.reader(io.StringIO(first.rstrip("\r")), delimiter=delimiter))]
    left_out = [c for c in rows[0] if c not in header] if rows else []
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=newline)
    for row in rows:
        writer.writerow([row.get(h, "") for h in header])
    added = out.getvalue()
    if text and not text.endswith(("\n", "\r")):
        added = newline + added
    return data + added.encode("utf-8"), left_out


def write_plan(plan: Plan) -> Written:
    """Write a plan's files and rows, all or nothing; GameExists when any part of the game is already there."""
    root = plan.root
    folder = root / "templates" / plan.slug
    if folder.exists():
        raise GameExists(f"{folder} already exists; pnp new never overwrites: pick another slug, or remove the "
                         "folder first")
    clash = [p for p in plan.files if (root / p).exists()]
    if clash:
        raise GameExists(f"{root / clash[0]} already exists; pnp new never overwrites")
    workbook = root / "cards.xlsx"
    sheet = root / "cards.csv"
    if workbook.exists() and not sheet.exists():
        raise GameExists(f"{workbook} is a workbook: pnp new adds its sample rows to cards.csv only; start the game "
                         "in a new folder (pnp new SLUG --data DIR) and copy its rows into your workbook")
    files: dict[Path, bytes | str] = {root / p: text for p, text in plan.files.items()}
    left_out: list[str] = []
    new_sheet = not sheet.exists()
    if plan.rows:
        if new_sheet:
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            columns = [c for c in NEW_SHEET_COLUMNS if any(c in r for r in plan.rows)]
            writer.writerow(columns)
            for row in plan.rows:
                writer.writerow([row.get(c, "") for c in columns])
            files[sheet] = out.getvalue()
        else:
            found = _existing_rows(sheet, plan.slug)
            if found:
                raise GameExists(f"{sheet.name} already has rows of '{plan.slug}' (row {found[0]}"
                                 f"{f' and {len(found) - 1} more' if len(found) > 1 else ''}); pnp new starts a "
                                 "game that does not exist yet")
            files[sheet], left_out = _append(sheet, plan.rows)
    write_files(files)
    return Written([p for p in plan.files], Path(sheet.name), len(plan.rows), new_sheet, left_out)
