"""The render stage, the per-design key, the drawing cache and the target registry."""

import subprocess
import sys
from pathlib import Path

import pytest

import generator.draw.svgread as svgread
import generator.stages.keys as keys
from generator.build import BuildOptions, build_game
from generator.stages.designs import RenderedGame, RenderOptions, render_game
from generator.stages.keys import design_key
from generator.targets import TARGETS, TargetOutput
from model.sheets import load_project

from helpers import copy_game, find_row, set_cell

SLUG = "pyramid-scheme"


class Placeholders:
    """A store that has every drawing: the render stage then parses nothing."""

    def get(self, key):
        return "drawing"

    def put(self, key, drawing):
        raise AssertionError("nothing to put: every drawing was found")


class Recording:
    """A drawing store in memory that counts what it is asked."""

    def __init__(self):
        self.drawings = {}
        self.gets = []
        self.puts = []

    def get(self, key):
        self.gets.append(key)
        return self.drawings.get(key)

    def put(self, key, drawing):
        self.puts.append(key)
        self.drawings[key] = drawing


def design_keys(data: Path) -> dict[str, tuple[str, str | None, str]]:
    game = load_project(data, [SLUG]).games[SLUG]
    rendered = render_game(game, RenderOptions(), store=Placeholders())
    assert not rendered.errors
    return {d.card.id: (d.front_key, d.back_key, d.key) for d in rendered.designs}


def changed(before: dict, after: dict) -> set[str]:
    assert before.keys() == after.keys()
    return {i for i in before if before[i] != after[i]}


def test_the_design_key_follows_what_is_printed_and_nothing_else(tmp_path):
    data = copy_game(tmp_path / "data")
    first = design_keys(data)
    assert design_keys(data) == first  # same inputs, same keys
    assert len({k for _, _, k in first.values()}) == len(first)  # every design its own key

    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", "g02"), "count", "2")  # how many copies: not printed on the card
    assert changed(first, design_keys(data)) == set()

    set_cell(cards, find_row(cards, "id", "g01"), "name", "Penny Saver")  # a row value
    after_row = design_keys(data)
    assert changed(first, after_row) == {"g01"}

    police = data / "templates" / SLUG / "police.svg.j2"  # a template file
    police.write_text(police.read_text(encoding="utf-8").replace(
        "{% endblock %}\n", '<circle cx="5" cy="5" r="1" fill="#000000"/>{% endblock %}\n'), encoding="utf-8")
    game = load_project(data, [SLUG]).games[SLUG]
    police_ids = {c.id for c in game.deck("police")}
    assert police_ids and changed(after_row, design_keys(data)) == police_ids


def test_the_design_key_covers_the_generator_revision_and_is_stable_across_processes(monkeypatch):
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
    key = design_key(svg)
    assert len(key) == 64 and design_key(svg, None) == key != design_key(svg, svg)
    fresh = subprocess.run([sys.executable, "-c", f"from generator.stages.keys import design_key; print(design_key({svg!r}))"],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert fresh == key
    monkeypatch.setattr(keys, "GENERATOR_REVISION", keys.GENERATOR_REVISION + 1)
    keys._key_base.cache_clear()
    try:
        assert design_key(svg) != key
    finally:
        keys._key_base.cache_clear()


def test_a_prefilled_cache_gives_the_same_pdf_without_parsing(tmp_path, project_root, monkeypatch):
    game = load_project(project_root, [SLUG]).games[SLUG]
    plain = build_game(game, BuildOptions(out=tmp_path / "plain"), reference=False)

    store = Recording()
    filled = build_game(game, BuildOptions(out=tmp_path / "filled"), reference=False, cache=store)
    distinct = set(store.gets)
    assert len(store.gets) == len(distinct) == len(store.puts) and set(store.puts) == distinct

    def no_parsing(*args):
        raise AssertionError("every drawing should come from the cache")

    monkeypatch.setattr(svgread, "svg_to_drawing", no_parsing)
    store.gets, store.puts = [], []
    cached = build_game(game, BuildOptions(out=tmp_path / "cached"), reference=False, cache=store)
    assert set(store.gets) == distinct and store.puts == []
    for a, b, c in zip(plain.files, filled.files, cached.files, strict=True):
        assert a.read_bytes() == b.read_bytes() == c.read_bytes()


class Dummy:
    """A target that lists the designs it receives."""

    name = "dummy"
    needs_designs = True

    def __init__(self):
        self.seen: list[RenderedGame] = []

    def configure(self, build):
        return build.settings.get(self.name, {})

    def make(self, rendered, options):
        self.seen.append(rendered)
        lines = [f"{d.deck} {d.card.id} {d.count}" for d in rendered.designs]
        return TargetOutput({Path(f"{rendered.game.slug}-{options['suffix']}.txt"): "\n".join(lines).encode()},
                            pages=len(lines))


def test_a_registered_target_receives_every_rendered_design(tmp_path, project_root, monkeypatch):
    dummy = Dummy()
    monkeypatch.setitem(TARGETS, dummy.name, dummy)
    game = load_project(project_root, [SLUG]).games[SLUG]
    options = BuildOptions(out=tmp_path, targets=("pdf-sheets", "dummy"), settings={"dummy": {"suffix": "list"}})
    result = build_game(game, options)

    [rendered] = dummy.seen
    assert [(d.deck, d.card.id) for d in rendered.designs] == [
        (name, c.id) for name in game.manifest.decks for c in game.deck(name)]
    assert len(rendered.designs) == len(game.cards) == 92
    assert rendered.content_hash == result.content_hash
    for d in rendered.designs:
        deck = game.manifest.decks[d.deck]
        assert d.size == deck.size and d.front_svg.startswith("<svg")
        assert rendered.drawing(d.front_key) is not None
        assert (d.back_key is None) == (deck.back is None)
        if d.back_key:
            assert rendered.drawing(d.back_key) is not None
    listing = tmp_path / SLUG / f"{SLUG}-list.txt"
    assert result.files == [tmp_path / SLUG / f"{SLUG}-cards.pdf", listing]
    assert listing.read_text().splitlines()[0] == "victim g01 1"
    assert result.pages == 30 + 92


def test_warnings_belong_to_their_design_and_unknown_targets_are_refused(tmp_path):
    data = copy_game(tmp_path / "data")
    cards = data / "cards.csv"
    set_cell(cards, find_row(cards, "id", "g01"), "name", "Extraordinarily Long Winded Name " * 4)
    game = load_project(data, [SLUG]).games[SLUG]
    rendered = render_game(game, RenderOptions(), store=Placeholders())
    by_id = {d.card.id: d for d in rendered.designs}
    assert [str(p).split(": ")[1] for p in by_id["g01"].warnings] == ["'g01' (front)", "'g01' (back)"]
    assert rendered.warnings == by_id["g01"].warnings
    assert all(not d.warnings for i, d in by_id.items() if i != "g01")
    with pytest.raises(Exception, match="unknown target 'png'"):
        build_game(game, BuildOptions(out=tmp_path / "out", targets=("pdf-sheets", "png")))
