"""Game manifests: ``templates/<slug>/game.toml``.

A manifest is all the generator and the loader know about a game: its title, its
palette, its decks (schema, component size, templates, expected counts), the
vocabularies of its small languages and its reference sheet.  The reference for
every key is docs/format.md.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import Problems
from .lang import Language, language_from_manifest
from .manifest_shape import check_shape, line_of

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
#: The font families every game may name (the generator embeds them); more are declared under [fonts].
BUILTIN_FAMILIES = ("DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "STIX General")
FONT_STYLES = ("regular", "bold", "italic", "bold_italic")
FONT_SUFFIXES = (".ttf", ".otf")
#: The smallest text size, in points, a game prints without a warning (``[game] text_floor``).
TEXT_FLOOR_PT = 6.0
#: A single playing time (``playtime = "20 min"``) stands for this share either side of it: 15-25 min.
PLAYTIME_TOLERANCE = 0.25
MAX_TITLE = 200  # characters of a game's title
_PLAYTIME = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:(?:-|–|—|to)\s*(\d+(?:\.\d+)?))?\s*"
                       r"(min|mins|minutes?|m|h|hrs?|hours?)?\.?\s*", re.I)
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
    playtime: str  # as written (the reference sheet prints it)
    font: str
    palette: dict[str, dict]
    decks: dict[str, Deck]
    languages: dict[str, Language]
    expansions: dict[str, str]
    reference: str | None
    raw: dict
    #: the game's own font families: name -> (regular, bold, italic, bold italic) files, missing ones None
    fonts: dict[str, tuple] = field(default_factory=dict)
    text_floor: float = TEXT_FLOOR_PT  # points
    language: str = "en_US"  # of the text, for hyphenation
    #: the playing time the box states, (shortest, longest) in minutes; None when the manifest gives none
    playtime_minutes: tuple[float, float] | None = None

    @property
    def data_folder(self) -> Path:
        """The folder with the sheets (pictures are named relative to it)."""
        return self.folder.parent.parent

    @property
    def families(self) -> tuple[str, ...]:
        """Every font family the game may name."""
        return BUILTIN_FAMILIES + tuple(f for f in self.fonts if f not in BUILTIN_FAMILIES)

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
    if isinstance(value, int) and value >= 0:
        return {"base": value}
    if isinstance(value, dict) and all(isinstance(v, int) and v >= 0 for v in value.values()):
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
    missing = [k for k in ("width", "height") if k not in spec]
    if missing:
        problems.error(where, None, None, f"size '{name}' needs its {' and '.join(missing)} in millimetres")
        return None
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


def playtime_minutes(value) -> tuple[float, float] | None:
    """The box's playing time in minutes: ``"20-30 min"`` -> (20, 30), ``"1-2 h"`` -> (60, 120); one time
    stands for ``PLAYTIME_TOLERANCE`` either side of it (``"20 min"``, ``20`` -> (15, 25)); empty -> None.
    Raises ValueError for anything else."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    text = str(value or "").strip()
    if not text:
        return None
    found = _PLAYTIME.fullmatch(text)
    if not found:
        raise ValueError(text)
    low, high = float(found[1]), float(found[2] or found[1])
    scale = 60.0 if (found[3] or "m").lower().startswith("h") else 1.0
    if low <= 0 or high < low:
        raise ValueError(text)
    if found[2] is None:
        low, high = low * (1 - PLAYTIME_TOLERANCE), low * (1 + PLAYTIME_TOLERANCE)
    return low * scale, high * scale


def _font_file(folder: Path, value, where: str, line: int | None, column: str, problems: Problems) -> Path | None:
    """A declared font file: inside the game's folder, a TrueType or OpenType font that may be embedded."""
    if not isinstance(value, str) or not value.strip():
        problems.error(where, line, column, f"'{value}' is not a file name; expected e.g. \"fonts/Lora-Regular.ttf\"")
        return None
    path = (folder / value).resolve()
    if not path.is_relative_to(folder.resolve()):
        problems.error(where, line, column, f"'{value}' is outside templates/{folder.name}/; "
                       "keep the game's fonts in its fonts/ folder")
        return None
    if not path.is_file():
        problems.error(where, line, column, f"font file '{value}' not found in templates/{folder.name}/")
        return None
    problem = font_file_problem(path)
    if problem:
        problems.error(where, line, column, f"'{value}' {problem}")
        return None
    return path


def font_file_problem(path: Path) -> str | None:
    """What is wrong with a font file (None: a TrueType or OpenType font that may be embedded)."""
    try:
        from fontTools.ttLib import TTFont, TTLibError
    except ImportError:  # pragma: no cover - a dependency
        return None
    if path.suffix.lower() not in FONT_SUFFIXES:
        return "is not a .ttf or .otf file"
    try:
        with TTFont(path, lazy=True) as font:
            if "cmap" not in font or not ("glyf" in font or "CFF " in font):
                return "is not a TrueType or OpenType font with outlines"
            font.getBestCmap()
            fs_type = font["OS/2"].fsType if "OS/2" in font else 0
    except (TTLibError, OSError, ValueError, KeyError, AssertionError, IndexError, TypeError, EOFError) as exc:
        return f"is not a font file that can be read ({str(exc) or type(exc).__name__})"
    if fs_type & 0x000F == 0x0002:
        return "is a font whose licence does not allow embedding it in a PDF"
    return None


def _fonts(raw: dict, text: str, folder: Path, where: str, problems: Problems) -> dict[str, tuple]:
    """The ``[fonts.NAME]`` tables: each family's face files."""
    out: dict[str, tuple] = {}
    table = raw.get("fonts", {})
    if not isinstance(table, dict):
        problems.error(where, line_of(text, "", "fonts"), "fonts", "expected tables such as [fonts.\"Lora\"]")
        return out
    for name, spec in table.items():
        line = line_of(text, f"fonts.{name}")
        if name in BUILTIN_FAMILIES:
            problems.error(where, line, f"fonts.{name}", f"'{name}' is a built-in family; give yours another name")
            continue
        if not isinstance(spec, dict):
            spec = {"regular": spec}
        unknown = [k for k in spec if k not in FONT_STYLES]
        for k in unknown:
            problems.error(where, line_of(text, f"fonts.{name}", k) or line, f"fonts.{name}.{k}",
                           f"unknown face '{k}'; a family has {', '.join(FONT_STYLES)}")
        if "regular" not in spec:
            problems.error(where, line, f"fonts.{name}", "a family needs at least its regular face: "
                           "regular = \"fonts/NAME-Regular.ttf\"")
            continue
        files = []
        ok = True
        for style in FONT_STYLES:
            if style not in spec:
                files.append(None)
                continue
            path = _font_file(folder, spec[style], where, line_of(text, f"fonts.{name}", style) or line,
                              f"fonts.{name}.{style}", problems)
            ok &= path is not None
            files.append(path)
        if ok and not unknown:
            out[name] = tuple(files)
    return out


def load_manifest(folder: Path, problems: Problems) -> Manifest | None:
    path = folder / "game.toml"
    where = f"templates/{folder.name}/game.toml"
    if not path.resolve().is_relative_to(folder.parent.parent.resolve()):
        problems.error(where, None, None, "is a link that leads out of the data folder; pnp reads a game's files "
                       "only inside it (copy the file in)", unreadable=True)
        return None
    try:
        text = path.read_text(encoding="utf-8")
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # "... (at line 32, column 11)": the line goes where a line goes
        found = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(exc), re.S)
        line, message = (int(found[2]), f"{found[1]} (column {found[3]})") if found else (None, str(exc))
        problems.error(where, line, None, f"not a valid TOML file: {message}", unreadable=True)
        return None
    except UnicodeDecodeError as exc:
        problems.error(where, None, None, f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); save it as UTF-8",
                       unreadable=True)
        return None
    except RecursionError:  # (tomllib reads nested arrays and tables by recursion)
        problems.error(where, None, None, "nests arrays or tables too deeply to be read (hundreds of levels); a "
                       "manifest needs a few", unreadable=True)
        return None
    except OSError as exc:
        problems.error(where, None, None, f"cannot be read: {exc.strerror or exc}", unreadable=True)
        return None
    raw = check_shape(raw, where, problems, text)  # values of the wrong kind reported and left out
    game = raw.get("game", {})
    if "title" not in game:
        problems.error(where, None, "game.title", "missing; every game needs a title")
    elif len(game["title"]) > MAX_TITLE:
        problems.error(where, line_of(text, "game", "title"), "game.title",
                       f"a title of {len(game['title']):,} characters; a title has at most {MAX_TITLE} (it heads the "
                       "reference sheet and every page's footer)")
        game["title"] = game["title"][:MAX_TITLE]
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
        if size is None:  # said above; the deck stays, at a stand-in size, so that its rows are still
            size = Size(name="poker", **BUILTIN_SIZES["poker"])  # checked (and not "unknown deck" each)
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
    fonts = _fonts(raw, text, folder, where, problems)
    font = game.get("font", "DejaVu Sans")
    families = BUILTIN_FAMILIES + tuple(fonts)
    if font not in families and not any((p.column or "").startswith(f"fonts.{font}") for p in problems.items
                                        if p.file == where):
        problems.error(where, line_of(text, "game", "font"), "game.font",
                       f"unknown font family '{font}'; families: {', '.join(families)} "
                       f"(declare your own under [fonts.\"{font}\"] with its files in templates/{folder.name}/fonts/)")
    floor = game.get("text_floor", TEXT_FLOOR_PT)
    if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0 <= floor <= 72:
        problems.error(where, line_of(text, "game", "text_floor"), "game.text_floor",
                       f"'{floor}' is not a text size in points (0 to 72)")
        floor = TEXT_FLOOR_PT
    language = str(game.get("language", "en_US"))
    try:
        import pyphen

        found = pyphen.language_fallback(language)
    except ImportError:  # pragma: no cover - a dependency
        found = language
    if found is None:
        problems.error(where, line_of(text, "game", "language"), "game.language",
                       f"unknown language '{language}' for hyphenation; e.g. en_US, en_GB, de_DE, fr_FR")
    language = found or "en_US"
    playtime = game.get("playtime", "")
    try:
        minutes = playtime_minutes(playtime)
    except ValueError:
        minutes = None
        problems.error(where, line_of(text, "game", "playtime"), "game.playtime",
                       f"'{playtime}' is not a playing time; expected the range of minutes a game takes, "
                       f"e.g. \"20-30 min\" (or \"1-2 h\"; one time such as \"20 min\" stands for "
                       f"{20 * (1 - PLAYTIME_TOLERANCE):g}-{20 * (1 + PLAYTIME_TOLERANCE):g} min)")
    return Manifest(
        slug=folder.name,
        folder=folder,
        title=game.get("title", folder.name),
        players=str(game.get("players", "")),
        playtime=str(game.get("playtime", "")),
        font=font if font in families else "DejaVu Sans",
        palette=palette,
        decks=decks,
        languages=languages,
        expansions=expansions,
        reference=reference,
        raw=raw,
        fonts=fonts,
        text_floor=float(floor),
        language=language,
        playtime_minutes=minutes,
    )
