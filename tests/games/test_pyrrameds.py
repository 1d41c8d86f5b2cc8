"""Pyrrameds: the boxes and the deal arithmetic, the deck's spread, messages for a broken
row, and the built PDFs (all boxes and --expansion subsets) read back."""

from collections import Counter
from itertools import combinations

import pypdf
import pytest

from generator.build import BuildOptions, build_game
from generator.sheets.layout import grid
from model.errors import InputErrors
from model.sheets import load_project

from helpers import copy_game, find_row, set_cell

SLUG = "pyrrameds"
MM = 72 / 25.4
BASE_TYPES = ["cardio", "antibiotic", "herbal", "vitamin"]
COMBOS = {  # boxes in play -> the starting row (the rulebook: 6, 8 with Intensive Care)
    ("base",): 6,
    ("base", "operations"): 6,
    ("base", "intensive-care"): 8,
    ("base", "operations", "intensive-care"): 8,
}


@pytest.fixture(scope="module")
def game(project_root):
    return load_project(project_root, [SLUG]).games[SLUG]


def count(cards, **where) -> int:
    return sum(c.count for c in cards if all(getattr(c, k) == v for k, v in where.items()))


def test_box_contents(game):
    per_box = Counter()
    for c in game.cards:
        per_box[(c.expansion, c.deck)] += c.count
    assert dict(per_box) == {
        ("base", "medicine"): 16, ("base", "patient"): 11,
        ("operations", "operation"): 4,
        ("intensive-care", "medicine"): 10, ("intensive-care", "patient"): 7,
    }
    assert set(game.manifest.expansions) == {"base", "operations", "intensive-care"}
    # the rulebook names no counts: no deck claims one
    assert all(d.expected == {} for d in game.manifest.decks.values())
    # mini cards with 3 mm bleed and one shared back, so hands stay hidden
    for deck in game.manifest.decks.values():
        assert (deck.size.width, deck.size.height, deck.size.bleed) == (44.45, 63.5, 3.0)  # 1.75 x 2.5 in
        assert deck.back == "back.svg.j2" and deck.crop_marks
    # Intensive Care cards are unique
    assert all(c.count == 1 for c in game.cards)
    assert len({c.name for c in game.cards}) == len(game.cards)


@pytest.mark.parametrize("boxes, row", COMBOS.items())
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_box_combination_deals_fairly(game, boxes, row, players):
    cards = game.select(set(boxes))
    n = count(cards)
    hand, left = divmod(n - row, players)
    assert left <= 1  # at most one card shown and discarded
    # 2 medicine + 2 patients each before the rest is shuffled
    assert count(cards, deck="medicine") >= 2 * players and count(cards, deck="patient") >= 2 * players
    assert hand >= 4
    # a winner places a whole hand, the others one card fewer at most: the pyramid must hold it
    places = row * (row - 1)  # (row-1) + (row-2) + ... + 1, above and below
    assert players * hand - (players - 1) <= places


def test_the_deal_table(game):
    got = {}
    for boxes, row in COMBOS.items():
        n = count(game.select(set(boxes)))
        got[boxes] = [divmod(n - row, p) for p in (3, 4, 5)]
    assert got == {
        ("base",): [(7, 0), (5, 1), (4, 1)],
        ("base", "operations"): [(8, 1), (6, 1), (5, 0)],
        ("base", "intensive-care"): [(12, 0), (9, 0), (7, 1)],
        ("base", "operations", "intensive-care"): [(13, 1), (10, 0), (8, 0)],
    }


def test_base_medicine_spread(game):
    meds = game.deck("medicine", {"base"})
    assert Counter(c.color for c in meds) == Counter({t: 4 for t in BASE_TYPES})
    assert Counter(c.number for c in meds) == Counter({n: 2 for n in range(1, 9)})
    for t in BASE_TYPES:
        numbers = sorted(c.number for c in meds if c.color == t)
        assert sum(numbers) == 18 and sum(n <= 4 for n in numbers) == 2, t


def test_base_patients_need_every_type_equally(game):
    patients = game.deck("patient", {"base"})
    needs = [tuple(sorted(w for t in c.requires for w in [t.word] * t.count)) for c in patients]
    assert sorted(n for n in needs if len(n) == 1) == sorted((t,) for t in BASE_TYPES)
    assert sorted(n for n in needs if len(n) == 2) == sorted(tuple(sorted(p)) for p in combinations(BASE_TYPES, 2))
    assert [n for n in needs if len(n) > 2] == [tuple(sorted(BASE_TYPES))]
    assert Counter(w for n in needs for w in n) == Counter({t: 5 for t in BASE_TYPES})


def test_wildcards_only_in_intensive_care(game):
    for c in game.cards:
        wild = (c.deck == "medicine" and (c.number is None or c.color == "any")) or \
               (c.deck == "patient" and "any" in c.requires.words())
        uses_serum = c.color == "serum" or "serum" in c.requires.words()
        if wild or uses_serum:
            assert c.expansion == "intensive-care", c.id
    ic = game.deck("medicine", {"intensive-care"})
    assert sum(c.number is None for c in ic) == 3 and sum(c.color == "any" for c in ic) == 2
    assert sorted(c.number for c in ic if c.color == "serum" and c.number) == [1, 3, 5, 7, 9]
    words = sorted(t.word for c in game.deck("operation") for t in c.effect)
    assert words == ["again", "give", "peek", "swap"]


@pytest.mark.parametrize("match, column, value, message", [
    ("p-06", "requires", "cardio + aspirin",
     "unknown word 'aspirin' in 'cardio + aspirin'; known words: antibiotic, any, cardio, herbal, serum, vitamin"),
    ("m-c3", "number", "12", "12 is out of range; a medicine takes 1 to 9"),
    ("m-c3", "color", "red", "unknown colour 'red'; known colours: cardio, antibiotic, herbal, vitamin, serum, any"),
    ("op-referral", "effect", "give", "'give': 'give' takes 1 value(s), got 0; write 'give <int>'"),
    ("op-xray", "expansion", "operation", "unknown expansion 'operation' for pyrrameds; "
                                          "known: base, operations, intensive-care"),
])
def test_a_broken_row_names_row_column_and_what_was_expected(tmp_path, project_root, match, column, value, message):
    data = copy_game(tmp_path, SLUG, project_root)
    row = find_row(data / "cards.csv", "id", match)
    set_cell(data / "cards.csv", row, column, value)
    with pytest.raises(InputErrors) as exc:
        load_project(data, [SLUG])
    assert [str(p) for p in exc.value.problems] == [f"cards.csv:{row}:{column}: {message}"]


def _trim(page):
    return [float(v) / MM for v in page.trimbox]


@pytest.mark.parametrize("boxes, pages", [
    (None, 8),  # medicine 26, patients 18 and operations 4 share sheets of 12: 4 sheets, each with backs
    ({"base"}, 6),  # 27 cards
    ({"base", "operations"}, 6),  # 31
    ({"base", "intensive-care"}, 8),  # 44
])
def test_cards_pdf(game, tmp_path, boxes, pages):
    result = build_game(game, BuildOptions(out=tmp_path, expansions=boxes))
    assert not result.warnings
    reader = pypdf.PdfReader(tmp_path / SLUG / f"{SLUG}-cards.pdf")
    assert len(reader.pages) == pages
    text = " ".join(p.extract_text() for p in reader.pages)
    selected = game.select(boxes)
    for c in selected:
        assert c.name in text.replace("\n", " ") or c.name.split()[0] in text, c.name
    assert ("Transplant" in text) == (boxes is None or "operations" in boxes)
    assert ("Moon Serum" in text) == (boxes is None or "intensive-care" in boxes)
    assert result.components == count(selected)
    t = grid("a4", 44.45, 63.5, 3).trim_box
    assert _trim(reader.pages[0]) == pytest.approx([t.x, t.y, t.right, t.top], abs=0.01)
    # the backs page mirrors the fronts for a long-edge flip: same trim box on a full page
    assert "backs" in reader.pages[1].extract_text()


def test_reference_pdf(game, tmp_path):
    build_game(game, BuildOptions(out=tmp_path))
    reader = pypdf.PdfReader(tmp_path / SLUG / f"{SLUG}-reference.pdf")
    text = " ".join(p.extract_text() for p in reader.pages)
    for phrase in ("PLACE or SWAP", "higher than all", "never travels", "up-left, up-left", "up, then down",
                   "Swap two cards", "Operations", "Intensive Care", "13 each, 1", "All components: 48"):
        assert phrase in text, phrase
    build_game(game, BuildOptions(out=tmp_path / "ops", expansions={"base", "operations"}))
    reader = pypdf.PdfReader(tmp_path / "ops" / SLUG / f"{SLUG}-reference.pdf")
    text = " ".join(p.extract_text() for p in reader.pages)
    assert "All components: 31" in text and "Intensive Care (intensive-care)" not in text
