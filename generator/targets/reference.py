"""Target ``reference``: the game's reference sheet, ``<game>-reference.pdf``.

Built by ``generator/stages/reference.py`` from the game's ``reference.xml.j2`` (or
the card inventory alone): it reads only the game, the expansions and the
content hash, rendering its own pictures of cards, so it may be made while the
designs render (in another process); made after them, it draws its pictures
of cards from the display lists they left.  ``generator/stages/reference.py`` (and
with it reportlab's platypus) is imported when a reference is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from model.errors import Problems

from .base import TargetOutput


@dataclass(frozen=True)
class ReferenceOptions:
    page: str = "a4"


class Reference:
    name = "reference"
    needs_designs = False

    def configure(self, build) -> ReferenceOptions:
        return ReferenceOptions(build.page)

    def make(self, rendered, options: ReferenceOptions) -> TargetOutput:
        from ..stages.reference import build_reference
        from ..stages.render import DrawingCache

        problems = Problems()
        expansions = rendered.options.expansions
        cache = DrawingCache(store=rendered.store, lists=dict(rendered.drawings.lists))
        data, pages = build_reference(rendered.game, None if expansions is None else set(expansions), options.page,
                                      problems, cache, rendered.content_hash)
        files = {} if data is None else {Path(f"{rendered.game.slug}-reference.pdf"): data}
        return TargetOutput(files, problems.items, pages)
