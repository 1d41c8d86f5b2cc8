"""The game's rows for card templates: ``cards`` and ``decks``, read-only.

A card template may list the game's components (a player aid naming the card
types, a summary card counting a deck), as the reference template does: it sees
``cards`` (every row of the game, in the sheet's order, within the expansions
built) and ``decks`` (deck name -> its rows).  The sandbox lets a template
change nothing it is given.

The per-design cache keys a design by its own row (``keys.input_key``); a
design whose template reads the rows depends on all of them, so its key takes
in a digest of every row (``Rows.fingerprint``), and an edit to any row renders
it again.  Which decks read them is found from the templates' text (the names
``cards`` or ``decks`` inside ``{{ }}`` or ``{% %}``): the deck's own front and
back, or every deck when a template they may share (a macro file, a base) names
them.  Decks that do not read them keep their per-row keys, so ``pnp watch``
renders only the row that changed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from model.sheets import Game

from .keys import folder_files

_BLOCK = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", re.S)
_NAME = re.compile(r"(?<![.\w])(?:cards|decks)\b")


def _reads(text: str) -> bool:
    """Whether a template's text names ``cards`` or ``decks`` in its code (not in strings, not as an attribute)."""
    return any(_NAME.search(_STRING.sub("", block)) for block in _BLOCK.findall(text))


def reading_decks(manifest) -> frozenset[str]:
    """The decks whose templates read the game's rows."""
    folder = manifest.folder
    own = {name: {deck.front, deck.back} - {None} for name, deck in manifest.decks.items()}
    mine = set().union(*own.values()) | {manifest.reference}
    texts = {}
    for path in folder_files(folder, "*.j2"):
        texts[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8", errors="replace")
    if any(_reads(text) for name, text in texts.items() if name not in mine):
        return frozenset(manifest.decks)  # a shared template names them: any deck may read them
    return frozenset(name for name, files in own.items() if any(_reads(texts.get(f, "")) for f in files))


@dataclass(frozen=True)
class Rows:
    """The rows card templates see, and which decks read them."""

    decks: frozenset[str]
    cards: list = field(repr=False)
    by_deck: dict = field(repr=False)
    digest: str = ""

    def context(self) -> dict:
        """What a card template of a reading deck is given besides its own row."""
        return {"cards": self.cards, "decks": self.by_deck}

    def context_for(self, deck: str) -> dict:
        """What a card template of ``deck`` is given besides its own row: nothing for a deck that does not read rows."""
        return self.context() if deck in self.decks else {}

    def fingerprint(self, fingerprint: str | None, deck: str) -> str | None:
        """The game fingerprint a design's key is made from: with every row in it, for a reading deck."""
        if fingerprint is None or deck not in self.decks:
            return fingerprint
        return hashlib.sha256(f"{fingerprint}\0rows\0{self.digest}".encode()).hexdigest()


def deck_fingerprint(rows: Rows | None, fingerprint: str | None, deck: str) -> str | None:
    """The game fingerprint the keys of ``deck``'s designs are made from (``Rows.fingerprint``; the
    game's own when no template reads rows)."""
    return fingerprint if rows is None else rows.fingerprint(fingerprint, deck)


def game_rows(game: Game, expansions) -> dict:
    """What a template that lists the game's rows is given: ``cards`` (every row within the
    expansions, in the sheet's order) and ``decks`` (deck name -> its rows)."""
    return {"cards": game.select(expansions),
            "decks": {name: game.deck(name, expansions) for name in game.manifest.decks}}


def rows_of(game: Game, expansions) -> Rows | None:
    """The rows of a game for its card templates, or None when no deck's template reads them."""
    decks = reading_decks(game.manifest)
    if not decks:
        return None
    rows = game_rows(game, expansions)
    digest = hashlib.sha256("\0".join(repr(c) for c in rows["cards"]).encode("utf-8")).hexdigest()
    return Rows(decks, rows["cards"], rows["decks"], digest)
