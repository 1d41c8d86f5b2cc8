"""Loading ``cards.csv`` and ``goals.csv`` into typed records.

Every problem in every row is collected and reported at once, each as
``cards.csv:ROW:COLUMN: what is wrong, what was expected`` with ROW counted the
way a spreadsheet program shows it (the header is row 1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .errors import CommandLineError, PnpError, Problem, Problems
from .lang import EMPTY, Expr, LangError
from .manifest import BASE_COLUMNS, COMMON_COLUMNS, Manifest, load_manifest
from .tables import read_table

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_INT = re.compile(r"^[+-]?\d+(?:\.0+)?$")  # "3.0" is how some spreadsheets store 3
#: the most copies one row may ask for: a sheet of a thousand of one card is printed again, not asked for at once
MAX_COPIES = 1000
#: the longest id: ids name the files of exports (GAME-DECK-ID-front.png), which file systems cap at 255 bytes
MAX_ID = 64

REQUIRED_HEADER = {"cards": ("game", "deck", "id", "name", "count"), "goals": ("game", "id", "name", "count")}


@dataclass(frozen=True)
class Card:
    """One design from a sheet; ``count`` copies of it are printed."""

    game: str
    deck: str
    id: str
    name: str
    count: int
    color: str = ""
    number: int | None = None
    symbol: str = ""
    requires: Expr = EMPTY
    effect: Expr = EMPTY
    text: str = ""
    expansion: str = "base"
    extra: tuple = ()  # (column, value) pairs of game-specific columns
    sheet: str = "cards.csv"
    row: int = 0

    def __getattr__(self, name: str):
        # game-specific columns read like the common ones: card.source, card.tier ...
        try:
            extra = object.__getattribute__(self, "extra")
        except AttributeError:
            raise AttributeError(name) from None
        for key, value in extra:
            if key == name:
                return value
        raise AttributeError(f"{type(self).__name__} has no column '{name}'")

    def get(self, column: str, default=None):
        """A value by column name, common or game-specific."""
        if column in self.__dataclass_fields__ and column != "extra":
            return getattr(self, column)
        return dict(self.extra).get(column, default)

    @property
    def where(self) -> str:
        return f"{self.sheet}:{self.row}"


@dataclass
class Game:
    manifest: Manifest
    cards: list[Card] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return self.manifest.slug

    @property
    def title(self) -> str:
        return self.manifest.title

    def deck(self, name: str, expansions: set[str] | None = None) -> list[Card]:
        return [c for c in self.cards if c.deck == name and (expansions is None or c.expansion in expansions)]

    def select(self, expansions: set[str] | None) -> list[Card]:
        return [c for c in self.cards if expansions is None or c.expansion in expansions]

    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}


@dataclass
class Project:
    root: Path
    games: dict[str, Game]
    problems: Problems

    @property
    def warnings(self):
        return self.problems.warnings

    def split(self, problems: list[Problem]) -> tuple[list[Problem], dict[str, list[Problem]]]:
        """``problems`` by the game each belongs to (its row's, or its template folder's):
        (the sheet-wide ones, {slug: the game's own})."""
        rows = {(c.sheet, c.row): slug for slug, g in self.games.items() for c in g.cards}
        general: list[Problem] = []
        by_game: dict[str, list[Problem]] = {slug: [] for slug in self.games}
        for p in problems:
            slug = p.file.split("/")[1] if p.file.startswith("templates/") else rows.get((p.file, p.row))
            by_game.get(slug, general).append(p)
        return general, by_game

    def attribute_warnings(self, extra: Callable[[Game], list[Problem]] | None = None) \
            -> tuple[list[Problem], dict[str, list[Problem]]]:
        """Every problem once: (the sheet-wide ones, {slug: the game's own}).  ``extra``
        adds a game's further problems (the validator's deck checks) to its own."""
        general, by_game = self.split(self.warnings)
        if extra:
            for slug, game in self.games.items():
                by_game[slug] += extra(game)
        return general, by_game

    def drop_empty(self) -> list[str]:
        """Forget the games that have no rows yet; return their slugs."""
        empty = [s for s, g in self.games.items() if not g.cards]
        for slug in empty:
            del self.games[slug]
        return empty

    def select_expansions(self, expansions: tuple[str, ...] | list[str], strict: bool) -> dict[str, set[str] | None]:
        """The boxes to use per game for ``--expansion NAME ...``: None (every box)
        when none is named, else the base game plus the named ones the game has.
        With ``strict`` (games named on the command line, or only one game), a name
        a game does not know is an error listing the ones it knows."""
        out: dict[str, set[str] | None] = {}
        for slug, game in self.games.items():
            known = set(game.manifest.expansions)
            bad = [e for e in expansions if e not in known]
            if bad and (strict or len(self.games) == 1):
                raise CommandLineError(f"unknown expansion '{bad[0]}' for {slug}; known: {', '.join(sorted(known))}")
            out[slug] = ({"base", *expansions} & known) if expansions else None
        return out


SHEET_SUFFIXES = (".csv", ".xlsx")


def find_sheets(root: Path, name: str) -> list[Path]:
    """The files that hold sheet ``name`` (``cards`` or ``goals``): one, none, or (a mistake) several."""
    return [root / f"{name}{suffix}" for suffix in SHEET_SUFFIXES if (root / f"{name}{suffix}").is_file()]


def _one_sheet(root: Path, name: str, problems: Problems) -> Path | None:
    """The file of sheet ``name``; two of them (``cards.csv`` beside ``cards.xlsx``) are an error naming both."""
    found = find_sheets(root, name)
    if len(found) > 1:
        names = " and ".join(p.name for p in found)
        problems.error(found[0].name, None, None, f"{names} are both here: pnp would read {found[0].name} and "
                       f"ignore the other, so edits to one of them would be lost; keep one (delete or rename "
                       f"the other)")
        return None
    if found and not found[0].resolve().is_relative_to(root.resolve()):
        problems.error(found[0].name, None, None, "is a link that leads out of the data folder; pnp reads sheets "
                       "only inside it (copy the file in)")
        return None
    return found[0] if found else None


def load_manifests(root: Path, problems: Problems, unreadable: set[str] | None = None) -> dict[str, Manifest]:
    """Every game's manifest, by slug; the slugs of those that could not be read at all go into
    ``unreadable`` (their rows are then left unchecked: every error about them would follow from it)."""
    manifests = {}
    templates = root / "templates"
    if templates.is_dir():
        for folder in sorted(p for p in templates.iterdir() if (p / "game.toml").is_file()):
            if folder.name.startswith("."):  # (a hidden name; .pnp-cache would share its output with the cache)
                problems.error(f"templates/{folder.name}", None, None, "a game's folder name is its slug and may "
                               "not start with '.'; rename the folder (pnp new SLUG starts one)", unreadable=True)
                if unreadable is not None:
                    unreadable.add(folder.name)
                continue
            manifest = load_manifest(folder, problems)
            if manifest:
                manifests[manifest.slug] = manifest
            elif unreadable is not None:
                unreadable.add(folder.name)
    return manifests


class _RowChecker:
    """Turns one sheet row into a Card, reporting each bad cell."""

    def __init__(self, sheet: str, manifests: dict[str, Manifest], problems: Problems,
                 row_games: dict[tuple[str, int], str], header: set[str] | None = None,
                 unreadable: set[str] = frozenset()):
        self.sheet = sheet
        self.unreadable = unreadable  # games whose manifest could not be read: their rows are not checked
        self.header = header  # the sheet's columns (None: every column counts as present)
        self.missing: dict[str, tuple[list[int], list[str]]] = {}  # required column not in the header -> rows, decks
        self.file = None
        self.row_games = row_games  # (file, row) -> game slug, filled as rows are read
        self.manifests = manifests
        self.problems = problems
        self.seen_ids: dict[tuple[str, str], int] = {}

    def err(self, row, column, message):
        self.problems.error(self.file, row, column, message)

    def check(self, row: int, values: dict) -> Card | None:
        v = {k: (val or "").strip() for k, val in values.items()}
        game = v.get("game", "")
        self.row_games[(self.file, row)] = game
        manifest = self.manifests.get(game)
        if manifest is None and game in self.unreadable:
            return None  # its manifest's error says why
        if manifest is None:
            known = ", ".join(self.manifests) or "none"
            what = f"unknown game '{game}'" if game else "game is empty"
            self.err(row, "game", f"{what}; known games: {known}")
            return None
        if self.sheet == "goals":
            decks = manifest.deck_for_sheet("goals")
            if not decks:
                self.err(row, "game", f"game '{game}' has no goal deck; its manifest declares none with sheet = \"goals\"")
                return None
            deck = decks[0]
            if v.get("deck") and v["deck"] in manifest.decks:
                deck = manifest.decks[v["deck"]]
        else:
            name = v.get("deck", "")
            card_decks = [d for d in manifest.decks.values() if d.sheet == "cards"]
            deck = manifest.decks.get(name)
            if deck is None or deck.sheet != "cards":
                what = f"unknown deck '{name}'" if name else "deck is empty"
                self.err(row, "deck", f"{what} for {game}; known decks: {', '.join(d.name for d in card_decks)}")
                return None
        ok = True
        card_id = v.get("id", "")
        if not card_id:
            self.err(row, "id", "id is empty; every row needs an id that is unique within its game")
            ok = False
        elif not _ID.match(card_id):
            self.err(row, "id", f"'{card_id}' is not a valid id (letters, digits, '-', '_' and '.'; no spaces)")
            ok = False
        elif len(card_id) > MAX_ID:
            self.err(row, "id", f"'{card_id[:20]}...' is {len(card_id)} characters long; an id has at most {MAX_ID} "
                     "(it names the component's files)")
            ok = False
        else:
            first = self.seen_ids.get((game, card_id))
            if first is not None:
                self.err(row, "id", f"duplicate id '{card_id}' in {game} (first used on row {first})")
                ok = False
            else:
                self.seen_ids[(game, card_id)] = row
        if not v.get("name"):
            self.err(row, "name", "name is empty; every design needs a display name")
            ok = False
        count_raw = v.get("count", "")
        count = 0
        if not _INT.match(count_raw):
            self.err(row, "count", f"'{count_raw}' is not a whole number; expected the number of copies (1 or more)"
                     if count_raw else "count is empty; expected the number of copies (1 or more)")
            ok = False
        else:
            count = int(float(count_raw))
            if count < 1:
                self.err(row, "count", f"'{count_raw}' is not a valid count; expected 1 or more copies")
                ok = False
            elif count > MAX_COPIES:
                self.err(row, "count", f"{count:,} copies of one component; a row asks for at most {MAX_COPIES:,} "
                         "(print the sheet again for more)")
                ok = False
        expansion = v.get("expansion", "") or "base"
        if expansion not in manifest.expansions:
            self.err(row, "expansion", f"unknown expansion '{expansion}' for {game}; "
                     f"known: {', '.join(manifest.expansions)}")
            ok = False
        fields: dict = {}
        extra = []
        for cname, col in deck.columns.items():
            raw = v.get(cname, "")
            value, good = self._cell(row, cname, col, raw, manifest, deck.name)
            ok &= good
            if cname in COMMON_COLUMNS:
                fields[cname] = value
            else:
                extra.append((cname, value))
        for cname in COMMON_COLUMNS:
            if cname not in deck.columns and v.get(cname):
                self.problems.warn(self.file, row, cname,
                                   f"'{v[cname]}' is ignored: a {deck.name} of {game} has no {cname}")
        if not ok:
            return None
        return Card(
            game=game, deck=deck.name, id=card_id, name=v["name"], count=count, expansion=expansion,
            extra=tuple(extra), sheet=self.file, row=row, **fields,
        )

    def _cell(self, row, cname, col, raw, manifest: Manifest, deck: str):
        empty = {"int": None, "language": EMPTY}.get(col.type, "")
        if not raw:
            if col.required and self.header is not None and cname not in self.header:
                # one error for the whole column, after the rows (load_sheet), not one per row
                rows, decks = self.missing.setdefault(cname, ([], []))
                rows.append(row)
                what = f"{deck}s of {manifest.slug}"
                if what not in decks:
                    decks.append(what)
                return empty, False
            if col.required:
                self.err(row, cname, f"{cname} is empty; a {deck} of {manifest.slug} needs one")
                return empty, False
            return empty, True
        if col.max_length and len(raw) > col.max_length:
            self.err(row, cname, f"text is {len(raw)} characters long; at most {col.max_length} fit")
            return empty, False
        if col.type == "int":
            if not _INT.match(raw):
                self.err(row, cname, f"'{raw}' is not a whole number")
                return None, False
            n = int(float(raw))
            if col.min is not None and n < col.min or col.max is not None and n > col.max:
                lo = col.min if col.min is not None else "-"
                hi = col.max if col.max is not None else "-"
                self.err(row, cname, f"{n} is out of range; a {deck} takes {lo} to {hi}")
                return None, False
            return n, True
        if col.type == "color":
            if raw.lower() not in manifest.palette:
                self.err(row, cname, f"unknown colour '{raw}'; known colours: {', '.join(manifest.palette)}")
                return "", False
            return raw.lower(), True
        if col.type == "choice":
            if raw not in col.values:
                self.err(row, cname, f"unknown {cname} '{raw}'; known: {', '.join(col.values)}")
                return "", False
            return raw, True
        if col.type == "language":
            try:
                return manifest.languages[col.language].parse(raw), True
            except LangError as exc:
                self.err(row, cname, str(exc))
                return EMPTY, False
        return raw, True


def check_cell(manifest: Manifest, deck: str, column: str, raw: str):
    """The value a sheet cell ``raw`` in ``column`` of a ``deck`` card would load as, checked exactly as a
    row's cell is (range, palette, choices, small language); raises PnpError with the reason otherwise."""
    d = manifest.decks[deck]
    col = d.columns[column]
    problems = Problems()
    checker = _RowChecker(d.sheet, {manifest.slug: manifest}, problems, {})
    value, ok = checker._cell(None, column, col, raw.strip(), manifest, deck)
    if not ok:
        raise PnpError(problems.errors[0].message)
    return value


def _declare_hint(column: str, manifests: dict[str, Manifest]) -> str:
    """How to make a column of the sheet known: where its deck's columns are declared."""
    if len(manifests) == 1:
        m = next(iter(manifests.values()))
        deck = next(iter(m.decks)) if len(m.decks) == 1 else "NAME"
        return (f"to use it, declare it in templates/{m.slug}/game.toml under "
                f"[decks.{deck}.columns] ({column} = {{}})")
    return f"to use it, declare it under [decks.NAME.columns] ({column} = {{}}) in its game's game.toml"


def load_sheet(path: Path, sheet: str, manifests: dict[str, Manifest], problems: Problems,
               row_games: dict[tuple[str, int], str] | None = None, unreadable: set[str] = frozenset()) -> list[Card]:
    """The cards of one sheet.  ``unreadable``: games whose manifest could not be read; their rows and
    the columns only they might declare are not checked (each error would follow from the manifest's)."""
    table = read_table(path, problems)
    if table is None:
        return []
    header, rows = table
    dupes = {h for h in header if header.count(h) > 1}
    for h in sorted(dupes):
        problems.error(path.name, 1, h, f"column '{h}' appears {header.count(h)} times in the header")
    known = set(BASE_COLUMNS) | set(COMMON_COLUMNS) | {"source", "notes"}
    for m in manifests.values():
        for d in m.decks.values():
            known |= set(d.columns)
    meant = {}  # a known column missing from the header -> the unknown header that looks like a typo of it
    for h in header:
        if h and h not in known and not unreadable:
            close = close_column(h, known - set(header))
            if close:
                meant.setdefault(close, h)
                problems.error(path.name, 1, h, f"unknown column '{h}'; did you mean '{close}'?")
            else:
                problems.warn(path.name, 1, h, f"unknown column '{h}' is ignored; {_declare_hint(h, manifests)}; "
                              "known columns: " + ", ".join(sorted(known)))
    missing = [c for c in REQUIRED_HEADER[sheet] if c not in header]
    for c in missing:
        if c not in meant:
            problems.error(path.name, 1, c, f"missing column '{c}'; the header needs "
                           + ", ".join(REQUIRED_HEADER[sheet]))
    if missing:
        return []
    if not rows:
        problems.error(path.name, None, None, "the sheet has a header but no rows")
        return []
    checker = _RowChecker(sheet, manifests, problems, {} if row_games is None else row_games, set(header),
                          unreadable)
    checker.file = path.name
    cards = [card for row, values in rows if (card := checker.check(row, values)) is not None]
    for column, (rows_needing, decks) in checker.missing.items():
        if column in meant:
            continue  # the did-you-mean error above says it
        first = rows_needing[0]
        problems.error(path.name, 1, column, f"no column '{column}' in the header; {' and '.join(decks)} need it "
                       f"({_plural(len(rows_needing), 'row')}, the first on row {first})")
    return cards


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def close_column(header: str, known: set[str]) -> str | None:
    """The known column a header is most likely a typo of (``txt``: ``text``, ``Name``: ``name``), or None."""
    import difflib

    folded = {k.lower().replace(" ", "_").replace("-", "_"): k for k in known}
    mine = header.strip().lower().replace(" ", "_").replace("-", "_")
    if mine in folded:
        return folded[mine]
    near = [k for k in folded if _edits(mine, k) <= (1 if len(k) <= 4 else 2)]
    if near:  # a letter dropped, added, changed or two swapped: the nearest, then the first in order
        return folded[min(near, key=lambda k: (_edits(mine, k), k))]
    close = difflib.get_close_matches(mine, list(folded), n=1, cutoff=0.8)
    return folded[close[0]] if close else None


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, changes and swaps of neighbours."""
    prev2, prev = [], list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            cost = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cost = min(cost, prev2[j - 2] + 1)
            row.append(cost)
        prev2, prev = prev, row
    return prev[-1]


def load_project(root: Path | str = ".", games: list[str] | None = None) -> Project:
    """Load manifests and sheets; raise InputErrors listing every problem found.

    With ``games`` given, only rows of those games (and sheet-wide problems)
    count; an unknown name is an error that lists the known games.
    """
    root = Path(root)
    problems = Problems()
    if not find_sheets(root, "cards"):
        raise PnpError(f"{root.resolve()}: no cards.csv here; run pnp in the project folder or pass --data DIR")
    unreadable: set[str] = set()
    manifests = load_manifests(root, problems, unreadable)
    if games:
        unknown = [g for g in games if g not in manifests and g not in unreadable]
        if unknown:
            raise CommandLineError(f"unknown game '{unknown[0]}'; known games: {', '.join(manifests) or 'none'}")
    row_games: dict[tuple[str, int], str] = {}
    cards = []
    for sheet in ("cards", "goals"):
        path = _one_sheet(root, sheet, problems)
        if path is not None:
            cards += load_sheet(path, sheet, manifests, problems, row_games, unreadable)
    if games:
        wanted = set(games)
        keep = []
        for p in problems.items:
            if p.file.startswith("templates/"):
                if p.file.split("/")[1] in wanted:
                    keep.append(p)
                continue
            g = row_games.get((p.file, p.row))
            if g is None or g in wanted or g not in manifests:
                keep.append(p)
        problems.items = keep
    problems.raise_if_errors()
    selected = games or list(manifests)
    result = {slug: Game(manifests[slug]) for slug in selected}
    for card in cards:
        if card.game in result:
            result[card.game].cards.append(card)
    return Project(root=root, games=result, problems=problems)
