"""The render stage: every design of a game rendered once, for every target.

A *design* is one row of a sheet (``count`` copies of it are printed).  Its
front, and its back when the deck has one, go through the deck's template
(Jinja2 -> SVG text) and are parsed into reportlab drawings; identical SVG (a
back shared by a whole deck) is parsed once, and a ``DrawingStore`` is asked
before any parsing.  The result is a ``RenderedGame``: the designs in deck
order, the drawings by design key, and the problems found (template errors,
text that does not fit).  Targets (``generator.targets``) turn it into files.

Large decks render in worker processes: ``RenderJob`` splits the designs into
one part per worker and joins the parts in order, so the result is the same
as a serial render.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from model.errors import Problem, Problems
from model.manifest import Manifest, Size
from model.sheets import Card, Game

from .cache import NO_CACHE, Drawing, DrawingStore
from .keys import design_key
from .render import DrawingCache, Renderer

Progress = Callable[[int], None]


def _no_progress(n: int) -> None:
    pass


@dataclass(frozen=True)
class RenderOptions:
    """The build options that change which designs are rendered or how."""

    expansions: frozenset[str] | None = None  # None: every expansion

    @classmethod
    def of(cls, expansions) -> "RenderOptions":
        return cls(None if expansions is None else frozenset(expansions))


@dataclass
class RenderedDesign:
    """One design, rendered: its SVG text per side and the keys of its drawings
    in ``RenderedGame.drawings`` (designs sharing a back share its key)."""

    card: Card
    deck: str  # the deck's name in the manifest
    size: Size
    front_svg: str
    back_svg: str | None
    front_key: str
    back_key: str | None
    warnings: list[Problem] = field(default_factory=list)  # e.g. text cut short, naming the card

    @property
    def count(self) -> int:
        """How many copies are printed."""
        return self.card.count

    @property
    def key(self) -> str:
        """The design key of both sides together."""
        return design_key(self.front_svg, self.back_svg)


@dataclass
class RenderedGame:
    """Every design of a game rendered, in the manifest's deck order.

    ``content_hash`` is the hash printed in footers (it covers the print
    options too).  A target that declares ``needs_designs = False`` may be
    given one made before rendering, with no designs and no drawings."""

    game: Game
    options: RenderOptions
    content_hash: str
    designs: list[RenderedDesign] = field(default_factory=list)
    drawings: dict[str, Drawing] = field(default_factory=dict, repr=False)
    problems: list[Problem] = field(default_factory=list)

    @property
    def manifest(self) -> Manifest:
        return self.game.manifest

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if not p.is_error]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.is_error]

    def decks(self) -> dict[str, list[RenderedDesign]]:
        """Deck name -> its designs, decks in order (decks without designs left out)."""
        out: dict[str, list[RenderedDesign]] = {}
        for design in self.designs:
            out.setdefault(design.deck, []).append(design)
        return out

    def drawing(self, key: str) -> Drawing:
        return self.drawings[key]


def game_designs(game: Game, options: RenderOptions) -> list[tuple[str, Card]]:
    """(deck name, row) of every design to render, decks in the manifest's order."""
    return [(name, card) for name in game.manifest.decks for card in game.deck(name, options.expansions)]


def render_designs(manifest: Manifest, designs: list[tuple[str, Card]], store: DrawingStore = NO_CACHE,
                   progress: Progress = _no_progress) -> tuple[list[RenderedDesign], dict[str, Drawing], list[Problem]]:
    """Templates -> SVG -> drawings for some designs, in order; problems are
    collected, never raised.  A design whose template failed is left out."""
    problems = Problems()
    renderer = Renderer(manifest, problems)
    cache = DrawingCache(store=store)
    rendered = []
    for name, card in designs:
        deck = manifest.decks[name]
        first = len(problems.items)
        front = renderer.svg(deck.front, deck, card)
        back = renderer.svg(deck.back, deck, card, "back") if deck.back else None
        progress(1)
        if front is None or (deck.back and back is None):
            continue
        where = f"templates/{manifest.slug}/{{}} ({card.id})"
        front_key, _ = cache.get(front, where.format(deck.front), problems)
        back_key = cache.get(back, where.format(deck.back), problems)[0] if back is not None else None
        warnings = [p for p in problems.items[first:] if not p.is_error]
        rendered.append(RenderedDesign(card, name, deck.size, front, back, front_key, back_key, warnings))
    return rendered, cache.drawings, problems.items


def _render_part(manifest: Manifest, designs: list[tuple[str, Card]], store: DrawingStore):
    """Worker side of RenderJob."""
    return render_designs(manifest, designs, store)


class RenderJob:
    """The render stage of one game, started.

    With a process pool and ``parts`` > 1 the designs are submitted at once,
    one part per worker, so that the caller can do other work (the reference
    sheet) meanwhile; otherwise they render in this process on ``result()``."""

    def __init__(self, game: Game, options: RenderOptions, content_hash: str, *, store: DrawingStore | None = None,
                 progress: Progress | None = None, pool=None, parts: int = 1):
        self.game = game
        self.options = options
        self.content_hash = content_hash
        self.store = store if store is not None else NO_CACHE
        self.progress = progress or _no_progress
        self.designs = game_designs(game, options)
        self.futures = []
        if pool is not None and parts > 1 and self.designs:
            size = -(-len(self.designs) // parts)
            self.futures = [pool.submit(_render_part, game.manifest, self.designs[i:i + size], self.store)
                            for i in range(0, len(self.designs), size)]

    def before(self) -> RenderedGame:
        """The game with no designs yet, for targets that need none."""
        return RenderedGame(self.game, self.options, self.content_hash)

    def result(self) -> RenderedGame:
        """The rendered game (problems collected in it, never raised)."""
        out = self.before()
        if not self.futures:
            out.designs, out.drawings, out.problems = render_designs(self.game.manifest, self.designs, self.store,
                                                                     self.progress)
            return out
        for future in self.futures:
            designs, drawings, problems = future.result()
            out.designs += designs
            out.drawings.update(drawings)
            out.problems += problems
            self.progress(len(designs))
        return out


def render_game(game: Game, options: RenderOptions, content_hash: str = "", *, store: DrawingStore | None = None,
                progress: Progress | None = None) -> RenderedGame:
    """Render every design of a game in this process."""
    return RenderJob(game, options, content_hash, store=store, progress=progress).result()
