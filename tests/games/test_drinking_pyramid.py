"""Pyramid, the drinking card game: a standard 52-card deck with a question on every
card, messages for a broken row, and the built PDFs read back."""

from collections import Counter

import pypdf
import pytest

from generator.build import BuildOptions, build_game
from generator.sheets.layout import grid
from model.sheets import load_project

from helpers import errors_of, find_row, set_cell

SLUG = "drinking-pyramid"
MM = 72 / 25.4
SUITS = {"hearts": "red", "diamonds": "red", "clubs": "black", "spades": "black"}
ROYAL = {1, 11, 12, 13}  # the rulebook's royal cards: J, Q, K and A


@pytest.fixture(scope="module")
def game(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


def test_a_standard_deck_of_52(game):
    cards = game.deck("card")
    assert sum(c.count for c in cards) == 52 == game.manifest.expected("card")
    assert all(c.count == 1 for c in cards)
    assert sorted((c.symbol, c.number) for c in cards) == sorted((s, n) for s in SUITS for n in range(1, 14))
    # red suits are red, black suits black
    assert all(c.color == SUITS[c.symbol] for c in cards)
    assert sum(1 for c in cards if c.number in ROYAL) == 16


def test_the_deck_covers_the_pyramid_and_every_hand(game):
    # a 21-card pyramid plus 4 cards each (3 with 8 or more players) for 2 to 10 players
    deck = sum(c.count for c in game.deck("card"))
    for players in range(2, 11):
        assert 21 + players * (4 if players < 8 else 3) <= deck, players


def test_every_card_asks_its_own_question(game):
    questions = [c.text for c in game.deck("card")]
    assert all(q.strip() for q in questions)
    assert len(set(questions)) == 52
    assert all(len(q) <= 110 for q in questions)
    # a question is a question, or an invitation ("Tell...", "Describe...", "Give...", "Do...", "Pitch...")
    assert all(q.endswith("?") or q.endswith(".") for q in questions)


def test_names_follow_rank_and_suit(game):
    by_id = {c.id: c for c in game.deck("card")}
    assert by_id["AH"].name == "Ace of Hearts" and by_id["AH"].number == 1
    assert by_id["10D"].name == "Ten of Diamonds"
    assert by_id["QS"].name == "Queen of Spades" and by_id["QS"].number == 12
    assert by_id["KC"].name == "King of Clubs" and by_id["KC"].number == 13
    assert Counter(c.id[-1] for c in by_id.values()) == Counter({"H": 13, "D": 13, "C": 13, "S": 13})


def test_a_rank_out_of_range_names_row_and_column(data):
    row = find_row(data / "cards.csv", "id", "KS")
    set_cell(data / "cards.csv", row, "number", "14")
    assert errors_of(data, [SLUG]) == [f"cards.csv:{row}:number: 14 is out of range; a card takes 1 to 13"]


def test_a_bad_suit_and_a_missing_question_are_reported_together(data):
    path = data / "cards.csv"
    suit = find_row(path, "id", "7C")
    question = find_row(path, "id", "2D")
    set_cell(path, suit, "symbol", "stars")
    set_cell(path, question, "text", "")
    assert errors_of(data, [SLUG]) == sorted([
        f"cards.csv:{suit}:symbol: unknown symbol 'stars'; known: hearts, diamonds, clubs, spades",
        f"cards.csv:{question}:text: text is empty; a card of drinking-pyramid needs one",
    ], key=lambda s: int(s.split(":")[1]))


def test_a_question_too_long_for_the_card(data):
    row = find_row(data / "cards.csv", "id", "AS")
    set_cell(data / "cards.csv", row, "text", "Why? " * 30)
    assert errors_of(data, [SLUG]) == [f"cards.csv:{row}:text: text is 149 characters long; at most 110 fit"]


@pytest.fixture(scope="module")
def built(tmp_path_factory, game):
    out = tmp_path_factory.mktemp("out")
    result = build_game(game, BuildOptions(out=out))
    return result, out / SLUG


def test_the_cards_pdf(built):
    result, folder = built
    assert result.components == 52
    reader = pypdf.PdfReader(folder / f"{SLUG}-cards.pdf")
    # 52 cards, 8 to a sheet with their full bleed (2 x 4, turned): 7 sheets, each followed by its backs
    assert len(reader.pages) == 14
    footers = [p.extract_text().strip().splitlines()[-1] for p in reader.pages]
    assert "Cards · fronts · page 1/14" in footers[0]
    assert "Cards · backs, flip on long edge · page 14/14" in footers[13]
    first = reader.pages[0].extract_text()
    for name in ("Two of Hearts", "Eight of Hearts", "ROYAL · ACE OF HEARTS", "Which song always gets"):
        assert name in first, name
    assert "PYRAMID" in reader.pages[1].extract_text()
    sheet = grid("a4", 63.5, 88.9, 3.0)
    tb = sheet.trim_box
    for page in (reader.pages[0], reader.pages[1]):
        assert [float(v) for v in page.trimbox] == pytest.approx([tb.x * MM, tb.y * MM, tb.right * MM, tb.top * MM],
                                                                 abs=0.01)


def test_the_reference_pdf(built):
    _, folder = built
    reader = pypdf.PdfReader(folder / f"{SLUG}-reference.pdf")
    text = "\n".join(p.extract_text() for p in reader.pages)
    for phrase in ("Drink sensibly", "The pyramid", "6-row", "1 drink", "top card", "10 drinks", "Setup",
                   "Exploring the pyramid", "royal card", "The questions", "Card inventory",
                   "Cards: 52 designs, 52 components"):
        assert phrase in text, phrase


def test_letter_paper_has_the_same_pages(tmp_path, game):
    result = build_game(game, BuildOptions(page="letter", out=tmp_path), reference=False)
    reader = pypdf.PdfReader(result.files[0])
    # Letter holds 2 x 3 cards turned with their full bleed: 52 cards -> 9 sheets, fronts and backs
    assert len(reader.pages) == 18
    edge = build_game(game, BuildOptions(page="letter", out=tmp_path / "edge", printer_margin=0), reference=False)
    assert len(pypdf.PdfReader(edge.files[0]).pages) == 18  # 3 x 2 upright: 3 rows need 289.7 mm of 276.4
    less = build_game(game, BuildOptions(page="letter", out=tmp_path / "less", bleed=1), reference=False)
    assert len(pypdf.PdfReader(less.files[0]).pages) == 14  # with 1 mm of bleed kept: 2 x 4, turned
    assert float(reader.pages[0].mediabox.width) == pytest.approx(215.9 * MM, abs=0.01)
