"""The Golden Pyramid: component counts, the deck's arithmetic, sizes, messages for a
broken row, and the built PDFs read back."""

from collections import Counter

import pypdf
import pytest

from generator.build import BuildOptions, build_game
from generator.sheets.layout import grid
from model.sheets import load_project

from helpers import errors_of, find_row, set_cell

SLUG = "golden-pyramid"
MM = 72 / 25.4
COLORS = ["red", "yellow", "green", "blue", "purple", "black"]
SYMBOLS = ["sun", "moon", "eye", "ankh", "lotus", "scarab"]


@pytest.fixture(scope="module")
def game(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


def total(cards) -> int:
    return sum(c.count for c in cards)


def test_component_counts_match_the_rulebook(game):
    totals = Counter()
    for card in game.cards:
        totals[card.deck] += card.count
    assert dict(totals) == {"card": 86, "tile": 30, "column": 108, "marker": 12, "builder": 6, "track": 5, "aid": 6}
    for name, deck in game.manifest.decks.items():
        assert game.manifest.expected(name) == totals[name], name
    # 30 tiles: 6 symbol stacks of 5, exactly the 4x4 + 3x3 + 2x2 + 1 pyramid
    assert Counter({c.symbol: c.count for c in game.deck("tile")}) == Counter({s: 5 for s in SYMBOLS})
    assert total(game.deck("tile")) == 16 + 9 + 4 + 1
    # columns stand in for 6 x 18 cubes; a builder and two markers per player colour
    for deck, each in (("column", 18), ("marker", 2), ("builder", 1)):
        assert {c.color: c.count for c in game.deck(deck)} == {color: each for color in COLORS}


def test_the_cards_set_aside_for_the_card_track(game):
    cards = game.deck("card")
    track = [c for c in cards if c.role == "track"]
    # the twelve 5- and 6-value cards: one of each value in each colour, every symbol twice
    assert total(track) == 12
    assert sorted((c.color, c.number) for c in track) == sorted((color, v) for color in COLORS for v in (5, 6))
    assert Counter(c.symbol for c in track) == Counter({s: 2 for s in SYMBOLS})
    # the green and the yellow card: the 0 space and the far end of the track
    assert [(c.role, c.color) for c in cards if c.role in ("start", "lap")] == [("start", "green"), ("lap", "yellow")]
    # ten track cards of four quarters each make the rulebook's 40-point track
    assert 10 * 4 == 40 and total(track) * 4 >= 40


def test_the_play_deck_arithmetic(game):
    play = [c for c in game.deck("card") if c.role == "play"]
    assert total(play) == 72
    assert all(1 <= c.number <= 4 for c in play), "values 5 and 6 are set aside for the track"
    # balanced: every colour and every symbol 12 times, every colour-symbol pair twice
    by_color, by_symbol, pairs = Counter(), Counter(), Counter()
    values_by_color = {color: Counter() for color in COLORS}
    values_by_symbol = {s: Counter() for s in SYMBOLS}
    for c in play:
        by_color[c.color] += c.count
        by_symbol[c.symbol] += c.count
        pairs[c.color, c.symbol] += c.count
        values_by_color[c.color][c.number] += c.count
        values_by_symbol[c.symbol][c.number] += c.count
    assert set(by_color.values()) == {12} and set(by_symbol.values()) == {12}
    assert set(pairs.values()) == {2} and len(pairs) == 36
    spread = {1: 4, 2: 4, 3: 2, 4: 2}
    assert all(v == spread for v in values_by_color.values())
    assert all(v == spread for v in values_by_symbol.values())
    # supply against demand: a level-L tile needs a card of value >= L. The pyramid asks for
    # 30 / 14 / 5 / 1 tiles on levels >= 1 / 2 / 3 / 4; one pass through the deck holds at
    # least twice that many such cards (the rest pay for columns and actions)
    for level, tiles in ((1, 30), (2, 14), (3, 5), (4, 1)):
        supply = sum(c.count for c in play if c.number >= level)
        assert supply >= 2 * tiles, level
    # each symbol: 12 cards for its stack of 5 tiles
    assert all(n / 5 > 2 for n in by_symbol.values())
    # enough columns in the bag for the 14 tiles that rest on columns, even with 15 per colour
    assert 14 * 4 <= 6 * 15


def test_sizes_of_tiles_tokens_standees_and_track(game):
    decks = game.manifest.decks
    tile = decks["tile"].size
    assert (tile.width, tile.height, tile.shape) == (50.0, 50.0, "rect")
    # a 4 x 4 base is 20 cm square; a 16 mm column token fits a 25 mm quarter
    assert 4 * tile.width == 200
    column, marker = decks["column"].size, decks["marker"].size
    assert (column.width, column.height, column.shape) == (16.0, 16.0, "rect")
    assert (marker.width, marker.height, marker.shape) == (16.0, 16.0, "circle")
    assert column.width < tile.width / 2
    builder = decks["builder"].size
    assert builder.width < tile.width / 2, "a builder stands on one quarter of a tile"
    assert decks["builder"].back is None and decks["builder"].crop_marks
    track = decks["track"].size
    for page in ("a4", "letter"):
        # 54 mm a tile with its full bleed: 3 across (4 would need 221 mm), 5 down on A4 (275 of 286 mm)
        # and 4 on Letter (268.4 mm); with 1 mm of bleed kept, 5 down on Letter too
        assert grid(page, tile.width, tile.height, tile.bleed).per_page == (15 if page == "a4" else 12)
        assert grid(page, tile.width, tile.height, tile.bleed, keep=1).per_page == 15
        assert grid(page, column.width, column.height, column.bleed).per_page >= 120  # columns and markers
        assert grid(page, track.width, track.height, track.bleed).per_page >= 5
        assert grid(page, builder.width, builder.height, builder.bleed).per_page >= 6
    # single-sided: tokens, markers, standees and track strips; duplex: cards, tiles, aids
    assert {name for name, d in decks.items() if d.back} == {"card", "tile", "aid"}


def test_a_broken_value_names_row_and_column(data):
    row = find_row(data / "cards.csv", "id", "red-sun")
    set_cell(data / "cards.csv", row, "number", "7")
    assert errors_of(data, [SLUG]) == [f"cards.csv:{row}:number: 7 is out of range; a card takes 1 to 6"]


def test_a_broken_symbol_and_role_are_reported_together(data):
    path = data / "cards.csv"
    tile = find_row(path, "id", "tile-eye")
    card = find_row(path, "id", "blue-lotus")
    set_cell(path, tile, "symbol", "pyramid")
    set_cell(path, card, "role", "bonus")
    assert errors_of(data, [SLUG]) == sorted([
        f"cards.csv:{tile}:symbol: unknown symbol 'pyramid'; known: sun, moon, eye, ankh, lotus, scarab",
        f"cards.csv:{card}:role: unknown role 'bonus'; known: play, track, start, lap",
    ], key=lambda s: int(s.split(":")[1]))


def test_a_column_without_colour_is_an_error(data):
    row = find_row(data / "cards.csv", "id", "column-green")
    set_cell(data / "cards.csv", row, "color", "")
    assert errors_of(data, [SLUG]) == [f"cards.csv:{row}:color: color is empty; a column of golden-pyramid needs one"]


@pytest.fixture(scope="module")
def built(tmp_path_factory, game):
    out = tmp_path_factory.mktemp("out")
    result = build_game(game, BuildOptions(out=out))
    return result, out / SLUG


def test_the_cards_pdf(built):
    result, folder = built
    assert result.components == 253
    reader = pypdf.PdfReader(folder / f"{SLUG}-cards.pdf")
    # cards 86 -> 11 sheets of 8, tiles 30 -> 2 of 15, aids 6 -> 2 of 4, each with its backs page; then the
    # single-sided: 108 columns and 12 markers share one sheet, 6 builders one, 5 track strips one, each with a
    # blank back
    assert len(reader.pages) == 2 * 11 + 2 * 2 + 2 * 2 + 2 * 3 == 36
    footers = [p.extract_text().strip().splitlines()[-1] for p in reader.pages]
    assert "Cards · fronts · page 1/36" in footers[0]
    assert "Cards · backs, flip on long edge · page 2/36" in footers[1]
    assert "Pyramid tiles · fronts · page 23/36" in footers[22]
    assert "Player aids · fronts · page 27/36" in footers[26]
    assert "Column tokens, Score markers · fronts · page 31/36" in footers[30]
    assert "Column tokens, Score markers · back of page 31, blank · page 32/36" in footers[31]
    assert "Builders · fronts · page 33/36" in footers[32]
    assert "Scoring track · fronts · page 35/36" in footers[34]
    first = reader.pages[0].extract_text()
    for name in ("Red Sun 1", "Red Moon 1", "Red Eye 2"):
        assert name in first
    assert "SET ASIDE · SCORING TRACK" in reader.pages[18].extract_text()
    assert "START" in reader.pages[20].extract_text() and "Green start card" in reader.pages[20].extract_text()
    assert "SUN TILE" in reader.pages[22].extract_text()
    assert "Red builder" in reader.pages[32].extract_text()
    # the trim box of a full page of tiles is the grid of 50 mm tiles
    sheet = grid("a4", 50.0, 50.0, 2.0)
    tb = sheet.trim_box
    assert [float(v) for v in reader.pages[22].trimbox] == pytest.approx(
        [tb.x * MM, tb.y * MM, tb.right * MM, tb.top * MM], abs=0.01)
    cards = grid("a4", 63.5, 88.9, 3.0).trim_box
    assert [float(v) for v in reader.pages[0].trimbox] == pytest.approx(
        [cards.x * MM, cards.y * MM, cards.right * MM, cards.top * MM], abs=0.01)


def test_fonts_are_the_embedded_serif(built):
    _, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-cards.pdf")
    fonts = set()
    for page in reader.pages[:1]:
        for xobj in page["/Resources"]["/XObject"].values():
            for f in (xobj.get_object().get("/Resources", {}).get("/Font") or {}).values():
                f = f.get_object()
                assert "/FontFile2" in f["/FontDescriptor"].get_object()
                fonts.add(str(f["/BaseFont"]).split("+")[-1])
    assert "DejaVuSerif-Bold" in fonts


def test_the_reference_pdf(built):
    _, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-reference.pdf")
    text = "\n".join(p.extract_text() for p in reader.pages)
    for phrase in ("What to print", "Setup", "Your turn: one action", "Draw cubes", "Building", "Scoring a tile",
                   "End of the game", "Keeping score", "Assembly", "Card inventory",
                   "Cards: 50 designs, 86 components", "Pyramid tiles: 6 designs, 30 components",
                   "Column tokens: 6 designs, 108 components", "All components: 253"):
        assert phrase in text, phrase
