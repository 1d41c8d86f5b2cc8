"""``pnp export --to tts``: deck sheets and a saved object Tabletop Simulator loads."""

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from generator.build import BuildOptions
from generator.stages.designs import RenderOptions, render_game
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
# A saved Custom_Tile: Esper-lvl4/ZX_TT_Mod, wiki-parser/saved_objects/field.js, a tile saved by Tabletop Simulator
# (its CustomTile types, 0 box, 1 hex, 2 circle, 3 rounded, as in Berserk-Games' knowledge base and typed-tts).
EXAMPLE_TILE = {"GUID": str, "Name": str, "Transform": dict, "Nickname": str, "Description": str, "GMNotes": str,
                "ColorDiffuse": dict, "LayoutGroupSortIndex": int, "Value": int, "Locked": bool, "Grid": bool,
                "Snap": bool, "IgnoreFoW": bool, "MeasureMovement": bool, "DragSelectable": bool, "Autoraise": bool,
                "Sticky": bool, "Tooltip": bool, "GridProjection": bool, "HideWhenFaceDown": bool, "Hands": bool,
                "CustomImage": dict, "LuaScript": str, "LuaScriptState": str, "XmlUI": str}
EXAMPLE_IMAGE = {"ImageURL": str, "ImageSecondaryURL": str, "ImageScalar": float, "WidthScale": float,
                 "CustomTile": dict}
EXAMPLE_CUSTOM_TILE = {"Type": int, "Thickness": float, "Stackable": bool, "Stretch": bool}
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
        "FaceURL": "https://example.org/tts/drinking-pyramid-card-1-faces.png",
        "BackURL": "https://example.org/tts/drinking-pyramid-card-1-back.png",
        "NumWidth": 9, "NumHeight": 6, "BackIsHidden": True, "UniqueBack": False, "Type": 0}}
    assert deck["DeckIDs"] == list(range(100, 152))  # sheet 1 x 100 + slot 0..51
    cards = deck["ContainedObjects"]
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    assert [c["Nickname"] for c in cards] == [d.card.name for d in rendered.designs]
    assert cards[0]["GMNotes"] == f"card/{rendered.designs[0].card.id}"
    faces = images["drinking-pyramid-card-1-faces.png"]
    back = images["drinking-pyramid-card-1-back.png"]
    assert faces.size[0] <= MAX_SIDE_PX and faces.size[1] <= MAX_SIDE_PX
    cols, rows, cell, _ = sheet_grid(52, 63.5, 88.9, 300)
    assert (cols, rows) == (9, 6) and faces.size == (9 * cell[0], 6 * cell[1]) and back.size == cell
    # the hidden slot (the last, row 6 column 9) shows the back; the slot before it the 52nd card
    hidden = faces.crop((8 * cell[0], 5 * cell[1], 9 * cell[0], 6 * cell[1]))
    assert hidden.tobytes() == back.convert("RGB").tobytes()


def test_a_128_component_game_makes_a_deck_per_deck_and_round_tokens_round_tiles(scheme):
    rendered, save, images = scheme
    objects = save["ObjectStates"]
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    tiles = [o for o in objects if o["Name"] == "Custom_Tile"]
    assert len(decks) + len(tiles) == len(objects)
    # one deck per component deck, so that the goals (their own back) do not sit in the victims' deck
    assert [d["Nickname"] for d in decks] == ["Pyramid Scheme · Victims", "Pyramid Scheme · Police",
                                              "Pyramid Scheme · Founders", "Pyramid Scheme · Goals",
                                              "Pyramid Scheme · Player aids"]
    assert sum(len(d["DeckIDs"]) for d in decks) + len(tiles) == 128
    victims, police, founders, goals, aids = decks
    # 64 victims on sheet 1 (10 x 7: 64 designs and the hidden slot; each its own back)
    assert {k: (v["NumWidth"], v["NumHeight"], v["UniqueBack"]) for k, v in victims["CustomDeck"].items()} == {
        "1": (10, 7, True)}
    assert victims["DeckIDs"] == list(range(100, 164))
    assert police["DeckIDs"] == [200] * 18 and police["CustomDeck"]["2"]["UniqueBack"] is False  # one design
    assert founders["DeckIDs"] == [300, 301, 302, 303]
    assert goals["DeckIDs"] == list(range(400, 418)) and goals["CustomDeck"]["4"]["UniqueBack"] is False
    assert aids["DeckIDs"] == [500] * 4
    # 20 tokens, round: a circle tile per copy, copies as in cards.csv, each showing its design's picture
    assert {t["CustomImage"]["CustomTile"]["Type"] for t in tiles} == {2}
    per_design = {}
    for t in tiles:
        per_design.setdefault(t["GMNotes"], []).append(t)
    assert {k: len(v) for k, v in per_design.items()} == {"token/t-reset": 9, "token/t-limit2": 4,
                                                          "token/t-limit3": 4, "token/t-pass": 3}
    reset = per_design["token/t-reset"][0]["CustomImage"]
    assert reset["ImageURL"] == "https://example.org/tts/pyramid-scheme-token-t-reset-tile.png"
    assert reset["ImageSecondaryURL"] == reset["ImageURL"]  # single-sided: the same picture underneath
    picture = images["pyramid-scheme-token-t-reset-tile.png"]
    assert picture.size[0] == picture.size[1] <= 1024
    for name, image in images.items():
        assert max(image.size) <= MAX_SIDE_PX, name
    entry = victims["CustomDeck"]["1"]
    faces = images[Path(entry["FaceURL"]).name]
    backs = images[Path(entry["BackURL"]).name]
    assert faces.size == backs.size
    assert faces.size[0] % 10 == 0 and faces.size[1] % 7 == 0


def test_the_saved_object_has_the_structure_of_a_real_one(scheme, drinking):
    for _, save, _ in (scheme, drinking):
        assert {"SaveName", "ObjectStates"} <= set(save) and isinstance(save["ObjectStates"], list)
        for deck in save["ObjectStates"]:
            if deck["Name"] == "Custom_Tile":
                _matches(deck, EXAMPLE_TILE)
                image = deck["CustomImage"]
                assert set(image) == set(EXAMPLE_IMAGE) and set(image["CustomTile"]) == set(EXAMPLE_CUSTOM_TILE)
                assert all(isinstance(image[k], t) for k, t in EXAMPLE_IMAGE.items())
                assert all(isinstance(image["CustomTile"][k], t) for k, t in EXAMPLE_CUSTOM_TILE.items())
                continue
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
        every = [o["GUID"] for o in save["ObjectStates"]]
        assert len(set(every)) == len(every)


def test_the_command_writes_sheets_and_json_with_file_addresses(tmp_path):
    data = copy_game(tmp_path / "data", "drinking-pyramid")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", "--data", str(data), "--out", str(out), "--to", "tts",
                                       "--dpi", "60"])
    assert result.exit_code == 0, result.output
    folder = out / "drinking-pyramid" / "tts"
    save = json.loads((folder / "drinking-pyramid.json").read_text(encoding="utf-8"))
    face_url = save["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"]
    assert face_url == (folder / "drinking-pyramid-card-1-faces.png").resolve().as_uri()
    # at 60 dpi a poker card is 150 x 210 px: 9 x 6 of them
    assert Image.open(folder / "drinking-pyramid-card-1-faces.png").size == (9 * 150, 6 * 210)
