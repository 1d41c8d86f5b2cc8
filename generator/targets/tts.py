"""Target ``tts``: Tabletop Simulator deck sheets, tiles and a saved object, ``tts/``.

Tabletop Simulator builds a custom deck from a *sheet*: one image holding up
to 10 x 7 card faces in a grid, read left to right and top to bottom, whose
last slot is the "hidden" card shown for cards in another player's hand; and
either one back image for the whole sheet or a second sheet of backs in the
same grid (``UniqueBack``).  Sheet images may be at most 4096 pixels on a side.

This target makes one TTS deck per component deck of the game (so decks with
different backs stay apart), filling sheets of at most 69 designs (the 70th
slot holds the hidden card: the sheet's back), each face cut to its trim box
at the resolution that fits the 4096 px limit (at most ``dpi``).  Round
components (``shape = "circle"``) become round tiles instead (``Custom_Tile``
of type circle, one per copy, stackable): a picture of each design's face, and
of its back when it has one.  ``<game>.json`` is a saved object holding them
all: a ``DeckCustom`` per deck (a plain ``Card`` for a deck of one component)
whose ``CustomDeck`` entries name the sheets (``FaceURL``, ``BackURL``,
``NumWidth``, ``NumHeight``, ``BackIsHidden``, ``UniqueBack``) and whose
``DeckIDs`` and contained cards carry ``CardID`` = sheet number x 100 + slot,
one entry per copy; and the tiles.  Card names and descriptions come from the
sheet (``name``; ``text``, else the deck's label).  The structure follows a real
``DeckCustom`` saved object; see docs/printing.md for where it came from.
Copy ``<game>.json`` into Tabletop Simulator's ``Saves/Saved Objects`` folder;
the images are found through ``base_url`` (by default the export folder as a
``file://`` address, so upload them, e.g. with TTS's Cloud Manager, before
sharing the object).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from ..stages.designs import RenderedDesign, RenderedGame
from ..stages.raster import MM_PER_INCH, Shot, centred_shot, rasterise
from .base import TargetOutput
from .cardfiles import safe_name

MAX_COLS, MAX_ROWS = 10, 7
MAX_SIDE_PX = 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot is the hidden card
POKER_WIDTH = 63.5  # TTS's own card is about a poker card: other sizes are scaled against it
DEFAULT_DPI = 300
CARD_TINT = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # TTS's default card tint
TILE_CIRCLE = 2  # CustomTile.Type: 0 box, 1 hex, 2 circle, 3 rounded
TILE_THICKNESS = 0.1  # in-game units (about an inch)
MAX_TILE_PX = 1024  # a round tile's picture, at most this many pixels a side


@dataclass(frozen=True)
class TtsOptions:
    dpi: int = DEFAULT_DPI  # the most a card is rendered at; the 4096 px limit may ask for less
    base_url: str = ""  # where the sheet images will be found; "" -> bare file names
    workers: int = 1


@dataclass
class SheetPlan:
    number: int  # the CustomDeck key, 1, 2, ...
    designs: list[RenderedDesign]
    cols: int
    rows: int
    cell: tuple[int, int]  # pixels of one card
    dpi: float
    single_back: str | None  # the drawing key of the one back all designs share, or None
    uniform: bool  # every design has that same back

    @property
    def hidden_slot(self) -> int:
        return self.cols * self.rows - 1


def sheet_grid(n: int, width: float, height: float, dpi: float) -> tuple[int, int, tuple[int, int], float]:
    """(cols, rows, cell pixels, dpi) for ``n`` cards plus the hidden slot: the
    grid (at most 10 x 7) whose cells are largest within 4096 px a side, at most
    ``dpi``; on a tie, the one with fewer empty slots."""
    best = None
    slots = n + 1
    for cols in range(1, MAX_COLS + 1):
        rows = math.ceil(slots / cols)
        if rows > MAX_ROWS:
            continue
        scale = min(dpi / MM_PER_INCH, MAX_SIDE_PX / (cols * width), MAX_SIDE_PX / (rows * height))
        cell = (max(1, math.floor(width * scale)), max(1, math.floor(height * scale)))
        rank = (cell[0] * cell[1], -(cols * rows))
        if best is None or rank > best[0]:
            best = (rank, cols, rows, cell, scale * MM_PER_INCH)
    if best is None:
        raise ValueError(f"{n} cards do not fit one sheet")
    return best[1], best[2], best[3], best[4]


def _guid(*parts) -> str:
    return hashlib.sha256("\0".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _transform(x: float, scale: float) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


def _object(name: str, guid: str, x: float, scale: float, nickname: str, description: str, gm_notes: str) -> dict:
    """The keys every object of a saved object carries, in the order TTS writes them."""
    return {"GUID": guid, "Name": name, "Transform": _transform(x, scale), "Nickname": nickname,
            "Description": description, "GMNotes": gm_notes, "ColorDiffuse": dict(CARD_TINT),
            "LayoutGroupSortIndex": 0, "Value": 0, "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False,
            "MeasureMovement": False, "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
            "GridProjection": False, "HideWhenFaceDown": True}


class Tts:
    name = "tts"
    needs_designs = True
    folder = "tts"

    def configure(self, build) -> TtsOptions:
        settings = build.settings.get(self.name, {})
        return TtsOptions(int(settings.get("dpi", DEFAULT_DPI)), str(settings.get("base_url", "")),
                          int(settings.get("workers", 1)))

    def plan(self, rendered: RenderedGame, dpi: float) -> list[tuple[str, list[SheetPlan]]]:
        """(deck name, its sheets) per deck of cards (not round tiles), in deck order."""
        out = []
        number = 0
        for deck_name, designs in rendered.decks().items():
            size = designs[0].size
            if size.shape == "circle":
                continue
            sheets = []
            for i in range(0, len(designs), PER_SHEET):
                chunk = designs[i:i + PER_SHEET]
                number += 1
                cols, rows, cell, sheet_dpi = sheet_grid(len(chunk), size.width, size.height, dpi)
                backs = {d.back_key for d in chunk}
                first = next((d.back_key for d in chunk if d.back_key), None)
                sheets.append(SheetPlan(number, chunk, cols, rows, cell, sheet_dpi, first,
                                        len(backs) == 1 and first is not None))
            out.append((deck_name, sheets))
        return out

    def make(self, rendered: RenderedGame, options: TtsOptions) -> TargetOutput:
        import numpy as np

        slug = rendered.game.slug
        plans = self.plan(rendered, options.dpi)
        tiles = {name: designs for name, designs in rendered.decks().items() if designs[0].size.shape == "circle"}
        shots: list[Shot] = []
        for _, sheets in plans:
            for sheet in sheets:
                s = sheet.designs[0].size
                for d in sheet.designs:
                    shots.append(self._shot(d.front_key, s, sheet))
                    if not sheet.uniform:
                        shots.append(self._shot(d.back_key, s, sheet))
                if sheet.single_back:
                    shots.append(self._shot(sheet.single_back, s, sheet))
        tile_shots = [self._tile_shot(key, d.size, options.dpi) for designs in tiles.values() for d in designs
                      for key in (d.front_key, d.back_key) if key]
        drawn = rasterise([s for s in shots if s.key] + tile_shots, rendered.drawings, options.workers, fmt="array")
        pictures = iter(drawn[:len(drawn) - len(tile_shots)])
        tile_pictures = iter(drawn[len(drawn) - len(tile_shots):])
        taken = {id(s): next(pictures) for s in shots if s.key}
        by_shot = iter(taken.get(id(s)) for s in shots)
        files: dict[Path, bytes] = {}
        objects = []
        x = 0.0
        for deck_name, sheets in plans:
            size = sheets[0].designs[0].size
            deck = rendered.manifest.decks[deck_name]
            entries: dict[str, dict] = {}
            cards = []
            deck_ids = []
            for sheet in sheets:
                cw, ch = sheet.cell
                faces = np.full((sheet.rows * ch, sheet.cols * cw, 3), 255, dtype=np.uint8)
                backs = None if sheet.uniform else faces.copy()
                for slot, design in enumerate(sheet.designs):
                    r, c = divmod(slot, sheet.cols)
                    faces[r * ch:(r + 1) * ch, c * cw:(c + 1) * cw] = next(by_shot)
                    if backs is not None:
                        picture = next(by_shot)
                        if picture is not None:
                            backs[r * ch:(r + 1) * ch, c * cw:(c + 1) * cw] = picture
                back_picture = next(by_shot) if sheet.single_back else None
                r, c = divmod(sheet.hidden_slot, sheet.cols)
                if back_picture is not None:  # the hidden card: the sheet's back
                    faces[r * ch:(r + 1) * ch, c * cw:(c + 1) * cw] = back_picture
                stem = f"{safe_name(slug)}-{safe_name(deck_name)}-{sheet.number}"
                face_file = f"{stem}-faces.png"
                back_file = f"{stem}-back.png" if sheet.uniform else f"{stem}-backs.png"
                files[Path(self.folder) / face_file] = _png(faces)
                if sheet.uniform:
                    files[Path(self.folder) / back_file] = _png(back_picture)
                else:
                    if back_picture is not None:
                        backs[r * ch:(r + 1) * ch, c * cw:(c + 1) * cw] = back_picture
                    files[Path(self.folder) / back_file] = _png(backs)
                entry = {"FaceURL": self._url(options, face_file), "BackURL": self._url(options, back_file),
                         "NumWidth": sheet.cols, "NumHeight": sheet.rows, "BackIsHidden": True,
                         "UniqueBack": not sheet.uniform, "Type": 0}
                entries[str(sheet.number)] = entry
                for slot, design in enumerate(sheet.designs):
                    card_id = sheet.number * 100 + slot
                    for copy in range(design.count):
                        card = _object("Card", _guid(slug, design.deck, design.card.id, copy), 0.0,
                                       size.width / POKER_WIDTH, design.card.name,
                                       str(design.card.get("text") or deck.label), f"{design.deck}/{design.card.id}")
                        card.update({"Hands": True, "CardID": card_id, "SidewaysCard": False,
                                     "CustomDeck": {str(sheet.number): entry}, "LuaScript": "", "LuaScriptState": "",
                                     "XmlUI": "", "ContainedObjects": []})
                        cards.append(card)
                        deck_ids.append(card_id)
            nickname = f"{rendered.manifest.title} · {deck.label}"
            if len(cards) == 1:  # TTS has no deck of one card
                single = cards[0]
                single["Transform"]["posX"] = x
                objects.append(single)
            else:
                deck_object = _object("DeckCustom", _guid(slug, deck_name), x, size.width / POKER_WIDTH, nickname,
                                      f"{len(cards)} {deck.label.lower()}, {size.width:g} x {size.height:g} mm", "")
                deck_object.update({"Hands": False, "SidewaysCard": False, "DeckIDs": deck_ids, "CustomDeck": entries,
                                    "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ContainedObjects": cards})
                objects.append(deck_object)
            x += 3.0 * max(1.0, size.width / POKER_WIDTH)
        for deck_name, designs in tiles.items():
            deck = rendered.manifest.decks[deck_name]
            for design in designs:
                face = f"{safe_name(slug)}-{safe_name(deck_name)}-{safe_name(design.card.id)}-tile.png"
                files[Path(self.folder) / face] = _png(next(tile_pictures))
                back = face
                if design.back_key:
                    back = face.replace("-tile.png", "-tile-back.png")
                    files[Path(self.folder) / back] = _png(next(tile_pictures))
                for copy in range(design.count):  # copies stack where they land
                    tile = _object("Custom_Tile", _guid(slug, design.deck, design.card.id, copy), x,
                                   design.size.width / POKER_WIDTH, design.card.name,
                                   str(design.card.get("text") or deck.label), f"{design.deck}/{design.card.id}")
                    tile["Transform"]["posY"] = 1.0 + copy * TILE_THICKNESS * 2
                    tile["ColorDiffuse"] = {"r": 1.0, "g": 1.0, "b": 1.0}
                    tile.update({"Hands": False, "CustomImage": {
                        "ImageURL": self._url(options, face), "ImageSecondaryURL": self._url(options, back),
                        "ImageScalar": 1.0, "WidthScale": 0.0,
                        "CustomTile": {"Type": TILE_CIRCLE, "Thickness": TILE_THICKNESS, "Stackable": True,
                                       "Stretch": True}},
                        "LuaScript": "", "LuaScriptState": "", "XmlUI": ""})
                    objects.append(tile)
                x += 1.5 * max(1.0, design.size.width / POKER_WIDTH)
        save = {"SaveName": rendered.manifest.title, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "",
                "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
                "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
        files[Path(self.folder) / f"{safe_name(slug)}.json"] = (json.dumps(save, indent=2, ensure_ascii=False)
                                                               + "\n").encode("utf-8")
        return TargetOutput(files, [], 0, owns=[Path(self.folder)])

    @staticmethod
    def _tile_shot(key: str, size, dpi: float) -> Shot:
        """A round tile's picture: its trim square, at most MAX_TILE_PX a side."""
        side = min(MAX_TILE_PX, max(1, round(size.width * dpi / MM_PER_INCH)))
        return centred_shot(key, size.full_width, size.full_height, size.bleed, side * MM_PER_INCH / size.width,
                            side, side)

    @staticmethod
    def _shot(key: str | None, size, sheet: SheetPlan) -> Shot:
        cw, ch = sheet.cell
        return centred_shot(key or "", size.full_width, size.full_height, size.bleed, sheet.dpi, cw, ch)

    @staticmethod
    def _url(options: TtsOptions, name: str) -> str:
        return f"{options.base_url.rstrip('/')}/{name}" if options.base_url else name


def _png(pixels) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buffer, "PNG", compress_level=1)
    return buffer.getvalue()
