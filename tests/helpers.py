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


def run_pnp(*args) -> tuple[int, str]:
    """A pnp command run in this process: (exit code, what it printed on stdout and stderr)."""
    from click.testing import CliRunner

    from pnp.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def _small_memory():  # 4 GB of address space, as a runaway would meet it on a modest machine
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (4_000_000_000, 4_000_000_000))


def run_bounded(data: Path, *args: str, timeout: float = 40) -> tuple[int, list[str], str, float]:
    """``pnp ARGS`` in the folder ``data``, a process of its own held to 4 GB of address space and ``timeout``
    seconds (the test fails past them): (exit code, its error and warning lines, all it wrote, seconds)."""
    import subprocess
    import sys
    import time

    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", "import sys; from pnp.cli import run; sys.exit(run())", *args],
                              cwd=data, capture_output=True, text=True, timeout=timeout, preexec_fn=_small_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pnp {' '.join(args)} ran past {timeout} s")
    said = done.stdout + done.stderr
    lines = [line for line in said.splitlines() if line.startswith(("error ", "warning "))]
    return done.returncode, lines, said, time.monotonic() - start


def save_until_built(cards: Path, card_id: str, name: str, built: list, timeout: float = 60) -> None:
    """Save a new name for one card every second until a watcher has built (it needs a moment to start)."""
    import time

    deadline = time.monotonic() + timeout
    n = 0
    while not built and time.monotonic() < deadline:
        n += 1
        set_cell(cards, find_row(cards, "id", card_id), "name", f"{name} {n}")
        time.sleep(1.0)


def new_game(data: Path, slug: str) -> Path:
    """A game of one's own, as ``pnp new SLUG`` starts it in ``data``; returns its template folder."""
    code, output = run_pnp("new", slug, "--data", data)
    assert code == 0, output
    return data / "templates" / slug


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
    from generator.stages.designs import RenderOptions, render_game
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


ART_MANIFEST = """[game]
title = "Tomb Art"
font = "DejaVu Serif"

[palette.gold]
fill = "#b8860b"
[palette.red]
fill = "#c0392b"

[decks.relic]
label = "Relics"
size = "poker"
back = "back.svg.j2"
[decks.relic.columns]
color = {}
text = {}
art = {}
"""
ART_FRONT = """{% extends "pnp/card.svg.j2" %}
{% block background %}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="#f4ecd8"/>{% endblock %}
{% block body %}
{{ picture(card.art, 0, 0, W, 45, fit="cover") }}
{{ text(card.name, B + 4, B + 42, TW - 8, 8, size=5, bold=True, field="name") }}
{{ text(card.text, B + 4, B + 52, TW - 8, 30, size=3.4, field="text") }}
{% endblock %}
"""
ART_BACK = """{% extends "pnp/card.svg.j2" %}
{% block background %}<rect x="0" y="0" width="{{ W }}" height="{{ H }}" fill="#333333"/>{% endblock %}
{% block body %}
{{ picture("art/sun.svg", B + 10, B + 20, TW - 20, TW - 20, fit="contain") }}
{% endblock %}
"""
SUN_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><defs><linearGradient id="g">'
           '<stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#ff0"/></linearGradient></defs>'
           '<circle cx="50" cy="50" r="40" fill="url(#g)"/><path d="M10 90 L90 10" stroke="#c00" stroke-width="6"/>'
           '</svg>')
COIN_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><circle cx="10" cy="10" r="9" '
            'fill="#e8b923" stroke="#8a6d00" stroke-width="1.5"/></svg>')
SKULL_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><path d="M3 9a7 7 0 1114 0v4h-3v3H6v-3H3z"/></svg>'
ART_ROWS = [
    ["game", "deck", "id", "name", "count", "color", "text", "art"],
    ["tomb", "relic", "r1", "Astronaut", "2", "gold",
     "Worth 2. **Draw** a card, *then* gain :coin: and :skull:. [red]Red[/] text.", "art/astro.jpg"],
    ["tomb", "relic", "r2", "Cat", "1", "red", "Gain 2~:coins: *per* **turn**.", "art/cat.png"],
    ["tomb", "relic", "r3", "Coffee", "1", "gold", "A plain line of text.", "art/coffee.png"],
]


def art_game(dest: Path) -> Path:
    """A data folder with a game of pictures (real photographs from scikit-image's samples:
    astronaut, public domain; chelsea and coffee, CC0), icons and markup: slug ``tomb``."""
    import numpy as np
    from PIL import Image
    from skimage import data as samples

    game = dest / "templates" / "tomb"
    (game / "icons").mkdir(parents=True, exist_ok=True)
    (dest / "art").mkdir(parents=True, exist_ok=True)
    Image.fromarray(samples.astronaut()).save(dest / "art" / "astro.jpg", quality=90)
    cat = samples.chelsea()
    h, w = cat.shape[:2]
    yy, xx = np.mgrid[:h, :w]
    alpha = ((((yy - h / 2) / (h / 2)) ** 2 + ((xx - w / 2) / (w / 2)) ** 2) < 1).astype(np.uint8) * 255
    Image.fromarray(np.dstack([cat, alpha])).save(dest / "art" / "cat.png")
    Image.fromarray(samples.coffee()).save(dest / "art" / "coffee.png")
    (dest / "art" / "sun.svg").write_text(SUN_SVG, encoding="utf-8")
    (game / "icons" / "coin.svg").write_text(COIN_SVG, encoding="utf-8")
    (game / "icons" / "skull.svg").write_text(SKULL_SVG, encoding="utf-8")
    (game / "game.toml").write_text(ART_MANIFEST, encoding="utf-8")
    (game / "relic.svg.j2").write_text(ART_FRONT, encoding="utf-8")
    (game / "back.svg.j2").write_text(ART_BACK, encoding="utf-8")
    write_rows(dest / "cards.csv", ART_ROWS)
    return dest


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


def build_art(data: Path, out: Path, **kw):
    """The art game's cards built in memory (``result.data`` holds the files)."""
    from generator.build import BuildOptions, build_game

    game = load_project(data, ["tomb"]).games["tomb"]
    return build_game(game, BuildOptions(out=out), reference=False, write=False, **kw)


def cards_pdf(result) -> bytes:
    """The bytes of the cards PDF of an unwritten build (a PDF with pictures is kept in pieces
    until it is written: ``model.atomic.Pieces``)."""
    return bytes(next(v for k, v in result.data.items() if k.name.endswith("-cards.pdf")))
