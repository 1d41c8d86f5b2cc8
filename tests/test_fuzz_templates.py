"""Property: a template changed at random renders to clean problem lines, never a traceback, never a hang.

Every template of every bundled game and of docs/example is mutated a few times
with seeded, small changes (a line deleted, doubled or swapped, a brace or quote
dropped, a number made huge, not finite or negative, the file cut short, or a
hostile piece put in: a way out of the sandbox, a bound passed, SVG no reader
takes) and its designs rendered (the reference template: its sheet laid out)
through the same code ``pnp build`` runs.  Nothing may raise, each case ends
within seconds, and every error is a line at a template, a cell or a picture.

The cases are the same on every machine; PNP_FUZZ_TEMPLATES=N runs N per
template file (default 3: about 140 cases; 10 gives about 470), PNP_FUZZ_RANDOM=1 draws
new ones."""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from pathlib import Path

import pytest

from helpers import REPO, copy_game

GAMES = ["drinking-pyramid", "golden-pyramid", "pyramid-scheme", "pyramid-shambo", "pyrrameds"]
PER_FILE = int(os.environ.get("PNP_FUZZ_TEMPLATES", 3))
SEED = random.randrange(1 << 30) if os.environ.get("PNP_FUZZ_RANDOM") else 27
#: Designs rendered per deck a mutated template belongs to (the first few rows).
DESIGNS = 3
PIECES = [
    "{{", "}}", "{%", "%}", "{#", "{{ card.nope }}", "{{ 1e309 }}", "{{ 10 ** 100000 }}", "{{ 'a' * 10 ** 8 }}",
    "{% for i in range(10 ** 6) %}", "{% endfor %}", "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}",
    "<g>", "</g>", '<image href="x.png"/>', '<rect x="abc" width="1" height="1"/>', '<rect x="1e400"/>',
    "{{ lipsum.__globals__ }}", "{{ game.folder }}", "{{ ''.__class__.__mro__ }}", "{% include 'nope.j2' %}",
    "{% set x = [] %}{{ x.append(1) }}", "{{ text(card.name, 0, 0, 1e308, 5) }}", "{{ picture('../x.png', 0, 0, 5, 5) }}",
    "{{ icon('nope', 0, 0, 5) }}", "]]>", "&", "<", "{{ card.name|center(10 ** 8) }}", "{{ range(10 ** 9)|list }}",
    "{% for i in range(3000) %}<g>{% endfor %}", "{{ cards|length }}", "{{ decks.values()|list }}",
    '<text font-family="Nope">x</text>', "{{ self }}", "{{ nets.os }}", "{% extends 'card.svg.j2' %}",
]
NUMBERS = ["0", "-1", "1e308", "1e309", "nan", "999999999999", "0.0001", "-0"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(7)
        at = rng.randrange(len(lines) + 1) if lines else 0
        if kind == 0 or not lines:
            lines.insert(at, rng.choice(PIECES))
        elif kind == 1:
            del lines[min(at, len(lines) - 1)]
        elif kind == 2:
            lines.insert(at, lines[min(at, len(lines) - 1)])
        elif kind == 3:
            numbers = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"\d+(?:\.\d+)?", line)]
            if numbers:
                i, m = rng.choice(numbers)
                lines[i] = lines[i][:m.start()] + rng.choice(NUMBERS) + lines[i][m.end():]
        elif kind == 4:
            marks = [(i, j) for i, line in enumerate(lines) for j, c in enumerate(line) if c in "{}%<>\"'"]
            if marks:
                i, j = rng.choice(marks)
                lines[i] = lines[i][:j] + lines[i][j + 1:]
        elif kind == 5 and len(lines) > 1:
            a, b = rng.sample(range(len(lines)), 2)
            lines[a], lines[b] = lines[b], lines[a]
        else:
            joined = "\n".join(lines)
            lines = joined[:rng.randrange(len(joined) + 1)].splitlines()
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fuzz-templates")
    found = {slug: copy_game(root / slug, slug, REPO) for slug in GAMES}
    found["tiny-tombs"] = root / "tiny-tombs"
    shutil.copytree(REPO / "docs" / "example", found["tiny-tombs"])
    return found


def _cases():
    for slug in [*GAMES, "tiny-tombs"]:
        base = REPO / "docs" / "example" if slug == "tiny-tombs" else REPO
        for path in sorted((base / "templates" / slug).rglob("*.j2")):
            for n in range(PER_FILE):
                yield pytest.param(slug, path.relative_to(base / "templates" / slug).as_posix(), n,
                                   id=f"{slug}/{path.name}/{n}")


def _render(folder: Path, slug: str, name: str):
    """Render what the template ``name`` is part of; the problems found."""
    from model.errors import Problems
    from model.sheets import load_project

    from generator.stages.designs import render_designs
    from generator.stages.reference import build_reference
    from generator.stages.render import DrawingCache
    from generator.stages.rows import rows_of

    game = load_project(folder, [slug]).games[slug]
    manifest = game.manifest
    if name == manifest.reference:
        problems = Problems()
        build_reference(game, None, "a4", problems, DrawingCache(), "fuzz")
        return problems.items
    decks = [d for d, deck in manifest.decks.items() if name in (deck.front, deck.back)] or list(manifest.decks)
    designs = [(d, card) for d in decks for card in game.deck(d)[:DESIGNS]]
    return render_designs(manifest, designs, rows=rows_of(game, None))[2]


@pytest.mark.parametrize("slug, name, n", list(_cases()))
def test_a_mutated_template_gives_clean_lines(folders, slug, name, n):
    folder = folders[slug]
    path = folder / "templates" / slug / name
    original = path.read_text(encoding="utf-8")
    rng = random.Random(f"{SEED}:{slug}:{name}:{n}")
    path.write_text(mutate(original, rng), encoding="utf-8")
    try:
        start = time.perf_counter()
        problems = _render(folder, slug, name)
        seconds = time.perf_counter() - start
    finally:
        path.write_text(original, encoding="utf-8")
    assert seconds < 30, f"took {seconds:.1f} s"
    for p in problems:
        assert p.file.startswith(("templates/", "generator/templates/", "cards.csv", "goals.csv", "art/")) or \
            p.file.endswith(".svg"), p
        assert "Traceback" not in p.message and " object at 0x" not in p.message, p
