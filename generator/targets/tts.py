"""Target ``tts``: Tabletop Simulator deck sheets and a saved object, ``tts/``.

Tabletop Simulator builds a custom deck from a *sheet*: one image holding up
to 10 x 7 card faces in a grid, read left to right and top to bottom, whose
last slot is the "hidden" card shown for cards in another player's hand; and
either one back image for the whole sheet or a second sheet of backs in the
same grid (``UniqueBack``).  Sheet images may be at most 4096 pixels on a side.

This target groups a game's designs by component size (one TTS deck per
size), fills sheets of at most 69 designs (the 70th slot holds the hidden
card: the sheet's back), each face cut to its trim box at the resolution that
fits the 4096 px limit (at most ``dpi``), and writes ``<game>.json``: a saved
object holding one ``DeckCustom`` per size, whose ``CustomDeck`` entries name
the sheets (``FaceURL``, ``BackURL``, ``NumWidth``, ``NumHeight``,
``BackIsHidden``, ``UniqueBack``) and whose ``DeckIDs`` and contained cards
carry ``CardID`` = sheet number x 100 + slot, one entry per copy.  Card names
and descriptions come from the sheet (``name``; ``text``, else the deck's
label).  The structure follows a real ``DeckCustom`` saved object; see
docs/printing.md for where it came from.  Copy ``<game>.json`` into Tabletop
Simulator's ``Saves/Saved Objects`` folder; the sheets are found through
``base_url`` (by default the export folder as a ``file://`` address, so
upload them, e.g. with TTS's Cloud Manager, before sharing the object).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path

from ..designs import RenderedDesign, RenderedGame
from ..raster import MM_PER_INCH, Shot, centred_shot, rasterise
from .base import TargetOutput
from .png import safe_name

MAX_COLS, MAX_ROWS = 10, 7
MAX_SIDE_PX = 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last slot is the hidden card
POKER_WIDTH = 63.5  # TTS's own card is about a poker card: other sizes are scaled against it
DEFAULT_DPI = 300
CARD_TINT = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # TTS's default card tint


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
        """(size name, its sheets) per component size, in deck order."""
        groups: dict[tuple, list[RenderedDesign]] = {}
        for design in rendered.designs:
            s = design.size
            groups.setdefault((s.name, s.width, s.height), []).append(design)
        out = []
        number = 0
        for (size_name, width, height), designs in groups.items():
            sheets = []
            for i in range(0, len(designs), PER_SHEET):
                chunk = designs[i:i + PER_SHEET]
                number += 1
                cols, rows, cell, sheet_dpi = sheet_grid(len(chunk), width, height, dpi)
                backs = {d.back_key for d in chunk}
                first = next((d.back_key for d in chunk if d.back_key), None)
                sheets.append(SheetPlan(number, chunk, cols, rows, cell, sheet_dpi, first,
                                        len(backs) == 1 and first is not None))
            out.append((size_name, sheets))
        return out

    def make(self, rendered: RenderedGame, options: TtsOptions) -> TargetOutput:
        import numpy as np

        slug = rendered.game.slug
        plans = self.plan(rendered, options.dpi)
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
        pictures = iter(rasterise([s for s in shots if s.key], rendered.drawings, options.workers, fmt="array"))
        taken = {id(s): next(pictures) for s in shots if s.key}
        by_shot = iter(taken.get(id(s)) for s in shots)
        files: dict[Path, bytes] = {}
        objects = []
        for index, (size_name, sheets) in enumerate(plans):
            size = sheets[0].designs[0].size
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
                stem = f"{safe_name(slug)}-{safe_name(size_name)}-{sheet.number}"
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
                    deck = rendered.manifest.decks[design.deck]
                    for copy in range(design.count):
                        card = _object("Card", _guid(slug, design.deck, design.card.id, copy), 0.0,
                                       size.width / POKER_WIDTH, design.card.name,
                                       str(design.card.get("text") or deck.label), f"{design.deck}/{design.card.id}")
                        card.update({"Hands": True, "CardID": card_id, "SidewaysCard": False,
                                     "CustomDeck": {str(sheet.number): entry}, "LuaScript": "", "LuaScriptState": "",
                                     "XmlUI": "", "ContainedObjects": []})
                        cards.append(card)
                        deck_ids.append(card_id)
            labels = []
            for d in (d for s in sheets for d in s.designs):
                label = rendered.manifest.decks[d.deck].label
                if label not in labels:
                    labels.append(label)
            x = index * 3.0 * max(1.0, size.width / POKER_WIDTH)
            nickname = f"{rendered.manifest.title} · {', '.join(labels)}"
            if len(cards) == 1:  # TTS has no deck of one card
                single = cards[0]
                single["Transform"]["posX"] = x
                objects.append(single)
                continue
            deck_object = _object("DeckCustom", _guid(slug, size_name), x, size.width / POKER_WIDTH, nickname,
                                  f"{len(cards)} components of {size.width:g} x {size.height:g} mm ({size_name})", "")
            deck_object.update({"Hands": False, "SidewaysCard": False, "DeckIDs": deck_ids, "CustomDeck": entries,
                                "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ContainedObjects": cards})
            objects.append(deck_object)
        save = {"SaveName": rendered.manifest.title, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "",
                "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
                "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
        files[Path(self.folder) / f"{safe_name(slug)}.json"] = (json.dumps(save, indent=2, ensure_ascii=False)
                                                               + "\n").encode("utf-8")
        return TargetOutput(files, [], 0, owns=[Path(self.folder)])

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
