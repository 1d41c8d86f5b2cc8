"""The shape of a manifest: which keys hold which kinds of value.

``check_shape`` runs before ``model.manifest.load_manifest`` reads a manifest:
a value of the wrong kind (a list where a title goes, text where a count goes,
an unknown key of a column or a size) is one problem naming the key, and is
left out, so that loading goes on with the default and never trips over it.
Other tables may hold keys of the game's own, which its templates or its rules
engine read (``piece`` in a deck of Pyramid Shambo); a key of theirs that is one
slip away from a key pnp reads there (``bak`` for ``back`` in a deck, a table
``[refrence]``) is a warning that names the key it resembles, and is kept.
A palette's keys are all the game's own.
"""

from __future__ import annotations

import re
from difflib import get_close_matches

from .errors import Problems

TEXT, WHOLE, NUMBER, FLAG, TABLE, PLAIN = "text", "a whole number", "a number", "true or false", "a table", "a value"

GAME = {"title": TEXT, "players": (TEXT, WHOLE), "playtime": (TEXT, WHOLE), "font": TEXT, "description": TEXT}
SIZE = {"name": TEXT, "width": NUMBER, "height": NUMBER, "bleed": NUMBER, "shape": TEXT, "radius": NUMBER}
COLUMN = {"type": TEXT, "required": FLAG, "min": WHOLE, "max": WHOLE, "values": "a list of text", "language": TEXT,
          "max_length": WHOLE}
DECK = {"label": TEXT, "size": (TEXT, TABLE), "front": TEXT, "back": TEXT, "expected": (WHOLE, TABLE),
        "expected_source": TEXT, "sheet": TEXT, "crop_marks": FLAG, "description": TEXT, "columns": TABLE}
WORD = {"count": TEXT, "args": "a list of text", "params": TABLE, "help": TEXT, "icon": TEXT, "label": TEXT}
LANGUAGE = {"description": TEXT, "color_words": FLAG, "words": TABLE}
#: the tables of a manifest, and the keys of [game] that ``model.manifest`` checks itself
TABLES = ("game", "palette", "sizes", "decks", "expansions", "languages", "reference", "fonts")
GAME_KEYS = (*GAME, "text_floor", "language")


def _is(value, kind: str) -> bool:
    if kind == TEXT:
        return isinstance(value, str)
    if kind == WHOLE:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == NUMBER:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == FLAG:
        return isinstance(value, bool)
    if kind == TABLE:
        return isinstance(value, dict)
    if kind == "a list of text":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, (str, int, float, bool))  # PLAIN


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Checker:
    def __init__(self, where: str, problems: Problems, text: str = ""):
        self.where, self.problems, self.text = where, problems, text

    def keys(self, table: dict, schema: dict, path: str, closed: bool = True, slips: tuple = ()) -> None:
        """Drop the values of the wrong kind (and, when ``closed``, the unknown keys) of one table; in an
        open table, warn of an unknown key close to one of ``slips``, the keys pnp reads there."""
        for key in list(table):
            kinds = schema.get(key)
            name = f"{path}.{key}" if path else key
            if kinds is None:
                if closed:
                    self.problems.error(self.where, None, name, f"unknown key '{key}'; known: {', '.join(schema)}")
                    del table[key]
                elif slips:  # a key of the game's own (its templates or its rules engine read it), or a slip
                    self.near_miss(key, slips, name)
                continue
            kinds = kinds if isinstance(kinds, tuple) else (kinds,)
            if not any(_is(table[key], k) for k in kinds):
                self.problems.error(self.where, None, name, f"{_describe(table[key])} is not {' or '.join(kinds)}")
                del table[key]

    def near_miss(self, key: str, known, name: str, what: str = "key") -> None:
        """A warning at its line when ``key`` (at dotted ``name``), which pnp does not read, looks like a slip
        for one it does."""
        close = get_close_matches(key, [k for k in known if k != key], n=1, cutoff=0.75)
        if close:
            table, _, last = name.rpartition(".")
            line = line_of(self.text, name) if what == "table" else line_of(self.text, table, last)
            self.problems.warn(self.where, line, name, f"unknown {what} '{key}'; did you mean '{close[0]}'? (kept "
                               f"as a {what} of the game's own)")

    def tables(self, parent: dict, key: str, path: str) -> dict:
        """``parent[key]`` when it is a table of tables (entries that are not tables dropped), else {}."""
        found = parent.get(key, {})
        if not isinstance(found, dict):
            self.problems.error(self.where, None, path, f"{_describe(found)} is not a table")
            parent[key] = {}
            return {}
        for name in list(found):
            if not isinstance(found[name], dict):
                self.problems.error(self.where, None, f"{path}.{name}", f"{_describe(found[name])} is not a table")
                del found[name]
        return found


def check_shape(raw: dict, where: str, problems: Problems, text: str = "") -> dict:
    """``raw`` (a parsed game.toml, ``text``) with every value of the wrong kind reported and left out."""
    c = _Checker(where, problems, text)
    for key in ("game", "reference", "expansions"):
        if key in raw and not isinstance(raw[key], dict):
            problems.error(where, None, key, f"{_describe(raw[key])} is not a table")
            raw[key] = {}
    for key in raw:
        if key not in TABLES:
            c.near_miss(key, TABLES, key, "table")
    c.keys(raw.get("game", {}), GAME, "game", closed=False, slips=GAME_KEYS)
    if "reference" in raw:
        c.keys(raw["reference"], {"template": TEXT}, "reference", closed=False, slips=("template",))
    if "expansions" in raw:
        c.keys(raw["expansions"], {}, "expansions", closed=False)
        for name in list(raw["expansions"]):
            if not isinstance(raw["expansions"][name], str):
                problems.error(where, None, f"expansions.{name}",
                               f"{_describe(raw['expansions'][name])} is not text (the box's name)")
                del raw["expansions"][name]
    for name, entry in c.tables(raw, "palette", "palette").items():
        c.keys(entry, {"fill": TEXT, "mark": TEXT, "letter": TEXT}, f"palette.{name}", closed=False)
    for name, size in c.tables(raw, "sizes", "sizes").items():
        c.keys(size, SIZE, f"sizes.{name}")
    for name, language in c.tables(raw, "languages", "languages").items():
        c.keys(language, LANGUAGE, f"languages.{name}", closed=False)
        for word, spec in c.tables(language, "words", f"languages.{name}.words").items():
            c.keys(spec, WORD, f"languages.{name}.words.{word}", closed=False)
    for name, deck in c.tables(raw, "decks", "decks").items():
        c.keys(deck, DECK, f"decks.{name}", closed=False, slips=tuple(DECK))
        if isinstance(deck.get("size"), dict):
            c.keys(deck["size"], SIZE, f"decks.{name}.size")
        if isinstance(deck.get("expected"), dict):
            for box in list(deck["expected"]):
                if not _is(deck["expected"][box], WHOLE):
                    problems.error(where, None, f"decks.{name}.expected.{box}",
                                   f"{_describe(deck['expected'][box])} is not a whole number")
                    del deck["expected"][box]
        for column, spec in c.tables(deck, "columns", f"decks.{name}.columns").items():
            c.keys(spec, COLUMN, f"decks.{name}.columns.{column}")
            if isinstance(spec.get("max_length"), int) and spec["max_length"] < 1:
                problems.error(where, None, f"decks.{name}.columns.{column}.max_length",
                               f"{spec.pop('max_length')} is not a length; give 1 or more characters")
    return raw


def line_of(text: str, table: str, key: str | None = None) -> int | None:
    """The line of ``[table]`` (dotted, a part may be quoted), or of ``key = ...`` inside it, in a TOML text."""
    parts = table.split(".") if table else []
    head = r"\.".join(rf'\s*(?:{re.escape(p)}|"{re.escape(p)}"|\'{re.escape(p)}\')\s*' for p in parts)
    start = 0
    lines = text.splitlines()
    if parts:
        pattern = re.compile(rf"^\s*\[{head}\]\s*(#.*)?$")
        start = next((i for i, line in enumerate(lines) if pattern.match(line)), None)
        if start is None:
            return None
        if key is None:
            return start + 1
        start += 1
    pattern = re.compile(rf'^\s*(?:{re.escape(key)}|"{re.escape(key)}")\s*=')
    for i in range(start, len(lines)):
        if lines[i].lstrip().startswith("["):
            break
        if pattern.match(lines[i]):
            return i + 1
    return None
