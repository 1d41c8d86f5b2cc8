"""``pnp export --to tts``: deck sheets and a saved object Tabletop Simulator loads."""

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.build import BuildOptions
from generator.designs import RenderOptions, render_game
from generator.targets import TARGETS
from generator.targets.tts import MAX_SIDE_PX, sheet_grid
from model.sheets import load_project
from pnp.cli import main

from helpers import copy_game

# The structure of a real saved DeckCustom object: ZONT3/tts-deck-generator, tts_deckgen/save_data.py
# (commit be4fb0f), a deck saved by Tabletop Simulator with one CustomDeck entry and a contained card.
# The key names and the type of each value are what the export is compared with.
EXAMPLE_DECK = {"GUID": str, "Name": str, "Transform": dict, "Nickname": str, "Description": str, "GMNotes": str,
                "ColorDiffuse": dict, "LayoutGroupSortIndex": int, "Value": int, "Locked": bool, "Grid": bool,
                "Snap": bool, "IgnoreFoW": bool, "MeasureMovement": bool, "DragSelectable": bool, "Autoraise": bool,
                "Sticky": bool, "Tooltip": bool, "GridProjection": bool, "HideWhenFaceDown": bool, "Hands": bool,
                "SidewaysCard": bool, "DeckIDs": list, "CustomDeck": dict, "LuaScript": str, "LuaScriptState": str,
                "XmlUI": str, "ContainedObjects": list}
EXAMPLE_CARD = {"GUID": str, "Name": str, "Transform": dict, "Nickname": str, "Description": str, "GMNotes": str,
                "ColorDiffuse": dict, "LayoutGroupSortIndex": int, "Value": int, "Locked": bool, "Grid": bool,
                "Snap": bool, "IgnoreFoW": bool, "MeasureMovement": bool, "DragSelectable": bool, "Autoraise": bool,
                "Sticky": bool, "Tooltip": bool, "GridProjection": bool, "Hands": bool, "CardID": int,
                "SidewaysCard": bool, "XmlUI": str, "ContainedObjects": list}
EXAMPLE_ENTRY = {"FaceURL": str, "BackURL": str, "NumWidth": int, "NumHeight": int, "BackIsHidden": bool,
                 "UniqueBack": bool, "Type": int}
TRANSFORM = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}


def export(project_root, slug):
    game = load_project(project_root, [slug]).games[slug]
    rendered = render_game(game, RenderOptions())
    target = TARGETS["tts"]
    options = target.configure(BuildOptions(settings={"tts": {"base_url": "https://example.org/tts",
                                                              "workers": 2}}))
    out = target.make(rendered, options)
    save = json.loads(out.files[Path("tts") / f"{slug}.json"])
    images = {p.name: Image.open(io.BytesIO(d)) for p, d in out.files.items() if p.suffix == ".png"}
    return rendered, save, images


@pytest.fixture(scope="module")
def scheme(project_root):
    return export(project_root, "pyramid-scheme")


@pytest.fixture(scope="module")
def drinking(project_root):
    return export(project_root, "drinking-pyramid")


def _matches(obj: dict, example: dict):
    for key, kind in example.items():
        assert key in obj, f"{obj.get('Name')} has no {key}"
        assert isinstance(obj[key], kind), f"{key}: {type(obj[key]).__name__}, the example has {kind.__name__}"
    assert set(obj["Transform"]) == TRANSFORM
    assert set(obj["ColorDiffuse"]) == {"r", "g", "b"}


def test_a_52_card_deck_is_one_sheet_of_9_by_6_with_the_hidden_card_last(drinking):
    rendered, save, images = drinking
    [deck] = save["ObjectStates"]
    assert deck["Name"] == "DeckCustom"
    assert deck["CustomDeck"] == {"1": {
        "FaceURL": "https://example.org/tts/drinking-pyramid-poker-1-faces.png",
        "BackURL": "https://example.org/tts/drinking-pyramid-poker-1-back.png",
        "NumWidth": 9, "NumHeight": 6, "BackIsHidden": True, "UniqueBack": False, "Type": 0}}
    assert deck["DeckIDs"] == list(range(100, 152))  # sheet 1 x 100 + slot 0..51
    cards = deck["ContainedObjects"]
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    assert [c["Nickname"] for c in cards] == [d.card.name for d in rendered.designs]
    assert cards[0]["GMNotes"] == f"card/{rendered.designs[0].card.id}"
    faces = images["drinking-pyramid-poker-1-faces.png"]
    back = images["drinking-pyramid-poker-1-back.png"]
    assert faces.size[0] <= MAX_SIDE_PX and faces.size[1] <= MAX_SIDE_PX
    cols, rows, cell, _ = sheet_grid(52, 63.5, 88.9, 300)
    assert (cols, rows) == (9, 6) and faces.size == (9 * cell[0], 6 * cell[1]) and back.size == cell
    # the hidden slot (the last, row 6 column 9) shows the back; the slot before it the 52nd card
    hidden = faces.crop((8 * cell[0], 5 * cell[1], 9 * cell[0], 6 * cell[1]))
    assert hidden.tobytes() == back.convert("RGB").tobytes()


def test_a_128_component_game_makes_one_deck_per_size_with_ids_per_copy(scheme):
    rendered, save, images = scheme
    decks = save["ObjectStates"]
    assert [d["Nickname"] for d in decks] == ["Pyramid Scheme · Victims, Police, Founders, Goals",
                                              "Pyramid Scheme · Tokens", "Pyramid Scheme · Player aids"]
    assert sum(len(d["DeckIDs"]) for d in decks) == 128
    poker, tokens, aids = decks
    # 87 poker designs (104 copies): 69 on sheet 1 (10 x 7, the 70th slot hidden), 18 goals on sheet 2
    assert {k: (v["NumWidth"], v["NumHeight"], v["UniqueBack"]) for k, v in poker["CustomDeck"].items()} == {
        "1": (10, 7, True), "2": (5, 4, False)}
    assert len(poker["DeckIDs"]) == 104
    assert poker["DeckIDs"][:3] == [100, 101, 102] and poker["DeckIDs"][-1] == 217
    assert poker["DeckIDs"].count(164) == 18  # the police design (slot 64) has 18 copies
    assert set(poker["DeckIDs"]) == set(range(100, 169)) | set(range(200, 218))
    assert tokens["DeckIDs"] == [300] * 9 + [301] * 4 + [302] * 4 + [303] * 3  # copies as in cards.csv
    assert tokens["CustomDeck"]["3"]["UniqueBack"] is True  # tokens have no back: a sheet of white backs
    assert aids["DeckIDs"] == [400] * 4 and aids["CustomDeck"]["4"]["UniqueBack"] is False
    for name, image in images.items():
        assert max(image.size) <= MAX_SIDE_PX, name
    entry = poker["CustomDeck"]["1"]
    faces = images[Path(entry["FaceURL"]).name]
    backs = images[Path(entry["BackURL"]).name]
    assert faces.size == backs.size
    assert faces.size[0] % 10 == 0 and faces.size[1] % 7 == 0


def test_the_saved_object_has_the_structure_of_a_real_one(scheme, drinking):
    for _, save, _ in (scheme, drinking):
        assert {"SaveName", "ObjectStates"} <= set(save) and isinstance(save["ObjectStates"], list)
        for deck in save["ObjectStates"]:
            _matches(deck, EXAMPLE_DECK)
            for number, entry in deck["CustomDeck"].items():
                assert number.isdigit()
                assert set(entry) == set(EXAMPLE_ENTRY)
                for key, kind in EXAMPLE_ENTRY.items():
                    assert isinstance(entry[key], kind)
                assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
            for card in deck["ContainedObjects"]:
                _matches(card, EXAMPLE_CARD)
                assert card["Name"] == "Card"
                sheet = str(card["CardID"] // 100)
                assert card["CustomDeck"] == {sheet: deck["CustomDeck"][sheet]}
            guids = [deck["GUID"]] + [c["GUID"] for c in deck["ContainedObjects"]]
            assert len(set(guids)) == len(guids) and all(len(g) == 6 for g in guids)


def test_the_command_writes_sheets_and_json_with_file_addresses(tmp_path):
    data = copy_game(tmp_path / "data", "drinking-pyramid")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", "--data", str(data), "--out", str(out), "--to", "tts",
                                       "--dpi", "60"])
    assert result.exit_code == 0, result.output
    folder = out / "drinking-pyramid" / "tts"
    save = json.loads((folder / "drinking-pyramid.json").read_text(encoding="utf-8"))
    face_url = save["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"]
    assert face_url == (folder / "drinking-pyramid-poker-1-faces.png").resolve().as_uri()
    # at 60 dpi a poker card is 150 x 210 px: 9 x 6 of them
    assert Image.open(folder / "drinking-pyramid-poker-1-faces.png").size == (9 * 150, 6 * 210)
