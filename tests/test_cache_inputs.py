"""The build cache covers every input: whatever is edited (any column of any
row, a template, a manifest value, the game's font), a build that reads the
cache writes the same bytes as a build without it.

A property-based test (hypothesis) on a small game of our own whose templates
print every column, the manifest's title, labels, palette and language labels,
and whose text is set in the manifest's font.  Each example edits the game,
builds with the cache that the builds before it filled (the unedited game's
designs are all in it) in this process, as `pnp watch` does, builds again
without any cache in a new process, and compares every file byte for byte.  A cache key that missed an input would hand back the
design as it was before the edit."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from generator.build import BuildOptions, build_game
from generator.diskcache import DiskCache, cache_folder
from helpers import write_rows
from model.sheets import load_project

SLUG = "cache-lab"
FONTS = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"]
COLOURS = {"sun": "#e8a317", "moss": "#4a7c3a", "sky": "#3b7dd8"}
SYMBOLS = ["ankh", "eye", "scarab"]
EFFECTS = ["draw 1", "draw 3", "skip", "draw 2 + skip", "steal 1 moss", "skip + steal 2 sky"]

MANIFEST = """[game]
title = "{title}"
players = "2-4"
font = "{font}"

[palette.sun]
fill = "{sun}"
mark = "star"
letter = "S"
[palette.moss]
fill = "{moss}"
mark = "square"
letter = "M"
[palette.sky]
fill = "{sky}"
mark = "circle"
letter = "K"

[languages.effect]
description = "what happens when the card is played"
[languages.effect.words.draw]
args = ["int"]
icon = "card"
label = "{draw_label}"
help = "draw {{0}} cards"
[languages.effect.words.skip]
icon = "pass"
label = "Skip"
help = "the next player skips a turn"
[languages.effect.words.steal]
args = ["int", "color"]
icon = "hand"
label = "Steal {{0}} {{1}}"
help = "take {{0}} cards of that colour"

[expansions]
curses = "The Curses box"

[decks.relic]
label = "{deck_label}"
size = "poker"
front = "relic.svg.j2"
back = "back.svg.j2"
[decks.relic.columns]
{columns}

[decks.omen]
label = "Omens"
size = "bridge"
front = "relic.svg.j2"
back = "back.svg.j2"
[decks.omen.columns]
{columns}
"""

DECK_COLUMNS = """color = {{ required = true }}
number = {{ type = "int", min = 0, max = 9, required = true }}
symbol = {{ values = {symbols} }}
effect = {{ language = "effect" }}
text = {{ max_length = 120 }}
tier = {{ type = "int", min = 1, max = 3 }}"""

BASE_MANIFEST = {"title": "Cache Lab", "font": "DejaVu Sans", **COLOURS, "draw_label": "Draw {0}",
                 "deck_label": "Relics"}

FRONT = """{% extends "pnp/card.svg.j2" %}
{% set p = pal(card.color) %}
{% block background %}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="{{ p.fill }}"/>{% endblock %}
{% block body %}
<rect x="{{ B + 3 }}" y="{{ B + 3 }}" width="{{ TW - 6 }}" height="{{ TH - 6 }}" rx="3" fill="#FRAME"/>
{{ icon(p.mark, B + 9, B + 9, 7, p.fill, "#ffffff") }}
{{ text(card.number|string, B + TW - 16, B + 5, 11, 9, size=8, bold=True, fill=p.fill) }}
{{ text(card.name, B + 5, B + 16, TW - 10, 9, size=5, min_size=3, bold=True, field="name") }}
{{ text(card.symbol or "-", B + 5, B + 27, TW - 10, 5, size=3.5, field="symbol") }}
{% for term in card.effect %}{% set d = describe("effect", term) %}
{{ icon(d.icon, B + 10, B + 38 + loop.index0 * 9, 7, "#333333", "#ffffff") }}
{{ text(d.label, B + 16, B + 35 + loop.index0 * 9, TW - 22, 6, size=3.6, anchor="start", field="effect") }}
{% endfor %}
{{ text(card.text, B + 6, B + 58, TW - 12, 16, size=3.4, min_size=2.4) }}
{{ text("tier " ~ (card.tier or "-") ~ " · " ~ deck.label ~ " · " ~ card.id ~ " · " ~ card.expansion ~ " · "
        ~ game.title, B + 5, B + TH - 9, TW - 10, 5, size=2.6, field="tier") }}
{% endblock %}
"""

BACK = """{% extends "pnp/card.svg.j2" %}
{% block background %}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="#BACK"/>{% endblock %}
{% block body %}
{{ icon("pyramid", CX, CY - 6, 30, "#e8a317", "#2d2d2d") }}
{{ text(game.title, B + 5, CY + 16, TW - 10, 10, size=6, bold=True, fill="#e8a317") }}
{% endblock %}
"""

TEMPLATES = {"relic.svg.j2": FRONT.replace("#FRAME", "#fffaf0"), "back.svg.j2": BACK.replace("#BACK", "#2d2d2d")}

HEADER = ["game", "deck", "id", "name", "count", "color", "number", "symbol", "effect", "text", "tier", "expansion"]
ROWS = [  # every column but the game's
    ["relic", "r1", "Sun Disc", "2", "sun", "1", "ankh", "draw 1", "Shine on every player.", "1", "base"],
    ["relic", "r2", "Moss Jar", "1", "moss", "4", "eye", "skip", "Keeps the damp in.", "2", "curses"],
    ["omen", "r3", "Sky Lens", "1", "sky", "7", "scarab", "draw 2 + skip", "Look twice, play once.", "", "base"],
    ["relic", "r4", "Old Map", "3", "sun", "0", "", "steal 1 moss", "", "3", "base"],
    ["omen", "r5", "Reed Pen", "1", "moss", "9", "eye", "", "Writes what it is told.", "1", "curses"],
]
COLUMNS = HEADER[1:]  # every column a designer edits

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéü ", min_size=1, max_size=24).map(
    lambda s: " ".join(s.split()) or "x")
VALUES = {
    "deck": st.sampled_from(["relic", "omen"]),
    "id": st.sampled_from(["a", "b-2", "z.9"]),  # made unique by the row's number (see edit)
    "name": words,
    "count": st.integers(1, 3).map(str),
    "color": st.sampled_from(sorted(COLOURS)),
    "number": st.integers(0, 9).map(str),
    "symbol": st.sampled_from(["", *SYMBOLS]),
    "effect": st.sampled_from(["", *EFFECTS]),
    "text": st.lists(words, min_size=0, max_size=6).map(" ".join),
    "tier": st.sampled_from(["", "1", "2", "3"]),
    "expansion": st.sampled_from(["base", "curses"]),  # (blank is base too: no change to edit)
}

colour_value = st.sampled_from(["#b03a2e", "#1e8449", "#2874a6", "#7d3c98", "#000000"])
manifest_edits = st.one_of(
    st.tuples(st.just("manifest"), st.just("title"), words),
    st.tuples(st.just("manifest"), st.just("deck_label"), words),
    st.tuples(st.just("manifest"), st.just("draw_label"), st.sampled_from(["Draw {0}", "Take {0}", "+{0} cards"])),
    st.tuples(st.just("manifest"), st.sampled_from(sorted(COLOURS)), colour_value),
    st.tuples(st.just("manifest"), st.just("font"), st.sampled_from(FONTS)),  # the game's font
)
template_edits = st.one_of(  # (template, what changes in it, the new value)
    st.tuples(st.just("template"), st.just("relic.svg.j2"), st.just("frame"), colour_value),
    st.tuples(st.just("template"), st.just("back.svg.j2"), st.just("background"), colour_value),
    st.tuples(st.just("template"), st.just("relic.svg.j2"), st.just("name font"), st.sampled_from(FONTS)),
)


def template_text(name: str, what: str, value: str) -> str:
    if what == "frame":
        return FRONT.replace("#FRAME", value)
    if what == "background":
        return BACK.replace("#BACK", value)
    # the name in a font of its own
    return FRONT.replace("#FRAME", "#fffaf0").replace('field="name")', f'field="name", family="{value}")')


@st.composite
def edits(draw):
    kind = draw(st.sampled_from(["cell", "cell", "manifest", "template"]))
    if kind == "cell":
        row = draw(st.integers(0, len(ROWS) - 1))
        column = draw(st.sampled_from(COLUMNS))
        value = draw(VALUES[column])
        return ("cell", row, column, f"{value}{row}" if column == "id" else value)
    return draw(manifest_edits if kind == "manifest" else template_edits)


def write_game(root: Path, manifest: dict, templates: dict, rows: list[list[str]]) -> None:
    folder = root / "templates" / SLUG
    folder.mkdir(parents=True, exist_ok=True)
    symbols = "[" + ", ".join(f'"{s}"' for s in SYMBOLS) + "]"
    columns = DECK_COLUMNS.format(symbols=symbols)
    (folder / "game.toml").write_text(MANIFEST.format(columns=columns, **manifest), encoding="utf-8")
    for name, text in templates.items():
        (folder / name).write_text(text, encoding="utf-8")
    write_rows(root / "cards.csv", [HEADER, *([SLUG, *r] for r in rows)])


def build(root: Path, out: Path, cached: bool) -> dict[str, bytes]:
    game = load_project(root, [SLUG]).games[SLUG]
    store = DiskCache(cache_folder(out)) if cached else None
    try:
        result = build_game(game, BuildOptions(out=out), cache=store)
    finally:
        if store is not None:
            store.close()
    assert result.files
    return {p.name: p.read_bytes() for p in result.files}


def cold_build(root: Path, out: Path) -> dict[str, bytes]:
    """`pnp build --no-cache` in a process of its own: nothing kept from any earlier build."""
    proc = subprocess.run([sys.executable, "-m", "pnp.cli", "build", SLUG, "--data", str(root), "--out", str(out),
                           "--no-cache"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return {p.name: p.read_bytes() for p in sorted((out / SLUG).iterdir()) if p.is_file()}


class Lab:
    """A folder for the game, the output folder (and cache) every warm build shares, and the unedited
    game's bytes."""

    def __init__(self, folder: Path):
        self.folder, self.root, self.warm = folder, folder / "data", folder / "warm"
        write_game(self.root, BASE_MANIFEST, TEMPLATES, ROWS)
        self.base = build(self.root, self.warm, cached=True)

    def __repr__(self):
        return f"Lab({self.folder})"


@pytest.fixture(scope="module")
def lab():
    lab = Lab(Path(tempfile.mkdtemp(prefix="pnp-cache-lab-")))
    assert build(lab.root, lab.warm, cached=True) == lab.base  # nothing edited: all from the cache, the same bytes
    assert cold_build(lab.root, lab.folder / "cold") == lab.base
    yield lab
    shutil.rmtree(lab.folder, ignore_errors=True)


@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(changes=st.lists(edits(), min_size=1, max_size=2))
def test_a_build_from_the_cache_writes_the_bytes_of_a_build_without_it(lab, changes):
    root, warm, base, folder = lab.root, lab.warm, lab.base, lab.folder
    manifest, templates, rows = dict(BASE_MANIFEST), dict(TEMPLATES), [list(r) for r in ROWS]
    for change in changes:
        if change[0] == "cell":
            _, row, column, value = change
            rows[row][COLUMNS.index(column)] = value
        elif change[0] == "manifest":
            manifest[change[1]] = change[2]
        else:
            templates[change[1]] = template_text(*change[1:])
    assume((manifest, templates, rows) != (BASE_MANIFEST, TEMPLATES, ROWS))  # an edit that changes something
    shutil.rmtree(root)
    write_game(root, manifest, templates, rows)
    cold_out = Path(tempfile.mkdtemp(dir=folder))
    try:
        warm_bytes = build(root, warm, cached=True)  # in this process, as `pnp watch` builds again
        cold_bytes = cold_build(root, cold_out)
    finally:
        shutil.rmtree(cold_out, ignore_errors=True)
    assert warm_bytes.keys() == cold_bytes.keys()
    for name in cold_bytes:
        assert warm_bytes[name] == cold_bytes[name], f"{name} differs after {changes}"
    assert warm_bytes != base  # every edit above changes something printed


def test_every_column_is_printed(lab):
    """The property above is only as good as the game: every column must reach the page."""
    import pypdf

    folder = lab.folder
    root, out = Path(tempfile.mkdtemp(dir=folder)), Path(tempfile.mkdtemp(dir=folder))
    write_game(root, BASE_MANIFEST, TEMPLATES, ROWS)
    build(root, out, cached=False)
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(out / SLUG / f"{SLUG}-cards.pdf").pages)
    for phrase in ("Sun Disc", "Keeps the damp in.", "scarab", "Draw 2", "Skip", "Steal 1 moss", "tier 3",
                   "Relics", "Omens", "r4", "curses", "Cache Lab"):
        assert phrase in text, phrase
