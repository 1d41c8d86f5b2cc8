"""The render stage: every design of a game rendered once, for every target.

A *design* is one row of a sheet (``count`` copies of it are printed).  Its
front, and its back when the deck has one, go through the deck's template
(Jinja2 -> SVG text) and are read into display lists (``displaylist.py``:
the canvas calls that draw them, and their content-stream program; most SVG
is read straight into one by ``svgfast.py``, the rest by svglib); identical
SVG (a back shared by a whole deck) is read once, and a ``DrawingStore`` is
asked before any reading.  The result is a ``RenderedGame``: the designs in
deck order, their pictures by design key, and the problems found (template
errors, text that does not fit).  Targets (``generator.targets``) turn it
into files; a reportlab Drawing is read by svglib only when a target asks for
one (``Drawings.__getitem__``).

With a ``RenderCache`` store (``cache.py``), a design whose row, deck and
templates are unchanged takes its SVG from the store instead of the
templates, and an SVG whose display list is kept is not read at all: the PDF
writers replay the kept list (``Drawings.picture``).

Large decks render in worker processes: ``RenderJob`` splits the designs that
must be rendered into small parts, the workers take them from the front while
this process takes them from the back, and the parts are joined in order, so
the result is the same as a serial render.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Callable

from model.errors import Problem, Problems
from model.manifest import Manifest, Size
from model.sheets import Card, Game

from .cache import NO_CACHE, Drawing, DrawingStore, RenderedSvg, is_render_cache
from .keys import design_key, game_fingerprint, input_key
from .render import DrawingCache, Renderer
from .rows import Rows, deck_fingerprint, rows_of

#: Designs per part handed to a worker process.
PART_SIZE = 8
#: Up to this many designs rendered at once, the display lists read are kept in
#: memory for the targets as well as in the store (beyond, the targets read them
#: back from the store, so that memory stays flat in large decks).
KEEP_LISTS = 600

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
    rendered: bool = True  # False when its SVG came from the cache unchanged
    notes: list[str] = field(default_factory=list)  # text that had to shrink to fit (not a problem)
    pictures: tuple = ()  # ((name relative to the data folder, digest), ...) of the picture files it places

    @property
    def count(self) -> int:
        """How many copies are printed."""
        return self.card.count

    @property
    def key(self) -> str:
        """The design key of both sides together."""
        return design_key(self.front_svg, self.back_svg)


class Drawings(Mapping):
    """Drawing key -> reportlab Drawing, for the targets.

    ``picture(key)`` gives what the PDF writers draw: the display list read in
    the render stage (or kept by the store), else the drawing.  A Drawing
    itself (``drawings[key]``) is read by svglib the first time it is asked
    for."""

    def __init__(self, store: DrawingStore = NO_CACHE):
        self.store = store
        self.parsed: dict[str, Drawing] = {}
        self.lists: dict[str, object] = {}  # key -> DisplayList
        self.svgs: dict[str, str] = {}

    def add(self, key: str, svg: str, drawing: Drawing | None = None, display_list=None) -> None:
        self.svgs.setdefault(key, svg)
        if drawing is not None:
            self.parsed[key] = drawing
        if display_list is not None:
            self.lists[key] = display_list

    def update(self, other: "Drawings") -> None:
        self.svgs.update(other.svgs)
        self.parsed.update(other.parsed)
        self.lists.update(other.lists)

    def __getitem__(self, key: str) -> Drawing:
        drawing = self.parsed.get(key)
        if drawing is None:
            if key not in self.svgs:
                raise KeyError(key)
            drawing = self.store.get(key) if self.store is not None else None
            if drawing is None:
                problems = Problems()
                drawing = DrawingCache(store=NO_CACHE).get(self.svgs[key], key, problems)[1]
                if drawing is None:
                    raise KeyError(key)
            self.parsed[key] = drawing
        return drawing

    def picture(self, key: str):
        """A display list (``displaylist.DisplayList``) or a Drawing, to draw ``key`` with."""
        found = self.lists.get(key)
        if found is not None:
            return found
        if key in self.parsed:
            return self.parsed[key]
        if is_render_cache(self.store):
            found = self.store.get_list(key)
            if found is not None:
                return found
        if key in self.svgs:  # not kept (a drawing a display list cannot hold, or an evicted entry)
            _, found = DrawingCache(store=self.store).picture(self.svgs[key], key, Problems())
            if found is not None:
                return found
        return self[key]

    @property
    def forms(self):
        """Where PDF form streams of these drawings are kept (``pdf.SheetWriter``), or None."""
        return self.store if hasattr(self.store, "get_form") else None

    def __contains__(self, key) -> bool:
        return key in self.svgs or key in self.parsed

    def __iter__(self):
        return iter(dict.fromkeys([*self.svgs, *self.parsed]))

    def __len__(self) -> int:
        return len(dict.fromkeys([*self.svgs, *self.parsed]))


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
    drawings: Drawings = field(default_factory=Drawings, repr=False)
    problems: list[Problem] = field(default_factory=list)
    store: DrawingStore = field(default=NO_CACHE, repr=False)  # for targets that draw more (reference pictures)
    parsed: int = 0  # SVGs parsed in this build
    rows: Rows | None = field(default=None, repr=False)  # the rows its card templates were given (``rows.py``)

    @property
    def rendered(self) -> list[RenderedDesign]:
        """The designs whose templates ran in this build (not taken from the cache)."""
        return [d for d in self.designs if d.rendered]

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
                   progress: Progress = _no_progress, fingerprint: str | None = None, keep: bool = True,
                   rows: Rows | None = None) -> tuple[list[RenderedDesign], Drawings, list[Problem], int]:
    """Templates -> SVG -> drawings (or display lists) for some designs, in order;
    problems are collected, never raised.  A design whose template failed is left
    out.  Returns the designs, their drawings, the problems and how many SVGs
    were parsed.  ``keep=False`` leaves the display lists the store keeps out of
    memory (large decks).  ``rows``: the game's rows, for the decks whose templates
    read them (``rows.py``)."""
    problems = Problems()
    renderer = None
    cache = DrawingCache(store=store)
    drawings = Drawings(store)
    lists = is_render_cache(store)
    if lists and fingerprint is None:
        fingerprint = game_fingerprint(manifest)
    rendered = []
    for name, card in designs:
        deck = manifest.decks[name]
        first = len(problems.items)
        key = input_key(deck_fingerprint(rows, fingerprint, name), name, card) if lists else None
        kept = _kept(store, key, manifest) if lists else None
        if kept is not None:
            front, back = kept.front, kept.back
            problems.items += kept.warnings
            notes = list(kept.notes)
            used = kept.pictures
        else:
            renderer = renderer or Renderer(manifest, problems, store, fingerprint)
            first_note = len(renderer.notes)
            renderer.take_pictures()
            more = rows.context_for(name) if rows is not None else {}
            front = renderer.svg(deck.front, deck, card, **more)
            back = renderer.svg(deck.back, deck, card, "back", **more) if deck.back else None
            notes = renderer.notes[first_note:]
            used = renderer.take_pictures()
        progress(1)
        if front is None or (deck.back and back is None):
            continue
        where = f"templates/{manifest.slug}/{{}} ({card.id})"
        if kept is not None:
            front_key, back_key = design_key(front), (design_key(back) if back is not None else None)
        else:
            front_key = cache.prepare(front, where.format(deck.front), problems, keep=keep)
            back_key = (cache.prepare(back, where.format(deck.back), problems, keep=keep)
                        if back is not None else None)
        for k, svg in ((front_key, front), (back_key, back)):
            if k is not None:
                drawings.add(k, svg, cache.drawings.get(k), cache.lists.get(k))
        found = problems.items[first:]
        if any(p.is_error for p in found):
            continue
        warnings = list(dict.fromkeys(p for p in found if not p.is_error))  # a side's twin warnings once
        problems.items[first:] = warnings
        if lists and kept is None:
            store.put_svg(key, RenderedSvg(front, back, tuple(warnings), tuple(notes), used))
        rendered.append(RenderedDesign(card, name, deck.size, front, back, front_key, back_key, warnings,
                                       kept is None, notes, used))
    if lists:
        store.flush()
    return rendered, drawings, problems.items, cache.parsed


def _kept(store, key: str, manifest: Manifest) -> RenderedSvg | None:
    """The rendered SVG a store keeps for a design, unless a picture file it places has changed since."""
    kept = store.get_svg(key)
    if kept is not None and kept.pictures:
        from ..art.pictures import current

        if not current(kept.pictures, manifest.data_folder):
            return None
    return kept


def _render_part(manifest: Manifest, designs: list[tuple[str, Card]], store: DrawingStore, fingerprint, keep,
                 rows=None):
    """Worker side of RenderJob."""
    return render_designs(manifest, designs, store, fingerprint=fingerprint, keep=keep, rows=rows)


class RenderJob:
    """The render stage of one game, started.

    With a process pool (or a function that makes one, called only when there
    are at least ``min_parallel`` designs to render), the designs are cut into
    parts of ``PART_SIZE`` and submitted at once, so that the caller can do
    other work (the reference sheet) meanwhile; ``result()`` then renders parts
    in this process too, taking them from the back while the workers take them
    from the front.  Without a pool everything renders in this process on
    ``result()``."""

    def __init__(self, game: Game, options: RenderOptions, content_hash: str, *, store: DrawingStore | None = None,
                 progress: Progress | None = None, pool=None, parts: int = 1, min_parallel: int = 0,
                 rows_from: Game | None = None):
        self.game = game
        self.options = options
        self.content_hash = content_hash
        self.store = store if store is not None else NO_CACHE
        self.progress = progress or _no_progress
        self.designs = game_designs(game, options)
        self.futures = []
        self.chunks: list[list[tuple[str, Card]]] = []
        self.fingerprint = game_fingerprint(game.manifest) if is_render_cache(self.store) else None
        self.keep = len(self.designs) <= KEEP_LISTS
        # the game's rows, for templates that read them (all of them: ``rows_from``, when only some are built)
        self.rows = rows_of(rows_from or game, options.expansions)
        if pool is None or parts <= 1 or not self.designs:
            return
        todo = self.designs
        if self.fingerprint is not None:
            todo = [(n, c) for n, c in self.designs
                    if _kept(self.store, input_key(deck_fingerprint(self.rows, self.fingerprint, n), n, c),
                             game.manifest) is None]
        if len(todo) < max(min_parallel, 2):
            return
        if not hasattr(pool, "submit"):  # a factory: make the pool only when there is work for it
            pool = pool()
        self.chunks = [self.designs[i:i + PART_SIZE] for i in range(0, len(self.designs), PART_SIZE)]
        # parts with nothing to render stay in this process
        missing = {id(card) for _, card in todo}
        self.futures = [pool.submit(_render_part, game.manifest, chunk, self.store, self.fingerprint, self.keep,
                                    self.rows)
                        if any(id(c) in missing for _, c in chunk) else None for chunk in self.chunks]

    def before(self) -> RenderedGame:
        """The game with no designs yet, for targets that need none."""
        return RenderedGame(self.game, self.options, self.content_hash, drawings=Drawings(self.store),
                            store=self.store, rows=self.rows)

    def result(self) -> RenderedGame:
        """The rendered game (problems collected in it, never raised).  Its content hash
        takes in the picture files its designs place."""
        out = self._result()
        used = sorted({p for d in out.designs for p in d.pictures})
        if used:
            import hashlib

            from ..art.pictures import register

            folder = self.game.manifest.data_folder
            for rel, digest in used:
                register(digest, folder / rel)
            h = hashlib.sha256(out.content_hash.encode())
            for rel, digest in used:
                h.update(f"{rel}\0{digest}\0".encode())
            out.content_hash = h.hexdigest()[:10]
        return out

    def _result(self) -> RenderedGame:
        out = self.before()
        if not self.chunks:
            out.designs, out.drawings, out.problems, out.parsed = render_designs(
                self.game.manifest, self.designs, self.store, self.progress, self.fingerprint, self.keep, self.rows)
            return out
        results: list = [None] * len(self.chunks)
        for i in reversed(range(len(self.chunks))):  # take parts the workers have not started
            future = self.futures[i]
            if future is None or future.cancel():
                results[i] = render_designs(self.game.manifest, self.chunks[i], self.store,
                                            fingerprint=self.fingerprint, keep=self.keep, rows=self.rows)
                self.progress(len(self.chunks[i]))
        for i, future in enumerate(self.futures):
            if results[i] is None:
                results[i] = future.result()
                self.progress(len(self.chunks[i]))
        for designs, drawings, problems, parsed in results:
            out.designs += designs
            out.drawings.update(drawings)
            out.problems += problems
            out.parsed += parsed
        out.drawings.store = self.store
        return out


def render_game(game: Game, options: RenderOptions, content_hash: str = "", *, store: DrawingStore | None = None,
                progress: Progress | None = None) -> RenderedGame:
    """Render every design of a game in this process."""
    return RenderJob(game, options, content_hash, store=store, progress=progress).result()
