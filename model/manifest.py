"""Game manifests: ``templates/<slug>/game.toml``.

A manifest is all the generator and the loader know about a game: its title, its
palette, its decks (schema, component size, templates, expected counts), the
vocabularies of its small languages and its reference sheet.  The reference for
every key is docs/format.md.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import Problems
from .lang import Language, language_from_manifest
from .manifest_shape import check_shape

#: Component sizes every game may name; a manifest may add its own under [sizes].  Card sizes are
#: the inch sizes print shops sell, in mm (1 in = 25.4 mm exactly): poker 2.5 x 3.5 in, bridge
#: 2.25 x 3.5 in, mini 1.75 x 2.5 in and tarot 2.75 x 4.75 in, as The Game Crafter and
#: MakePlayingCards give them (their trim sizes in generator/presets/: TGC's mini canvas 600 x 825 px
#: and tarot 900 x 1500 px at 300 dpi less 1/8 in of bleed a side, MPC's tarot 897 x 1497 px less
#: 36 px a side); aid is a 3.5 x 5 in card, token-25 a 1 in round token.  See docs/format.md.
BUILTIN_SIZES: dict[str, dict] = {
    "poker": {"width": 63.5, "height": 88.9, "bleed": 3.0, "shape": "rect", "radius": 3.0},
    "bridge": {"width": 57.15, "height": 88.9, "bleed": 3.0, "shape": "rect", "radius": 3.0},
    "mini": {"width": 44.45, "height": 63.5, "bleed": 3.0, "shape": "rect", "radius": 2.5},
    "tarot": {"width": 69.85, "height": 120.65, "bleed": 3.0, "shape": "rect", "radius": 3.0},
    "aid": {"width": 88.9, "height": 127.0, "bleed": 3.0, "shape": "rect", "radius": 3.0},
    "token-25": {"width": 25.4, "height": 25.4, "bleed": 2.0, "shape": "circle", "radius": 0.0},
    "tile-40": {"width": 40.0, "height": 40.0, "bleed": 2.0, "shape": "rect", "radius": 1.0},
}

COLUMN_TYPES = ("text", "int", "color", "choice", "language")
BASE_COLUMNS = ("game", "deck", "id", "name", "count", "expansion")
COMMON_COLUMNS = ("color", "number", "symbol", "requires", "effect", "text")
SHEETS = ("cards", "goals")


@dataclass
class Size:
    name: str
    width: float
    height: float
    bleed: float = 3.0
    shape: str = "rect"  # rect or circle
    radius: float = 3.0  # corner radius of the trim, for the templates' frames

    @property
    def full_width(self) -> float:
        return self.width + 2 * self.bleed

    @property
    def full_height(self) -> float:
        return self.height + 2 * self.bleed


@dataclass
class Column:
    name: str
    type: str = "text"
    required: bool = False
    min: int | None = None
    max: int | None = None
    values: list[str] = field(default_factory=list)
    language: str = ""
    max_length: int | None = None


@dataclass
class Deck:
    name: str
    label: str
    sheet: str
    size: Size
    front: str
    back: str | None
    expected: dict[str, int]  # rulebook count per box (base, expansions); empty when unknown
    columns: dict[str, Column]
    description: str = ""
    crop_marks: bool = True  # false for components whose cut lines the template draws (nets)
    expected_source: str = "rulebook"  # or "design": a count the rulebook leaves open


@dataclass
class Manifest:
    slug: str
    folder: Path
    title: str
    players: str
    playtime: str
    font: str
    palette: dict[str, dict]
    decks: dict[str, Deck]
    languages: dict[str, Language]
    expansions: dict[str, str]
    reference: str | None
    raw: dict

    @property
    def colors(self) -> tuple[str, ...]:
        return tuple(self.palette)

    def expected(self, deck: str, boxes: set[str] | None = None) -> int | None:
        """The rulebook's count of a deck for some boxes (None: every box)."""
        table = self.decks[deck].expected
        wanted = set(self.expansions) if boxes is None else boxes
        if not table or not wanted & set(table):
            return None
        return sum(n for box, n in table.items() if box in wanted)

    def deck_for_sheet(self, sheet: str) -> list[Deck]:
        return [d for d in self.decks.values() if d.sheet == sheet]


def _expected(value, where: str, problems: Problems) -> dict[str, int]:
    """``expected = 64`` (the base game) or ``expected = { base = 27, operations = 4 }``."""
    if value is None:
        return {}
    if isinstance(value, int):
        return {"base": value}
    if isinstance(value, dict) and all(isinstance(v, int) for v in value.values()):
        return dict(value)
    problems.error(where, None, "expected", f"'{value}' is not a count or a table of counts per box")
    return {}


def _size(name_or_table, sizes: dict, where: str, problems: Problems) -> Size | None:
    if isinstance(name_or_table, dict):
        spec = dict(name_or_table)
        name = spec.pop("name", "custom")
    else:
        name = str(name_or_table)
        if name not in sizes:
            problems.error(where, None, None, f"unknown size '{name}'; known sizes: {', '.join(sorted(sizes))}")
            return None
        spec = sizes[name]
    try:
        size = Size(name=name, **spec)
    except TypeError as exc:
        problems.error(where, None, None, f"size '{name}': {exc}")
        return None
    if size.width <= 0 or size.height <= 0 or size.bleed < 0:
        problems.error(where, None, None, f"size '{name}' needs a positive width and height")
        return None
    if size.shape not in ("rect", "circle"):
        problems.error(where, None, None, f"size '{name}': shape '{size.shape}' is not rect or circle")
    return size


def load_manifest(folder: Path, problems: Problems) -> Manifest | None:
    path = folder / "game.toml"
    where = f"templates/{folder.name}/game.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        problems.error(where, None, None, f"not a valid TOML file: {exc}")
        return None
    raw = check_shape(raw, where, problems)  # values of the wrong kind reported and left out
    game = raw.get("game", {})
    if "title" not in game:
        problems.error(where, None, "game.title", "missing; every game needs a title")
    sizes = {**BUILTIN_SIZES, **raw.get("sizes", {})}
    palette = raw.get("palette", {})
    colors = tuple(palette)
    languages = {
        name: language_from_manifest(name, spec, colors) for name, spec in raw.get("languages", {}).items()
    }
    expansions = {"base": "Base game", **raw.get("expansions", {})}
    decks: dict[str, Deck] = {}
    for name, spec in raw.get("decks", {}).items():
        dwhere = f"{where} [decks.{name}]"
        size = _size(spec.get("size", "poker"), sizes, dwhere, problems)
        columns: dict[str, Column] = {}
        for cname, cspec in spec.get("columns", {}).items():
            col = Column(name=cname, **{k: v for k, v in cspec.items() if k != "type"}, type=cspec.get("type", "text"))
            if cname == "color" and "type" not in cspec:
                col.type = "color"
            if "language" in cspec:
                col.type = "language"
                if col.language not in languages:
                    problems.error(dwhere, None, cname, f"unknown language '{col.language}'; "
                                   f"defined: {', '.join(languages) or 'none'}")
            if col.values and "type" not in cspec and col.type == "text":
                col.type = "choice"
            if col.type not in COLUMN_TYPES:
                problems.error(dwhere, None, cname, f"unknown column type '{col.type}'; known: {', '.join(COLUMN_TYPES)}")
            columns[cname] = col
        front = spec.get("front", f"{name}.svg.j2")
        back = spec.get("back")
        for t in (front, back):
            if t and not (folder / t).is_file():
                problems.error(dwhere, None, None, f"template '{t}' not found in templates/{folder.name}/")
        sheet = spec.get("sheet", "cards")
        if sheet not in SHEETS:
            problems.error(dwhere, None, "sheet", f"unknown sheet '{sheet}'; known: {', '.join(SHEETS)}")
        if size is None:
            continue
        decks[name] = Deck(
            name=name,
            label=spec.get("label", name.title()),
            sheet=sheet,
            size=size,
            front=front,
            back=back,
            expected=_expected(spec.get("expected"), dwhere, problems),
            columns=columns,
            description=spec.get("description", ""),
            crop_marks=bool(spec.get("crop_marks", True)),
            expected_source=str(spec.get("expected_source", "rulebook")),
        )
    reference = raw.get("reference", {}).get("template")
    if reference and not (folder / reference).is_file():
        problems.error(where, None, "reference.template", f"template '{reference}' not found")
    return Manifest(
        slug=folder.name,
        folder=folder,
        title=game.get("title", folder.name),
        players=str(game.get("players", "")),
        playtime=str(game.get("playtime", "")),
        font=game.get("font", "DejaVu Sans"),
        palette=palette,
        decks=decks,
        languages=languages,
        expansions=expansions,
        reference=reference,
        raw=raw,
    )
